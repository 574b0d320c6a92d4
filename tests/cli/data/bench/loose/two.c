/* Two tagged loops in a file without a Makefile: one maps, one cannot be
 * extracted (a call in the body).  The second must not stop the first. */
#define N 16
int a[N], b[N];

__attribute__((noinline)) int ext(int x);

__attribute__((noinline)) void scale(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: scale
        b[i] = a[i] * 3 + 1;
    }
}

__attribute__((noinline)) void calls(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: calls
        b[i] = ext(a[i]);
    }
}

__attribute__((noinline)) int ext(int x) { return x ^ 5; }

int main(void)
{
    scale();
    calls();
    return b[0];
}
