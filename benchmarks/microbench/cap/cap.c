/* cap: elements above a threshold are capped (compare + select). */
#define N 64
int a[N];

__attribute__((noinline)) void kernel(int limit)
{
    for (int i = 0; i < N; i++) { //DFGLOOP: cap
        int v = a[i];
        a[i] = v > limit ? limit : v;
    }
}

int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i * 9 - 100;
    kernel(200);
    return 0;
}
