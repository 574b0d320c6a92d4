/* widths: index arithmetic narrowed to the address width, or kept wide
 * with a warning that says why (tests/extract/test_extract.c). */
int a[64], out[64];
long big[64], total;

/* k's range is unknown, but a[k + i] and out[i] are inbounds accesses of
 * globals that end below 2^32: their addresses fit in 32 bits. */
__attribute__((noinline)) void offset(int k)
{
    for (int i = 0; i < 16; i++) { //DFGLOOP: offset
        out[i] = a[k + i];
    }
}

/* A 64-bit sum: its loads, adds and live-out stay 64 bits. */
__attribute__((noinline)) void wide(void)
{
    long s = 0;
    for (int i = 0; i < 64; i++) { //DFGLOOP: wide
        s += big[i];
    }
    total = s;
}

/* A symbolic trip count: the loop ends when the counter reaches n, a zext
 * of a 32-bit int, so the counter stays in [1, 2^32 - 1]: narrowed. */
__attribute__((noinline)) void symtrip(int n)
{
    for (int i = 0; i < n; i++) { //DFGLOOP: symtrip
        out[i] = a[i] + 1;
    }
}

/* A 64-bit trip count: nothing bounds the counter, its compare with m and
 * the addresses it feeds stay 64 bits. */
__attribute__((noinline)) void symlong(long m)
{
    for (long i = 0; i < m; i++) { //DFGLOOP: symlong
        out[i & 63] = a[i & 63];
    }
}

/* An index loaded as an int: sext from 32 bits, exact at 32 bits (an
 * identity cast then), not at 16. */
int idx[64];
__attribute__((noinline)) void gather(void)
{
    for (int i = 0; i < 64; i++) { //DFGLOOP: gather
        out[i] = a[idx[i] & 63];
    }
}

int main(void)
{
    gather();
    offset(3);
    wide();
    symtrip(10);
    symlong(10);
    return 0;
}
