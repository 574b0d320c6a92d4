/* scale: a loose C file (no Makefile) whose tag is in mixed case. */
#define N 32
int in[N], out[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DfgLoop: scale
        out[i] = 3 * in[i];
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) in[i] = i - 5;
    kernel();
    return out[1] == -12 ? 0 : 1;
}
