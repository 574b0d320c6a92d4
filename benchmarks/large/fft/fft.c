/* fft: one radix-2 decimation-in-frequency stage of a 256-point
 * fixed-point (Q15) complex FFT, in place: butterfly j combines points j
 * and j + 128 with twiddle j.  Four butterflies per iteration (unrolled by
 * hand), a quarter of the stage apart (j, j + 32, j + 64, j + 96), so
 * every index is the counter plus a constant: with j, j + 1, j + 2, j + 3
 * clang writes j + 1 as j | 1, which the extractor does not prove affine,
 * and the mapper then orders the stores of one iteration against the
 * loads of the next (RecMII 17 instead of 1 on default_8x8). */
#define N 256
#define HALF (N / 2)
int re[N], im[N];
int wr[HALF], wi[HALF];       /* Q15 twiddles cos, -sin */

/* DIF butterfly: a + b, and (a - b) times the twiddle. */
#define BFLY(j)                                                             \
    do {                                                                    \
        int ar = re[j], ai = im[j], br = re[(j) + HALF], bi = im[(j) + HALF]; \
        int dr = ar - br, di = ai - bi;                                     \
        re[j] = ar + br;                                                    \
        im[j] = ai + bi;                                                    \
        re[(j) + HALF] = (dr * wr[j] - di * wi[j]) >> 15;                   \
        im[(j) + HALF] = (dr * wi[j] + di * wr[j]) >> 15;                   \
    } while (0)

__attribute__((noinline)) void kernel(void)
{
    for (int j = 0; j < HALF / 4; j++) { //DFGLOOP: fft
        BFLY(j);
        BFLY(j + HALF / 4);
        BFLY(j + HALF / 2);
        BFLY(j + 3 * HALF / 4);
    }
}

int main(void)
{
    /* twiddles of a 256-point FFT by the angle-addition recurrence */
    int c = 32767, s = 0;
    const int cd = 32757, sd = 804;   /* Q15 cos, sin of 2 pi / 256 */
    for (int j = 0; j < HALF; j++) {
        wr[j] = c;
        wi[j] = -s;
        int nc = (c * cd - s * sd) >> 15, ns = (s * cd + c * sd) >> 15;
        c = nc;
        s = ns;
    }
    for (int j = 0; j < N; j++) {
        re[j] = (j * 97) % 2048 - 1024;
        im[j] = (j * 61) % 2048 - 1024;
    }
    kernel();
    return 0;
}
