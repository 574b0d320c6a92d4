/* files.c: output files.  A regular file (or a new one) is written whole or
 * not at all: the content goes to a temporary file beside it, renamed over
 * the target at the end, so a failure never leaves a truncated file.  A
 * symbolic link keeps pointing where it did: the file it names is the one
 * replaced, or made.  A target that is not a regular file (a FIFO, a terminal,
 * /dev/stdout) cannot be replaced and is written in place; "-" is standard
 * output.  New files get the mode the umask leaves of 0666, replaced files
 * keep theirs. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli/commands.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cg_cli_strerror(int err)
{
    return err == ENOMEM ? "out of memory" : strerror(err);
}

/* The failure, with errno's reason; standard output is named, not "-". */
static int fail(const char *path, int err)
{
    const char *why = cg_cli_strerror(err);
    if (!strcmp(path, "-"))
        fprintf(stderr, "cgramap: error: cannot write standard output "
                "(%s)\n", why);
    else
        fprintf(stderr, "%s: error: cannot write this file (%s)\n", path,
                why);
    return -1;
}

/* errno after a failed call that may not have set it. */
static int cause(void)
{
    return errno ? errno : EIO;
}

/* fn's output into f, then closed; 0 when every byte went out, else the
 * errno of the first failure. */
static int finish(FILE *f, cg_cli_writer fn, void *arg)
{
    errno = 0;
    int err = fn(arg, f) != 0 ? cause() : 0;
    errno = 0;
    if (fclose(f) != 0 && !err)
        err = cause();
    return err;
}

/* Is st the file open as descriptor fd? */
static bool same_file(const struct stat *st, int fd)
{
    struct stat o;
    return fstat(fd, &o) == 0 && o.st_dev == st->st_dev &&
           o.st_ino == st->st_ino;
}

/* Standard output or error (as "-", /dev/stdout or any other name of the
 * same file), a FIFO, a device: written where it is, after what the
 * stream already holds. */
static int write_in_place(const char *path, const struct stat *st,
                          cg_cli_writer fn, void *arg)
{
    FILE *s = !strcmp(path, "-") || same_file(st, 1) ? stdout
              : same_file(st, 2)                      ? stderr
                                                      : NULL;
    if (s) {
        fflush(stdout);
        errno = 0;
        int bad = fn(arg, s) != 0 || fflush(s) != 0 || ferror(s);
        return bad ? fail(path, cause()) : 0;
    }
    FILE *f = fopen(path, "w");
    int err = f ? finish(f, fn, arg) : errno;
    return err ? fail(path, err) : 0;
}

/* The mode a new file gets: 0666 less the umask (read without changing
 * it for good: cgramap has no threads). */
static mode_t new_mode(void)
{
    mode_t m = umask(0);
    umask(m);
    return 0666 & ~m;
}

/* A regular file or a new one: temporary file, then rename.  real is the
 * target with symbolic links resolved. */
static int write_whole(const char *path, const char *real, mode_t mode,
                       cg_cli_writer fn, void *arg)
{
    size_t n = strlen(real) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return fail(path, ENOMEM);
    snprintf(tmp, n, "%s.tmpXXXXXX", real);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 && fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
    int err = f ? finish(f, fn, arg) : errno;
    if (!f && fd >= 0)
        close(fd);
    if (!err && rename(tmp, real) != 0)
        err = errno;
    if (err && fd >= 0)
        unlink(tmp);
    free(tmp);
    return err ? fail(path, err) : 0;
}

/* Where a symbolic link to no file points, through at most 40 links
 * (relative targets from the link's folder), into out; path itself when
 * it is not a link.  0, or -1 with errno set (a loop: ELOOP).  A new file
 * is written there, so the link keeps pointing where it did, as it does
 * for an existing file (it was replaced by a regular file). */
static int link_target(const char *path, char *out, size_t n)
{
    if (snprintf(out, n, "%s", path) >= (int)n)
        return errno = ENAMETOOLONG, -1;
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        char to[PATH_MAX];
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return 0;
        ssize_t k = readlink(out, to, sizeof to - 1);
        if (k < 0)
            return -1;
        to[k] = 0;
        const char *slash = strrchr(out, '/');
        int dir = to[0] != '/' && slash ? (int)(slash - out) + 1 : 0;
        char next[PATH_MAX];
        if (snprintf(next, sizeof next, "%.*s%s", dir, out, to) >=
                (int)sizeof next || snprintf(out, n, "%s", next) >= (int)n)
            return errno = ENAMETOOLONG, -1;
    }
    return errno = ELOOP, -1;
}

int cg_cli_write_file(const char *path, cg_cli_writer fn, void *arg)
{
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (!strcmp(path, "-") ||
        (exists && (!S_ISREG(st.st_mode) || same_file(&st, 1) ||
                    same_file(&st, 2))))
        return write_in_place(path, &st, fn, arg);
    char real[PATH_MAX];
    if (exists ? !realpath(path, real)
               : link_target(path, real, sizeof real) != 0)
        return fail(path, errno);
    return write_whole(path, real, exists ? st.st_mode & 07777 : new_mode(),
                       fn, arg);
}

int cg_cli_check_writable(const char *path, const char *opt)
{
    if (!strcmp(path, "-"))
        return 0;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    const char *why = NULL;
    char real[PATH_MAX], tmp[PATH_MAX + 16];
    if (exists && S_ISDIR(st.st_mode)) {
        why = "it is a folder";
    } else if (exists && (!S_ISREG(st.st_mode) || same_file(&st, 1) ||
                          same_file(&st, 2))) {
        why = access(path, W_OK) ? strerror(errno) : NULL;
    } else if (exists ? !realpath(path, real)
                      : link_target(path, real, sizeof real) != 0) {
        why = strerror(errno);
    } else {
        /* What the write will do: a temporary file beside the target. */
        snprintf(tmp, sizeof tmp, "%.*s.tmpXXXXXX", PATH_MAX - 1, real);
        int fd = mkstemp(tmp);
        if (fd < 0)
            why = strerror(errno);
        else
            close(fd), unlink(tmp);
    }
    if (!why)
        return 0;
    fprintf(stderr, "%s: error: cannot write this file for %s (%s); nothing "
            "was run\n", path, opt, why);
    return -1;
}
