/* A kernel whose native run takes hours: the tagged inner loop maps at
 * once, but the untagged outer loop runs it 10^12 times.  With
 * --run-timeout 1 its row must say "not verified: reference run exceeded
 * 1 s ..." instead of hanging the job. */
#define N 16
int a[N];

__attribute__((noinline)) void spin(void)
{
    for (long r = 0; r < 1000000000000L; r++)
        for (int i = 0; i < N; i++) { //DFGLOOP: spin
            a[i] = a[i] + 1;
        }
}

int main(void)
{
    spin();
    return a[0];
}
