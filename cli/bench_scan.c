/* bench_scan.c: which files the main job runs.  A folder with a Makefile is
 * a CGRA-ME style benchmark: each of its .c files is a job (its .dot files
 * are what `make` wrote from them, so they are skipped).  Elsewhere a .c
 * file is a job when it holds a //DFGLOOP: tag (any case) and every .dot
 * file is a DFG.  Folders are walked recursively in name order so rows come out in
 * the same order on every machine. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli/bench.h"
#include "cli/makefile.h"
#include "common/util.h"

#include <dirent.h>
#include <errno.h>
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

/* A folder's name: its last component, or the real folder's for "." and
 * ".." (`cgramap .` in a benchmark folder names its rows after it). */
static char *folder_name(const char *dir)
{
    char *b = base_name(dir, NULL);
    if (b && (!strcmp(b, ".") || !strcmp(b, ".."))) {
        char *real = realpath(dir, NULL);
        if (real && strcmp(real, "/")) {
            free(b);
            b = base_name(real, NULL);
        }
        free(real);
    }
    return b;
}

/* A //DFGLOOP: tag in any case (CGRA-ME's files write //DFGLoop:)?  1
 * or 0, -1 (errno set) when the file cannot be read. */
static int has_tag(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        for (const char *p = line; !found && (p = strchr(p, ':')); p++)
            found = p - line >= 7 && !strncasecmp(p - 7, "DFGLOOP", 7);
    fclose(f);
    return found;
}

/* The folder part of path ("." when none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
}

/* Whether job j may share its benchmark name with a new job of path, in
 * the folder dir (with a Makefile: mk): the same file named twice (the
 * same rows and files again), and the .c files of one CGRA-ME folder
 * (their loops differ by tag). */
static bool may_share(const cg_cli_job *j, const char *path, const char *dir,
                      bool mk)
{
    if (!strcmp(j->path, path))
        return true;
    char *jd = dir_of(j->path);
    bool same = mk && j->makefile && jd && dir && !strcmp(jd, dir);
    free(jd);
    return same;
}

/* The first earlier job named name that may not share it, -1 when none. */
static int taken_by(const cg_cli_jobs *js, const char *name,
                    const char *path, const char *dir, bool mk)
{
    for (int i = 0; i < js->n; i++)
        if (!strcmp(js->v[i].bench, name) &&
            !may_share(&js->v[i], path, dir, mk))
            return i;
    return -1;
}

/* A benchmark name no earlier job has (rows and --mapping-dir files are
 * named after it, so two files of one name in two folders once wrote the
 * same files): *bench, or *bench with "~2", "~3" ... and a note. */
static void unique_bench(const cg_cli_jobs *js, const char *path,
                         char **bench, bool mk)
{
    char *dir = dir_of(path);
    int first = *bench ? taken_by(js, *bench, path, dir, mk) : -1;
    for (int k = 2; first >= 0 && k < 1000000; k++) {
        char name[512];
        snprintf(name, sizeof name, "%.500s~%d", *bench, k);
        if (taken_by(js, name, path, dir, mk) >= 0)
            continue;
        fprintf(stderr, "%s: note: benchmark name '%s' is taken by %s; this "
                "file's rows and --mapping-dir files are named '%s'\n", path,
                *bench, js->v[first].path, name);
        free(*bench);
        *bench = strdup(name);
        break;
    }
    free(dir);
}

/* Add a job (bench: its malloc'd benchmark name, taken); -1 when out of
 * memory, said on stderr: the file is not run. */
