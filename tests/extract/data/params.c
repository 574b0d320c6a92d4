/* params.c: kernel parameters a tagged loop uses or not (the native run
 * needs a value only for those it uses).  Also the main job's test of
 * --sym (tests/cli/test_bench.c). */
#define N 16
int a[N], b[N];

/* c scales the first loop only; the second needs no value for it. */
__attribute__((noinline)) void kernel(int c)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: scaled
        a[i] = b[i] * c;
    }
    for (int i = 0; i < N; i++) { //DFGLOOP: plain
        b[i] = a[i] + 1;
    }
}

/* m bounds the loop around the tagged one: it is used. */
__attribute__((noinline)) void nest(int m)
{
    for (int j = 0; j < m; j++)
        for (int i = 0; i < N; i++) { //DFGLOOP: inner
            a[i] = j;
        }
}
