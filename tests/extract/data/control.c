/* control.c: loops extracted in CGRA-ME's shape, the loop control left to
 * the array's controller (tests/extract/test_extract.c). */
#define N 32
int a[N];

/* n bounds the loop and is read nowhere else: with the array's loop
 * control its input node goes with the exit compare. */
__attribute__((noinline)) void bounded(int n)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: bounded
        a[i] = a[i] * 3;
    }
}

/* The exit reads memory: no controller knows the count beforehand. */
__attribute__((noinline)) int sentinel(void)
{
    int i = 0;
    while (a[i] > 0) { //DFGLOOP: sentinel
        a[i] = a[i] - 1;
        i++;
    }
    return i;
}

int main(void)
{
    bounded(10);
    return sentinel();
}
