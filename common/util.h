/* util.h: small helpers every stage uses, written once: a monotonic clock
 * (for wall-clock caps and reported seconds, never for results) and a
 * seeded random generator (xorshift64: the same sequence on every
 * machine, so a seed decides a result). */
#ifndef CG_UTIL_H
#define CG_UTIL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds on the monotonic clock. */
double cg_clock_now(void);

/* A xorshift64 generator; caller-owned, no global state. */
typedef struct cg_rng {
    uint64_t s;
} cg_rng;

/* Start from state s (a zero state is replaced: xorshift needs a bit). */
void cg_rng_init(cg_rng *r, uint64_t s);
uint64_t cg_rng_next(cg_rng *r);
/* Uniform in [0, 1), from the top 53 bits. */
double cg_rng_unit(cg_rng *r);

#ifdef __cplusplus
}
#endif

#endif
