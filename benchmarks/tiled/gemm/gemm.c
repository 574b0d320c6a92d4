/* gemm: C += A * B on 40x40 ints (19200 bytes: more than the default 16 KiB
 * tile memory).  Every access is in the tagged k loop: the Makefile's
 * CFLAGS keep clang from holding C[i][j] in a register across it, so the
 * loop nest covers all three arrays and the tiler sees the whole kernel. */
#define N 40
int A[N][N], B[N][N], C[N][N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++) { //DFGLOOP: gemm
                C[i][j] += A[i][k] * B[k][j];
            }
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = i + j;
            B[i][j] = i - j;
            C[i][j] = 1;
        }
    kernel();
    return 0;
}
