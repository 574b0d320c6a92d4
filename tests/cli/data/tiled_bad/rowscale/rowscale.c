/* rowscale: B[i][j] = A[i][j] * s[i] on 48x96 ints (36 KiB, more than the
 * default 16 KiB tile memory).  s[i] is loaded before the tagged loop, so
 * it enters the loop as a live-in that is neither affine in the outer
 * counter nor the same in every execution: a tiled run that gave every
 * inner-loop run the first execution's value would compute wrong rows, so
 * the plan gets no tile DFG and the loop is mapped whole, with a warning
 * (test_bench_tiled). */
#define M 48
#define N 96
int A[M][N], B[M][N], s[M];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < M; i++) {
        int c = s[i];
        for (int j = 0; j < N; j++) { //DFGLOOP: rowscale
            B[i][j] = A[i][j] * c;
        }
    }
}

int main(void)
{
    kernel();
    return 0;
}
