/* plain.c: a loop without a //DFGLOOP tag (the main job must say so). */
int a[8];

void kernel(void)
{
    for (int i = 0; i < 8; i++)
        a[i] += i;
}
