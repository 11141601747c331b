/* children.c — see children.h. */
#define _GNU_SOURCE 1
#include "children.h"
#include "gr_util.h"

#include <sys/mman.h>
#include <sys/wait.h>

/* A slot: the flag, then the result, aligned for any struct. */
typedef struct {
    volatile int done;
    max_align_t align[];
} gr_child_slot;

static size_t gr_slot_bytes(size_t size)
{
    size_t a = sizeof(max_align_t);
    return (sizeof(gr_child_slot) + size + a - 1) / a * a;
}

static gr_child_slot *gr_slot(void *slots, size_t size, int i)
{
    return (gr_child_slot *)((char *)slots + (size_t)i * gr_slot_bytes(size));
}

gr_child_outcome gr_child_decode(int handed_back, int wait_status)
{
    if (handed_back) return (gr_child_outcome){.end = GR_CHILD_DONE};
    if (WIFSIGNALED(wait_status)) return (gr_child_outcome){.end = GR_CHILD_KILLED, .sig = WTERMSIG(wait_status)};
    return (gr_child_outcome){.end = GR_CHILD_EXITED, .code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1};
}

void gr_child_describe(const gr_child_outcome *o, char *buf, size_t len)
{
    if (o->end == GR_CHILD_DONE) snprintf(buf, len, "handed back");
    else if (o->end == GR_CHILD_KILLED) snprintf(buf, len, "was killed by signal %d (%s)", o->sig, strsignal(o->sig));
    else snprintf(buf, len, "exited with code %d without a result", o->code);
}

/* Forks every child; where no process (or no shared mapping: `shared` 0) can be had, runs it here, in turn. */
static void gr_children_start(const gr_children *c, void *slots, int shared, pid_t *pid, gr_child_outcome *out)
{
    for (int i = 0; i < c->n; i++) {
        gr_child_slot *s = gr_slot(slots, c->size, i);
        fflush(NULL); /* no buffered output written twice */
        pid[i] = shared ? fork() : -1;
        if (pid[i] == 0) {
            c->fn(i, c->ctx, s->align);
            __atomic_store_n(&s->done, 1, __ATOMIC_SEQ_CST);
            fflush(NULL);
            _exit(0);
        }
        if (pid[i] < 0) {
            c->fn(i, c->ctx, s->align);
            out[i] = (gr_child_outcome){.end = GR_CHILD_DONE, .here = 1};
        }
    }
}

int gr_children_run(const gr_children *c, void *results, gr_child_outcome *out)
{
    size_t bytes = (size_t)c->n * gr_slot_bytes(c->size);
    int back = 0;
    if (c->n <= 0) return 0;
    void *slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int shared = slots != MAP_FAILED;
    if (!shared) slots = calloc(1, bytes);
    pid_t *pid = calloc((size_t)c->n, sizeof *pid);
    if (!slots || !pid) abort(); /* as gr_util's allocations: out of memory */
    memset(results, 0, (size_t)c->n * c->size);
    gr_children_start(c, slots, shared, pid, out);
    for (int i = 0; i < c->n; i++) {
        gr_child_slot *s = gr_slot(slots, c->size, i);
        if (pid[i] > 0) {
            int status = 0;
            while (waitpid(pid[i], &status, 0) < 0 && errno == EINTR) continue;
            out[i] = gr_child_decode(s->done, status);
        }
        if (out[i].end != GR_CHILD_DONE) continue;
        memcpy((char *)results + (size_t)i * c->size, s->align, c->size);
        back++;
    }
    if (shared) munmap(slots, bytes);
    else free(slots);
    free(pid);
    return back;
}
