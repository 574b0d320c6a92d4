/* axpy.c: n = 4096 (--sym n=4096) needs several tiles; c is used by the
 * loop, so without its value the tiled run's reference cannot start. */
#define N 4096
int a[N], b[N];

__attribute__((noinline)) void axpy(int n, int c)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: axpy
        a[i] += c * b[i];
    }
}
