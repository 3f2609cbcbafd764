#ifndef CMEMORYHINTS_H
#define CMEMORYHINTS_H

/// Asks the processor to bring the cache line at `address` in for writing, without waiting
/// for it (`__builtin_prefetch(address, 1, 3)`); no effect on what the program computes.
static inline void avt_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
