// Counts Swift reference-count operations by object and by thread: an LD_PRELOAD library for
// `scripts/measure/rc-census.sh --shared` (a profiling aid, not part of the tool). An object whose
// count several threads change has its cache line pass between their cores on every one.
//
// Each swift_retain and swift_release is counted under the object's address (addresses
// reused after a free add up), with a bit per thread that touched it, its type metadata and
// the return address of the latest call. At exit the objects with more than 10,000 operations
// are written to $RC_SHARED_OUT as lines of
// `count thread-bits metadata-symbol caller-file caller-offset`.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS (1u << 22)
#define PROBES 64

typedef struct {
    uintptr_t object;
    uintptr_t metadata;
    uintptr_t caller;
    unsigned long count;
    unsigned long threads;
} slot;

static slot table[SLOTS];
static void *(*real_retain)(void *);
static void (*real_release)(void *);
static __thread int thread_number = -1;
static int threads_seen = 0;

static void resolve(void) {
    real_retain = dlsym(RTLD_NEXT, "swift_retain");
    real_release = dlsym(RTLD_NEXT, "swift_release");
}

static void count(uintptr_t object, uintptr_t caller) {
    if (object == 0) return;
    if (thread_number < 0) thread_number = __atomic_fetch_add(&threads_seen, 1, __ATOMIC_RELAXED);
    size_t index = (object * 0x9E3779B97F4A7C15ull) >> 42;
    for (size_t probes = 0; probes < PROBES; probes++, index++) {
        slot *s = &table[index & (SLOTS - 1)];
        uintptr_t seen = __atomic_load_n(&s->object, __ATOMIC_ACQUIRE);
        if (seen == 0) {
            uintptr_t expected = 0;
            seen = __atomic_compare_exchange_n(&s->object, &expected, object, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
                ? object : expected;
        }
        if (seen == object) {
            s->metadata = *(uintptr_t *)object;
            s->caller = caller;
            __atomic_add_fetch(&s->count, 1, __ATOMIC_RELAXED);
            __atomic_or_fetch(&s->threads, 1ul << (thread_number & 63), __ATOMIC_RELAXED);
            return;
        }
    }
}

#define CALLER ((uintptr_t)__builtin_return_address(0))

void *swift_retain(void *object) {
    count((uintptr_t)object, CALLER);
    if (!real_retain) resolve();
    return real_retain(object);
}

void swift_release(void *object) {
    count((uintptr_t)object, CALLER);
    if (!real_release) resolve();
    real_release(object);
}

__attribute__((destructor)) static void write_counts(void) {
    const char *path = getenv("RC_SHARED_OUT");
    if (!path) return;
    FILE *out = fopen(path, "w");
    if (!out) return;
    for (size_t i = 0; i < SLOTS; i++) {
        if (table[i].count <= 10000) continue;
        Dl_info type, caller;
        const char *type_name = dladdr((void *)table[i].metadata, &type) && type.dli_sname ? type.dli_sname : "?";
        const char *file = "?";
        uintptr_t offset = 0;
        if (dladdr((void *)table[i].caller, &caller)) {
            file = caller.dli_fname;
            offset = table[i].caller - (uintptr_t)caller.dli_fbase;
        }
        fprintf(out, "%lu %lx %s %s %lx\n", table[i].count, table[i].threads, type_name, file, offset);
    }
    fclose(out);
}
