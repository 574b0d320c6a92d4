/* extract_prog.c: a C file compiled for extraction.  clang-16 turns it into
 * bitcode in a private temporary directory (its messages become notes of
 * one error; clang runs in the file's folder, so relative -I flags in a
 * benchmark's CFLAGS work as they do for make there), the module is loaded, the //DFGLOOP tags are read from the
 * source text (never rewritten), and every global gets its address in the
 * memory layout that DFGs and native runs share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>

#include "../common/util.h"
#include "extract_internal.h"

/* The flags of issue 3: -O2 without the passes that would vectorise,
 * unroll or outline the loop away.  The user's CFLAGS go between -O2 and
 * the rest, as CGRA-ME's rules.mk puts CFLAGS before its
 * OPT_DISABLE_FLAGS: clang-16 lets a later -O3 turn vectorising back on.
 * -fno-discard-value-names keeps the source names of values (live-in
 * symbols, counters); it changes no code. */
static const char *const clang_flags[] = {
    "-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops",
    "-fno-builtin-memset", "-fno-builtin-memcpy", "-fno-builtin-memmove",
    "-fno-inline-functions", "-gline-tables-only", "-emit-llvm",
    "-fno-discard-value-names"};

#define LAYOUT_BASE 0x10000u

char *cg__ex_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

void cg_extract_params_init(cg_extract_params *p)
{
    memset(p, 0, sizeof *p);
    p->phi_removal = true;
    p->leaf_removal = true;
    p->hoist = true;
    p->addr_width = 32;
}

/* argv of the clang run: -O2, the user's cflags split on blanks (words is
 * cut in place), the other flags, -c. */
static char **clang_argv(char *words, const char *src, const char *bc)
{
    int nflags = (int)(sizeof clang_flags / sizeof *clang_flags);
    char **argv = calloc((size_t)nflags + strlen(words) / 2 + 8, sizeof *argv);
    if (!argv)
        return NULL;
    int k = 0;
    argv[k++] = (char *)CG_CLANG;
    argv[k++] = "-O2";
    for (char *w = words; *w;) {
        while (*w == ' ' || *w == '\t' || *w == '\n')
            *w++ = 0;
        if (!*w)
            break;
        argv[k++] = w;
        while (*w && *w != ' ' && *w != '\t' && *w != '\n')
            w++;
    }
    for (int i = 0; i < nflags; i++)
        argv[k++] = (char *)clang_flags[i];
    argv[k++] = "-c";
    argv[k++] = (char *)src;
    argv[k++] = "-o";
    argv[k++] = (char *)bc;
    return argv;
}

/* clang's stderr: its first error at its line ("file:line:col: error:
 * msg"), its first CLANG_NOTES lines as notes and the count of the rest (a
 * binary file made clang write 16 KB, all of it echoed). */
enum { CLANG_NOTES = 8 };

static void clang_failed(const char *path, int status, const char *err,
                         cg_diags *d)
{
    const char *first = strstr(err, " error: ");
    int line = 0, n = 0;
    if (first) {
        const char *s = first;
        while (s > err && s[-1] != '\n')
            s--;
        /* s = "file:line:col: error: ..." */
        const char *c = strchr(s, ':');
        if (c && c < first)
            line = atoi(c + 1);
        first += 8;
        const char *e = strchr(first, '\n');
        n = e ? (int)(e - first) : (int)strlen(first);
    }
    if (first)
        cg_diags_add(d, CG_SEV_ERROR, path, line, "clang-16: %.*s", n, first);
    else
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "clang-16 could not compile "
                     "the file (exit status %d)", status);
    const char *l = err;
    int shown = 0, dropped = 0;
    while (*l) {
        const char *e = strchr(l, '\n');
        int len = e ? (int)(e - l) : (int)strlen(l);
        if (len > 0 && shown < CLANG_NOTES) {
            /* a line of a binary file may be kilobytes long too */
            cg_diags_add(d, CG_SEV_NOTE, NULL, 0, "%.*s%s", len > 200 ? 200 : len,
                         l, len > 200 ? " ..." : "");
            shown++;
        } else if (len > 0) {
            dropped++;
        }
        l += len + (e ? 1 : 0);
    }
    if (dropped)
        cg_diags_add(d, CG_SEV_NOTE, NULL, 0, "(%d more lines of clang's "
                     "messages not shown)", dropped);
}

