/* histogram: indirect addressing (hist[data[i]]), non-affine store. */
#define N 64
#define BINS 16
unsigned char data[N];
int hist[BINS];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: histogram
        hist[data[i] & (BINS - 1)] += 1;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) data[i] = (unsigned char)(i * 7);
    kernel();
    return 0;
}
