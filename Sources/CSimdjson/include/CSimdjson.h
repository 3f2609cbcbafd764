#ifndef CSIMDJSON_H
#define CSIMDJSON_H

/*
 * A small C API over simdjson's parsers, shaped for event-log records.
 *
 * The shim extracts: it parses one JSON object, fully validating it, and reports
 * the kind and value of the top-level fields the decoder knows (`ts`, `type`, `instrument`,
 * `tracker`, `action`, `app`, `name`, `trigger`, `event`, `player`, `progress`, `error`)
 * and the entries of the objects `attrs`, `actionAttrs` and `meta`, or, when asked, the usual
 * `attrs` and `actionAttrs` already packed (see `csj_object`). Every rule about what is
 * acceptable lives in Swift (`RecordDecoder`): an object the shim is unsure of comes as entries.
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

/// One scalar value. Objects and arrays are reported by kind, and inside an object field
/// (`attrs`, `actionAttrs`, `meta`) with their JSON text in `string` and `length` too: compact
/// from the DOM parser, as the line has it (not validated) from the on-demand walk.
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
///
/// With a key-number function set (`csj_decoder_set_key_numbers`), an `attrs` or `actionAttrs`
/// object whose keys are unique and whose values are strings, numbers and booleans (1 to 48
/// of them) may instead come packed: `packed_length` bytes at `packed` in the layout of
/// Swift's `PackedAttributes`, entries in document order, and no entries. `packed_length` is 0
/// otherwise.
typedef struct csj_object {
    csj_kind kind;
    const csj_attr *entries;
    size_t count;
    const uint8_t *packed;
    size_t packed_length;
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

/// The packed-key number of an attribute name (Swift's `PackedAttributes.keyNumber(ofName:)`):
/// 0 for a name packed by its bytes. The decoder asks once per name it keeps in its cache.
typedef uint32_t (*csj_key_number_fn)(const char *name, size_t length);

/// Makes the decoder pack `attrs` and `actionAttrs` where it can (see `csj_object`), naming
/// keys with `key_number`; NULL (the default) leaves every object as entries.
void csj_decoder_set_key_numbers(csj_decoder *decoder, csj_key_number_fn key_number);

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
