/* fir: 4-tap finite impulse response filter, taps as constants. */
#define N 64
int in[N + 3], out[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: fir
        out[i] = 3 * in[i] + 5 * in[i + 1] - 2 * in[i + 2] + 7 * in[i + 3];
    }
}

int main(void)
{
    for (int i = 0; i < N + 3; i++) in[i] = i * 11 - 40;
    kernel();
    return 0;
}