static int run_clang(const char *path, const char *cflags, const char *dir,
                     cg_diags *d, char **bc_out)
{
    size_t dl = strlen(dir) + 16;
    char *bc = malloc(dl), *errf = malloc(dl);
    char *words = cg__ex_strdup(cflags ? cflags : "");
    char *folder = cg__ex_strdup(path);
    char *slash = folder ? strrchr(folder, '/') : NULL;
    const char *base = slash ? path + (slash - folder) + 1 : path;
    if (slash)
        slash[slash == folder ? 1 : 0] = 0;
    char **argv = bc && errf && words && folder
                      ? clang_argv(words, base, bc) : NULL;
    int rc = -1;
    if (!argv) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
        goto out;
    }
    snprintf(bc, dl, "%s/k.bc", dir);
    snprintf(errf, dl, "%s/err.txt", dir);
    /* fork + exec: only async-signal-safe calls in the child */
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int nul = open("/dev/null", O_WRONLY);
        if (fd < 0 || nul < 0 || dup2(fd, 2) < 0 || dup2(nul, 1) < 0 ||
            (slash && chdir(folder) != 0))
            _exit(126);
        execv(CG_CLANG, argv);
        _exit(127);
    }
    if (pid < 0) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "cannot start %s: %s",
                     CG_CLANG, strerror(errno));
        goto out;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (code == 126 || code == 127) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "cannot run %s (exit status "
                     "%d; is clang-16 installed?)", CG_CLANG, code);
        goto out;
    }
    if (code != 0) {
        char *msg = cg_slurp(errf, NULL);
        clang_failed(path, code, msg ? msg : "", d);
        free(msg);
        goto out;
    }
    rc = 0;
    *bc_out = bc;
    bc = NULL;
out:
    free(argv);
    free(words);
    free(folder);
    free(bc);
    if (errf)
        unlink(errf);
    free(errf);
    return rc;
}

static int load_module(cg_extract_prog *x, const char *bc, cg_diags *d)
{
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(bc, &buf, &msg)) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "cannot read clang's "
                     "bitcode: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    int bad = LLVMParseBitcodeInContext2(x->ctx, buf, &x->mod);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "cannot parse clang's "
                     "bitcode");
        return -1;
    }
    x->td = LLVMGetModuleDataLayout(x->mod);
    return 0;
}

/* Compile into a fresh temporary directory and load the result. */
static int compile(cg_extract_prog *x, cg_diags *d)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp && tmp[0] != '/')
        tmp = NULL; /* clang runs elsewhere: the directory must be absolute */
    char dir[512];
    snprintf(dir, sizeof dir, "%s/cgramap-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "cannot create a temporary "
                     "directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
                     strerror(errno));
        return -1;
    }
    char *bc = NULL;
    int rc = run_clang(x->path, x->cflags, dir, d, &bc);
    if (rc == 0)
        rc = load_module(x, bc, d);
    if (bc)
        unlink(bc);
    free(bc);
    rmdir(dir);
    return rc;
}

/* The closing quote of the string or character literal opened at p, or
 * the character before the end of the line when it is not closed. */
static char *skip_literal(char *p)
{
    char *q = p + 1;
    while (*q && *q != *p && *q != '\n') {
        if (*q == '\\' && q[1] && q[1] != '\n')
            q++;
        q++;
    }
    return *q == *p ? q : q - 1;
}

