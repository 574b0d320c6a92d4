/* replay.c: a fuzz target without libFuzzer, for ctest.  Every file of the
 * folders given (a seed corpus, the regression inputs) is passed once to
 * LLVMFuzzerTestOneInput; a crash, a sanitizer report or a failed check
 * fails the test.  A folder with no input fails too: a replay that runs
 * nothing proves nothing. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, k;
    do {
        if (n == cap && !(buf = realloc(buf, cap = 2 * cap + 4096)))
            exit(1);
        k = fread(buf + n, 1, cap - n, f);
        n += k;
    } while (k);
    fclose(f);
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
}

/* Every regular file of dir, in name order; the count. */
static int replay_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) {
        perror(dir);
        exit(1);
    }
    char **names = NULL;
    int n = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        if (e->d_name[0] == '.')
            continue;
        if (!(names = realloc(names, (size_t)(n + 1) * sizeof *names)) ||
            !(names[n++] = strdup(e->d_name)))
            exit(1);
    }
    closedir(dp);
    qsort(names, (size_t)n, sizeof *names, cmp);
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        replay_file(path);
        free(names[i]);
    }
    free(names);
    return n;
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int i = 1; i < argc; i++) {
        int n = replay_dir(argv[i]);
        if (n == 0) {
            fprintf(stderr, "replay: no input in %s\n", argv[i]);
            return 1;
        }
        total += n;
    }
    printf("replay: %d inputs, none crashed\n", total);
    return argc > 1 ? 0 : 1;
}
