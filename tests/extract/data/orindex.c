/* Indices that clang writes with `or`: 2*i+1 becomes (i << 1) | 1, which
 * is i*2 + 1 because no bit is in both; i | 1 is not affine. */
int x[64], y[64];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < 16; i++) { //DFGLOOP: orindex
        x[2 * i + 1] = y[i | 1] + x[4 * i + 2];
    }
}
