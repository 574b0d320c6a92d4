/* util.c: the clock and the random generator of util.h. */
#include "util.h"

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
