/* conv3: 3-tap 1-D convolution with constant coefficients. */
#define N 64
int in[N + 2], out[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: conv3
        out[i] = 2 * in[i] + 3 * in[i + 1] - in[i + 2];
    }
}

int main(void)
{
    for (int i = 0; i < N + 2; i++) in[i] = i * i - 50;
    kernel();
    return 0;
}
