/* sha256: the SHA-256 compression rounds, four rounds per iteration
 * (unrolled by hand) over the 64 rounds of one block; the eight working
 * variables are recurrences, the message schedule w[] (already expanded)
 * and the round constants are loaded.  Each rotation is written as its
 * right shifts xor its left shifts, grouped, so that LLVM does not fold a
 * rotate into an llvm.fshl call (calls are not extracted); the value is
 * the same. */
unsigned w[64], k[64];
unsigned hash[8];

#define SIG1(x) ((((x) >> 6) ^ ((x) >> 11) ^ ((x) >> 25)) ^                 \
                 (((x) << 26) ^ ((x) << 21) ^ ((x) << 7)))
#define SIG0(x) ((((x) >> 2) ^ ((x) >> 13) ^ ((x) >> 22)) ^                 \
                 (((x) << 30) ^ ((x) << 19) ^ ((x) << 10)))
#define CH(e, f, g) (((e) & (f)) ^ (~(e) & (g)))
#define MAJ(a, b, c) (((a) & (b)) ^ ((a) & (c)) ^ ((b) & (c)))
/* one round: the variables shift down by one, a and e get new values */
#define ROUND(t)                                                            \
    do {                                                                    \
        unsigned t1 = h + SIG1(e) + CH(e, f, g) + k[t] + w[t];              \
        unsigned t2 = SIG0(a) + MAJ(a, b, c);                               \
        h = g; g = f; f = e; e = d + t1;                                    \
        d = c; c = b; b = a; a = t1 + t2;                                   \
    } while (0)

__attribute__((noinline)) void kernel(void)
{
    unsigned a = hash[0], b = hash[1], c = hash[2], d = hash[3];
    unsigned e = hash[4], f = hash[5], g = hash[6], h = hash[7];
    for (int t = 0; t < 64; t += 4) { //DFGLOOP: sha256
        ROUND(t);
        ROUND(t + 1);
        ROUND(t + 2);
        ROUND(t + 3);
    }
    hash[0] += a; hash[1] += b; hash[2] += c; hash[3] += d;
    hash[4] += e; hash[5] += f; hash[6] += g; hash[7] += h;
}

/* The standard initial hash; w and k are test words, not a padded message
 * and the standard round constants (the loop loads both either way). */
int main(void)
{
    static const unsigned h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                   0xa54ff53a, 0x510e527f, 0x9b05688c,
                                   0x1f83d9ab, 0x5be0cd19};
    for (int i = 0; i < 8; i++) hash[i] = h0[i];
    for (int t = 0; t < 64; t++) {
        w[t] = (unsigned)(t * 0x9e3779b9u);
        k[t] = (unsigned)(t * 0x428a2f98u + 0x71374491u);
    }
    kernel();
    return 0;
}
