/* conv2d: a 3x3 convolution of a 50x50 image into 48x48 (19216 bytes):
 * each tile needs its input box plus a halo of two rows and two columns.
 * The weights are constants, so the only loads are of the image. */
#define N 48
int in[N + 2][N + 2], out[N][N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) { //DFGLOOP: conv2d
            out[i][j] = in[i][j] + 2 * in[i][j + 1] + in[i][j + 2] +
                        2 * in[i + 1][j] + 4 * in[i + 1][j + 1] +
                        2 * in[i + 1][j + 2] + in[i + 2][j] +
                        2 * in[i + 2][j + 1] + in[i + 2][j + 2];
        }
}

int main(void)
{
    for (int i = 0; i < N + 2; i++)
        for (int j = 0; j < N + 2; j++) in[i][j] = (i * 7 + j * 3) % 50;
    kernel();
    return 0;
}
