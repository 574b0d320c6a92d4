/* Tests for common/util.c: the growable array (capacities from 8,
 * doubling, kept when large enough) and cg_slurp (every byte, NUL bytes
 * included, and errno when a file cannot be read or, for cg_slurp_max, is
 * larger than its cap) and the data
 * generator's sequence.  The clock and cg_rng are tested by their users
 * (tests/mapper). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

static void grow_doubles(void **state)
{
    (void)state;
    int *v = NULL, cap = 0;
    assert_int_equal(CG_GROW(v, cap, 0), 0);
    assert_null(v); /* nothing needed, nothing allocated */
    assert_int_equal(CG_GROW(v, cap, 1), 0);
    assert_int_equal(cap, 8);
    v[7] = 7;
    int *same = v;
    assert_int_equal(CG_GROW(v, cap, 8), 0);
    assert_ptr_equal(v, same);
    assert_int_equal(CG_GROW(v, cap, 9), 0);
    assert_int_equal(cap, 16);
    assert_int_equal(CG_GROW(v, cap, 100), 0);
    assert_int_equal(cap, 128);
    assert_int_equal(v[7], 7); /* the contents move with the array */
    v[99] = 1;
    free(v);
}

static void slurp_bytes(void **state)
{
    (void)state;
    char path[] = "/tmp/cg_utilXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static char big[10000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)(i % 251);
    assert_int_equal(write(fd, big, sizeof big), (ssize_t)sizeof big);
    close(fd);
    size_t len = 0;
    char *s = cg_slurp(path, &len);
    assert_non_null(s);
    assert_int_equal(len, sizeof big);
    assert_memory_equal(s, big, sizeof big);
    assert_int_equal(s[len], 0);
    free(s);
    fd = open(path, O_WRONLY | O_TRUNC);
    close(fd);
    s = cg_slurp(path, &len);
    assert_string_equal(s, "");
    assert_int_equal(len, 0);
    free(s);
    unlink(path);
}

/* xorshift64* from state 1, its values worked out apart (Python). */
static void data_generator(void **state)
{
    (void)state;
    uint64_t s = 1;
    assert_int_equal(cg_rng_data_next(&s), 0x47e4ce4b896cdd1dULL);
    assert_int_equal(cg_rng_data_next(&s), 0xabcfa6a8e079651dULL);
    assert_int_equal(cg_rng_data_next(&s), 0xb9d10d8feb731f57ULL);
}

/* The cap: max bytes are read, max + 1 are EFBIG, and a stream without
 * end (/dev/zero) stops there instead of filling memory. */
static void slurp_max(void **state)
{
    (void)state;
    FILE *t = tmpfile();
    assert_non_null(t);
    for (int i = 0; i < 5000; i++)
        fputc('a' + i % 26, t);
    size_t len = 0;
    rewind(t);
    char *s = cg_slurp_stream_max(t, 5000, &len);
    assert_non_null(s);
    assert_int_equal(len, 5000);
    assert_int_equal(s[4999], 'a' + 4999 % 26);
    free(s);
    rewind(t);
    errno = 0;
    assert_null(cg_slurp_stream_max(t, 4999, &len));
    assert_int_equal(errno, EFBIG);
    rewind(t);
    assert_null(cg_slurp_stream_max(t, 10, &len)); /* below the first 4096 */
    assert_int_equal(errno, EFBIG);
    fclose(t);
    errno = 0;
    assert_null(cg_slurp_max("/dev/zero", 1 << 20, NULL));
    assert_int_equal(errno, EFBIG);
}

static void slurp_errors(void **state)
{
    (void)state;
    assert_null(cg_slurp("/nonexistent/file", NULL));
    assert_int_equal(errno, ENOENT);
    assert_null(cg_slurp("/tmp", NULL));
    assert_int_equal(errno, EISDIR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grow_doubles),
        cmocka_unit_test(slurp_bytes),
        cmocka_unit_test(slurp_max),
        cmocka_unit_test(slurp_errors),
        cmocka_unit_test(data_generator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
