/* test_options.c: the effort options (cli/options.c) set the budgets of
 * every DFG size they name, and a bad value is refused with its message
 * left to stderr. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/options.h"
#include "mapper/map.h"

/* --conflicts sets the SAT limit of small and large DFGs, and the one of
 * a large recurrence-bound DFG's first II; --steps and --moves set both
 * of theirs. */
static void test_effort_sets_every_size(void **state)
{
    (void)state;
    cg_map_params p;
    cg_map_params_init(&p);
    assert_int_equal(p.sat_conflicts, 60000);
    assert_int_equal(p.large_conflicts, 2000);
    assert_int_equal(p.large_rec_conflicts, 30000);
    assert_int_equal(cg_cli_effort_opt("cgramap", CG_CLI_OPT_CONFLICTS, "7",
                                       &p), 0);
    assert_int_equal(p.sat_conflicts, 7);
    assert_int_equal(p.large_conflicts, 7);
    assert_int_equal(p.large_rec_conflicts, 7);
    assert_int_equal(cg_cli_effort_opt("cgramap", CG_CLI_OPT_STEPS, "9", &p),
                     0);
    assert_int_equal(p.heur_steps, 9);
    assert_int_equal(p.large_steps, 9);
    assert_int_equal(cg_cli_effort_opt("cgramap", CG_CLI_OPT_MOVES, "11",
                                       &p), 0);
    assert_int_equal(p.nego_moves, 11);
    assert_int_equal(p.large_moves, 11);
    assert_int_equal(p.retry_moves, 11);
    /* refused: the budgets stay */
    assert_int_equal(cg_cli_effort_opt("cgramap", CG_CLI_OPT_CONFLICTS, "-1",
                                       &p), -1);
    assert_int_equal(p.large_rec_conflicts, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_effort_sets_every_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
