/* fold: clang -O3 replaces this sum by its formula and deletes the loop;
 * cgramap compiles the file again keeping the loop. */
int result;

__attribute__((noinline)) int kernel(void)
{
    int s = 0;
    for (int i = 0; i < 100; i++) { //DFGLoop: loop
        s += i;
    }
    return s;
}

int main(void)
{
    result = kernel();
    return 0;
}
