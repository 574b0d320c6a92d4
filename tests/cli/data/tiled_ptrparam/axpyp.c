/* axpyp.c: axpy over 4096 ints (several tiles) in a kernel that also takes
 * a pointer, which the native run cannot pass (a kernel's parameters must
 * be integers), so the tiled run's reference cannot start. */
#define N 4096
int a[N], b[N];

__attribute__((noinline)) void axpyp(int *unused)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: axpyp
        a[i] += 3 * b[i];
    }
}
