/* The judge's one way to run work in children and hand results back (grading/children.h): results come
 * back from every child, a child that crashes or exits before its function returns leaves no result (zeros)
 * and says how it ended, and no child is left behind as a zombie. */
#define _GNU_SOURCE 1
#include "wbtest.h"

#include "children.h"

#include <signal.h>

/* A result with no pointers, as every child's must be. */
typedef struct {
    int i, pid;
    char word[32];
} result;

/* Child 1 aborts halfway through its result, child 2 exits with 3 before writing it; the others hand back. */
static void work(int i, void *ctx, void *slot)
{
    result *r = slot;
    r->i = i + *(int *)ctx;
    r->pid = getpid();
    if (i == 1) abort();
    if (i == 2) _exit(3);
    snprintf(r->word, sizeof r->word, "child %d", i);
}

static int zombies_of_mine(void)
{
    return waitpid(-1, NULL, WNOHANG) > 0;
}

Test(children, results_come_back_from_every_child)
{
    int base = 100;
    result r[4];
    gr_child_outcome o[4];
    gr_children c = {.n = 4, .size = sizeof(result), .fn = work, .ctx = &base};
    cr_assert_eq(gr_children_run(&c, r, o), 2);
    for (int i = 0; i < 4; i += 3) {
        cr_expect_eq(o[i].end, GR_CHILD_DONE);
        cr_expect_eq(o[i].here, 0);
        cr_expect_eq(r[i].i, 100 + i);
        cr_expect_neq(r[i].pid, getpid(), "child %d ran in the parent", i);
        cr_expect_str_eq(r[i].word, i ? "child 3" : "child 0");
    }
    cr_expect_neq(r[0].pid, r[3].pid);
    cr_expect_not(zombies_of_mine(), "a child was not waited for");
}

Test(children, a_crash_and_an_early_exit_leave_no_result_and_say_how)
{
    int base = 0;
    result r[3];
    gr_child_outcome o[3];
    memset(r, 0x5a, sizeof r);
    gr_children c = {.n = 3, .size = sizeof(result), .fn = work, .ctx = &base};
    gr_children_run(&c, r, o);
    cr_expect_eq(o[1].end, GR_CHILD_KILLED);
    cr_expect_eq(o[1].sig, SIGABRT);
    cr_expect_eq(o[2].end, GR_CHILD_EXITED);
    cr_expect_eq(o[2].code, 3);
    result zero = {0};
    for (int i = 1; i < 3; i++) cr_expect_eq(memcmp(&r[i], &zero, sizeof zero), 0, "child %d left part of a result", i);
    char d[100];
    gr_child_describe(&o[1], d, sizeof d);
    cr_expect(strstr(d, "signal 6"), "%s", d);
    gr_child_describe(&o[2], d, sizeof d);
    cr_expect_str_eq(d, "exited with code 3 without a result");
}

Test(children, the_decision_from_flag_and_status)
{
    cr_expect_eq(gr_child_decode(1, 0).end, GR_CHILD_DONE);
    cr_expect_eq(gr_child_decode(0, 0).end, GR_CHILD_EXITED); /* exit 0 without the flag: still no result */
    cr_expect_eq(gr_child_decode(0, 9 << 8).code, 9);
    gr_child_outcome k = gr_child_decode(0, SIGKILL);
    cr_expect_eq(k.end, GR_CHILD_KILLED);
    cr_expect_eq(k.sig, SIGKILL);
}

Test(children, none_asked_none_run)
{
    gr_children c = {.n = 0, .size = sizeof(result), .fn = work};
    cr_expect_eq(gr_children_run(&c, NULL, NULL), 0);
}
