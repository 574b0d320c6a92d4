/* The tutorial's kernel (docs/tutorial.md): c = 3a + b, element-wise. */
#define N 256
int a[N], b[N], c[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: madd
        c[i] = 3 * a[i] + b[i];
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) { a[i] = i - 7; b[i] = 5 * i; }
    kernel();
    return 0;
}
