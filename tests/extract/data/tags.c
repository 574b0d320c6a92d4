/* Tags the reader must skip (in a comment, in a string) and a tag on a
 * line with two loops (tests/extract/test_extract.c, test_tag_reader). */
int a[16], b[16];
/* An old version:
   for (int i = 0; i < 16; i++) //DFGLOOP: old
       a[i] = b[i];
*/
const char *s = "//DFGLOOP: str";
void f(void)
{
    for (int i = 0; i < 16; i++) //DFGLOOP: k
        a[i] = b[i] + 1;
}
void g(void)
{
    for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) //DFGLOOP: two
        a[i * 4 + j] += b[j];
}
