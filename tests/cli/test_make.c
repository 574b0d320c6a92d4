/* test_make.c: every shipped benchmark folder (each folder of
 * benchmarks/microbench and benchmarks/tiled) builds with its own `make`, as a CGRA-ME user runs
 * it: the built cgramap on the PATH, rules.mk calling `cgramap dfg` with
 * the folder's DFG_FLAGS (--sym among them) and CFLAGS.  Each tag of
 * LOOP_TAGS must then have its TAG.dot holding that loop's graph.  The
 * folders are copied first, so the source tree gets no .dot files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The words of "LOOP_TAGS = ..." in the folder's Makefile, into tags. */
static int loop_tags(const char *dir, char (*tags)[64], int max)
{
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/Makefile", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "LOOP_TAGS", 9) && strchr(line, '=')) {
            char *save = NULL;
            for (char *w = strtok_r(strchr(line, '=') + 1, " \t\n", &save);
                 w && n < max; w = strtok_r(NULL, " \t\n", &save))
                snprintf(tags[n++], 64, "%.63s", w);
        }
    fclose(f);
    return n;
}

/* `make` in dir succeeds and writes TAG.dot, the graph of TAG, for each
 * tag; how many tags. */
static int make_folder(const char *dir)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "make -s -C %s >/dev/null", dir);
    if (system(cmd) != 0)
        fail_msg("`make` failed in %s", dir);
    static char tags[16][64];
    int n = loop_tags(dir, tags, 16);
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        char path[1200], head[160], want[96];
        snprintf(path, sizeof path, "%.511s/%.63s.dot", dir, tags[i]);
        FILE *f = fopen(path, "r");
        if (!f)
            fail_msg("`make` in %s wrote no %s.dot", dir, tags[i]);
        assert_non_null(fgets(head, sizeof head, f));
        fclose(f);
        snprintf(want, sizeof want, "digraph %.63s {\n", tags[i]);
        assert_string_equal(head, want);
    }
    return n;
}

/* make_folder on every folder of root that has a Makefile; how many. */
static int make_all(const char *root)
{
    DIR *d = opendir(root);
    assert_non_null(d);
    int folders = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char dir[512], mk[600];
        struct stat st;
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        snprintf(mk, sizeof mk, "%s/Makefile", dir);
        if (e->d_name[0] == '.' || stat(mk, &st) != 0)
            continue;
        make_folder(dir);
        folders++;
    }
    closedir(d);
    return folders;
}

static void test_make_every_benchmark(void **state)
{
    (void)state;
    char bin[] = CG_CGRAMAP, tmp[] = "/tmp/cg_make_XXXXXX", cmd[1024];
    const char *path = getenv("PATH");
    snprintf(cmd, sizeof cmd, "%s:%s", dirname(bin), path ? path : "");
    assert_int_equal(setenv("PATH", cmd, 1), 0);
    assert_non_null(mkdtemp(tmp));
    /* rules.mk is reached as ../rules.mk and ../../microbench/rules.mk */
    snprintf(cmd, sizeof cmd, "mkdir %s/benchmarks && cp -r "
             "benchmarks/microbench benchmarks/tiled %s/benchmarks", tmp, tmp);
    assert_int_equal(system(cmd), 0);
    char root[128];
    snprintf(root, sizeof root, "%s/benchmarks/microbench", tmp);
    int micro = make_all(root);
    snprintf(root, sizeof root, "%s/benchmarks/tiled", tmp);
    int tiled = make_all(root);
    /* every folder shipped: a new one is made by this test too */
    assert_int_equal(micro, 26);
    assert_int_equal(tiled, 9);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_make_every_benchmark),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
