/* vadd.c: a trip count that is a kernel parameter: tiling and the native
 * run need its value (--sym n=VALUE). */
#define N 1024
int a[N], b[N];

__attribute__((noinline)) void vadd(int n)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: vadd
        a[i] += b[i];
    }
}
