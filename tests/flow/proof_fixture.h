/* proof_fixture.h: mapper results made up II by II, for the tests of
 * what a mapping proved (tests/flow/test_proof.c) and of the row columns
 * made from it (tests/cli/test_map_cols.c). */
#ifndef CG_TESTS_FLOW_PROOF_FIXTURE_H
#define CG_TESTS_FLOW_PROOF_FIXTURE_H

#include <string.h>

#include "mapper/map.h"

/* A result with MII res/rec and the outcomes of IIs lo, lo+1, ... as a
 * string: 'i' infeasible, 't' timeout, 'm' mapped, '.' not tried
 * (none of them refuted in part by SAT: refuted -1; no register bound's
 * figures: reg_need -1). */
static inline cg_map_result result(cg_map_status st, int res, int rec,
                                   int lo, const char *outcomes)
{
    cg_map_result r;
    memset(&r, 0, sizeof r);
    r.status = st;
    r.mii.res_mii = res;
    r.mii.rec_mii = rec;
    r.mii.mii = res > rec ? res : rec;
    r.mii.bottleneck = CG_OP_LOAD;
    for (int k = 0; outcomes[k]; k++) {
        r.ii = lo + k;
        if (outcomes[k] == '.')
            continue;
        r.tried[r.ntried].ii = lo + k;
        r.tried[r.ntried].refuted = -1;
        r.tried[r.ntried].reg_need = -1;
        r.tried[r.ntried++].outcome = outcomes[k] == 'i' ? CG_II_INFEASIBLE
                                    : outcomes[k] == 't' ? CG_II_TIMEOUT
                                    : CG_II_MAPPED;
    }
    return r;
}

#endif
