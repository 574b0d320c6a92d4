/* simple: element-wise a[i] = b[i] + c[i] * 2. */
#define N 64
int a[N], b[N], c[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: simple
        a[i] = b[i] + c[i] * 2;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) { b[i] = i; c[i] = 64 - i; }
    kernel();
    return 0;
}
