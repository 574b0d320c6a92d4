/* run_cgramap.h: what the cli tests share: run the built cgramap binary
 * (CG_CGRAMAP) and capture its exact stdout, stderr and exit status. */
#ifndef CG_TEST_RUN_CGRAMAP_H
#define CG_TEST_RUN_CGRAMAP_H

#include <fcntl.h>
#include <regex.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"

extern char **environ;

typedef struct run { int status; char out[65536]; char err[16384]; } run;

/* The first cap-1 bytes of the file at path into buf. */
static inline void slurp(const char *path, char *buf, size_t cap)
{
    size_t n;
    char *s = cg_slurp(path, &n);
    if (!s) fprintf(stderr, "cannot open %s\n", path);
    assert_non_null(s);
    n = n < cap - 1 ? n : cap - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    free(s);
}

/* A new folder from the mkdtemp template dir holding the file name with
 * text; its path into path.  remove_temp(dir) removes the folder. */
static inline void temp_file(char *dir, const char *name, const char *text,
                             char *path, size_t n)
{
    assert_non_null(mkdtemp(dir));
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static inline void remove_temp(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Run cgramap with args (NULL-terminated), capturing stderr, and stdout
 * unless to_path names the file it goes to instead (/dev/full: a
 * standard output that fails; r->out is then empty). */
static inline void run_cgramap_to(run *r, const char *to_path,
                                  const char *const *args)
{
    char out[] = "/tmp/cg_cli_outXXXXXX", err[] = "/tmp/cg_cli_errXXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    assert_true(fo >= 0 && fe >= 0);
    if (to_path) {
        close(fo);
        fo = open(to_path, O_WRONLY);
        assert_true(fo >= 0);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fo, 1);
    posix_spawn_file_actions_adddup2(&fa, fe, 2);
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)CG_CGRAMAP;
    for (; args[n - 1]; n++) argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, CG_CGRAMAP, &fa, NULL, argv, environ), 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    posix_spawn_file_actions_destroy(&fa);
    close(fo);
    close(fe);
    assert_true(WIFEXITED(st));
    r->status = WEXITSTATUS(st);
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    unlink(out);
    unlink(err);
}

/* Run cgramap with args (NULL-terminated), capturing both streams. */
static inline void run_cgramap(run *r, const char *const *args)
{
    run_cgramap_to(r, NULL, args);
}

/* Replace every time ("  0.12s", "12.50s") by " TIME" in place: the rest of
 * a row is exact. */
static inline void mask_times(char *s)
{
    regex_t re;
    assert_int_equal(regcomp(&re, " +[0-9]+\\.[0-9]+s ", REG_EXTENDED), 0);
    regmatch_t m;
    char *p = s;
    while (regexec(&re, p, 1, &m, 0) == 0) {
        char *a = p + m.rm_so, *b = p + m.rm_eo;
        memcpy(a, " TIME ", 6);
        memmove(a + 6, b, strlen(b) + 1);
        p = a + 6;
    }
    regfree(&re);
}

#endif
