#ifndef CEXCHANGE_H
#define CEXCHANGE_H

/// Swaps the two paths in one step (Linux's `renameat2` with `RENAME_EXCHANGE`): each then
/// names what the other named, and a reader sees one or the other, never neither. Both must
/// exist, on one file system. Returns 0, or the `errno` of a failure (`EINVAL` or `ENOSYS`
/// where the file system or the kernel cannot; `ENOTSUP` where the system has no such call),
/// with nothing changed.
int avt_exchange(const char *first, const char *second);

#endif
