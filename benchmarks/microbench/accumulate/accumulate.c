/* accumulate: running prefix sum written back to memory. */
#define N 64
int a[N], out[N];

__attribute__((noinline)) void kernel(void)
{
    int s = 0;
    for (int i = 0; i < N; i++) { //DFGLOOP: accumulate
        s += a[i];
        out[i] = s;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i - 30;
    kernel();
    return 0;
}
