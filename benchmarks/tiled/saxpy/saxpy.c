/* saxpy: y = alpha * x + y on 2560 ints (20480 bytes); alpha is a kernel
 * parameter (a live-in, --sym alpha=... in the Makefile). */
#define N 2560
int x[N], y[N];

__attribute__((noinline)) void kernel(int alpha)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: saxpy
        y[i] = alpha * x[i] + y[i];
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) { x[i] = i; y[i] = 100 - i; }
    kernel(3);
    return 0;
}
