/* axpy.c: n = 4096 (--sym n=4096) needs several tiles; c is used by the
 * loop: without --sym c=V the native run passes the default, 16. */
#define N 4096
int a[N], b[N];

__attribute__((noinline)) void axpy(int n, int c)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: axpy
        a[i] += c * b[i];
    }
}