/* "//" at p, blanks, then "DFGLOOP:" in any case: the tag's name after
 * blanks, else NULL. */
static char *tag_at(char *p)
{
    if (p[0] != '/' || p[1] != '/')
        return NULL;
    p += 2;
    while (*p == ' ' || *p == '\t')
        p++;
    /* CGRA-ME's own files write //DFGLoop: */
    if (strncasecmp(p, "DFGLOOP:", 8) != 0)
        return NULL;
    for (p += 8; *p == ' ' || *p == '\t';)
        p++;
    return p;
}

/* The end of the block comment opened at p (its last character; the
 * text's last when it is not closed), lines counted.  A tag in it is
 * commented out like the code around it: ignored, with a warning. */
static char *skip_comment(const cg_extract_prog *x, char *p, int *line,
                          cg_diags *d)
{
    char *q = p + 2;
    for (; *q && !(q[0] == '*' && q[1] == '/'); q++) {
        *line += *q == '\n';
        if (tag_at(q))
            cg_diags_add(d, CG_SEV_WARNING, x->path, *line, "a //DFGLOOP tag "
                         "inside a /* */ comment is ignored; take it out of "
                         "the comment to extract the loop");
    }
    return *q ? q + 1 : q - 1;
}

/* "//DFGLOOP: name" anywhere on a line outside string literals and block
 * comments (spaces allowed after // and :, DFGLOOP in any case). */
static int read_tags(cg_extract_prog *x, cg_diags *d)
{
    size_t len = 0;
    char *src = cg_slurp(x->path, &len);
    if (src && strlen(src) != len) { /* a binary: clang would say so at length */
        int line = 1;
        for (const char *p = src; *p; p++)
            line += *p == '\n';
        cg_diags_add(d, CG_SEV_ERROR, x->path, line, "a NUL byte; a C file is "
                     "text (is this the right file?)");
        free(src);
        return -1;
    }
    if (!src && errno == EISDIR) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "is a directory, not a C "
                     "file; name a .c file with //DFGLOOP tags");
        return -1;
    }
    if (!src) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "cannot read the file: %s",
                     strerror(errno));
        return -1;
    }
    size_t plen = strlen(x->path);
    if (plen < 2 || strcmp(x->path + plen - 2, ".c") != 0) {
        /* clang would take it as a linker input and leave no bitcode: a
           puzzling message */
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "not a C file (.c): loops "
                     "are extracted from C source with //DFGLOOP tags; a "
                     "DFG (.dot, .xml, .txt) goes to cgramap map or the main "
                     "job");
        free(src);
        return -1;
    }
    int line = 1, rc = 0;
    bool in_comment = false; /* after // on this line */
    for (char *p = src; *p; p++) {
        if (*p == '\n') {
            line++;
            in_comment = false;
            continue;
        }
        if (!in_comment && (*p == '"' || *p == '\'')) {
            p = skip_literal(p);
            continue;
        }
        if (!in_comment && p[0] == '/' && p[1] == '*') {
            p = skip_comment(x, p, &line, d);
            continue;
        }
        if (p[0] != '/' || p[1] != '/')
            continue;
        char *q = tag_at(p);
        in_comment = true;
        if (!q) {
            p++; /* skip the slashes only */
            continue;
        }
        int n = 0;
        while (q[n] && q[n] != '\n' && q[n] != ' ' && q[n] != '\t' &&
               q[n] != '\r')
            n++;
        if (n == 0) {
            cg_diags_add(d, CG_SEV_ERROR, x->path, line, "//DFGLOOP: tag "
                         "without a name (write //DFGLOOP: name)");
            x->bad_tags = true;
        } else if (memchr(q, '/', (size_t)n)) {
            /* the tag names files (--mapping-dir DIR/BENCH.TAG.txt): a '/'
               would put them in other folders */
            cg_diags_add(d, CG_SEV_ERROR, x->path, line, "loop tag '%.*s' "
                         "has a '/'; a tag names the loop's files, so write "
                         "it without one (letters, digits, '_', '-', '.')",
                         n, q);
            x->bad_tags = true;
            n = -n;
        } else {
            for (int i = 0; i < x->ntags; i++)
                if ((int)strlen(x->tags[i].name) == n &&
                    !strncmp(x->tags[i].name, q, (size_t)n)) {
                    cg_diags_add(d, CG_SEV_ERROR, x->path, line, "loop tag "
                                 "'%.*s' is already used at line %d; tags "
                                 "must be unique in a file", n, q,
                                 x->tags[i].line);
                    x->bad_tags = true;
                    n = -n;
                    break;
                }
        }
        if (n > 0) {
            cg__ex_tag *t = realloc(x->tags, (size_t)(x->ntags + 1) * sizeof *t);
            char *name = t ? strndup(q, (size_t)n) : NULL;
            x->tags = t ? t : x->tags;
            if (!name) {
                cg_diags_add(d, CG_SEV_ERROR, x->path, line, "out of memory");
                rc = -1;
                break;
            }
            t[x->ntags].name = name;
            t[x->ntags++].line = line;
        }
        p = q + (n < 0 ? -n : n) - 1;
    }
    x->src = src;
    return rc;
}

