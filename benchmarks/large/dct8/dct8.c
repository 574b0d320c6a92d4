/* dct8: the row pass of the JPEG forward DCT (libjpeg's jfdctint.c,
 * "islow": 8-point Loeffler-Ligtenberg-Moschytz with 12 multiplies in
 * 13-bit fixed point, results scaled up by 2 bits), one 8-sample row per
 * iteration, over the rows of four 8x8 blocks. */
#define ROWS 32
#define CONST_BITS 13
#define PASS1_BITS 2
#define FIX_0_298631336 2446
#define FIX_0_390180644 3196
#define FIX_0_541196100 4433
#define FIX_0_765366865 6270
#define FIX_0_899976223 7373
#define FIX_1_175875602 9633
#define FIX_1_501321110 12299
#define FIX_1_847759065 15137
#define FIX_1_961570560 16069
#define FIX_2_053119869 16819
#define FIX_2_562915447 20995
#define FIX_3_072711026 25172
#define DESCALE(x, n) (((x) + (1 << ((n) - 1))) >> (n))

int in[ROWS][8], out[ROWS][8];

__attribute__((noinline)) void kernel(void)
{
    for (int r = 0; r < ROWS; r++) { //DFGLOOP: dct8
        const int *d = in[r];
        int *o = out[r];
        int tmp0 = d[0] + d[7], tmp7 = d[0] - d[7];
        int tmp1 = d[1] + d[6], tmp6 = d[1] - d[6];
        int tmp2 = d[2] + d[5], tmp5 = d[2] - d[5];
        int tmp3 = d[3] + d[4], tmp4 = d[3] - d[4];
        /* even part */
        int tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3;
        int tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
        o[0] = (tmp10 + tmp11) << PASS1_BITS;
        o[4] = (tmp10 - tmp11) << PASS1_BITS;
        int z1 = (tmp12 + tmp13) * FIX_0_541196100;
        o[2] = DESCALE(z1 + tmp13 * FIX_0_765366865, CONST_BITS - PASS1_BITS);
        o[6] = DESCALE(z1 - tmp12 * FIX_1_847759065, CONST_BITS - PASS1_BITS);
        /* odd part */
        z1 = tmp4 + tmp7;
        int z2 = tmp5 + tmp6, z3 = tmp4 + tmp6, z4 = tmp5 + tmp7;
        int z5 = (z3 + z4) * FIX_1_175875602;
        tmp4 *= FIX_0_298631336;
        tmp5 *= FIX_2_053119869;
        tmp6 *= FIX_3_072711026;
        tmp7 *= FIX_1_501321110;
        z1 *= -FIX_0_899976223;
        z2 *= -FIX_2_562915447;
        z3 = z3 * -FIX_1_961570560 + z5;
        z4 = z4 * -FIX_0_390180644 + z5;
        o[7] = DESCALE(tmp4 + z1 + z3, CONST_BITS - PASS1_BITS);
        o[5] = DESCALE(tmp5 + z2 + z4, CONST_BITS - PASS1_BITS);
        o[3] = DESCALE(tmp6 + z2 + z3, CONST_BITS - PASS1_BITS);
        o[1] = DESCALE(tmp7 + z1 + z4, CONST_BITS - PASS1_BITS);
    }
}

int main(void)
{
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < 8; c++) in[r][c] = (r * 29 + c * 17) % 256 - 128;
    kernel();
    return 0;
}
