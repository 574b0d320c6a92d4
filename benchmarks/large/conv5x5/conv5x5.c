/* conv5x5: 2-D convolution with a 5x5 kernel of constant coefficients
 * (the binomial blur: row and column weights 1 4 6 4 1, sum 256), scaled
 * back by a shift; the inner column loop is tagged, the row is a live-in. */
#define H 16
#define W 32
int img[H][W], res[H][W];

#define TAP(dy, dx, c) ((c) * img[y + (dy)][x + (dx)])
/* row dy of the kernel, weight r: r * (1 4 6 4 1) */
#define ROW(dy, r)                                                          \
    (TAP(dy, -2, (r)) + TAP(dy, -1, 4 * (r)) + TAP(dy, 0, 6 * (r)) +         \
     TAP(dy, 1, 4 * (r)) + TAP(dy, 2, (r)))

__attribute__((noinline)) void kernel(void)
{
    for (int y = 2; y < H - 2; y++) {
        for (int x = 2; x < W - 2; x++) { //DFGLOOP: conv5x5
            int s = ROW(-2, 1) + ROW(-1, 4) + ROW(0, 6) + ROW(1, 4) + ROW(2, 1);
            res[y][x] = s >> 8;
        }
    }
}

int main(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) img[y][x] = (x * 7 + y * 13) % 255;
    kernel();
    return 0;
}
