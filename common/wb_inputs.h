/*
 * wb_inputs.h — the pure half of "inputs are read-only": a checksum of an input's bytes, the first byte
 * where two copies differ, and what a check after a variant's run must do. Plain C99, static inline,
 * included through wb.h (whose CUDA part records the inputs, copies them back and restores them) and
 * unit-tested on the CPU (tests/test_common.c).
 *
 * Why: wb_main runs every selected variant of a chapter in one process on the same device inputs. A
 * variant that writes into its input (zeroes what it has summed, sorts in place) would leave every later
 * variant computing on what it left; instead it is itself told "writes its input", and the next variant
 * gets its inputs as generated.
 */
#ifndef WB_WB_INPUTS_H
#define WB_WB_INPUTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "contract.h"

/* A 64-bit checksum of `bytes` bytes: the sum, mod 2^64, of wb_hash64 of each 8-byte word (the tail
 * zero-padded) mixed with its index, then mixed with the length. A sum of per-word terms parallelises
 * (OpenMP here, a grid on the GPU: wb_guard.h checks the device copies where they are) and still depends
 * on where each word is (the index is mixed in before the hash). A checksum, not a cryptographic hash: it
 * catches a kernel that writes its input, not one built to collide with this function. */
WB_HD static inline uint64_t wb_checksum_term(uint64_t word, uint64_t i)
{
    return wb_hash64(word ^ (0xD1B54A32D192ED03ull * (i + 1)));
}

WB_HD static inline uint64_t wb_checksum_finish(uint64_t sum, size_t bytes) { return wb_hash64(sum ^ (uint64_t)bytes); }

static inline uint64_t wb_checksum64(const void *p, size_t bytes)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t words = bytes / 8;
    uint64_t sum = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : sum) if (words >= (1u << 20))
#endif
    for (size_t i = 0; i < words; i++) {
        uint64_t w;
        memcpy(&w, b + 8 * i, 8);
        sum += wb_checksum_term(w, i);
    }
    if (bytes % 8) {
        uint64_t w = 0;
        memcpy(&w, b + 8 * words, bytes % 8);
        sum += wb_checksum_term(w, words);
    }
    return wb_checksum_finish(sum, bytes);
}

/* The offset of the first byte where a and b differ, or -1 when their `bytes` bytes are equal. memcmp
 * over blocks finds the block fast; the byte is then found within it. */
static inline long long wb_first_diff(const void *a, const void *b, size_t bytes)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    const size_t block = 4096;
    for (size_t at = 0; at < bytes; at += block) {
        size_t n = bytes - at < block ? bytes - at : block;
        if (memcmp(x + at, y + at, n) == 0) continue;
        for (size_t k = 0; k < n; k++)
            if (x[at + k] != y[at + k]) return (long long)(at + k);
    }
    return -1;
}

/* What a check after a variant's run does with one input, from three checksums: the one taken of the
 * host original when it was copied to the device, the device's bytes now, the host original now. */
typedef enum {
    WB_INPUT_CLEAN,        /* the device holds what was copied: nothing to do */
    WB_INPUT_RESTORE,      /* the device changed, the host original did not: copy it back from there */
    WB_INPUT_SET_UP_AGAIN  /* both changed (the launcher wrote the host array too): only the chapter's
                              setup can make the input again */
} wb_input_action;

static inline wb_input_action wb_input_decide(uint64_t at_copy, uint64_t device_now, uint64_t host_now)
{
    if (device_now == at_copy) return WB_INPUT_CLEAN;
    return host_now == at_copy ? WB_INPUT_RESTORE : WB_INPUT_SET_UP_AGAIN;
}

/* How an input is named in the table, the JSON line and the grader's feedback: its name when the setup
 * gave one, else "input K" (K: its place in setup order, from 0). */
static inline void wb_input_label(char *buf, size_t len, const char *name, int index)
{
    if (name && *name) snprintf(buf, len, "%s", name);
    else snprintf(buf, len, "input %d", index);
}

#endif /* WB_WB_INPUTS_H */
