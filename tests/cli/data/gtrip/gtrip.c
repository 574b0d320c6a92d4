/* A trip count read from a global (tests/cli/test_tile.c): no --sym can
 * give it, since the native run reads the global's memory.  In gtrip2 a
 * store through q may change n, so the loop reads n in every iteration. */
int a[64], b[64];
int n = 32;
int *q = a;

__attribute__((noinline)) void gtrip(void)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: gtrip
        a[i] = b[i] + 1;
    }
}

__attribute__((noinline)) void gtrip2(void)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: gtrip2
        q[i] = b[i] + 1;
    }
}

int main(void)
{
    gtrip();
    gtrip2();
    return a[0];
}
