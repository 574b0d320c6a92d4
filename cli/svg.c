/* svg.c: pictures rendered by Graphviz's neato.  The dot source goes to an
 * anonymous temporary file read by neato on its stdin; the SVG comes back
 * through a pipe into memory and is written whole, so a missing or failing
 * neato leaves no file behind. */
#include "cli/commands.h"
#include "common/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Start neato reading dot and writing into pipe fd; its pid, -1. */
static int run_neato(FILE *dot, const int fd[2])
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        if (dup2(fileno(dot), 0) < 0 || dup2(fd[1], 1) < 0)
            _exit(127);
        execlp("neato", "neato", "-Tsvg", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* The SVG neato prints for the source in dot, in *buf (malloc'ed, *len
 * bytes); neato's exit status, 127 when it could not be started. */
static int render(FILE *dot, char **buf, size_t *len)
{
    int fd[2];
    FILE *mem = open_memstream(buf, len);
    if (!mem || pipe(fd) != 0) {
        if (mem)
            fclose(mem);
        return -1;
    }
    pid_t pid = run_neato(dot, fd);
    close(fd[1]);
    char chunk[8192];
    ssize_t n;
    while (pid > 0 && (n = read(fd[0], chunk, sizeof chunk)) > 0)
        fwrite(chunk, 1, (size_t)n, mem);
    close(fd[0]);
    fclose(mem);
    int st;
    if (pid <= 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct svg_text {
    const char *buf;
    size_t len;
} svg_text;

static int write_text(void *arg, FILE *f)
{
    const svg_text *t = arg;
    fwrite(t->buf, 1, t->len, f);
    return cg_write_end(f, true);
}

int cg_cli_write_svg(const char *path, cg_cli_writer dot, void *arg)
{
    FILE *src = tmpfile();
    if (!src) {
        fprintf(stderr, "%s: error: cannot make a temporary file for the "
                "picture's source\n", path);
        return -1;
    }
    errno = 0;
    int err = dot(arg, src) != 0 ? (errno ? errno : EIO) : 0;
    char *buf = NULL;
    size_t len = 0;
    int st = !err && fflush(src) == 0 && fseek(src, 0, SEEK_SET) == 0
                 ? render(src, &buf, &len) : -1;
    fclose(src);
    int rc = -1;
    if (err)
        fprintf(stderr, "%s: error: cannot write the picture's source "
                "(%s)\n", path, cg_cli_strerror(err));
    else if (st == 127)
        fprintf(stderr, "%s: error: drawing this picture needs graphviz's "
                "neato, which is not installed (apt-get install graphviz)\n",
                path);
    else if (st != 0 || len == 0)
        fprintf(stderr, "%s: error: neato failed to render the picture "
                "(status %d)\n", path, st);
    else
        rc = cg_cli_write_file(path, write_text, &(svg_text){buf, len});
    free(buf);
    return rc;
}
