// Only a header: see include/CThreadName.h.
