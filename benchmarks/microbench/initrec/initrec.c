/* initrec: a recurrence whose initial value is not zero. */
#define N 64
int a[N];
int result;

__attribute__((noinline)) int kernel(void)
{
    int s = 12345;
    for (int i = 0; i < N; i++) { //DFGLOOP: initrec
        s = s * 3 + a[i];
    }
    return s;
}

int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i ^ 0x55;
    result = kernel();
    return 0;
}
