/* stride: a second counter (j += 2) beside i; strided stores whose address
 * is still affine in the loop counter. */
#define N 32
int a[N], b[2 * N + 4];

__attribute__((noinline)) void kernel(void)
{
    int j = 3;
    for (int i = 0; i < N; i++) { //DFGLOOP: stride
        b[j] = a[i] - j;
        j += 2;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i * 5;
    kernel();
    return 0;
}
