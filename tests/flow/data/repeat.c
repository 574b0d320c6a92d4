/* Loops for tests/flow/test_flow.c: one the kernel runs 5 times (the
 * flow replays p.executions of them), one it runs n times (0 with
 * --sym n=0: nothing to compare). */
#define N 8
int a[N];

__attribute__((noinline)) void repeat(void)
{
    for (int r = 0; r < 5; r++)
        for (int i = 0; i < N; i++) { //DFGLOOP: repeat
            a[i] = a[i] * 3 + 1;
        }
}

__attribute__((noinline)) void never(int n)
{
    for (int r = 0; r < n; r++)
        for (int i = 0; i < N; i++) { //DFGLOOP: never
            a[i] = a[i] + 2;
        }
}

int main(void)
{
    repeat();
    never(1);
    return a[0];
}
