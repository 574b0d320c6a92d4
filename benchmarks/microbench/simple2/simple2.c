/* simple2: shifts, logic ops and the counter used as data. */
#define N 64
int a[N], b[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: simple2
        b[i] = ((a[i] << 2) ^ i) | (a[i] >> 1);
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i * 37 - 1000;
    kernel();
    return 0;
}
