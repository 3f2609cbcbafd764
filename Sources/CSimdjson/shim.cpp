#include "CSimdjson.h"
int csimdjson_placeholder(void) { return 0; }
