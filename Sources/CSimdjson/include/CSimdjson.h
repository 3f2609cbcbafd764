#ifndef CSIMDJSON_H
#define CSIMDJSON_H

/*
 * A small C API over simdjson's parsers, shaped for event-log records.
 *
 * The shim only extracts: it parses one JSON object, fully validating it, and reports
 * the kind and value of the top-level fields the decoder knows (`ts`, `type`, `instrument`,
 * `tracker`, `action`, `app`, `name`, `trigger`, `event`, `player`, `progress`, `error`)
 * and the entries of the objects `attrs`, `actionAttrs` and `meta`. Every rule about what
 * is acceptable lives in Swift (`RecordDecoder`).
 *
 * Strings handed out point into the decoder's own buffers: they are unescaped, valid
 * UTF-8, not NUL-terminated, and valid until the next `csj_decode` or `csj_decoder_destroy`.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a JSON value is, as far as the decoder cares.
typedef enum __attribute__((enum_extensibility(closed))) csj_kind {
    /// The field did not occur.
    CSJ_ABSENT = 0,
    CSJ_NULL,
    CSJ_STRING,
    CSJ_BOOL,
    /// An integer literal (no fraction, no exponent) that fits in int64_t: `integer`.
    CSJ_INT,
    /// An integer literal too large for int64_t; `number` holds the nearest double.
    CSJ_BIG_INT,
    /// A number with a fraction or an exponent: `number`.
    CSJ_DOUBLE,
    CSJ_OBJECT,
    CSJ_ARRAY,
} csj_kind;

/// One scalar value (objects and arrays are reported by kind only).
typedef struct csj_value {
    csj_kind kind;
    bool boolean;
    int64_t integer;
    double number;
    /// CSJ_STRING: the unescaped bytes.
    const char *string;
    size_t length;
} csj_value;

/// One entry of an object field, in document order (duplicates included).
typedef struct csj_attr {
    const char *key;
    size_t key_length;
    csj_value value;
} csj_attr;

/// An object field (`attrs`, `actionAttrs`, `meta`): its kind, and its entries when the
/// kind is CSJ_OBJECT.
typedef struct csj_object {
    csj_kind kind;
    const csj_attr *entries;
    size_t count;
} csj_object;

/// The fields of one record. A field that occurs more than once is reported with its
/// last occurrence.
typedef struct csj_record {
    csj_value ts;
    csj_value type;
    csj_value instrument;
    csj_value tracker;
    csj_value action;
    csj_value app;
    csj_value name;
    csj_value trigger;
    csj_value event;
    csj_value player;
    csj_value progress;
    csj_value error;
    csj_object attrs;
    csj_object action_attrs;
    csj_object meta;
} csj_record;

typedef enum __attribute__((enum_extensibility(closed))) csj_status {
    /// The line is one well-formed JSON object; `record` is filled in.
    CSJ_OK = 0,
    /// The line is not well-formed JSON; `message` says why.
    CSJ_INVALID_JSON,
    /// The line is well-formed JSON but not an object.
    CSJ_NOT_OBJECT,
} csj_status;

/// A parser with its buffers. Not thread-safe: use one per thread.
typedef struct csj_decoder csj_decoder;

/// The number of readable bytes `csj_decode` needs after the input to parse it in place.
size_t csj_padding(void);

/// The simdjson kernel in use (e.g. "haswell", "westmere", "fallback").
const char *csj_implementation_name(void);

/// Creates a decoder, or returns NULL when out of memory.
csj_decoder *csj_decoder_create(void);

void csj_decoder_destroy(csj_decoder *decoder);

/// Decodes one JSON text of `length` bytes at `bytes`.
///
/// `capacity` is the number of bytes readable from `bytes` on (at least `length`). When
/// `capacity - length >= csj_padding()` the input is parsed in place; otherwise it is first
/// copied into a padded buffer of the decoder, so the parser never reads out of bounds.
/// On CSJ_INVALID_JSON, `*message` is set to a static description of the problem.
csj_status csj_decode(csj_decoder *decoder, const uint8_t *bytes, size_t length, size_t capacity,
                      csj_record *record, const char **message);

#ifdef __cplusplus
}
#endif

#endif
