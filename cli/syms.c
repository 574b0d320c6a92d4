/* syms.c: --sym NAME=VALUE on the command line (syms.h). */
#include "cli/syms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of name in v[0..n), or n. */
static int find(const cg_extract_sym *v, int n, const char *name)
{
    int k = 0;
    while (k < n && strcmp(v[k].name, name))
        k++;
    return k;
}

int cg_cli_sym_add(cg_cli_syms *s, char *arg, const char *cmd)
{
    char *eq = strchr(arg, '='), *end = NULL;
    errno = 0;
    long long v = eq ? strtoll(eq + 1, &end, 0) : 0;
    if (!eq || eq == arg || end == eq + 1 || *end || errno) {
        fprintf(stderr, "%s: Invalid value for --sym: %s (NAME=INTEGER)\n",
                cmd, arg);
        return -1;
    }
    *eq = '\0';
    int k = find(s->v, s->n, arg);
    if (k == CG_EXTRACT_MAX_SYMS) {
        fprintf(stderr, "%s: more than %d --sym values\n", cmd,
                CG_EXTRACT_MAX_SYMS);
        return -1;
    }
    s->v[k].name = arg;
    s->v[k].value = v;
    s->n += k == s->n;
    return 0;
}

int cg_cli_syms_apply(cg_extract_params *p, const cg_cli_syms *s,
                      cg_diags *d)
{
    for (int i = 0; i < s->n; i++) {
        int k = find(p->syms, p->nsyms, s->v[i].name);
        if (k == CG_EXTRACT_MAX_SYMS) {
            cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "more than %d symbols "
                         "with --sym and the Makefile's DFG_FLAGS together",
                         CG_EXTRACT_MAX_SYMS);
            return -1;
        }
        p->syms[k] = s->v[i];
        p->nsyms += k == p->nsyms;
    }
    return 0;
}
