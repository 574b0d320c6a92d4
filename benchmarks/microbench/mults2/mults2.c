/* mults2: products of three arrays into two outputs. */
#define N 64
int a[N], b[N], c[N], d[N], e[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: mults2
        d[i] = a[i] * b[i];
        e[i] = b[i] * c[i] * a[i];
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) { a[i] = i; b[i] = 5 - i; c[i] = 2 * i; }
    kernel();
    return 0;
}
