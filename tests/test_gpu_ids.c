/* Which GPUs the grader may use (grading/gpu.h) as CUDA_VISIBLE_DEVICES names them, and the one reading of
 * TMPDIR for the grader's own folders (gr_tmpdir, grading/gr_util.h). Each test runs in a process of its
 * own, so its setenv stays there. */
#include "wbtest.h"

#include "gpu.h"

Test(gpu_ids, cuda_visible_devices_names_the_gpus_and_their_ids)
{
    char id[64];
    setenv("CUDA_VISIBLE_DEVICES", "2,GPU-4f1c-aa,5", 1);
    cr_expect_eq(gr_gpu_count(), 3);
    const char *want[] = {"2", "GPU-4f1c-aa", "5"};
    for (int k = 0; k < 3; k++) {
        gr_gpu_id(k, id, sizeof id);
        cr_expect_str_eq(id, want[k], "GPU %d", k);
    }
    gr_gpu_id(3, id, sizeof id);
    cr_expect_str_eq(id, "3", "past the list: the index itself");
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    cr_expect_eq(gr_gpu_count(), 1);
    gr_gpu_id(0, id, sizeof id);
    cr_expect_str_eq(id, "1");
}

Test(gpu_ids, without_cuda_visible_devices_an_id_is_its_index)
{
    char id[64];
    unsetenv("CUDA_VISIBLE_DEVICES");
    gr_gpu_id(1, id, sizeof id);
    cr_expect_str_eq(id, "1");
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    gr_gpu_id(0, id, sizeof id);
    cr_expect_str_eq(id, "0", "an empty list is no list");
}

Test(gpu_ids, tmpdir_is_an_absolute_tmpdir_else_tmp)
{
    setenv("TMPDIR", "/var/x", 1);
    cr_expect_str_eq(gr_tmpdir(), "/var/x");
    setenv("TMPDIR", "build/tmp", 1);
    cr_expect_str_eq(gr_tmpdir(), "/tmp", "a relative TMPDIR");
    setenv("TMPDIR", "", 1);
    cr_expect_str_eq(gr_tmpdir(), "/tmp");
    unsetenv("TMPDIR");
    cr_expect_str_eq(gr_tmpdir(), "/tmp");
}
