/* gemm_block: C += A * B with a 4x4 register block of C (16 accumulators,
 * recurrences of the tagged k loop, read before it and written after it)
 * and the k loop unrolled by 4 by hand: each iteration loads 4x4
 * elements of A and 4x4 of B and does 64 multiply-adds. */
#define M 16
#define N 16
#define K 32
int A[M][K], B[K][N], C[M][N];

/* one k step: a column of A's block times a row of B's */
#define ROW(r, kk)                                                          \
    c##r##0 += A[i + r][kk] * B[kk][j];                                     \
    c##r##1 += A[i + r][kk] * B[kk][j + 1];                                 \
    c##r##2 += A[i + r][kk] * B[kk][j + 2];                                 \
    c##r##3 += A[i + r][kk] * B[kk][j + 3];
#define KSTEP(kk) ROW(0, kk) ROW(1, kk) ROW(2, kk) ROW(3, kk)
#define LOADROW(r)                                                          \
    int c##r##0 = C[i + r][j], c##r##1 = C[i + r][j + 1],                   \
        c##r##2 = C[i + r][j + 2], c##r##3 = C[i + r][j + 3];
#define STOREROW(r)                                                         \
    C[i + r][j] = c##r##0; C[i + r][j + 1] = c##r##1;                       \
    C[i + r][j + 2] = c##r##2; C[i + r][j + 3] = c##r##3;

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < M; i += 4) {
        for (int j = 0; j < N; j += 4) {
            LOADROW(0) LOADROW(1) LOADROW(2) LOADROW(3)
            for (int k = 0; k < K; k += 4) { //DFGLOOP: gemm_block
                KSTEP(k) KSTEP(k + 1) KSTEP(k + 2) KSTEP(k + 3)
            }
            STOREROW(0) STOREROW(1) STOREROW(2) STOREROW(3)
        }
    }
}

int main(void)
{
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) A[i][k] = (i * 3 + k) % 17 - 8;
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) B[k][j] = (k * 5 - j) % 13;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) C[i][j] = i - j;
    kernel();
    return 0;
}
