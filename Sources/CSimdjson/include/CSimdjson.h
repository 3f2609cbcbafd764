#ifndef CSIMDJSON_H
#define CSIMDJSON_H
/* placeholder: the C API over simdjson is defined by the EventLog work */
int csimdjson_placeholder(void);
#endif
