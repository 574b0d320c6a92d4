/* stencil: one Jacobi sweep of the 2-D heat equation, 5-point
 * (u' = u + (north + south + west + east - 4u) / 8), four points of a row
 * per iteration (unrolled by hand); the inner column loop is tagged, the
 * row is a live-in. */
#define H 16
#define W 34
int u[H][W], v[H][W];

#define POINT(dx)                                                           \
    v[y][x + (dx)] = u[y][x + (dx)] +                                       \
        ((u[y - 1][x + (dx)] + u[y + 1][x + (dx)] + u[y][x + (dx) - 1] +    \
          u[y][x + (dx) + 1] - 4 * u[y][x + (dx)]) >> 3)

__attribute__((noinline)) void kernel(void)
{
    for (int y = 1; y < H - 1; y++) {
        for (int x = 1; x < W - 1; x += 4) { //DFGLOOP: stencil
            POINT(0);
            POINT(1);
            POINT(2);
            POINT(3);
        }
    }
}

int main(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) u[y][x] = (x * 11 + y * 7) % 100;
    kernel();
    return 0;
}
