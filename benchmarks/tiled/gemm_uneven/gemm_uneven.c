/* gemm_uneven: C[23][31] += A[23][97] * B[97][31] (23804 bytes): sizes no
 * tile size divides, so boundary tiles have their own shapes.  CFLAGS as
 * for gemm keep every access in the tagged loop. */
#define NI 23
#define NJ 31
#define NK 97
int A[NI][NK], B[NK][NJ], C[NI][NJ];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            for (int k = 0; k < NK; k++) { //DFGLOOP: gemm_uneven
                C[i][j] += A[i][k] * B[k][j];
            }
}

int main(void)
{
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++) A[i][k] = i * 3 - k;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++) B[k][j] = k + 2 * j;
    kernel();
    return 0;
}