static int push(cg_cli_jobs *js, cg_cli_job_kind kind, const char *path,
                char *bench, const char *makefile)
{
    unique_bench(js, path, &bench, makefile != NULL);
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

/* Whether the .dot at path has a tagged .c of its name beside it, whose
 * loops it most likely holds (cgramap dfg k.c -o k.dot): then it is
 * skipped, with a note, and the C file's rows stand. */
static bool beside_c(const char *path)
{
    size_t n = strlen(path) - 4;
    char *c = malloc(n + 3);
    if (!c)
        return false;
    snprintf(c, n + 3, "%.*s.c", (int)n, path);
    struct stat st;
    bool twin = stat(c, &st) == 0 && S_ISREG(st.st_mode) && has_tag(c);
    if (twin)
        fprintf(stderr, "%s: note: skipped: %s beside it is extracted, and "
                "this .dot is most likely its loop as cgramap dfg writes it; "
                "name the .dot as a PATH to map it on its own\n", path, c);
    free(c);
    return twin;
}

/* One PATH's walk: the folders it has been through (device and inode),
 * so that a link back to one of them (a -> .) is not followed again --
 * such a walk once never ended -- and whether anything could not be
 * read. */
typedef struct dir_id {
    dev_t dev;
    ino_t ino;
} dir_id;

typedef struct scan_ctx {
    cg_cli_jobs *out;
    dir_id *seen;
    int n, cap;
    int rc;
} scan_ctx;

static int scan_path(scan_ctx *c, const char *path);

/* Whether the folder st is new to the walk (then remembered). */
static bool first_visit(scan_ctx *c, const struct stat *st)
{
    for (int i = 0; i < c->n; i++)
        if (c->seen[i].dev == st->st_dev && c->seen[i].ino == st->st_ino)
            return false;
    if (CG_GROW(c->seen, c->cap, c->n + 1))
        return true; /* no memory: walk it (at worst twice) */
    c->seen[c->n++] = (dir_id){st->st_dev, st->st_ino};
    return true;
}

static void scan_entry(scan_ctx *c, const char *dir, const char *path,
                       const char *mk)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: note: skipped: %s\n", path, strerror(errno));
        return;
    }
    int tagged = 0;
    if (S_ISDIR(st.st_mode))
        c->rc |= scan_path(c, path);
    else if (mk && ends_with(path, ".c"))
        c->rc |= push(c->out, CG_CLI_JOB_C, path, folder_name(dir), mk);
    else if (!mk && ends_with(path, ".c") && (tagged = has_tag(path)) > 0)
        c->rc |= push(c->out, CG_CLI_JOB_C, path, base_name(path, ".c"),
                      NULL);
    else if (!mk && ends_with(path, ".dot") && !beside_c(path))
        c->rc |= push(c->out, CG_CLI_JOB_DOT, path, base_name(path, ".dot"),
                      NULL);
    if (tagged < 0) {
        fprintf(stderr, "%s: error: cannot read this file (%s); whether it "
                "holds a //DFGLOOP: tag is unknown\n", path, strerror(errno));
        c->rc = -1;
    }
}

static int scan_dir(scan_ctx *c, const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    if (n < 0) {
        fprintf(stderr, "%s: error: cannot read this folder (%s)\n", dir,
                strerror(errno));
        return -1;
    }
    struct stat st;
    char *mk = join(dir, "Makefile");
    bool has_mk = mk && stat(mk, &st) == 0 && S_ISREG(st.st_mode);
    for (int i = 0; i < n; i++) {
        char *path = ents[i]->d_name[0] != '.' ? join(dir, ents[i]->d_name)
                                               : NULL;
        if (path)
            scan_entry(c, dir, path, has_mk ? mk : NULL);
        free(path);
        free(ents[i]);
    }
    free(ents);
    free(mk);
    return 0;
}

/* A .c file named as a PATH: with a Makefile beside it, a job of that
 * CGRA-ME folder, as when the folder is named (the same flags, tags and
 * benchmark name); otherwise a file of its own. */
static int push_c(const char *path, cg_cli_jobs *out)
{
    char *mk = NULL, *dir = NULL;
    if (cg_cli_makefile_beside(path, &mk) != 0 ||
        (mk && !(dir = dir_of(path)))) {
        fprintf(stderr, "%s: error: out of memory: not run\n", path);
        free(mk);
        return -1;
    }
    int rc = push(out, CG_CLI_JOB_C, path,
                  mk ? folder_name(dir) : base_name(path, ".c"), mk);
    free(dir);
    free(mk);
    return rc;
}

static int scan_path(scan_ctx *c, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, errno == ENOENT ? "%s: error: no such file or folder\n"
                                        : "%s: error: cannot read it (%s)\n",
                path, strerror(errno));
        return -1;
    }
    cg_cli_jobs *out = c->out;
    if (S_ISDIR(st.st_mode)) {
        if (first_visit(c, &st))
            return scan_dir(c, path);
        fprintf(stderr, "%s: note: skipped: a link to a folder this walk has "
                "already been through\n", path);
        return 0;
    }
    if (ends_with(path, ".c"))
        return push_c(path, out);
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

int cg_cli_scan(const char *path, cg_cli_jobs *out)
{
    scan_ctx c = {.out = out};
    int rc = scan_path(&c, path);
    free(c.seen);
    return rc | c.rc;
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
