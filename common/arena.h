/* arena.h: a region allocator for many small allocations that live and
 * die together (a parser's strings, a graph's names): each allocation
 * takes the next bytes of a chunk, and destroying the arena frees every
 * chunk at once; nothing is freed alone.
 *
 * Chunks hold `chunk_size` bytes each; a request that does not fit in what is
 * left of the current chunk starts a new one, and a request larger than a
 * chunk gets a chunk of its own (the current one stays in use for the
 * small requests after it).  Allocation failure returns NULL and leaves
 * the arena and what it holds as they were: it never aborts. */
#ifndef CG_ARENA_H
#define CG_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cg_arena cg_arena;

/* Default bytes per chunk (chunk 0 at creation). */
#define CG_ARENA_CHUNK 4096

/* An empty arena with chunks of `chunk_size` bytes (0 = CG_ARENA_CHUNK); no
 * chunk is allocated before the first request.  NULL on no memory. */
cg_arena *cg_arena_create(size_t chunk_size);
/* Free every allocation and the arena; accepts NULL. */
void cg_arena_destroy(cg_arena *a);

/* n bytes (0 counts as 1) at an address that is a multiple of align, a
 * power of two (0 = alignof(max_align_t)), uninitialised.  NULL on no
 * memory, when align is not a power of two or n is beyond what memory
 * can hold (n + align overflows half the address space). */
void *cg_arena_alloc(cg_arena *a, size_t n, size_t align);
/* A copy of s in the arena; NULL on no memory. */
char *cg_arena_strdup(cg_arena *a, const char *s);
/* A copy of at most n bytes of s, NUL-terminated; NULL on no memory. */
char *cg_arena_strndup(cg_arena *a, const char *s, size_t n);

/* Bytes the arena holds in its chunks (what cg_arena_destroy frees, its
 * bookkeeping aside): a multiple of the chunk size plus the large
 * requests' own chunks. */
size_t cg_arena_size(const cg_arena *a);

#ifdef __cplusplus
}
#endif

#endif
