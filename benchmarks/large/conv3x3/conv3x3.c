/* conv3x3: 2-D convolution of an image with a 3x3 kernel of constant
 * coefficients (a sharpening filter), scaled back by a shift; the inner
 * column loop is tagged, the row is a live-in. */
#define H 16
#define W 32
int img[H][W], res[H][W];

#define TAP(dy, dx, c) ((c) * img[y + (dy)][x + (dx)])

__attribute__((noinline)) void kernel(void)
{
    for (int y = 1; y < H - 1; y++) {
        for (int x = 1; x < W - 1; x++) { //DFGLOOP: conv3x3
            int s = TAP(-1, -1, -3) + TAP(-1, 0, 5) + TAP(-1, 1, -3)
                  + TAP(0, -1, 5)   + TAP(0, 0, 19) + TAP(0, 1, 5)
                  + TAP(1, -1, -3)  + TAP(1, 0, 5)  + TAP(1, 1, -3);
            res[y][x] = s >> 4;
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
