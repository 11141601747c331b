/* grading/gpulock.h: a run takes the GPU's lock for itself unless its holder has it already (a benchmark
 * step's runs), shared or alone as asked, and says whether it must release it. Real flock(2)s on files in
 * a temporary folder; no GPU. */
#define _GNU_SOURCE 1
#include "wbtest.h"

#include "gpulock.h"

Test(gpulock, a_run_takes_the_lock_unless_its_holder_has_it)
{
    char dir[512];
    wbt_tmpdir(dir, sizeof dir);
    setenv("WB_GRADE_LOCK_DIR", dir, 1);
    gr_gpu_lock l;
    gr_gpu_lock_init(&l, "0");
    cr_expect_eq(gr_gpu_take_for_run(NULL, GR_LOCK_SHARED), 0, "no lock: nothing to release");
    cr_assert_eq(gr_gpu_take_for_run(&l, GR_LOCK_SHARED), 1);
    cr_expect_eq(l.held, GR_LOCK_SHARED);
    cr_expect_eq(gr_gpu_take_for_run(&l, GR_LOCK_ALONE), 0, "held already: taken again, it would be released mid-step");
    cr_expect_eq(l.held, GR_LOCK_SHARED);
    gr_gpu_release(&l);
    cr_assert_eq(gr_gpu_take_for_run(&l, GR_LOCK_ALONE), 1);
    cr_expect_eq(l.held, GR_LOCK_ALONE);
    gr_gpu_release(&l);
    cr_expect_eq(l.held, GR_LOCK_NONE);
}
