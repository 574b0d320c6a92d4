/* mac2: two independent multiply-accumulates in one loop. */
#define N 64
int a[N], b[N], c[N];
int r1, r2;

__attribute__((noinline)) void kernel(void)
{
    int s1 = 0, s2 = 0;
    for (int i = 0; i < N; i++) { //DFGLOOP: mac2
        s1 += a[i] * b[i];
        s2 += b[i] * c[i];
    }
    r1 = s1;
    r2 = s2;
}

int main(void)
{
    for (int i = 0; i < N; i++) { a[i] = i; b[i] = 2 - i; c[i] = i * i; }
    kernel();
    return 0;
}
