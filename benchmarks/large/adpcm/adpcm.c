/* adpcm: the IMA ADPCM decoder step (as in MiBench's adpcm), one 4-bit
 * code per iteration (the codes are unpacked, one per byte, so no
 * nibble-select branch).  The predicted value and the step index are
 * recurrences; the step size and the index change come from tables
 * indexed by data (not affine); the conditional adds and the clamps
 * become selects and llvm.smax/smin, so the body is one block. */
#define N 128
unsigned char in[N];          /* one code per byte, 0..15 */
short out[N];
const int index_table[16] = {-1, -1, -1, -1, 2, 4, 6, 8,
                       -1, -1, -1, -1, 2, 4, 6, 8};
const int step_table[89] = {
    7,     8,     9,     10,    11,    12,    13,    14,    16,    17,
    19,    21,    23,    25,    28,    31,    34,    37,    41,    45,
    50,    55,    60,    66,    73,    80,    88,    97,    107,   118,
    130,   143,   157,   173,   190,   209,   230,   253,   279,   307,
    337,   371,   408,   449,   494,   544,   598,   658,   724,   796,
    876,   963,   1060,  1166,  1282,  1411,  1552,  1707,  1878,  2066,
    2272,  2499,  2749,  3024,  3327,  3660,  4026,  4428,  4871,  5358,
    5894,  6484,  7132,  7845,  8630,  9493,  10442, 11487, 12635, 13899,
    15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767};
int valpred, step_index;      /* the decoder's state between calls */

__attribute__((noinline)) void kernel(void)
{
    /* a state from outside is clamped as the loop clamps it */
    int val = valpred;
    int idx = step_index < 0 ? 0 : step_index > 88 ? 88 : step_index;
    for (int i = 0; i < N; i++) { //DFGLOOP: adpcm
        int code = in[i] & 15;
        int step = step_table[idx];
        /* the difference: step * (code & 7) / 4 + step / 8, in shifts */
        int diff = step >> 3;
        diff += (code & 4) ? step : 0;
        diff += (code & 2) ? step >> 1 : 0;
        diff += (code & 1) ? step >> 2 : 0;
        val = (code & 8) ? val - diff : val + diff;
        val = val > 32767 ? 32767 : val < -32768 ? -32768 : val;
        idx += index_table[code];
        idx = idx < 0 ? 0 : idx > 88 ? 88 : idx;
        out[i] = (short)val;
    }
    valpred = val;
    step_index = idx;
}

int main(void)
{
    for (int i = 0; i < N; i++) in[i] = (unsigned char)((i * 37 + 11) % 16);
    kernel();
    return 0;
}
