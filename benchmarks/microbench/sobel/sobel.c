/* sobel: horizontal 3x3 Sobel gradient; the inner column loop is tagged. */
#define H 10
#define W 10
int img[H][W], gx[H][W];

__attribute__((noinline)) void kernel(void)
{
    for (int y = 1; y < H - 1; y++) {
        for (int x = 1; x < W - 1; x++) { //DFGLOOP: sobel
            gx[y][x] = (img[y - 1][x + 1] + 2 * img[y][x + 1] + img[y + 1][x + 1])
                     - (img[y - 1][x - 1] + 2 * img[y][x - 1] + img[y + 1][x - 1]);
        }
    }
}

int main(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) img[y][x] = (x * x + 3 * y) % 31;
    kernel();
    return 0;
}
