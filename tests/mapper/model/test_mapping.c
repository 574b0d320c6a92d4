/* test_mapping.c: allocation of a mapping (mapper/model/mapping.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "mapper/map.h"

static void create_fills_defaults(void **state)
{
    (void)state;
    cg_mapping *m = cg_mapping_create(3, 4, 2);
    assert_non_null(m);
    assert_int_equal(m->ii, 3);
    assert_int_equal(m->nnodes, 4);
    assert_int_equal(m->nedges, 2);
    for (int v = 0; v < 4; v++) {
        assert_int_equal(m->place[v], -1);
        assert_int_equal(m->start[v], 0);
    }
    /* routes are owned by the mapping once stored */
    m->route[1] = malloc(2 * sizeof(int));
    m->route_len[1] = 2;
    cg_mapping_destroy(m);
}

static void create_rejects_bad_sizes(void **state)
{
    (void)state;
    assert_null(cg_mapping_create(0, 1, 1));
    assert_null(cg_mapping_create(1, -1, 0));
    cg_mapping_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_fills_defaults),
        cmocka_unit_test(create_rejects_bad_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
