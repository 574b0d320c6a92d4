/* diag_list.h: what the DFG reader tests share: d holds exactly the
 * messages of a NULL-ended list, in order.  Include after cmocka.h. */
#ifndef CG_TEST_DIAG_LIST_H
#define CG_TEST_DIAG_LIST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/diag.h"

static inline void expect_diag_list(cg_diags *d, va_list ap)
{
    int i = 0;
    for (const char *want; (want = va_arg(ap, const char *)); i++) {
        if (i >= cg_diags_size(d))
            fail_msg("missing error: %s", want);
        char *have = cg_diag_format(cg_diags_get(d, i));
        assert_string_equal(have, want);
        free(have);
    }
    if (i != cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_int_equal(cg_diags_size(d), i);
}

#endif
