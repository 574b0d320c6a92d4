/* saxpy: y = alpha * x + y on ints (alpha is a loop-invariant live-in). */
#define N 64
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
