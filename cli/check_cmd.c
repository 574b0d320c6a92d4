/* check_cmd.c: `cgramap check`: read a saved mapping back and run the
 * independent checker (cg_map_check) on it, without mapping again: "ok",
 * or the checker's errors and exit status 1. */
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/saved.h"

#include "mapper/mapping_io.h"
#include "verify/verify.h"
#include "xml/xml.h"

#include "common/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Did reading the mapping fail on a name of the array's nodes, where
 * another array may be the cause, rather than on the file itself
 * (missing, empty, not a mapping of this DFG, a line written wrong, where
 * the note once followed too)? */
static bool unknown_name(const cg_diags *d, const char *mapping)
{
    for (int i = 0; i < cg_diags_size(d); i++) {
        const cg_diag *g = cg_diags_get(d, i);
        if (g->sev == CG_SEV_ERROR && g->file && !strcmp(g->file, mapping) &&
            g->msg && strstr(g->msg, "no MRRG node is named"))
            return true;
    }
    return false;
}

int cg_cli_saved_init(cg_cli_saved *s, const char *arch,
                      const char *templates, const char *dot,
                      const char *mapping)
{
    memset(s, 0, sizeof *s);
    s->d = cg_diags_create();
    if (!s->d)
        return -1;
    s->nl = cg_cli_load_netlist(arch, templates, s->d);
    s->g = s->nl ? cg_dfg_read_dot(dot, s->d) : NULL;
    s->m = s->g ? cg_mapping_read(mapping, s->nl, s->g, &s->mrrg, s->d)
                : NULL;
    if (s->g && !s->m && !arch && unknown_name(s->d, mapping))
        cg_diags_add(s->d, CG_SEV_NOTE, mapping, 0, "no --arch was given, so "
                     "the mapping was read against the embedded default "
                     "array; give the array it was made on with --arch "
                     "FILE.xml");
    return s->m ? 0 : -1;
}

/* The line of the mapping file (text) that places node name (key
 * 'p') or routes edge e (key 'r'), 0 when there is none. */
static int mapping_line(const char *text, char key, const char *name, int e)
{
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *end = strchr(p, '\n');
        int k, n = 0;
        char q[260];
        if (key == 'p' && sscanf(p, "place %d '%255[^']'%n", &k, q, &n) == 2 &&
            n && !strcmp(q, name))
            return line;
        if (key == 'r' && sscanf(p, "route %d %n", &k, &n) == 1 && n &&
            k == e)
            return line;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

/* The note that follows error e, into d, when e names a node or an edge
 * the mapping file places or routes. */
static void locate(const cg_diag *e, const char *text, const char *mapping,
                   cg_diags *d)
{
    char name[260];
    int k, line = 0;
    const char *m = e->msg ? e->msg : "";
    if (sscanf(m, "node '%255[^']'", name) == 1 &&
        (line = mapping_line(text, 'p', name, 0)) > 0)
        cg_diags_add(d, CG_SEV_NOTE, mapping, line, "the line that places "
                     "'%s'", name);
    else if (sscanf(m, "edge %d ", &k) == 1 &&
             (line = mapping_line(text, 'r', NULL, k)) > 0)
        cg_diags_add(d, CG_SEV_NOTE, mapping, line, "the line that routes "
                     "edge %d", k);
}

int cg_cli_saved_check(cg_cli_saved *s, const char *mapping)
{
    int first = cg_diags_size(s->d);
    if (cg_map_check(s->nl, s->mrrg, s->g, s->m, s->d) == 0)
        return 0;
    char *text = cg_slurp(mapping, NULL);
    cg_diags *d = text ? cg_diags_create() : NULL;
    if (!d) { /* no notes, the errors as they are */
        free(text);
        return -1;
    }
    for (int i = 0; i < cg_diags_size(s->d); i++) {
        const cg_diag *e = cg_diags_get(s->d, i);
        cg_diags_add(d, e->sev, e->file, e->line, "%s", e->msg ? e->msg : "");
        if (i >= first && e->sev == CG_SEV_ERROR)
            locate(e, text, mapping, d);
    }
    cg_diags_destroy(s->d);
    s->d = d;
    free(text);
    return -1;
}

void cg_cli_saved_free(cg_cli_saved *s)
{
    cg_diags_print(s->d, stderr);
    cg_mapping_destroy(s->m);
    cg_mrrg_destroy(s->mrrg);
    cg_dfg_destroy(s->g);
    cg_netlist_destroy(s->nl);
    cg_diags_destroy(s->d);
}

static void check_help(void)
{
    printf("Usage: cgramap check [--arch FILE.xml [--templates T.xml]]"
           "\n                     LOOP.dot MAPPING.txt\n"
           "Check a saved mapping (cgramap map --mapping, --mapping-dir)"
           " of LOOP.dot\nagain:"
           " print ok (exit 0), or the checker's errors (exit 1).\n");
}

/* Options into arch/templates, the two files into files; 0, 1 after
 * --help, 2 on bad usage. */
static int check_parse(int argc, char **argv, const char **arch,
                       const char **templates, const char **files)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    opterr = 0;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":h", opts, false,
                              "cgramap check", &abbrev)) != -1) {
        if (c == 'a' || c == 't') {
            *(c == 'a' ? arch : templates) = optarg;
            continue;
        }
        if (c == 'h') {
            check_help();
            return 1;
        }
        fprintf(stderr, c == ':' ? "cgramap check: option '%s' needs a "
                "value\n" : "cgramap check: unknown option '%s' (see "
                "cgramap check --help)\n", cg_cli_bad_opt(argv, (char[3]){0}));
        return 2;
    }
    if (abbrev)
        return 2;
    if (optind != argc - 2) {
        fprintf(stderr, "cgramap check: give LOOP.dot and MAPPING.txt"
                " (see cgramap check --help)\n");
        return 2;
    }
    files[0] = argv[optind];
    files[1] = argv[optind + 1];
    return 0;
}

int cg_cli_check(int argc, char **argv)
{
    const char *arch = NULL, *templates = NULL, *files[2];
    int p = check_parse(argc, argv, &arch, &templates, files);
    if (p)
        return p == 1 ? 0 : 2;
    cg_cli_saved s;
    bool ok = cg_cli_saved_init(&s, arch, templates, files[0],
                                files[1]) == 0 &&
              cg_cli_saved_check(&s, files[1]) == 0;
    if (ok)
        printf("ok\n");
    cg_cli_saved_free(&s);
    return ok ? 0 : 1;
}
