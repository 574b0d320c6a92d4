/* arena.c: the region allocator of arena.h, a list of chunks, the newest
 * first, each filled from its start. */
#include "arena.h"

#include <assert.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
    struct chunk *next;
    size_t size;          /* bytes in data */
    size_t used;          /* bytes of data taken */
    max_align_t data[];   /* aligned for any type */
} chunk;

struct cg_arena {
    chunk *head;          /* where small requests go: the newest regular
                             chunk (a large request's own chunk is linked
                             after it) */
    size_t chunk;         /* bytes per regular chunk */
    size_t size;          /* bytes in every chunk's data */
};

cg_arena *cg_arena_create(size_t chunk_size)
{
    cg_arena *a = calloc(1, sizeof *a);
    if (a)
        a->chunk = chunk_size ? chunk_size : CG_ARENA_CHUNK;
    return a;
}

void cg_arena_destroy(cg_arena *a)
{
    if (!a)
        return;
    for (chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

/* n bytes aligned to align from what c has left; NULL when they do not
 * fit. */
static void *fit(chunk *c, size_t n, size_t align)
{
    uintptr_t base = (uintptr_t)c->data;
    uintptr_t at = (base + c->used + (align - 1)) & ~(uintptr_t)(align - 1);
    size_t off = (size_t)(at - base);
    if (off > c->size || c->size - off < n)
        return NULL;
    c->used = off + n;
    assert(c->used <= c->size);
    return (void *)at;
}

void *cg_arena_alloc(cg_arena *a, size_t n, size_t align)
{
    if (align == 0)
        align = alignof(max_align_t);
    if ((align & (align - 1)) != 0 || align > SIZE_MAX / 2 ||
        n > SIZE_MAX / 2 - align)
        return NULL;
    if (n == 0)
        n = 1;
    void *p = a->head ? fit(a->head, n, align) : NULL;
    if (p)
        return p;
    /* A new chunk with room for n at any address the allocator gives. */
    size_t need = n + (align > alignof(max_align_t) ? align - 1 : 0);
    bool own = need > a->chunk;
    size_t size = own ? need : a->chunk;
    chunk *c = malloc(sizeof *c + size);
    if (!c)
        return NULL;
    c->size = size;
    c->used = 0;
    if (own && a->head) { /* the current chunk keeps the small requests */
        c->next = a->head->next;
        a->head->next = c;
    } else {
        c->next = a->head;
        a->head = c;
    }
    a->size += size;
    void *p2 = fit(c, n, align);
    assert(p2); /* need bytes hold n at any alignment up to align */
    return p2;
}

char *cg_arena_strndup(cg_arena *a, const char *s, size_t n)
{
    const char *end = memchr(s, 0, n);
    size_t len = end ? (size_t)(end - s) : n;
    char *c = cg_arena_alloc(a, len + 1, 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = 0;
    }
    return c;
}

char *cg_arena_strdup(cg_arena *a, const char *s)
{
    return cg_arena_strndup(a, s, strlen(s));
}

size_t cg_arena_size(const cg_arena *a)
{
    return a->size;
}
