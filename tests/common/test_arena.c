/* Tests for common/arena.c: alignment of every request, growth past a
 * chunk with earlier bytes intact, a request larger than a chunk in a
 * chunk of its own (the current one still used after it), the string
 * copies, and NULL, with the arena unchanged, for a bad alignment, a size
 * beyond memory and a real allocation failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "common/arena.h"

/* Each request at a multiple of its alignment, and the bytes of one
 * request not touched by the next. */
static void aligned(void **state)
{
    (void)state;
    cg_arena *a = cg_arena_create(0);
    assert_non_null(a);
    assert_int_equal(cg_arena_size(a), 0); /* nothing before a request */
    static const size_t align[] = {1, 2, 4, 8, 16, 64, 256, 4096, 0};
    unsigned char *p[9];
    for (int i = 0; i < 9; i++) {
        assert_non_null(cg_arena_alloc(a, 1, 1)); /* misalign what follows */
        p[i] = cg_arena_alloc(a, 3, align[i]);
        assert_non_null(p[i]);
        size_t want = align[i] ? align[i] : alignof(max_align_t);
        assert_int_equal((uintptr_t)p[i] % want, 0);
        memset(p[i], 'a' + i, 3);
    }
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 3; j++)
            assert_int_equal(p[i][j], 'a' + i);
    /* the default chunk; the 4096-aligned request fits in it when its
     * free bytes hold a multiple of 4096, else it has its own chunk */
    size_t size = cg_arena_size(a);
    assert_true(size == CG_ARENA_CHUNK || size == CG_ARENA_CHUNK + 3 + 4095);
    /* a request of 0 bytes is a byte of its own */
    char *z0 = cg_arena_alloc(a, 0, 1), *z1 = cg_arena_alloc(a, 0, 1);
    assert_non_null(z0);
    assert_ptr_equal(z1, z0 + 1);
    cg_arena_destroy(a);
    cg_arena_destroy(NULL);
}

/* 16-byte requests in 64-byte chunks: four per chunk, a new chunk for the
 * fifth, and what the earlier ones hold stays. */
static void grows(void **state)
{
    (void)state;
    cg_arena *a = cg_arena_create(64);
    char *p[10];
    for (int i = 0; i < 10; i++) {
        p[i] = cg_arena_alloc(a, 16, 1);
        assert_non_null(p[i]);
        memset(p[i], '0' + i, 16);
        assert_int_equal(cg_arena_size(a), 64 * (size_t)(i / 4 + 1));
        if (i % 4)
            assert_ptr_equal(p[i], p[i - 1] + 16); /* the same chunk */
    }
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 16; j++)
            assert_int_equal(p[i][j], '0' + i);
    cg_arena_destroy(a);
}

/* A request larger than a chunk gets a chunk of exactly its size, and the
 * small request after it still goes to the current chunk. */
static void large(void **state)
{
    (void)state;
    cg_arena *a = cg_arena_create(64);
    char *small = cg_arena_alloc(a, 8, 1);
    char *big = cg_arena_alloc(a, 1000, 1);
    assert_non_null(small);
    assert_non_null(big);
    memset(big, 'b', 1000);
    assert_int_equal(cg_arena_size(a), 64 + 1000);
    assert_ptr_equal(cg_arena_alloc(a, 8, 1), small + 8);
    assert_int_equal(cg_arena_size(a), 64 + 1000);
    /* aligned beyond max_align_t: room for the alignment too */
    char *page = cg_arena_alloc(a, 100, 4096);
    assert_non_null(page);
    assert_int_equal((uintptr_t)page % 4096, 0);
    assert_int_equal(cg_arena_size(a), 64 + 1000 + 100 + 4095);
    assert_int_equal(big[999], 'b');
    cg_arena_destroy(a);
}

static void strings(void **state)
{
    (void)state;
    cg_arena *a = cg_arena_create(16);
    const char *src = "a name longer than a chunk";
    char *s = cg_arena_strdup(a, src);
    assert_string_equal(s, src);
    assert_ptr_not_equal(s, src);
    assert_string_equal(cg_arena_strndup(a, src, 6), "a name");
    assert_string_equal(cg_arena_strndup(a, "ab", 10), "ab"); /* to NUL */
    assert_string_equal(cg_arena_strdup(a, ""), "");
    /* read no further than n: no NUL within these 2 bytes */
    static const char unterminated[2] = {'x', 'y'};
    assert_string_equal(cg_arena_strndup(a, unterminated, 2), "xy");
    assert_string_equal(s, src);
    cg_arena_destroy(a);
}

/* Refused requests return NULL before any allocation; the arena is as it
 * was and goes on serving. */
static void refused(void **state)
{
    (void)state;
    cg_arena *a = cg_arena_create(64);
    char *kept = cg_arena_strdup(a, "kept");
    assert_null(cg_arena_alloc(a, 8, 3));
    assert_null(cg_arena_alloc(a, 8, 48));
    assert_null(cg_arena_alloc(a, SIZE_MAX, 1));
    assert_null(cg_arena_alloc(a, SIZE_MAX / 2, 1));
    assert_null(cg_arena_alloc(a, 8, (SIZE_MAX >> 1) + 1));
    assert_int_equal(cg_arena_size(a), 64);
    assert_ptr_equal(cg_arena_strdup(a, "next"), kept + 5);
    assert_string_equal(kept, "kept");
    cg_arena_destroy(a);
}

#if defined(__SANITIZE_ADDRESS__)
#define CG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CG_ASAN 1
#endif
#endif

/* malloc itself failing (a 1 GiB chunk under a 512 MiB data limit):
 * NULL, the arena unchanged.  Not under AddressSanitizer, whose allocator
 * stops the program on a failed allocation instead of returning NULL. */
static void malloc_fails(void **state)
{
    (void)state;
#ifdef CG_ASAN
    skip();
#else
    cg_arena *a = cg_arena_create(64);
    char *kept = cg_arena_strdup(a, "kept");
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_DATA, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)512 << 20;
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur)
        lim.rlim_cur = old.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_DATA, &lim), 0);
    void *p = cg_arena_alloc(a, (size_t)1 << 30, 0);
    assert_int_equal(setrlimit(RLIMIT_DATA, &old), 0);
    assert_null(p);
    assert_int_equal(cg_arena_size(a), 64);
    assert_string_equal(kept, "kept");
    assert_non_null(cg_arena_alloc(a, 100, 0)); /* a new chunk */
    assert_int_equal(cg_arena_size(a), 64 + 100);
    cg_arena_destroy(a);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aligned),
        cmocka_unit_test(grows),
        cmocka_unit_test(large),
        cmocka_unit_test(strings),
        cmocka_unit_test(refused),
        cmocka_unit_test(malloc_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
