// renameat2 and RENAME_EXCHANGE are GNU extensions of <stdio.h> (glibc 2.28 on).
#define _GNU_SOURCE
#include "CExchange.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

int avt_exchange(const char *first, const char *second) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE) == 0 ? 0 : errno;
#else
    (void)first;
    (void)second;
    return ENOTSUP;
#endif
}
