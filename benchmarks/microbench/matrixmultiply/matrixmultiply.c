/* matrixmultiply: C = A * B with a fresh accumulator per (i, j); the
 * innermost k loop is tagged. */
#define N 6
int A[N][N], B[N][N], C[N][N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < N; k++) { //DFGLOOP: matrixmultiply
                s += A[i][k] * B[k][j];
            }
            C[i][j] = s;
        }
    }
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) { A[i][j] = i + 2 * j; B[i][j] = i - j; }
    kernel();
    return 0;
}
