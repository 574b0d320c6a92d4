/* failmalloc.c: an LD_PRELOAD library for oom.sh.  It counts the
 * allocations (malloc, calloc, realloc, strdup, strndup) that the program
 * itself makes, those called from its own code and not from a shared
 * library (libxml2, LLVM), and fails the CG_FAIL_AT-th one with ENOMEM.
 * At exit it writes the count to CG_FAIL_COUNT_FILE when that is set. */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

/* The program's executable segments, found at the first allocation. */
static uintptr_t lo[8], hi[8];
static int nseg, inited;
static long count, fail_at = -1;

static int program_segments(struct dl_phdr_info *info, size_t size, void *a)
{
    (void)size, (void)a;
    if (info->dlpi_name && info->dlpi_name[0])
        return 0; /* a shared library: the program comes first, unnamed */
    for (int i = 0; i < info->dlpi_phnum && nseg < 8; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            lo[nseg] = info->dlpi_addr + ph->p_vaddr;
            hi[nseg] = lo[nseg] + ph->p_memsz;
            nseg++;
        }
    }
    return 1;
}

/* Is this allocation, called from ra, the one to fail? */
static int fail_here(void *ra)
{
    if (!inited) {
        inited = 1;
        const char *s = getenv("CG_FAIL_AT");
        fail_at = s ? atol(s) : -1;
        dl_iterate_phdr(program_segments, NULL);
    }
    int mine = 0;
    for (int i = 0; i < nseg; i++)
        mine |= (uintptr_t)ra >= lo[i] && (uintptr_t)ra < hi[i];
    if (!mine || ++count != fail_at)
        return 0;
    errno = ENOMEM;
    return 1;
}

__attribute__((destructor)) static void write_count(void)
{
    const char *path = getenv("CG_FAIL_COUNT_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%ld\n", count);
        fclose(f);
    }
}

#define CALLER __builtin_return_address(0)

void *malloc(size_t n)
{
    return fail_here(CALLER) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    return fail_here(CALLER) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    return fail_here(CALLER) ? NULL : __libc_realloc(p, n);
}

static char *copy(const char *s, size_t n)
{
    char *c = __libc_malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = 0;
    }
    return c;
}

char *strdup(const char *s)
{
    return fail_here(CALLER) ? NULL : copy(s, strlen(s));
}

char *strndup(const char *s, size_t n)
{
    return fail_here(CALLER) ? NULL : copy(s, strnlen(s, n));
}
