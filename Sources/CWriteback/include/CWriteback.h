#ifndef CWRITEBACK_H
#define CWRITEBACK_H

/// Starts writing the file's bytes from `offset` on (`count` of them) to disk without waiting
/// for them (Linux's `sync_file_range` with `SYNC_FILE_RANGE_WRITE`), so that a later `fsync`
/// has less left to wait for. Returns 0, or the `errno` of a failure (nothing else changes: it
/// is only a hint); 0 and nothing done where the system has no such call.
int avt_start_writeback(int descriptor, long long offset, long long count);

#endif
