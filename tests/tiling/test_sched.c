/* Tests for tiling/sched.c: double-buffered timelines computed by hand
 * (every transfer of c = a + b in tiles of 50 elements moves 200 bytes:
 * 10 setup + 200/4 = 60 cycles), the printers and the parameter errors. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "tests/tiling/nests.h"
#include "tests/tiling/tile_test_util.h"
#include "tiling/tile.h"
#include "tiling/tile_internal.h"

typedef struct fixture {
    nestb b;
    planned p;
    cg_tile_program *g;
} fixture;

/* c = a + b over n elements, 6 buffers of 50 elements, `channels` DMA
 * channels. */
static fixture *vadd(int64_t n, int channels)
{
    fixture *f = calloc(1, sizeof *f);
    nest_vadd(&f->b, n);
    cg_tile_target t;
    test_target(&t, 1200);
    t.dma.channels = channels;
    f->p = plan(&f->b, &t);
    assert_int_equal(cg_tile_plan_summary(f->p.plan)->size[0], 50);
    cg_diags *d = cg_diags_create();
    f->g = cg_tile_program_build(f->p.plan, d);
    assert_non_null(f->g);
    cg_diags_destroy(d);
    return f;
}

static void fixture_free(fixture *f)
{
    cg_tile_program_destroy(f->g);
    planned_free(&f->p);
    free(f);
}

static cg_tile_sched sched(const fixture *f, int ii, int depth)
{
    cg_tile_sched s;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_tile_schedule(f->p.plan, f->g, ii, depth, &s, d), 0);
    assert_int_equal(cg_diags_errors(d), 0);
    cg_diags_destroy(d);
    return s;
}

static void compute_cycles_formula(void **state)
{
    (void)state;
    int64_t size[3] = {4, 5, 6};
    assert_int_equal(cg_tile_compute_cycles(size, 3, 2, 8), 4 * 5 * (6 * 2 + 8));
    assert_int_equal(cg_tile_compute_cycles(size, 1, 3, 0), 12);
}

/* 20 tiles, compute 50 * 4 = 200 cycles a tile against 180 of DMA: after
 * a0, b0 (120 cycles) the transfers hide behind compute k = [120+200k,
 * 320+200k) and only the last store (60) sticks out. */
static void dma_hidden_behind_compute(void **state)
{
    (void)state;
    fixture *f = vadd(1000, 1);
    cg_tile_sched s = sched(f, 4, 0);
    assert_int_equal(s.compute_cycles, 20 * 200);
    assert_int_equal(s.total_cycles, 120 + 20 * 200 + 60);
    assert_int_equal(s.stall_cycles, 120 + 60);
    assert_int_equal(s.dma_busy_cycles, 60 * 60);
    assert_int_equal(s.ntransfers, 60);
    assert_int_equal(s.in_bytes, 8000);
    assert_int_equal(s.out_bytes, 4000);
    assert_int_equal(s.ii, 4);
    fixture_free(f);
}

/* 4 tiles of 50 cycles, one channel:
 *   in a0 [0,60) b0 [60,120) a1 [120,180) b1 [180,240)  C0 [120,170)
 *   out c0 [240,300)  in a2 [300,360) b2 [360,420)      C1 [240,290)
 *   out c1 [420,480)  in a3 [480,540) b3 [540,600)      C2 [420,470)
 *   out c2 [600,660)                                    C3 [600,650)
 *   out c3 [660,720) */
static void dma_bound_one_channel(void **state)
{
    (void)state;
    fixture *f = vadd(200, 1);
    cg_tile_sched s = sched(f, 1, 0);
    assert_int_equal(s.compute_cycles, 200);
    assert_int_equal(s.total_cycles, 720);
    assert_int_equal(s.stall_cycles, 520);
    assert_int_equal(s.dma_busy_cycles, 720);
    assert_int_equal(s.ntransfers, 12);
    fixture_free(f);
}

/* The same on two channels (a transfer takes the channel that frees first,
 * the lower on a tie, never starting before the previous one):
 *   a0 [0,60)/0 b0 [0,60)/1 a1 [60,120)/0 b1 [60,120)/1      C0 [60,110)
 *   out c0 [120,180)/0 a2 [120,180)/1 b2 [180,240)/0         C1 [120,170)
 *   out c1 [180,240)/1 a3 [240,300)/0 b3 [240,300)/1         C2 [240,290)
 *   out c2 [300,360)/0                                       C3 [300,350)
 *   out c3 [350,410)/1 */
static void dma_bound_two_channels(void **state)
{
    (void)state;
    fixture *f = vadd(200, 2);
    cg_tile_sched s = sched(f, 1, 0);
    assert_int_equal(s.total_cycles, 410);
    assert_int_equal(s.stall_cycles, 210);
    assert_int_equal(s.dma_busy_cycles, 720);
    fixture_free(f);
}

/* One tile: in a, in b, compute, out c, nothing overlaps. */
static void whole_is_sequential(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 10);
    cg_tile_target t;
    test_target(&t, 4096);
    planned p = plan(&b, &t);
    cg_diags *d = cg_diags_create();
    cg_tile_program *g = cg_tile_program_build(p.plan, d);
    cg_tile_sched s;
    assert_int_equal(cg_tile_schedule(p.plan, g, 2, 8, &s, d), 0);
    /* each transfer 10 + 40/4 = 20 cycles; compute 10 * 2 + 8 */
    assert_int_equal(s.total_cycles, 20 + 20 + 28 + 20);
    assert_int_equal(s.stall_cycles, 60);
    cg_diags_destroy(d);
    cg_tile_program_destroy(g);
    planned_free(&p);
}

