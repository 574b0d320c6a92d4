/* A kernel that maps but crashes natively after its loop: its row must
 * say "not verified: reference run crashed ..." and the job go on. */
#define N 16
int a[N];
/* an address held as an integer keeps its random bytes (a pointer global
 * would be pointed at a real global by the native run) */
volatile long nowhere;

__attribute__((noinline)) void crash(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: crash
        a[i] = a[i] + 1;
    }
    *(int *)nowhere = 1;
}

int main(void)
{
    crash();
    return a[0];
}
