// sync_file_range is a GNU extension of <fcntl.h>.
#define _GNU_SOURCE
#include "CWriteback.h"

#include <errno.h>
#include <fcntl.h>

int avt_start_writeback(int descriptor, long long offset, long long count) {
#ifdef __linux__
    return sync_file_range(descriptor, offset, count, SYNC_FILE_RANGE_WRITE) == 0 ? 0 : errno;
#else
    (void)descriptor;
    (void)offset;
    (void)count;
    return 0;
#endif
}
