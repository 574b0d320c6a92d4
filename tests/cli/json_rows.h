/* json_rows.h: what the cli tests that read the main job's --json share:
 * run cgramap, which must succeed, and load the rows it wrote.  Include
 * after cmocka.h and jansson.h. */
#ifndef CG_TEST_JSON_ROWS_H
#define CG_TEST_JSON_ROWS_H

#include "run_cgramap.h"

/* The JSON rows of a run (args write them to json) that must succeed. */
static inline json_t *rows_of(const char *const *args, const char *json)
{
    run r;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 0);
    json_error_t e;
    json_t *all = json_load_file(json, 0, &e);
    assert_non_null(all);
    return all;
}

#endif