int cg__ex_type_bits(const cg_extract_prog *x, LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
        return (int)LLVMGetIntTypeWidth(t);
    return (int)LLVMSizeOfTypeInBits(x->td, t);
}

/* A fixed-size array on the stack: an alloca of an array type in the
 * entry block (scalars are promoted to registers by -O2). */
static bool stack_array(LLVMValueRef i)
{
    return LLVMIsAAllocaInst(i) &&
           LLVMGetTypeKind(LLVMGetAllocatedType(i)) == LLVMArrayTypeKind &&
           LLVMIsAConstantInt(LLVMGetOperand(i, 0)) &&
           LLVMConstIntGetZExtValue(LLVMGetOperand(i, 0)) == 1;
}

static int count_stack_arrays(LLVMModuleRef m)
{
    int n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
         f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMIsDeclaration(f) ? NULL
                                    : LLVMGetEntryBasicBlock(f);
             bb; bb = NULL)
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
                 i = LLVMGetNextInstruction(i))
                n += stack_array(i);
    return n;
}

/* The stack arrays of every function, after the globals (from at): a
 * loop that reads one can then be verified (extract_run.c copies the
 * frame's bytes in).  Returns the end. */
static uint64_t stack_arrays(cg_extract_prog *x, uint64_t at)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(x->mod); f;
         f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        int k = 0;
        for (LLVMValueRef i = LLVMGetFirstInstruction(
                 LLVMGetEntryBasicBlock(f));
             i; i = LLVMGetNextInstruction(i)) {
            if (!stack_array(i))
                continue;
            size_t fl, il;
            const char *fn = LLVMGetValueName2(f, &fl);
            const char *in = LLVMGetValueName2(i, &il);
            char name[256];
            if (il)
                snprintf(name, sizeof name, "%s.%s", fn, in);
            else
                snprintf(name, sizeof name, "%s.stack%d", fn, k);
            k++;
            at = (at + 15) / 16 * 16;
            cg_extract_global *e = &x->globals[x->nglobals];
            e->name = cg__ex_strdup(name);
            e->base = at;
            e->bytes = LLVMABISizeOfType(x->td, LLVMGetAllocatedType(i));
            e->is_stack = true;
            x->gvs[x->nglobals++] = i;
            at += e->bytes ? e->bytes : 1;
        }
    }
    return at;
}

/* How the code uses the pointer loaded from a global: 1 when only as a
 * scalar (loads and stores right at it: int n = *N), 0 otherwise (indexed,
 * passed on); *bytes the widest such access. */
