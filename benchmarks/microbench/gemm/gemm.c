/* gemm: C += A * B, the innermost k loop is tagged (nested kernel). */
#define NI 8
#define NJ 8
#define NK 8
int A[NI][NK], B[NK][NJ], C[NI][NJ];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++) {
            int s = C[i][j];
            for (int k = 0; k < NK; k++) { //DFGLOOP: gemm
                s += A[i][k] * B[k][j];
            }
            C[i][j] = s;
        }
    }
}

int main(void)
{
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++) { A[i][k] = i + k; B[i][k] = i - k; C[i][k] = 1; }
    kernel();
    return 0;
}
