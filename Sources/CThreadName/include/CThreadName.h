#ifndef CTHREADNAME_H
#define CTHREADNAME_H

#ifdef __linux__
#include <sys/prctl.h>
#endif

/// Names the calling thread for the system's tools (`top -H`, `/proc/PID/task/TID/comm`);
/// Linux keeps the first 15 bytes. Elsewhere it does nothing. (Swift cannot call the variadic
/// prctl, and Glibc's module leaves out pthread_setname_np.)
static inline void avt_name_this_thread(const char *name) {
#ifdef __linux__
    prctl(PR_SET_NAME, name, 0, 0, 0);
#endif
}

#endif