static int scalar_use(const cg_extract_prog *x, LLVMValueRef ld,
                      uint64_t *bytes)
{
    for (LLVMUseRef u = LLVMGetFirstUse(ld); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef v = LLVMGetUser(u);
        LLVMValueRef at = LLVMIsALoadInst(v)    ? LLVMGetOperand(v, 0)
                          : LLVMIsAStoreInst(v) ? LLVMGetOperand(v, 1)
                                                : NULL;
        if (at != ld)
            return 0;
        LLVMTypeRef t = LLVMIsALoadInst(v)
                            ? LLVMTypeOf(v)
                            : LLVMTypeOf(LLVMGetOperand(v, 0));
        uint64_t b = LLVMABISizeOfType(x->td, t);
        *bytes = b > *bytes ? b : *bytes;
    }
    return 1;
}

/* Whether global g (a pointer) is only loaded and then read or written
 * right at the address it holds (a scalar through a pointer, *N); *bytes
 * the widest access. */
static bool read_as_scalar(const cg_extract_prog *x, LLVMValueRef g,
                           uint64_t *bytes)
{
    bool any = false;
    *bytes = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef v = LLVMGetUser(u);
        if (!LLVMIsALoadInst(v) || !scalar_use(x, v, bytes))
            return false;
        any = true;
    }
    return any && *bytes > 0 && *bytes <= 8;
}

/* A null pointer global: one pointer, writable, no initializer but 0. */
static bool null_pointer(const cg_extract_global *e, LLVMValueRef g)
{
    LLVMValueRef init = LLVMGetInitializer(g);
    return e->is_ptr && e->bytes == 8 && !e->is_const &&
           (!init || LLVMIsNull(init));
}

uint64_t cg_extract_buffer_bytes(int64_t largest_value)
{
    uint64_t v = largest_value > 0 ? (uint64_t)largest_value : 0;
    uint64_t b = v < (1ull << 40) ? 8 * (v + 64) : 8ull << 40;
    return b < 4096 ? 4096 : (b + 15) / 16 * 16;
}

/* The value symbol name has in p, or the default. */
static int64_t sym_or_default(const cg_extract_params *p, const char *name,
                              bool *assumed)
{
    for (int k = 0; k < p->nsyms; k++)
        if (!strcmp(p->syms[k].name, name)) {
            *assumed = false;
            return p->syms[k].value;
        }
    *assumed = true;
    return CG_EXTRACT_PTR_VALUE;
}

/* One seeded buffer after everything else for each null pointer global,
 * named "*P": a value for one read as a scalar, else an array sized after
 * the largest such value (cg_extract_buffer_bytes).  x->globals has room
 * for them (layout counts them). */
static uint64_t pointer_buffers(cg_extract_prog *x, uint64_t at)
{
    int n = x->nglobals;
    int64_t most = CG_EXTRACT_PTR_VALUE;
    bool *scalar = calloc((size_t)n + 1, sizeof *scalar);
    if (!scalar)
        return at; /* out of memory: the pointers keep the old target */
    for (int g = 0; g < n; g++) {
        uint64_t width;
        scalar[g] = !x->globals[g].is_stack &&
                    null_pointer(&x->globals[g], x->gvs[g]) &&
                    read_as_scalar(x, x->gvs[g], &width);
        bool dflt;
        int64_t v = scalar[g] ? sym_or_default(&x->params,
                                               x->globals[g].name, &dflt)
                              : 0;
        most = v > most ? v : most;
    }
    for (int g = 0; g < n; g++) {
        if (x->globals[g].is_stack || !null_pointer(&x->globals[g],
                                                    x->gvs[g]))
            continue;
        char *name = malloc(strlen(x->globals[g].name) + 2);
        if (!name)
            continue; /* out of memory: the pointer keeps the old target */
        sprintf(name, "*%s", x->globals[g].name);
        at = (at + 15) / 16 * 16;
        cg_extract_global *e = &x->globals[x->nglobals];
        *e = (cg_extract_global){.name = name, .base = at, .is_buffer = true};
        e->is_value = scalar[g];
        e->bytes = scalar[g] ? 16 : cg_extract_buffer_bytes(most);
        if (scalar[g])
            e->value = sym_or_default(&x->params, x->globals[g].name,
                                      &e->assumed);
        x->gvs[x->nglobals++] = NULL;
        at += e->bytes;
    }
    free(scalar);
    return at;
}

