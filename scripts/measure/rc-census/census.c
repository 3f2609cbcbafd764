// Counts Swift reference-count operations by object type and calling function: an
// LD_PRELOAD library for scripts/measure/rc-census.sh (a profiling aid, not part of the tool).
//
// swift_retain, swift_release and their bridge-object forms are wrapped; each call is
// counted under (the object's type metadata, the return address, retain or release), and
// at exit the counts are written to $RC_CENSUS_OUT as lines of
// `count kind metadata-file metadata-offset caller-file caller-offset`, which
// census.py names with nm and swift demangle.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS (1u << 20)

typedef struct {
    uintptr_t metadata;
    uintptr_t caller;  // the return address, its top bit set for a release
    unsigned long count;
} slot;

static slot table[SLOTS];
static void *(*real_retain)(void *);
static void (*real_release)(void *);
static void *(*real_bridge_retain)(void *);
static void (*real_bridge_release)(void *);

// Resolved on first use: other libraries' constructors retain before this one's would run.
static void resolve(void) {
    real_retain = dlsym(RTLD_NEXT, "swift_retain");
    real_release = dlsym(RTLD_NEXT, "swift_release");
    real_bridge_retain = dlsym(RTLD_NEXT, "swift_bridgeObjectRetain");
    real_bridge_release = dlsym(RTLD_NEXT, "swift_bridgeObjectRelease");
}

static void count(uintptr_t object, uintptr_t caller) {
    if (object == 0) return;
    uintptr_t metadata = *(uintptr_t *)object;
    size_t index = ((metadata ^ (caller * 31)) * 0x9E3779B97F4A7C15ull) >> 44;
    for (size_t probes = 0; probes < SLOTS; probes++, index++) {
        slot *s = &table[index & (SLOTS - 1)];
        uintptr_t seen = __atomic_load_n(&s->caller, __ATOMIC_ACQUIRE);
        if (seen == 0) {
            uintptr_t expected = 0;
            if (__atomic_compare_exchange_n(&s->caller, &expected, caller, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                s->metadata = metadata;
                __atomic_add_fetch(&s->count, 1, __ATOMIC_RELAXED);
                return;
            }
            seen = expected;
        }
        // A slot is claimed before its metadata is written: wait for it.
        if (seen == caller) {
            uintptr_t m;
            while ((m = __atomic_load_n(&s->metadata, __ATOMIC_ACQUIRE)) == 0) {}
            if (m == metadata) {
                __atomic_add_fetch(&s->count, 1, __ATOMIC_RELAXED);
                return;
            }
        }
    }
}

// A bridge object is a native object's pointer unless its top bit marks a tagged value.
static uintptr_t bridged(void *bits) {
    uintptr_t value = (uintptr_t)bits;
    return (value >> 63) ? 0 : value & 0x0ffffffffffffff8ull;
}

#define RELEASE (1ull << 63)
#define CALLER ((uintptr_t)__builtin_return_address(0))

#define RESOLVED(function) (function ? function : (resolve(), function))

void *swift_retain(void *object) {
    count((uintptr_t)object, CALLER);
    return RESOLVED(real_retain)(object);
}
void swift_release(void *object) {
    count((uintptr_t)object, CALLER | RELEASE);
    RESOLVED(real_release)(object);
}
void *swift_bridgeObjectRetain(void *bits) {
    count(bridged(bits), CALLER);
    return RESOLVED(real_bridge_retain)(bits);
}
void swift_bridgeObjectRelease(void *bits) {
    count(bridged(bits), CALLER | RELEASE);
    RESOLVED(real_bridge_release)(bits);
}

static void place(FILE *out, uintptr_t address) {
    Dl_info info;
    if (dladdr((void *)address, &info) && info.dli_fname)
        fprintf(out, " %s 0x%lx", info.dli_fname, (unsigned long)(address - (uintptr_t)info.dli_fbase));
    else
        fprintf(out, " ? 0x0");
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("RC_CENSUS_OUT");
    FILE *out = fopen(path ? path : "rc-census.txt", "w");
    if (!out) return;
    for (size_t i = 0; i < SLOTS; i++) {
        if (table[i].count == 0) continue;
        fprintf(out, "%lu %s", table[i].count, (table[i].caller & RELEASE) ? "release" : "retain");
        place(out, table[i].metadata);
        place(out, table[i].caller & ~RELEASE);
        fputc('\n', out);
    }
    fclose(out);
}
