/* strmap.c: see strmap.h.  A power-of-two table of slots kept at most half
 * full, so that a probe sequence ends at an empty slot soon. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

typedef struct slot {
    char *key;      /* NULL: empty */
    size_t len;
    uint64_t hash;
    int value;
} slot;

struct cg_strmap {
    slot *v;
    size_t cap;     /* a power of two */
    size_t n;
};

/* FNV-1a, 64 bits. */
static uint64_t hash(const char *s, size_t len)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211u;
    }
    return h;
}

cg_strmap *cg_strmap_create(void)
{
    cg_strmap *m = calloc(1, sizeof *m);
    if (m && !(m->v = calloc(16, sizeof *m->v))) {
        free(m);
        return NULL;
    }
    if (m)
        m->cap = 16;
    return m;
}

void cg_strmap_destroy(cg_strmap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        free(m->v[i].key);
    free(m->v);
    free(m);
}

/* The slot of key, or the empty slot where it would go. */
static slot *probe(const slot *v, size_t cap, const char *key, size_t len,
                   uint64_t h)
{
    for (size_t i = (size_t)h & (cap - 1);; i = (i + 1) & (cap - 1)) {
        const slot *s = &v[i];
        if (!s->key || (s->hash == h && s->len == len &&
                        memcmp(s->key, key, len) == 0))
            return (slot *)s;
    }
}

static int grow(cg_strmap *m)
{
    size_t cap = 2 * m->cap;
    slot *v = calloc(cap, sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        const slot *s = &m->v[i];
        if (s->key)
            *probe(v, cap, s->key, s->len, s->hash) = *s;
    }
    free(m->v);
    m->v = v;
    m->cap = cap;
    return 0;
}

int cg_strmap_put(cg_strmap *m, const char *key, int value)
{
    size_t len = strlen(key);
    uint64_t h = hash(key, len);
    slot *s = probe(m->v, m->cap, key, len, h);
    if (s->key) {
        s->value = value;
        return 0;
    }
    if (2 * (m->n + 1) > m->cap) {
        if (grow(m))
            return -1;
        s = probe(m->v, m->cap, key, len, h);
    }
    char *k = malloc(len + 1);
    if (!k)
        return -1;
    memcpy(k, key, len + 1);
    *s = (slot){k, len, h, value};
    m->n++;
    return 0;
}

bool cg_strmap_getn(const cg_strmap *m, const char *key, size_t len,
                    int *value)
{
    if (!m)
        return false;
    const slot *s = probe(m->v, m->cap, key, len, hash(key, len));
    if (s->key)
        *value = s->value;
    return s->key != NULL;
}

bool cg_strmap_get(const cg_strmap *m, const char *key, int *value)
{
    return cg_strmap_getn(m, key, strlen(key), value);
}

size_t cg_strmap_count(const cg_strmap *m) { return m ? m->n : 0; }
