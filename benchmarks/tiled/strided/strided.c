/* strided: loads and stores that touch every second or third element.
 * x is read at odd elements, y updated at every third, w written at even
 * elements only (2048 iterations, 24 KiB touched of 56 KiB).  The tiler's
 * view of each array keeps only the touched elements: the holes are
 * neither buffered nor moved, w is not read in, and the holes keep their
 * values. */
#define N 2048
int x[2 * N], y[3 * N + 2], w[2 * N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: strided
        int v = x[2 * i + 1];
        y[3 * i + 1] = y[3 * i + 1] + 3 * v;
        w[2 * i] = v - i;
    }
}

int main(void)
{
    for (int i = 0; i < 2 * N; i++) x[i] = i * 7;
    kernel();
    return 0;
}
