/* Loops the extractor must refuse, each with its reason (test_extract.c). */
#define N 16
int a[N], b[N];
int lookup(int v);

__attribute__((noinline)) void with_call(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: call
        a[i] = lookup(b[i]);
    }
}

__attribute__((noinline)) void with_blocks(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: blocks
        if (b[i] > 3)
            a[i] = b[i];
    }
}

__attribute__((noinline)) int with_break(void)
{
    int s = 0;
    for (int i = 0; i < N; i++) { //DFGLOOP: exits
        if (b[i] == 0)
            break;
        s += b[i];
    }
    return s;
}

__attribute__((noinline)) void good(int k)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: good
        a[i] = b[i] * k;
    }
}

//DFGLOOP: nowhere

int out[N];

/* The inner loop becomes a formula: its tag must not fall to the outer. */
__attribute__((noinline)) void gone(void)
{
    for (int j = 0; j < N; j++) {
        int s = 0;
        for (int i = 0; i < j; i++) { //DFGLOOP: gone
            s += i;
        }
        out[j] = s;
    }
}
