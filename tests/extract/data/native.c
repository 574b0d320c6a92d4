/* native.c: kernels the native run must handle (tests/extract/test_extract.c):
 * a null global pointer, a trip count read through one (as CGRA-ME's
 * kernels do), an array on the stack, one of variable size (no place in
 * the layout), a loop clang folds away. */
#define N 32
int buf[2 * N]; /* the largest global: p's target */
int *p;
int out[N];
volatile int *count; /* read only as *count: a buffer holding 16 */

__attribute__((noinline)) int through(void)
{
    int s = 0;
    for (int i = 0; i < N; i++) { //DFGLOOP: through
        s += p[i];
    }
    return s;
}

__attribute__((noinline)) int counted(void)
{
    int s = 0, n = *count;
    for (int i = 0; i < n; i++) { //DFGLOOP: counted
        s += p[i] ^ i;
    }
    return s;
}

__attribute__((noinline)) void stacked(void)
{
    int t[N];
    for (int i = 0; i < N; i++)
        t[i] = out[i] * 3;
    for (int i = 0; i < N; i++) { //DFGLOOP: stacked
        out[i] = t[i] + 1;
    }
}

__attribute__((noinline)) void sized(int n)
{
    int t[n];
    for (int i = 0; i < n; i++)
        t[i] = out[i] * 3;
    for (int i = 0; i < n; i++) { //DFGLOOP: sized
        out[i] = t[i] + 1;
    }
}

__attribute__((noinline)) int folded(void)
{
    int s = 0;
    for (int i = 0; i < 100; i++) { //DFGLOOP: folded
        s += i;
    }
    return s;
}
