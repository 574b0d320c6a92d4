/* tools.c: running the external tools (simulators, yosys) in a folder,
 * with fork and exec: no shell, so no quoting of paths; removing their
 * folders after. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtl_internal.h"

int cg_rtl_spawn(const char *dir, char *const *argv)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid < 0 ? -1 : (int)pid;
    /* the child: no stdio here, the parent's buffers are not ours */
    int fd = chdir(dir) == 0 ? open("log", O_WRONLY | O_CREAT | O_APPEND,
                                    0644)
                             : -1;
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
    }
    execvp(argv[0], argv);
    _exit(127);
}

static int exit_status(int st)
{
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int cg_rtl_wait(int pid)
{
    int st;
    if (pid < 0 || waitpid((pid_t)pid, &st, 0) < 0)
        return -1;
    return exit_status(st);
}

bool cg_rtl_try_wait(int pid, int *status)
{
    int st;
    pid_t got = pid < 0 ? -1 : waitpid((pid_t)pid, &st, WNOHANG);
    if (got < 0)
        *status = -1;
    else if (got > 0)
        *status = exit_status(st);
    return got != 0;
}

int cg_rtl_exec(const char *dir, char *const *argv)
{
    return cg_rtl_wait(cg_rtl_spawn(dir, argv));
}

void cg_rtl_log_tail(const char *dir, char *buf, size_t len)
{
    size_t n = strlen(dir) + 8;
    char *path = malloc(n);
    char *text = NULL;
    if (path) {
        snprintf(path, n, "%s/log", dir);
        text = cg_slurp(path, NULL);
    }
    buf[0] = 0;
    if (text) {
        char *end = text + strlen(text);
        while (end > text && (end[-1] == '\n' || end[-1] == ' '))
            *--end = 0;
        char *start = strrchr(text, '\n');
        snprintf(buf, len, "%s", start ? start + 1 : text);
    }
    free(text);
    free(path);
}

static int remove_one(const char *path, const struct stat *sb, int flag,
                      struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void cg_rtl_remove_tree(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
