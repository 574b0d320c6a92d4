/* Tag matching: two loops on one line (the later column wins) and a tag on
 * its own line inside the body (CGRA-ME's habit). */
int a[8][8];

__attribute__((noinline)) void same_line(void)
{
    for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) { //DFGLOOP: inner
        a[i][j] += i ^ j;
    }
}

__attribute__((noinline)) void below(void)
{
    for (int i = 0; i < 8; i++) {
        //DFGLOOP: below
        a[0][i] += 3;
    }
}
