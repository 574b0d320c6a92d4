/* nomem1: pure arithmetic recurrence without memory accesses. */
int result;

__attribute__((noinline)) int kernel(int n, int seed)
{
    int x = seed;
    for (int i = 0; i < n; i++) { //DFGLOOP: nomem1
        x = (x ^ (x << 3)) + i;
    }
    return x;
}

int main(void)
{
    result = kernel(50, 7);
    return 0;
}
