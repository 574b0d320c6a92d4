/* gemv: y += A x with A 64x64 (16896 bytes in all).  CFLAGS keep y[i] in
 * memory across the tagged j loop, so the nest covers every array. */
#define M 64
#define N 64
int A[M][N], x[N], y[M];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) { //DFGLOOP: gemv
            y[i] += A[i][j] * x[j];
        }
}

int main(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) A[i][j] = i * j - 5;
    for (int j = 0; j < N; j++) x[j] = j + 1;
    kernel();
    return 0;
}
