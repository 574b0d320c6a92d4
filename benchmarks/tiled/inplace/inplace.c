/* inplace: a[i] = a[i] * 2 + 1 on 5120 ints (20480 bytes): one array read
 * and written at the same index, brought in and written back per tile. */
#define N 5120
int a[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: inplace
        a[i] = a[i] * 2 + 1;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i;
    kernel();
    return 0;
}