/* Every defined global, in module order, aligned to at least 16 bytes,
 * then the stack arrays, then the buffers of null pointer globals. */
static int layout(cg_extract_prog *x)
{
    int n = count_stack_arrays(x->mod);
    for (LLVMValueRef g = LLVMGetFirstGlobal(x->mod); g;
         g = LLVMGetNextGlobal(g))
        n += 2; /* the global, perhaps a buffer it points at */
    x->globals = calloc((size_t)n + 1, sizeof *x->globals);
    x->gvs = calloc((size_t)n + 1, sizeof *x->gvs);
    if (!x->globals || !x->gvs)
        return -1;
    uint64_t at = LAYOUT_BASE;
    for (LLVMValueRef g = LLVMGetFirstGlobal(x->mod); g;
         g = LLVMGetNextGlobal(g)) {
        if (LLVMIsDeclaration(g))
            continue;
        uint64_t align = LLVMGetAlignment(g);
        if (align < 16)
            align = 16;
        at = (at + align - 1) / align * align;
        cg_extract_global *e = &x->globals[x->nglobals];
        size_t len;
        const char *nm = LLVMGetValueName2(g, &len);
        e->name = cg__ex_strdup(nm);
        if (!e->name) /* the symbol of a base address would be lost */
            return -1;
        e->base = at;
        e->bytes = LLVMABISizeOfType(x->td, LLVMGlobalGetValueType(g));
        e->is_const = LLVMIsGlobalConstant(g);
        LLVMTypeRef t = LLVMGlobalGetValueType(g);
        while (LLVMGetTypeKind(t) == LLVMArrayTypeKind)
            t = LLVMGetElementType(t);
        e->is_ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind &&
                    LLVMABISizeOfType(x->td, t) == 8;
        x->gvs[x->nglobals++] = g;
        at += e->bytes ? e->bytes : 1;
    }
    at = stack_arrays(x, at);
    at = pointer_buffers(x, at);
    x->mem_base = LAYOUT_BASE;
    x->mem_size = (at + 15) / 16 * 16 - LAYOUT_BASE;
    return 0;
}

int cg__ex_global_index(const cg_extract_prog *x, LLVMValueRef gv)
{
    for (int i = 0; i < x->nglobals; i++)
        if (x->gvs[i] == gv)
            return i;
    return -1;
}

cg_extract_prog *cg_extract_open(const char *c_path,
                                 const cg_extract_params *p, cg_diags *d)
{
    cg_extract_prog *x = calloc(1, sizeof *x);
    if (!x) {
        cg_diags_add(d, CG_SEV_ERROR, c_path, 0, "out of memory");
        return NULL;
    }
    if (p)
        x->params = *p;
    else
        cg_extract_params_init(&x->params);
    x->path = cg__ex_strdup(c_path);
    /* the exit values stay computed in the loop: clang's IndVarSimplify
     * otherwise replaces a sum like s += i by its formula and deletes the
     * loop */
    const char *keep = x->params.keep_exit_values ? " -mllvm "
                       "-replexitval=never" : "";
    const char *cf = x->params.cflags ? x->params.cflags : "";
    x->cflags = malloc(strlen(cf) + strlen(keep) + 1);
    if (x->cflags)
        strcat(strcpy(x->cflags, cf), keep);
    int rc = !x->path || !x->cflags ? -1 : 0;
    x->params.cflags = x->cflags;
    x->ctx = LLVMContextCreate();
    if (rc)
        cg_diags_add(d, CG_SEV_ERROR, c_path, 0, "out of memory");
    else if (read_tags(x, d) || compile(x, d))
        rc = -1;
    else if (layout(x)) {
        cg_diags_add(d, CG_SEV_ERROR, c_path, 0, "out of memory laying out "
                     "the globals");
        rc = -1;
    } else if (!(rc = cg__ex_find_loops(x, d)) && x->params.hoist)
        rc = cg__ex_hoist(x, d);
    if (rc) {
        cg_extract_close(x);
        return NULL;
    }
    return x;
}

