/* glpk_reset.h: the teardown of a test that sets GLPK's memory limit
 * (tests of the guard around GLPK, search/lp.c's cg__glpk_guard); the
 * test links GLPK itself (its folder's CMakeLists.txt). */
#ifndef CG_TEST_GLPK_RESET_H
#define CG_TEST_GLPK_RESET_H

#include <glpk.h>

/* A fresh GLPK environment, without the limit, for the tests after it,
 * whatever the test did. */
static inline int glpk_reset(void **state)
{
    (void)state;
    glp_free_env();
    return 0;
}

#endif
