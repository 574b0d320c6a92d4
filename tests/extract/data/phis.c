/* phis: loops whose loaded values LLVM keeps for the next iterations in
 * chains of header phis (load PRE), so that a phi's latch value is
 * another phi (tests/extract/test_extract_proof.c).  Each needs the chain
 * resolved with its whole distance, whichever phi is resolved first. */
int a[70], b[70], o[64];

/* a[i + 1] and a[i + 2] of one iteration are a[i] and a[i + 1] of the
 * next: two phis, one fed by the other. */
__attribute__((noinline)) void three(void)
{
    for (int i = 0; i < 64; i++) { //DFGLOOP: three
        o[i] = a[i] + a[i + 1] + a[i + 2];
    }
}

/* A window of five over two arrays, weighted: chains of four phis. */
__attribute__((noinline)) void five(void)
{
    for (int i = 0; i < 64; i++) { //DFGLOOP: five
        o[i] = a[i] + 2 * a[i + 1] + 3 * a[i + 2] + 4 * a[i + 3] +
               5 * a[i + 4] - b[i] + b[i + 3];
    }
}

/* Two values swapped each iteration: two phis, each fed by the other, a
 * cycle with no op to start a register from (refused, test_extract.c). */
int s0 = 3, s1 = 5;
__attribute__((noinline)) void rotate(void)
{
    int x = s0, y = s1;
    for (int i = 0; i < 64; i++) { //DFGLOOP: rotate
        o[i] = x;
        int t = x;
        x = y;
        y = t;
    }
}

int main(void)
{
    three();
    five();
    rotate();
    return 0;
}
