/* test_make.c: every shipped benchmark folder (each folder of
 * benchmarks/microbench and benchmarks/tiled) builds with its own `make`, as a CGRA-ME user runs
 * it: the built cgramap on the PATH, rules.mk calling `cgramap dfg` with
 * the folder's DFG_FLAGS (--sym among them) and CFLAGS.  Each tag of
 * LOOP_TAGS must then have its TAG.dot holding that loop's graph, the
 * whole file what cgramap's folder scan extracts from the same Makefile
 * (rules.mk's promise: both ways give the same graphs).  The folders are
 * copied first, so the source tree gets no .dot files. */
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
#include <unistd.h>

#include "common/util.h"
#include "dfg/dfg.h"
#include "extract/extract.h"
#include "mapper/map.h"

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

/* The graph of loop tag as cgramap's folder scan extracts it (the
 * folder's Makefile read in process: DFG_FLAGS and CFLAGS), written as
 * dot with its nest's memory order stated, from inside dir, as `make`
 * runs `cgramap dfg` there; owned by the caller. */
static char *scanned_dot(const char *dir, const char *tag)
{
    char here[1024], src[600];
    assert_non_null(getcwd(here, sizeof here));
    assert_int_equal(chdir(dir), 0);
    cg_diags *d = cg_diags_create();
    cg_extract_makefile mk = {0};
    cg_extract_params p;
    cg_extract_params_init(&p);
    assert_int_equal(cg_extract_makefile_read("Makefile", &mk, d), 0);
    if (mk.dfg_flags)
        assert_int_equal(cg_extract_params_parse(&p, mk.dfg_flags,
                                                 "Makefile", d), 0);
    p.cflags = mk.cflags;
    char *copy = strdup(dir);
    snprintf(src, sizeof src, "%s.c", basename(copy));
    free(copy);
    cg_extract_prog *x = cg_extract_open(src, &p, d);
    cg_dfg *g = x ? cg_extract_loop(x, tag, d) : NULL;
    if (!g)
        fail_msg("no graph of %s in %s/%s", tag, dir, src);
    /* `cgramap dfg` states the nest's memory order in the graph */
    cg_mem_order *o;
    int k = cg_map_mem_orders(g, &o);
    assert_true(k >= 0);
    assert_int_equal(cg_dfg_set_mem_order(g, o, k, d), 0);
    free(o);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(cg_dfg_write_dot(g, f), 0);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_extract_makefile_free(&mk);
    cg_diags_destroy(d);
    assert_int_equal(chdir(here), 0);
    return text;
}

/* Where a and b first differ. */
static size_t first_difference(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    return i;
}

/* `make` in dir succeeds and writes TAG.dot for each tag, the whole file
 * what the folder scan extracts for that tag; how many tags. */
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
        char path[1200], want_head[96];
        snprintf(path, sizeof path, "%.511s/%.63s.dot", dir, tags[i]);
        size_t len;
        char *got = cg_slurp(path, &len);
        if (!got)
            fail_msg("`make` in %s wrote no %s.dot", dir, tags[i]);
        snprintf(want_head, sizeof want_head, "digraph %.63s {\n", tags[i]);
        assert_memory_equal(got, want_head, strlen(want_head));
        char *want = scanned_dot(dir, tags[i]);
        size_t at = first_difference(got, want);
        if (got[at] || want[at])
            fail_msg("%s differs from the folder scan's graph from byte "
                     "%zu: make wrote '%.*s', the scan '%.*s'", path, at,
                     (int)strcspn(got + at, "\n"), got + at,
                     (int)strcspn(want + at, "\n"), want + at);
        free(want);
        free(got);
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
