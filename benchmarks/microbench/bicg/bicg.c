/* bicg: s = A^T r and q = A p in one sweep; the inner j loop is tagged. */
#define N 8
#define M 8
int A[N][M], r[N], p[M], s[M], q[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) {
        int t = 0;
        for (int j = 0; j < M; j++) { //DFGLOOP: bicg
            s[j] = s[j] + r[i] * A[i][j];
            t += A[i][j] * p[j];
        }
        q[i] = t;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        r[i] = i + 1;
        for (int j = 0; j < M; j++) A[i][j] = (i * j) % 9 - 4;
    }
    for (int j = 0; j < M; j++) p[j] = 3 - j;
    kernel();
    return 0;
}
