/* matmul.c: CGRA-ME's matrixmultiply in small: the kernel takes the row
 * and the column it computes as parameters, which nothing in the file
 * gives the tagged loop (main is never run).  The native run passes the
 * default, 16, to both and its note names them; --sym i=V --sym j=W give
 * others. */
#define SIZE 20
int A[SIZE][SIZE], B[SIZE][SIZE], C[SIZE][SIZE];

__attribute__((noinline)) int multiply(int i, int j)
{
    int sum = 0;
    for (int k = 0; k < SIZE; k++) { //DFGLOOP: loop
        sum += A[i][k] * B[k][j];
    }
    C[i][j] = sum;
    return sum;
}

int main(void)
{
    int s = 0;
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            s += multiply(i, j);
    return s;
}