/* Over many plans: bytes == the plan's traffic, the timeline lies
 * between its lower bounds (all compute; all DMA on one channel) and the
 * fully sequential run (every step after the previous one), and the
 * schedule made without keeping the program (cg_tile_schedule_plan) is the
 * same. */
static void bounds_over_many_plans(void **state)
{
    (void)state;
    int runs = 0;
    for (int k = 0; k < 4; k++)
        for (int64_t mem = 200; mem <= 5000; mem = mem * 2) {
            nestb b;
            switch (k) {
            case 0: nest_gemm(&b, 9, 11, 7); break;
            case 1: nest_gemv(&b, 13, 17); break;
            case 2: nest_conv(&b, 9); break;
            default: nest_saxpy(&b, 300); break;
            }
            cg_tile_target t;
            test_target(&t, mem);
            cg_diags *d = cg_diags_create();
            cg_tile_model *m = cg_tile_model_build(&b.n, "k.c", d);
            cg_tile_plan *p = cg_tile_plan_model(m, &t, NULL, d);
            cg_tile_program *g = p ? cg_tile_program_build(p, d) : NULL;
            for (int ii = 1; g && ii <= 3; ii += 2) {
                cg_tile_sched s;
                assert_int_equal(cg_tile_schedule(p, g, ii, 4, &s, d), 0);
                assert_int_equal(s.in_bytes + s.out_bytes,
                                 cg_tile_plan_summary(p)->traffic);
                assert_true(s.total_cycles >= s.compute_cycles);
                assert_true(s.total_cycles >= s.dma_busy_cycles);
                assert_true(s.total_cycles <=
                            s.compute_cycles + s.dma_busy_cycles);
                assert_int_equal(s.stall_cycles,
                                 s.total_cycles - s.compute_cycles);
                /* made tile by tile without the program: the same */
                cg_tile_sched st;
                assert_int_equal(cg_tile_schedule_plan(p, ii, 4, &st, d), 0);
                assert_memory_equal(&st, &s, sizeof s);
                runs++;
            }
            cg_tile_program_destroy(g);
            cg_tile_plan_destroy(p);
            cg_tile_model_destroy(m);
            cg_diags_destroy(d);
        }
    assert_true(runs >= 20);
}

static void bad_parameters(void **state)
{
    (void)state;
    fixture *f = vadd(200, 1);
    cg_tile_sched s;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_tile_schedule(f->p.plan, f->g, 0, 8, &s, d), -1);
    char *msg = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&msg, &len);
    cg_diags_print(d, out);
    fclose(out);
    assert_string_equal(msg, "k.c: error: cannot schedule with II 0, depth 8 "
                        "and DMA bandwidth 4 bytes/cycle; II must be >= 1, "
                        "depth >= 0 and the bandwidth 0.001..1048576\n");
    free(msg);
    cg_diags_destroy(d);
    fixture_free(f);
}

typedef struct wctx {
    const cg_tile_sched *s;
    const cg_tile_plan *p;
} wctx;

static void write_sched(const void *ctx, FILE *out)
{
    const wctx *c = ctx;
    assert_int_equal(cg_tile_sched_write(c->s, c->p, out), 0);
}

static void golden_text_and_json(void **state)
{
    (void)state;
    fixture *f = vadd(200, 1);
    cg_tile_sched s = sched(f, 1, 0);
    wctx c = {&s, f->p.plan};
    char *txt = capture(write_sched, &c);
    golden("vadd200.sched.txt", txt);
    free(txt);
    json_t *j = cg__tile_sched_json(&s);
    char *js = json_dumps(j, JSON_PRESERVE_ORDER);
    assert_string_equal(js, "{\"ii\": 1, \"depth\": 0, \"total_cycles\": 720, "
                        "\"compute_cycles\": 200, \"stall_cycles\": 520, "
                        "\"dma_busy_cycles\": 720, \"transfers\": 12, "
                        "\"in_bytes\": 1600, \"out_bytes\": 800}");
    free(js);
    json_decref(j);
    fixture_free(f);
}

/* The plan, the schedule, the descriptor table and the JSON of vadd
 * written to /dev/full: each writer says that its bytes did not reach
 * the file (seen when it flushes). */
static void writers_full(void **state)
{
    (void)state;
    fixture *f = vadd(200, 1);
    cg_tile_sched s = sched(f, 1, 0);
    const cg_tile_descs *l = cg_tile_program_descs(f->g);
    for (int i = 0; i < 4; i++) {
        FILE *t = fopen("/dev/full", "w");
        assert_non_null(t);
        errno = 0;
        int rc = i == 0   ? cg_tile_plan_write(f->p.plan, t)
                 : i == 1 ? cg_tile_sched_write(&s, f->p.plan, t)
                 : i == 2 ? cg_tile_desc_write_table(l->v, l->n, NULL, t)
                          : cg_tile_write_json(f->p.plan, f->g, &s, t);
        assert_int_equal(rc, -1);
        assert_int_equal(errno, ENOSPC);
        fclose(t);
    }
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compute_cycles_formula),
        cmocka_unit_test(dma_hidden_behind_compute),
        cmocka_unit_test(dma_bound_one_channel),
        cmocka_unit_test(dma_bound_two_channels),
        cmocka_unit_test(whole_is_sequential),
        cmocka_unit_test(bounds_over_many_plans),
        cmocka_unit_test(bad_parameters),
        cmocka_unit_test(golden_text_and_json),
        cmocka_unit_test(writers_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
