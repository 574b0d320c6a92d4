/* vsum: a CGRA-ME style benchmark: its tag in mixed case as CGRA-ME writes,
 * its name the default LOOP_TAGS of ../../rules.mk. */
#define N 64
int a[N];
int result;

__attribute__((noinline)) int kernel(void)
{
    int s = 0;
    for (int i = 0; i < N; i++) { //DFGLoop: loop
        s += a[i];
    }
    return s;
}

int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i * 3 - 7;
    result = kernel();
    return result == 0 ? 1 : 0;
}
