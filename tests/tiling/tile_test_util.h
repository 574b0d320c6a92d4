/* tile_test_util.h: targets and plans for the tiling tests.  Header-only;
 * include after cmocka.h. */
#ifndef CG_TILE_TEST_UTIL_H
#define CG_TILE_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "tests/common/golden.h"
#include "tests/tiling/nests.h"
#include "tiling/tile.h"

/* mem bytes in 2 banks every MEMUnit reaches; DMA 4 B/cycle, 10 setup
 * cycles, 1 channel, 4 unlimited dimensions */
static inline void test_target(cg_tile_target *t, int64_t mem)
{
    memset(t, 0, sizeof *t);
    t->memory = "spm";
    t->mem_bytes = mem;
    t->banks = 2;
    t->any_bank = true;
    t->bank_mask = 3;
    t->dma.ext_bytes = (int64_t)1 << 32;
    t->dma.bytes_per_cycle = 4;
    t->dma.setup_cycles = 10;
    t->dma.channels = 1;
    t->dma.max_dims = 4;
}

typedef struct planned {
    cg_tile_model *model;
    cg_tile_plan *plan;
} planned;

static inline planned plan(const nestb *b, const cg_tile_target *t)
{
    cg_diags *d = cg_diags_create();
    planned p = {cg_tile_model_build(&b->n, "k.c", d), NULL};
    if (p.model)
        p.plan = cg_tile_plan_model(p.model, t, NULL, d);
    if (cg_diags_errors(d))
        cg_diags_print(d, stderr);
    assert_int_equal(cg_diags_errors(d), 0);
    assert_non_null(p.plan);
    cg_diags_destroy(d);
    return p;
}

static inline void planned_free(planned *p)
{
    cg_tile_plan_destroy(p->plan);
    cg_tile_model_destroy(p->model);
}

/* Compare text with tests/tiling/golden/name (tests/common/golden.h). */
static inline void golden(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "tests/tiling/golden/%s", name);
    cg_golden_check(path, text);
}

/* Run fn(ctx, FILE*) into a string. */
static inline char *capture(void (*fn)(const void *, FILE *), const void *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(ctx, f);
    fclose(f);
    return buf;
}

#endif
