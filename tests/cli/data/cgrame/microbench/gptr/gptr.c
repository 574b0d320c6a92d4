/* gptr: the kernel reads through a global pointer, as 8 of CGRA-ME's 14
 * benchmarks do; main() would point it at buf, but the native run calls
 * the kernel alone: cgramap points it at a seeded buffer of its own. */
#define N 32
int buf[N];
int *p;
int result;

__attribute__((noinline)) int kernel(void)
{
    int s = 0;
    for (int i = 0; i < N; i++) { //DFGLoop: loop
        s += p[i];
    }
    return s;
}

int main(void)
{
    p = buf;
    result = kernel();
    return 0;
}
