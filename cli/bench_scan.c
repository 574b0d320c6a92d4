/* bench_scan.c: which files the main job runs.  A folder with a Makefile is
 * a CGRA-ME style benchmark: each of its .c files is a job (its .dot files
 * are what `make` wrote from them, so they are skipped).  Elsewhere a .c
 * file is a job when it holds a //DFGLOOP: tag (any case) and every .dot
 * file is a DFG.  Folders are walked recursively in name order so rows come out in
 * the same order on every machine. */
#include "cli/bench.h"
#include "common/util.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* The last component of path without a trailing slash or suffix. */
static char *base_name(const char *path, const char *suffix)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/')
        b--;
    if (suffix && n - b > strlen(suffix) &&
        strncmp(path + n - strlen(suffix), suffix, strlen(suffix)) == 0)
        n -= strlen(suffix);
    return strndup(path + b, n - b);
}

/* A //DFGLOOP: tag in any case (CGRA-ME's files write //DFGLoop:). */
static bool has_tag(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        for (const char *p = line; !found && (p = strchr(p, ':')); p++)
            found = p - line >= 7 && !strncasecmp(p - 7, "DFGLOOP", 7);
    fclose(f);
    return found;
}

/* Add a job (bench: its malloc'd benchmark name, taken); -1 when out of
 * memory, said on stderr: the file is not run. */
static int push(cg_cli_jobs *js, cg_cli_job_kind kind, const char *path,
                char *bench, const char *makefile)
{
    char *p = strdup(path), *mk = makefile ? strdup(makefile) : NULL;
    if (!p || !bench || (makefile && !mk) ||
        CG_GROW(js->v, js->cap, js->n + 1)) {
        fprintf(stderr, "%s: error: out of memory: not run\n", path);
        free(p);
        free(mk);
        free(bench);
        return -1;
    }
    cg_cli_job *j = &js->v[js->n++];
    j->kind = kind;
    j->path = p;
    j->bench = bench;
    j->makefile = mk;
    j->loop = -1;
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static void scan_entry(const char *dir, const char *path, const char *mk,
                       cg_cli_jobs *out)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode))
        cg_cli_scan(path, out);
    else if (mk && ends_with(path, ".c"))
        push(out, CG_CLI_JOB_C, path, base_name(dir, NULL), mk);
    else if (!mk && ends_with(path, ".c") && has_tag(path))
        push(out, CG_CLI_JOB_C, path, base_name(path, ".c"), NULL);
    else if (!mk && ends_with(path, ".dot"))
        push(out, CG_CLI_JOB_DOT, path, base_name(path, ".dot"), NULL);
}

static int scan_dir(const char *dir, cg_cli_jobs *out)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    if (n < 0) {
        fprintf(stderr, "%s: error: cannot read this folder\n", dir);
        return -1;
    }
    struct stat st;
    char *mk = join(dir, "Makefile");
    bool has_mk = mk && stat(mk, &st) == 0 && S_ISREG(st.st_mode);
    for (int i = 0; i < n; i++) {
        char *path = ents[i]->d_name[0] != '.' ? join(dir, ents[i]->d_name)
                                               : NULL;
        if (path)
            scan_entry(dir, path, has_mk ? mk : NULL, out);
        free(path);
        free(ents[i]);
    }
    free(ents);
    free(mk);
    return 0;
}

int cg_cli_scan(const char *path, cg_cli_jobs *out)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: error: no such file or folder\n", path);
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return scan_dir(path, out);
    if (ends_with(path, ".c"))
        return push(out, CG_CLI_JOB_C, path, base_name(path, ".c"), NULL);
    /* other mappers' DFGs only when named: a folder's .xml may be an
     * architecture */
    static const char *const dfgs[] = {".dot", ".xml", ".txt", "_nodes"};
    for (int i = 0; i < 4; i++)
        if (ends_with(path, dfgs[i]))
            return push(out, CG_CLI_JOB_DOT, path, base_name(path, dfgs[i]),
                        NULL);
    fprintf(stderr, "%s: error: not a folder, a .c file or a DFG file "
            "(.dot; .xml, .txt, NAME_nodes: other mappers' DFGs)\n", path);
    return -1;
}

void cg_cli_jobs_free(cg_cli_jobs *j)
{
    for (int i = 0; i < j->n; i++) {
        free(j->v[i].path);
        free(j->v[i].bench);
        free(j->v[i].makefile);
    }
    free(j->v);
    memset(j, 0, sizeof *j);
}
