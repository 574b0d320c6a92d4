/* jacobi2d: one 5-point Jacobi sweep over a 50x50 grid (20000 bytes);
 * tiles read a halo of one row and column around their box of A. */
#define N 50
int A[N][N], B[N][N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) { //DFGLOOP: jacobi2d
            B[i][j] = (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i - 1][j] +
                       A[i + 1][j]) / 5;
        }
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) A[i][j] = (i * 7 + j * 3) % 50;
    kernel();
    return 0;
}