static void free_done(cg__ex_done *e)
{
    free(e->tag);
    free(e->fn);
    free(e->in);
    free(e->out);
}

void cg_extract_close(cg_extract_prog *x)
{
    if (!x)
        return;
    for (int i = 0; i < x->ntags; i++)
        free(x->tags[i].name);
    free(x->tags);
    for (int i = 0; i < x->nglobals; i++)
        free((char *)x->globals[i].name);
    free(x->globals);
    free(x->gvs);
    for (int i = 0; i < x->nloops; i++)
        free(x->loops[i].blocks);
    free(x->loops);
    for (int i = 0; i < x->ndone; i++)
        free_done(&x->done[i]);
    free(x->done);
    if (x->mod)
        LLVMDisposeModule(x->mod);
    LLVMContextDispose(x->ctx);
    free(x->cflags);
    free(x->src);
    free(x->path);
    free(x);
}

int cg_extract_ntags(const cg_extract_prog *x) { return x->ntags; }
const char *cg_extract_tag(const cg_extract_prog *x, int i)
{
    return i >= 0 && i < x->ntags ? x->tags[i].name : NULL;
}
int cg_extract_tag_line(const cg_extract_prog *x, int i)
{
    return i >= 0 && i < x->ntags ? x->tags[i].line : 0;
}

int cg_extract_nglobals(const cg_extract_prog *x) { return x->nglobals; }
const cg_extract_global *cg_extract_global_get(const cg_extract_prog *x,
                                               int i)
{
    return i >= 0 && i < x->nglobals ? &x->globals[i] : NULL;
}

int cg_extract_global_find(const cg_extract_prog *x, const char *name)
{
    for (int i = 0; i < x->nglobals; i++)
        if (!strcmp(x->globals[i].name, name))
            return i;
    return -1;
}

int cg_extract_image(const cg_extract_prog *x, cg_mem *mem)
{
    mem->base = x->mem_base;
    mem->size = x->mem_size;
    mem->data = calloc(1, (size_t)x->mem_size);
    return mem->data ? 0 : -1;
}

/* The buffer "*P" of pointer global g, -1 when it has none. */
static int buffer_of(const cg_extract_prog *x, int g)
{
    for (int b = 0; b < x->nglobals; b++)
        if (x->globals[b].is_buffer && x->globals[b].name[0] == '*' &&
            !strcmp(x->globals[b].name + 1, x->globals[g].name))
            return b;
    return -1;
}

void cg_extract_fill_random(const cg_extract_prog *x, cg_mem *mem,
                            uint64_t seed)
{
    uint64_t s = seed ? seed : 1; /* xorshift never leaves 0 */
    uint64_t target = 0, most = 0;
    for (int g = 0; g < x->nglobals; g++)
        if (!x->globals[g].is_const && !x->globals[g].is_ptr &&
            !x->globals[g].is_stack && !x->globals[g].is_buffer &&
            x->globals[g].bytes > most)
            most = x->globals[g].bytes, target = x->globals[g].base;
    for (int g = 0; g < x->nglobals; g++) {
        const cg_extract_global *gl = &x->globals[g];
        if (gl->is_const || gl->base < mem->base ||
            gl->base + gl->bytes > mem->base + mem->size)
            continue;
        uint8_t *at = mem->data + (gl->base - mem->base);
        int b = gl->is_ptr ? buffer_of(x, g) : -1;
        uint64_t to = b >= 0 ? x->globals[b].base : target;
        for (uint64_t k = 0; k < gl->bytes; k++)
            at[k] = gl->is_ptr ? (uint8_t)(to >> (8 * (k % 8)))
                    : gl->is_value ? (uint8_t)((uint64_t)gl->value >>
                                               (8 * (k % 8)))
                                   : (uint8_t)cg_rng_data_next(&s);
    }
}

