/* relu: clamp each element to [0, 255] (icmp + select, smax/smin). */
#define N 64
int in[N], out[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: relu
        int v = in[i];
        v = v < 0 ? 0 : v;
        out[i] = v > 255 ? 255 : v;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) in[i] = i * 13 - 300;
    kernel();
    return 0;
}
