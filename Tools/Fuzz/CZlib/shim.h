#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
// The reader fuzzer compresses its inputs with zlib (the tool itself inflates with ISA-L).
#include <zlib.h>
#endif
