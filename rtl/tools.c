/* tools.c: running the external tools (simulators, yosys) in a folder,
 * with fork and exec: no shell, so no quoting of paths. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtl_internal.h"

int cg_rtl_exec(const char *dir, char *const *argv)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) { /* no stdio here: the parent's buffers are not ours */
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
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
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
