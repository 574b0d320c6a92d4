/* dot: dot product of two int arrays, result stored to a global. */
#define N 64
int x[N], y[N];
int result;

__attribute__((noinline)) void kernel(void)
{
    int s = 0;
    for (int i = 0; i < N; i++) { //DFGLOOP: dot
        s += x[i] * y[i];
    }
    result = s;
}

int main(void)
{
    for (int i = 0; i < N; i++) { x[i] = i % 7; y[i] = 3 - i; }
    kernel();
    return 0;
}
