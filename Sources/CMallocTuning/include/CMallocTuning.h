#ifndef CMALLOCTUNING_H
#define CMALLOCTUNING_H

/// Makes glibc give freed memory back to the system once `bytes` are free at the top of
/// the heap (`mallopt(M_TRIM_THRESHOLD, bytes)`); returns whether it was accepted.
int avt_set_malloc_trim_threshold(int bytes);

/// Caps the number of glibc malloc arenas (`mallopt(M_ARENA_MAX, count)`); returns whether it
/// was accepted.
int avt_set_malloc_arena_max(int count);

#endif
