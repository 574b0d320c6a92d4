/* strmap.h: a map from strings to ints (open addressing, linear probing).
 *
 * For the name lookups of the readers (dot nodes, modules, instances,
 * signals), which were linear scans and made reading quadratic in the
 * input's size.  Keys are copied into the map.  There is no removal and no
 * iteration: no caller needs them, and without iteration no output can
 * depend on the hash order. */
#ifndef CG_STRMAP_H
#define CG_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cg_strmap cg_strmap;

cg_strmap *cg_strmap_create(void);      /* NULL on no memory */
void cg_strmap_destroy(cg_strmap *m);   /* accepts NULL */
/* Map key to value, replacing the value a key had; -1 on no memory (the
 * map is unchanged then), else 0. */
int cg_strmap_put(cg_strmap *m, const char *key, int value);
/* The value of key into *value; false when key has none.  m may be NULL
 * (an empty map). */
bool cg_strmap_get(const cg_strmap *m, const char *key, int *value);
/* The same for the len bytes at key (no NUL needed there). */
bool cg_strmap_getn(const cg_strmap *m, const char *key, size_t len,
                    int *value);
/* Number of keys. */
size_t cg_strmap_count(const cg_strmap *m);

#ifdef __cplusplus
}
#endif

#endif
