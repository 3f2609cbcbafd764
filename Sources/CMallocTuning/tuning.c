#include "CMallocTuning.h"

#include <malloc.h>

int avt_set_malloc_trim_threshold(int bytes) {
    return mallopt(M_TRIM_THRESHOLD, bytes);
}

int avt_set_malloc_arena_max(int count) {
    return mallopt(M_ARENA_MAX, count);
}
