#ifndef CMEMORYHINTS_H
#define CMEMORYHINTS_H

/// Asks the processor to bring the cache line at `address` in for reading, without waiting
/// for it. Only a hint: nothing is read, and any address, even an invalid one, is allowed.
static inline void avt_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Asks the processor to bring the cache line at `address` in for writing, without waiting
/// for it. Only a hint: nothing is written, and any address, even an invalid one, is allowed.
static inline void avt_prefetch_for_writing(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