static void no_such_tag(const cg_extract_prog *x, const char *tag,
                        cg_diags *d)
{
    size_t len = 1;
    for (int i = 0; i < x->ntags; i++)
        len += strlen(x->tags[i].name) + 2;
    char *list = calloc(1, len);
    for (int i = 0; list && i < x->ntags; i++) {
        if (i)
            strcat(list, ", ");
        strcat(list, x->tags[i].name);
    }
    cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "no loop tagged '%s' (tags "
                 "in the file: %s)", tag, x->ntags && list ? list : "none");
    free(list);
}

cg_dfg *cg_extract_loop(cg_extract_prog *x, const char *tag, cg_diags *d)
{
    for (int i = 0; i < x->ntags; i++) {
        if (strcmp(x->tags[i].name, tag))
            continue;
        int l = cg__ex_match_tag(x, &x->tags[i], d);
        cg_dfg *g = l < 0 ? NULL : cg__ex_build(x, &x->tags[i], l, d);
        if (g) /* its addresses are the layout's: a saved .dot says so */
            cg_dfg_set_memory(g, x->mem_base, x->mem_size);
        return g;
    }
    no_such_tag(x, tag, d);
    return NULL;
}

const cg_extract_params *cg_extract_prog_params(const cg_extract_prog *x)
{
    return &x->params;
}

bool cg_extract_loop_gone(const cg_extract_prog *x, const char *tag)
{
    cg_diags *d = cg_diags_create();
    bool gone = false;
    for (int i = 0; d && i < x->ntags; i++)
        if (!strcmp(x->tags[i].name, tag))
            gone = cg__ex_match_tag(x, &x->tags[i], d) == -2;
    cg_diags_destroy(d);
    return gone;
}

int64_t cg_extract_trip(const cg_dfg *g)
{
    const cg_nest *n = cg_dfg_nest(g);
    return n && n->nloops > 0 ? n->loops[n->nloops - 1].trip : -1;
}

static int push(cg_dfg ***out, int *n, cg_dfg *g, cg_diags *d)
{
    cg_dfg **a = realloc(*out, (size_t)(*n + 1) * sizeof *a);
    if (!a) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "out of memory");
        cg_dfg_destroy(g);
        return -1;
    }
    *out = a;
    a[(*n)++] = g;
    return 0;
}

int cg_extract_file(const char *c_path, const char *loop_tag,
                    const cg_extract_params *p, cg_dfg ***out, int *n,
                    cg_diags *d)
{
    *out = NULL;
    *n = 0;
    cg_extract_prog *x = cg_extract_open(c_path, p, d);
    if (!x)
        return -1;
    int rc = x->bad_tags ? -1 : 0; /* said in d; the good tags go on */
    if (loop_tag) {
        cg_dfg *g = cg_extract_loop(x, loop_tag, d);
        rc = g ? push(out, n, g, d) | rc : -1;
    } else {
        if (x->ntags == 0 && !x->bad_tags) {
            cg_diags_add(d, CG_SEV_ERROR, c_path, 0, "no //DFGLOOP: tag in "
                         "the file (put '//DFGLOOP: name' on the line of a "
                         "loop)");
            rc = -1;
        }
        for (int i = 0; i < x->ntags; i++) {
            cg_dfg *g = cg_extract_loop(x, x->tags[i].name, d);
            if (!g || push(out, n, g, d))
                rc = -1;
        }
    }
    cg_extract_close(x);
    return rc;
}
