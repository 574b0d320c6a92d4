/* stackarr: the loop reads an array on the kernel's stack: cgramap places
 * it in the layout after the globals and copies the frame's bytes in at
 * the loop's entry, so the loop verifies. */
#define N 32
int out[N];

__attribute__((noinline)) void kernel(void)
{
    int t[N];
    for (int i = 0; i < N; i++)
        t[i] = out[i] * 3;
    for (int i = 0; i < N; i++) { //DFGLoop: loop
        out[i] = t[i] + 1;
    }
}

int main(void)
{
    kernel();
    return 0;
}
