/* conv2: 2-tap 1-D convolution with coefficients in memory. */
#define N 64
int in[N + 1], out[N], w[2];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: conv2
        out[i] = w[0] * in[i] + w[1] * in[i + 1];
    }
}

int main(void)
{
    for (int i = 0; i < N + 1; i++) in[i] = i * 3;
    w[0] = 2; w[1] = -1;
    kernel();
    return 0;
}
