/* util.h: small helpers every stage uses, written once: a monotonic clock
 * (for wall-clock caps and reported seconds, never for results), a
 * seeded random generator (xorshift64: the same sequence on every
 * machine, so a seed decides a result), a growable array and a whole file
 * read into memory. */
#ifndef CG_UTIL_H
#define CG_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
/* The generator of the reference runs' data (seeded memory images and
 * live-ins): xorshift64*, a sequence of its own, on state *s (not 0). */
uint64_t cg_rng_data_next(uint64_t *s);

/* Make room for n elements of sz bytes in the array *v of capacity *cap
 * (elements), doubling the capacity (from 8) until it holds n.  0, or -1
 * on no memory with *v and *cap unchanged.  Use CG_GROW on a typed array. */
int cg_grow(void **v, int *cap, int n, size_t sz);
#define CG_GROW(arr, cap, n) cg_grow((void **)&(arr), &(cap), (n), sizeof *(arr))

/* A macro's value as a string literal: CG_STR(CG_MAP_MAX_II) is "64". */
#define CG_STR_(x) #x
#define CG_STR(x) CG_STR_(x)

/* The whole file at path, NUL-terminated (malloc'd, the caller frees it),
 * its size in *len when len is not NULL.  NULL with errno set when it
 * cannot be read. */
char *cg_slurp(const char *path, size_t *len);
/* The same for what f holds from its position to its end (f stays open). */
char *cg_slurp_stream(FILE *f, size_t *len);
/* cg_slurp and cg_slurp_stream that read at most max + 1 bytes: NULL with
 * errno EFBIG when there are more than max (a device or a FIFO may never
 * end). */
char *cg_slurp_max(const char *path, size_t max, size_t *len);
char *cg_slurp_stream_max(FILE *f, size_t max, size_t *len);

/* The end of every writer of a stream (cg_dfg_write_dot, cg_mapping_write,
 * ...): out flushed, so that a full disk shows now and not at fclose.  0
 * when built is true and every byte reached out; else -1 with errno
 * ENOMEM (built false: the writer ran out of memory and wrote nothing or
 * a part) or the write's error: the flush's, or the errno an earlier
 * failed write left (EIO when there is none). */
int cg_write_end(FILE *out, bool built);

#ifdef __cplusplus
}
#endif

#endif
