/* mults1: chain of multiplications on one element. */
#define N 64
int a[N], b[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: mults1
        int v = a[i];
        b[i] = v * v * 3 * (v + 1);
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i - 20;
    kernel();
    return 0;
}
