/* util.c: the clock, the random generator, the growable array and the
 * file reader of util.h. */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double cg_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void cg_rng_init(cg_rng *r, uint64_t s)
{
    r->s = s ? s : 0x9e3779b97f4a7c15ull;
}

uint64_t cg_rng_next(cg_rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

double cg_rng_unit(cg_rng *r)
{
    return (double)(cg_rng_next(r) >> 11) / 9007199254740992.0;
}

uint64_t cg_rng_data_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

int cg_grow(void **v, int *cap, int n, size_t sz)
{
    if (n <= *cap)
        return 0;
    int c = *cap > 0 ? *cap : 8;
    while (c < n)
        c *= 2;
    void *p = realloc(*v, (size_t)c * sz);
    if (!p)
        return -1;
    *v = p;
    *cap = c;
    return 0;
}

char *cg_slurp_stream_max(FILE *f, size_t max, size_t *len)
{
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap + 1);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n > max) { /* a device or FIFO may never end: stop here */
            free(buf);
            errno = EFBIG;
            return NULL;
        }
        if (n < cap)
            continue;
        cap = cap > max / 2 ? max + 1 : cap * 2; /* at most max + 1 read */
        char *b = realloc(buf, cap + 1);
        if (!b)
            free(buf);
        buf = b;
    }
    if (buf && ferror(f)) {
        free(buf);
        return NULL;
    }
    if (buf) {
        buf[n] = 0;
        if (len)
            *len = n;
    } else {
        errno = ENOMEM;
    }
    return buf;
}

int cg_write_end(FILE *out, bool built)
{
    /* A write that failed earlier (json_dumpf stops at it) left its errno;
     * the flush of what came after may then succeed. */
    int before = errno;
    int err = fflush(out) != 0 ? errno : before;
    if (ferror(out)) {
        errno = err ? err : EIO;
        return -1;
    }
    if (!built) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

char *cg_slurp_stream(FILE *f, size_t *len)
{
    return cg_slurp_stream_max(f, SIZE_MAX / 4, len);
}

char *cg_slurp_max(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = cg_slurp_stream_max(f, max, len);
    int e = errno;
    fclose(f);
    errno = e;
    return buf;
}

char *cg_slurp(const char *path, size_t *len)
{
    return cg_slurp_max(path, SIZE_MAX / 4, len);
}
