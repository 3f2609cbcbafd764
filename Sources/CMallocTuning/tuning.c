#include "CMallocTuning.h"

#include <malloc.h>

int avt_set_malloc_trim_threshold(int bytes) {
    return mallopt(M_TRIM_THRESHOLD, bytes);
}

int avt_set_malloc_arena_max(int count) {
    return mallopt(M_ARENA_MAX, count);
}

/// jemalloc's options, read when it starts (for a binary that links it, as `avt-replay` does;
/// glibc ignores the symbol). Two arenas: with jemalloc's default of four per core, every
/// thread (readers, engines, the writer) got an arena of its own, each keeping its own free
/// memory: 225 MiB at the peak of the benchmark day with 2 threads, against 212 MiB with two
/// arenas, in the same time. Unused pages go back after half a second instead of ten.
const char *malloc_conf = "narenas:2,dirty_decay_ms:500";
