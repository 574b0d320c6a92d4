/* A trip count read from a global (tests/cli/test_tile.c): no --sym can
 * give it, since the native run reads the global's memory. */
int a[64], b[64];
int n = 32;

__attribute__((noinline)) void gtrip(void)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: gtrip
        a[i] = b[i] + 1;
    }
}

int main(void)
{
    gtrip();
    return a[0];
}
