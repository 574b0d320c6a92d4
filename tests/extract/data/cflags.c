/* Needs -DN=... from the CFLAGS: the extractor passes them to clang. */
#ifndef N
#error "compile with -DN=<size>"
#endif
int a[N];

__attribute__((noinline)) void kernel(void)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: scale
        a[i] = a[i] * 3;
    }
}
