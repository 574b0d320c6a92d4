/* ptrn: shaped as most of CGRA-ME's microbenchmarks are: main() reads its
 * trip count through a pointer that nothing in the file sets (*len) and
 * indexes arrays through null pointers (src, dst).  The native run gives
 * len a buffer holding 16 (or --sym len=V) and src, dst seeded buffers of
 * their own, and says so under the row. */
volatile int *len;
int *src;
int *dst;

int main(void)
{
    int n = *len;
    for (int i = 0; i < n - 2; i++) {
        //DFGLoop: loop
        dst[i] = src[i] * 3 + src[i + 2];
    }
    return 0;
}
