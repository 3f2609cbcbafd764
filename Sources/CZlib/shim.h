#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
// zlib, the gzip codec avt-replay falls back to where ISA-L is absent (Package.swift).
#include <zlib.h>
#endif
