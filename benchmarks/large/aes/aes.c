/* aes: one AES-128 encryption round (SubBytes, ShiftRows, MixColumns and
 * AddRoundKey through the four 1 KiB T-tables, as in OpenSSL's
 * aes_core.c) on one 16-byte block per iteration, over 32 blocks with the
 * same round key (a bulk CTR/ECB round).  Every table index is data, so
 * the 16 lookups are not affine. */
#define NB 32
unsigned te0[256], te1[256], te2[256], te3[256];
unsigned state[NB][4], next[NB][4];
unsigned rk[4];

__attribute__((noinline)) void kernel(void)
{
    for (int b = 0; b < NB; b++) { //DFGLOOP: aes
        unsigned s0 = state[b][0], s1 = state[b][1];
        unsigned s2 = state[b][2], s3 = state[b][3];
        next[b][0] = te0[s0 >> 24] ^ te1[(s1 >> 16) & 0xff] ^
                     te2[(s2 >> 8) & 0xff] ^ te3[s3 & 0xff] ^ rk[0];
        next[b][1] = te0[s1 >> 24] ^ te1[(s2 >> 16) & 0xff] ^
                     te2[(s3 >> 8) & 0xff] ^ te3[s0 & 0xff] ^ rk[1];
        next[b][2] = te0[s2 >> 24] ^ te1[(s3 >> 16) & 0xff] ^
                     te2[(s0 >> 8) & 0xff] ^ te3[s1 & 0xff] ^ rk[2];
        next[b][3] = te0[s3 >> 24] ^ te1[(s0 >> 16) & 0xff] ^
                     te2[(s1 >> 8) & 0xff] ^ te3[s2 & 0xff] ^ rk[3];
    }
}

/* GF(2^8) multiplication by 2 (xtime). */
static unsigned xtime(unsigned x)
{
    return ((x << 1) ^ ((x & 0x80) ? 0x1b : 0)) & 0xff;
}

/* The S-box from its definition (inverse in GF(2^8), then the affine
 * map), and the T-tables from it: te0[x] = (2s, s, s, 3s), the others
 * its byte rotations. */
static void make_tables(void)
{
    unsigned sbox[256];
    for (unsigned x = 0; x < 256; x++) {
        unsigned inv = 0;
        for (unsigned y = 1; y < 256 && x; y++) {
            unsigned p = 0, a = x, m = y;
            for (int k = 0; k < 8; k++, m >>= 1, a = xtime(a))
                if (m & 1)
                    p ^= a;
            if (p == 1)
                inv = y;
        }
        unsigned s = inv;
        for (int k = 1; k <= 4; k++)
            s ^= ((inv << k) | (inv >> (8 - k))) & 0xff;
        sbox[x] = s ^ 0x63;
    }
    for (unsigned x = 0; x < 256; x++) {
        unsigned s = sbox[x], s2 = xtime(s), s3 = s2 ^ s;
        te0[x] = s2 << 24 | s << 16 | s << 8 | s3;
        te1[x] = te0[x] >> 8 | te0[x] << 24;
        te2[x] = te1[x] >> 8 | te1[x] << 24;
        te3[x] = te2[x] >> 8 | te2[x] << 24;
    }
}

int main(void)
{
    make_tables();
    for (int b = 0; b < NB; b++)
        for (int w = 0; w < 4; w++) state[b][w] = (unsigned)(b * 0x01020304 + w * 0x11111111);
    for (int w = 0; w < 4; w++) rk[w] = 0x2b7e1516u + (unsigned)w;
    kernel();
    return 0;
}
