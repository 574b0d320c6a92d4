/* mac: multiply-accumulate of two int arrays. */
#define N 64
int a[N], b[N];
int result;

__attribute__((noinline)) int kernel(void)
{
    int s = 0;
    for (int i = 0; i < N; i++) { //DFGLOOP: mac
        s += a[i] * b[i];
    }
    return s;
}

int main(void)
{
    for (int i = 0; i < N; i++) { a[i] = i - 5; b[i] = 2 * i + 1; }
    result = kernel();
    return 0;
}
