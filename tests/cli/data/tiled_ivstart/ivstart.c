/* ivstart: like tiled_bad/rowscale, but the value loaded before the tagged
 * loop starts an induction variable (x = s[i], then x += 3): its start
 * varies with i and is not affine in it, so no run of a tile can be given
 * it, and the plan gets no tile DFG (tests/cli/test_bench_tiled.c). */
#define M 48
#define N 96
int A[M][N], B[M][N], s[M];

__attribute__((noinline)) void ivstart(void)
{
    for (int i = 0; i < M; i++) {
        int x = s[i];
        for (int j = 0; j < N; j++) { //DFGLOOP: ivstart
            B[i][j] = A[i][j] + x;
            x += 3;
        }
    }
}

int main(void)
{
    ivstart();
    return B[0][0];
}
