/* doc_check.h: a Markdown document's shown commands run and their shown
 * output compared with what they print, so that the prose cannot drift
 * from the program (test_tutorial.c, test_cli_doc.c).
 *
 * A command is an indented line "    $ CMD"; it runs through sh in a given
 * folder with the built cgramap first on the PATH and must exit 0 (an
 * example of a failure ends "; echo "exit $?"" and shows the status).  The
 * output shown under it (the following lines indented by 4, and blank
 * lines, up to the next command or prose) must be its standard output,
 * but for the seconds ("0.12s", masked) and trailing blanks; a shown line
 * "..." (alone, indented or not) stands for any number of lines. */
#ifndef CG_TEST_DOC_CHECK_H
#define CG_TEST_DOC_CHECK_H

#include <libgen.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static void doc_read_all(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Run cmd (a shell line) in dir with cgramap's folder first on the PATH;
 * its stdout into out, its stderr into err; its exit status. */
static int doc_run_in(const char *dir, const char *cmd, char *out, char *err,
                      size_t cap)
{
    char bin[1024], line[4096], o[1100], e[1100];
    snprintf(bin, sizeof bin, "%s", CG_CGRAMAP);
    snprintf(o, sizeof o, "%s/.out", dir);
    snprintf(e, sizeof e, "%s/.err", dir);
    /* the braces: a command line of several commands is redirected whole */
    snprintf(line, sizeof line, "cd '%s' && PATH='%s':\"$PATH\"; { %s\n} "
             "> '%s' 2> '%s'", dir, dirname(bin), cmd, o, e);
    int st = system(line);
    doc_read_all(o, out, cap);
    doc_read_all(e, err, cap);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* s with every time ("0.12s") replaced by "TIME", the spaces before it
 * dropped (a longer time takes them), and trailing blanks cut from each
 * line, into out. */
static void doc_stable(const char *s, char *out, size_t cap)
{
    regex_t re;
    assert_int_equal(regcomp(&re, " *[0-9]+\\.[0-9]+s( |$)",
                             REG_EXTENDED | REG_NEWLINE), 0);
    size_t n = 0;
    regmatch_t m[2];
    while (regexec(&re, s, 2, m, 0) == 0) {
        n += (size_t)snprintf(out + n, cap - n, "%.*s TIME%s",
                              (int)m[0].rm_so, s,
                              m[1].rm_eo > m[1].rm_so ? " " : "");
        assert_true(n < cap);
        s += m[0].rm_eo;
    }
    n += (size_t)snprintf(out + n, cap - n, "%s", s);
    assert_true(n < cap);
    regfree(&re);
    size_t w = 0; /* trailing blanks out */
    for (size_t r = 0; r < n; r++) {
        if (out[r] == '\n')
            while (w && out[w - 1] == ' ')
                w--;
        out[w++] = out[r];
    }
    while (w && (out[w - 1] == ' ' || out[w - 1] == '\n'))
        w--;
    out[w] = '\0';
}

/* The output the document shows under a command: the lines after its
 * "    $ " line that are blank or indented by 4 (the indent cut), up to the
 * next command or prose; trailing blank lines dropped.  Reads from f;
 * *more when it stopped at the next command (left in line). */
static void doc_shown(FILE *f, char *line, size_t lcap, char *want,
                      size_t cap, bool *more)
{
    size_t n = 0, keep = 0;
    *more = false;
    want[0] = '\0';
    while (fgets(line, (int)lcap, f)) {
        bool blank = line[strspn(line, " \n")] == '\0';
        if (strncmp(line, "    $ ", 6) == 0) {
            *more = true;
            break;
        }
        if (!blank && strncmp(line, "    ", 4) != 0)
            break;
        const char *t = blank ? "\n" : line + 4;
        n += (size_t)snprintf(want + n, cap - n, "%s", t);
        assert_true(n < cap);
        if (!blank)
            keep = n;
    }
    want[keep] = '\0';
}

/* The length of the line at s, without its newline. */
static size_t doc_len(const char *s)
{
    return strcspn(s, "\n");
}

static bool doc_is_ellipsis(const char *s, size_t len)
{
    size_t b = strspn(s, " ");
    return len - b == 3 && strncmp(s + b, "...", 3) == 0;
}

/* Does got match want, line by line, a want line "..." standing for any
 * number of got lines? */
static bool doc_match(const char *want, const char *got)
{
    size_t wl = doc_len(want), gl;
    if (doc_is_ellipsis(want, wl)) {
        const char *rest = want[wl] ? want + wl + 1 : want + wl;
        for (const char *g = got;; g += gl + 1) {
            if (doc_match(rest, g))
                return true;
            gl = doc_len(g);
            if (!g[gl])
                return !*rest;
        }
    }
    gl = doc_len(got);
    if (wl != gl || strncmp(want, got, wl) != 0)
        return false;
    if (!want[wl])
        return !got[gl];
    /* got ended: what is left of want must be "..." lines */
    return doc_match(want + wl + 1, got[gl] ? got + gl + 1 : got + gl);
}

/* Run every command of the document md in dir, in order, each to exit 0
 * with the output shown under it; the commands run and the outputs
 * compared in *ncmd and *ncompared. */
static void doc_check(const char *md, const char *dir, int *ncmd,
                      int *ncompared)
{
    static char out[65536], err[65536], want[65536], a[65536], b[65536];
    FILE *f = fopen(md, "r");
    assert_non_null(f);
    char line[1024];
    bool next = false;
    *ncmd = *ncompared = 0;
    while (next || fgets(line, sizeof line, f)) {
        next = false;
        if (strncmp(line, "    $ ", 6) != 0)
            continue;
        line[strcspn(line, "\n")] = '\0';
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "%s", line + 6);
        int rc = doc_run_in(dir, cmd, out, err, sizeof out);
        if (rc != 0)
            fprintf(stderr, "%s: '%s' exited %d:\n%s%s", md, cmd, rc, out,
                    err);
        assert_int_equal(rc, 0);
        doc_shown(f, line, sizeof line, want, sizeof want, &next);
        if (want[0]) {
            doc_stable(want, a, sizeof a);
            doc_stable(out, b, sizeof b);
            if (!doc_match(a, b)) { /* whole: cmocka cuts long messages */
                fprintf(stderr, "%s shows under '%s':\n%s\nbut it prints:"
                        "\n%s\n", md, cmd, a, b);
                fail_msg("%s: the output shown under '%s' is not what it "
                         "prints (above)", md, cmd);
            }
            (*ncompared)++;
        }
        (*ncmd)++;
    }
    fclose(f);
}

#endif
