/* flatten.h: the one flatten-or-fail of the tests (the mapper's and the
 * hardware stage's test headers share it).  Header-only; include after
 * cmocka.h.
 *
 * flatten_ok(a, d): a's netlist, which must flatten (a NULL a, say from
 * a reader that failed, fails too); d's messages go to stderr when it
 * does not.  Destroys a and d either way. */
#ifndef CG_TEST_FLATTEN_H
#define CG_TEST_FLATTEN_H

#include <stdio.h>

#include "arch/arch.h"
#include "common/diag.h"

static inline cg_netlist *flatten_ok(cg_arch *a, cg_diags *d)
{
    cg_netlist *nl = a ? cg_arch_flatten(a, d) : NULL;
    if (!nl)
        cg_diags_print(d, stderr);
    assert_non_null(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    return nl;
}

#endif
