/* Does not compile: clang's message must reach the caller. */
int a[4];
void kernel(void)
{
    for (int i = 0; i < 4; i++) { //DFGLOOP: broken
        a[i] = undeclared;
    }
}
