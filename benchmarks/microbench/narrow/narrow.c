/* narrow: 8-bit and 16-bit arithmetic (u8 pixels scaled into i16). */
#define N 64
unsigned char pix[N];
short out[N];

__attribute__((noinline)) void kernel(short gain)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: narrow
        out[i] = (short)(pix[i] * gain - 128);
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) pix[i] = (unsigned char)(i * 5);
    kernel(3);
    return 0;
}
