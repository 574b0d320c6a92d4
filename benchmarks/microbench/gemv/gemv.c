/* gemv: y = A x, the inner j loop is tagged (nested kernel). */
#define M 8
#define N 8
int A[M][N], x[N], y[M];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < M; i++) {
        int s = 0;
        for (int j = 0; j < N; j++) { //DFGLOOP: gemv
            s += A[i][j] * x[j];
        }
        y[i] = s;
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
