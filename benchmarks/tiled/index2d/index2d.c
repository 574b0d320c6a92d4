/* index2d: B[i][j] = A[i][j] * 3 + i - 2 * j on 48x96 ints (36864 bytes):
 * the loop counters are used as values, not only in addresses, so a tile
 * DFG must restart them at each run's first iteration. */
#define M 48
#define N 96
int A[M][N], B[M][N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) { //DFGLOOP: index2d
            B[i][j] = A[i][j] * 3 + i - 2 * j;
        }
}

int main(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) A[i][j] = i * j;
    kernel();
    return 0;
}
