/* A loop for tests/flow/test_flow.c whose accesses leave their arrays when
 * n is above 16 (--sym n=20): undefined behaviour in C, so a difference
 * from its native run blames the C code, not cgramap. */
#define N 16
int a[N], b[N];

__attribute__((noinline)) void outside(int n)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: outside
        a[i] = b[i] + 1;
    }
}

int main(void)
{
    outside(N);
    return a[0];
}
