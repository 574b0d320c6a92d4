/* progress.c: the main job's progress line on a terminal.  Each worker
 * process notes where it is (its loop, the II and the mapper's stage, and
 * since when) in its slot of a map shared with the parent, through the
 * mapper's progress callback; the parent draws one line from the slots
 * about once a second (bench_jobs.c wakes it) and after each file.  The
 * line only watches: nothing it does reaches a result.
 *
 * A worker writes its slot while the parent may read it.  A torn read can
 * only show a stale or mixed note for one second, so the slot has no lock;
 * the reader copies the loop name and ends it itself. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and TIOCGWINSZ: not in POSIX 2008 */
#include "cli/bench.h"

#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* Columns when the terminal does not say. */
#define CG_CLI_PROGRESS_COLS 80

struct cg_cli_progress_slot {
    char loop[48];  /* "" until the worker reaches a loop */
    int ii;         /* 0 until the mapper starts */
    int stage;      /* a cg_map_stage */
    double since;   /* cg_clock_now() when the stage began */
};

struct cg_cli_progress {
    FILE *tty;
    const cg_cli_jobs *jobs;
    cg_cli_progress_slot *slots; /* shared, one per job */
    size_t bytes;
    bool *running;               /* per job, the parent's own */
    int done;
    double drawn;                /* when the line was last drawn */
};

cg_cli_progress *cg_cli_progress_create(const cg_cli_jobs *jobs, FILE *tty)
{
    cg_cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->tty = tty;
    p->jobs = jobs;
    p->running = calloc((size_t)jobs->n + 1, sizeof *p->running);
    if (!p->running) {
        free(p);
        return NULL;
    }
    p->bytes = ((size_t)jobs->n + 1) * sizeof *p->slots;
    void *m = mmap(NULL, p->bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) { /* the line then shows files only */
        p->slots = NULL;
    } else {
        p->slots = m;
        memset(m, 0, p->bytes);
    }
    return p;
}

void cg_cli_progress_destroy(cg_cli_progress *p)
{
    if (!p)
        return;
    if (p->slots)
        munmap(p->slots, p->bytes);
    free(p->running);
    free(p);
}

cg_cli_progress_slot *cg_cli_progress_slot_of(cg_cli_progress *p, int job)
{
    return p && p->slots && job >= 0 && job < p->jobs->n ? &p->slots[job]
                                                          : NULL;
}

void cg_cli_progress_loop(cg_cli_progress_slot *s, const char *loop)
{
    if (!s)
        return;
    s->ii = 0;
    snprintf(s->loop, sizeof s->loop, "%s", loop);
    s->since = cg_clock_now();
}

void cg_cli_progress_stage(void *arg, int ii, cg_map_stage stage)
{
    cg_cli_progress_slot *s = arg;
    s->ii = ii;
    s->stage = (int)stage;
    s->since = cg_clock_now();
}

static int columns(FILE *tty)
{
    struct winsize w;
    if (ioctl(fileno(tty), TIOCGWINSZ, &w) == 0 && w.ws_col > 0)
        return w.ws_col;
    return CG_CLI_PROGRESS_COLS;
}

/* One running job's note, appended to line (of cap bytes). */
static void job_note(const cg_cli_progress *p, int i, double now, char *line,
                     size_t cap)
{
    size_t n = strlen(line);
    const cg_cli_progress_slot *s = p->slots ? &p->slots[i] : NULL;
    char loop[sizeof s->loop + 1] = "";
    int ii = 0, stage = 0;
    double since = now;
    if (s) {
        memcpy(loop, s->loop, sizeof s->loop);
        loop[sizeof s->loop] = '\0';
        ii = s->ii;
        stage = s->stage;
        since = s->since;
    }
    if (!loop[0])
        snprintf(line + n, cap - n, " | %s", p->jobs->v[i].path);
    else if (ii == 0)
        snprintf(line + n, cap - n, " | %s: reading", loop);
    else
        snprintf(line + n, cap - n, " | %s: II %d, %s, %.0f s", loop, ii,
                 cg_map_stage_name((cg_map_stage)stage),
                 now > since ? now - since : 0.0);
}

void cg_cli_progress_running(cg_cli_progress *p, int job, bool on)
{
    if (p && job >= 0 && job < p->jobs->n)
        p->running[job] = on;
}

void cg_cli_progress_draw(cg_cli_progress *p)
{
    if (!p)
        return;
    double now = cg_clock_now();
    char line[1024];
    snprintf(line, sizeof line, "[%d/%d]", p->done, p->jobs->n);
    for (int i = 0; i < p->jobs->n && strlen(line) + 1 < sizeof line; i++)
        if (p->running[i])
            job_note(p, i, now, line, sizeof line);
    int cols = columns(p->tty);
    if ((int)strlen(line) >= cols) /* never wrap: \r only returns one row */
        line[cols > 1 ? cols - 1 : 0] = '\0';
    fprintf(p->tty, "\r\033[K%s", line);
    fflush(p->tty);
    p->drawn = now;
}

bool cg_cli_progress_due(const cg_cli_progress *p)
{
    return p && cg_clock_now() - p->drawn >= 0.95; /* the ticks are 1 s apart */
}

void cg_cli_progress_clear(cg_cli_progress *p)
{
    if (!p)
        return;
    fputs("\r\033[K", p->tty);
    fflush(p->tty);
}

void cg_cli_progress_done(cg_cli_progress *p, int done)
{
    if (p)
        p->done = done;
}
