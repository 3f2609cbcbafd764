// The C API of CSimdjson.h over simdjson's DOM and on-demand parsers.
//
// Only extraction happens here; the rules for what a record must contain are in Swift.
// A line is first parsed whole into simdjson's DOM (its kernel chosen for the machine at run
// time, stage 2 included), and its fields read from the tape. Any line the DOM parser does
// not take as an object (an error, a root that is not an object, integers beyond 64 bits,
// nesting deeper than `dom_max_depth`, lines longer than `dom_max_capacity`) is decoded again
// by the on-demand walk, which decides: it visits every value of the line (values of unknown
// fields too), so a line that reaches CSJ_OK is well-formed JSON throughout either way, and
// the on-demand walk alone says how a line is wrong.

#include "CSimdjson.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace ondemand = simdjson::ondemand;
using simdjson::error_code;
using simdjson::SUCCESS;

/// Nesting accepted by the DOM parser (the root object is 1); deeper lines are left to the
/// on-demand walk, whose own limit is `max_depth`.
constexpr size_t dom_max_depth = 32;
/// The longest line the DOM parser takes: its buffers grow with the longest line parsed
/// (about 13 bytes per byte), so longer lines are left to the on-demand walk (about 5).
constexpr size_t dom_max_capacity = 64 * 1024;

struct csj_decoder {
    /// The fast path; `dom_ready` once its buffers are allocated with `dom_max_depth`.
    simdjson::dom::parser dom{dom_max_capacity};
    bool dom_ready = false;
    ondemand::parser parser;
    /// Entries of the object fields being decoded.
    std::vector<csj_attr> attrs;
    std::vector<csj_attr> action_attrs;
    std::vector<csj_attr> meta;
    /// Padded copy of inputs that do not come with SIMDJSON_PADDING readable bytes.
    std::vector<uint8_t> scratch;
    /// Set: `attrs` and `actionAttrs` are packed where they can be (see `pack_dom_object`).
    csj_key_number_fn key_number = nullptr;
    /// Names' key numbers, direct-mapped by a digest of the name (length 0: an empty slot).
    struct key_number_slot {
        /// The name's first and last eight bytes (zero-padded when shorter): with the length,
        /// the whole of a name of up to 16 bytes.
        uint64_t first;
        uint64_t last;
        uint32_t number;
        uint32_t length;
        char name[64];
    };
    std::vector<key_number_slot> key_numbers;
    /// The compact JSON text of the objects and arrays inside the object fields being decoded
    /// (a deque: its strings stay where they are as more are added).
    std::deque<std::string> nested_texts;
    /// The packed bytes of the object fields being decoded.
    std::vector<uint8_t> packed_attrs;
    std::vector<uint8_t> packed_action_attrs;
};

namespace {

/// Which of the known top-level fields a key names.
enum class field_name {
    ts, type, instrument, tracker, action, app, name, trigger, event, player, progress, error,
    attrs, action_attrs, meta, other
};

field_name classify(std::string_view key) noexcept {
    switch (key.size()) {
    case 2:
        if (key == "ts") { return field_name::ts; }
        break;
    case 3:
        if (key == "app") { return field_name::app; }
        break;
    case 4:
        if (key == "type") { return field_name::type; }
        if (key == "name") { return field_name::name; }
        if (key == "meta") { return field_name::meta; }
        break;
    case 5:
        if (key == "attrs") { return field_name::attrs; }
        if (key == "event") { return field_name::event; }
        if (key == "error") { return field_name::error; }
        break;
    case 6:
        if (key == "action") { return field_name::action; }
        if (key == "player") { return field_name::player; }
        break;
    case 7:
        if (key == "tracker") { return field_name::tracker; }
        if (key == "trigger") { return field_name::trigger; }
        break;
    case 8:
        if (key == "progress") { return field_name::progress; }
        break;
    case 10:
        if (key == "instrument") { return field_name::instrument; }
        break;
    case 11:
        if (key == "actionAttrs") { return field_name::action_attrs; }
        break;
    default:
        break;
    }
    return field_name::other;
}

/// The record's value for a scalar field; nullptr for the object fields and unknown ones.
csj_value *scalar_slot(csj_record &record, field_name name) noexcept {
    switch (name) {
    case field_name::ts: return &record.ts;
    case field_name::type: return &record.type;
    case field_name::instrument: return &record.instrument;
    case field_name::tracker: return &record.tracker;
    case field_name::action: return &record.action;
    case field_name::app: return &record.app;
    case field_name::name: return &record.name;
    case field_name::trigger: return &record.trigger;
    case field_name::event: return &record.event;
    case field_name::player: return &record.player;
    case field_name::progress: return &record.progress;
    case field_name::error: return &record.error;
    case field_name::attrs:
    case field_name::action_attrs:
    case field_name::meta:
    case field_name::other: return nullptr;
    }
    return nullptr;
}

/// The deepest nesting of arrays and objects accepted in a line; deeper lines are rejected
/// (`DEPTH_ERROR`) instead of exhausting the stack.
constexpr int max_depth = 256;

error_code skip_value(csj_decoder &decoder, ondemand::value value, int depth = 1);

/// Reads a number, telling integers that fit in int64_t from big integers and from
/// numbers with a fraction or an exponent.
///
/// Not `get_number()`: simdjson 3.0.1's answers 0 for a number with a fraction and more than
/// 19 significant digits (its slow path writes the value into a copy).
error_code read_number(csj_decoder &decoder, ondemand::value &value, csj_value &out) noexcept {
    ondemand::number_type type;
    error_code error = value.get_number_type().get(type);
    if (error != SUCCESS) { return error; }
    switch (type) {
    case ondemand::number_type::signed_integer:
        error = value.get_int64().get(out.integer);
        if (error == SUCCESS) {
            out.kind = CSJ_INT;
            out.number = double(out.integer);
            return SUCCESS;
        }
        break;
    case ondemand::number_type::unsigned_integer: {
        uint64_t integer = 0;
        error = value.get_uint64().get(integer);
        if (error == SUCCESS) {
            out.kind = CSJ_BIG_INT;
            out.number = double(integer);
            return SUCCESS;
        }
        break;
    }
    case ondemand::number_type::floating_point_number: {
        // Parsed by the DOM parser, as in the fast path: simdjson 3.0.1's on-demand parsing of
        // a fraction of more than 19 digits is wrong when its integer part is 0
        // (0.123456789012345678901 read as 0.0128), and it refuses exponents beyond 64 bits
        // (1E-99999999999999999999, which is 0), both found by `scripts/checks/fuzz.sh decoder`.
        // The token stays unconsumed: the walk skips it. The line's padding follows it, as
        // the DOM parser needs; a token longer than `dom_max_capacity` (64 KiB of digits) is
        // left to the on-demand parser.
        std::string_view token = value.raw_json_token();
        if (decoder.dom_ready
            && decoder.dom.parse(reinterpret_cast<const uint8_t *>(token.data()), token.size(), false)
                       .get_double()
                       .get(out.number) == SUCCESS) {
            out.kind = CSJ_DOUBLE;
            return SUCCESS;
        }
        error = value.get_double().get(out.number);
        if (error != SUCCESS) { return error; }
        out.kind = CSJ_DOUBLE;
        return SUCCESS;
    }
    }
    // Integers beyond 64 bits are still valid JSON numbers.
    bool integer = false;
    if (value.is_integer().get(integer) != SUCCESS || !integer) { return error; }
    double approximation = 0;
    if (value.get_double().get(approximation) != SUCCESS) { return error; }
    out.kind = CSJ_BIG_INT;
    out.number = approximation;
    return SUCCESS;
}

/// Reads a scalar into `out`; objects and arrays are validated and reported by kind.
error_code read_value(csj_decoder &decoder, ondemand::value value, csj_value &out) noexcept {
    out = csj_value{};
    ondemand::json_type type;
    error_code error = value.type().get(type);
    if (error != SUCCESS) { return error; }
    switch (type) {
    case ondemand::json_type::object:
        out.kind = CSJ_OBJECT;
        return skip_value(decoder, value);
    case ondemand::json_type::array:
        out.kind = CSJ_ARRAY;
        return skip_value(decoder, value);
    case ondemand::json_type::string: {
        std::string_view string;
        error = value.get_string().get(string);
        if (error != SUCCESS) { return error; }
        out.kind = CSJ_STRING;
        out.string = string.data();
        out.length = string.size();
        return SUCCESS;
    }
    case ondemand::json_type::number:
        return read_number(decoder, value, out);
    case ondemand::json_type::boolean:
        error = value.get_bool().get(out.boolean);
        if (error != SUCCESS) { return error; }
        out.kind = CSJ_BOOL;
        return SUCCESS;
    case ondemand::json_type::null: {
        bool null = false;
        error = value.is_null().get(null);
        if (error != SUCCESS) { return error; }
        if (!null) { return simdjson::N_ATOM_ERROR; }
        out.kind = CSJ_NULL;
        return SUCCESS;
    }
    }
    return simdjson::INCORRECT_TYPE;
}

/// Visits a value and everything in it, only to make sure it is well-formed.
error_code skip_value(csj_decoder &decoder, ondemand::value value, int depth) {
    if (depth > max_depth) { return simdjson::DEPTH_ERROR; }
    ondemand::json_type type;
    error_code error = value.type().get(type);
    if (error != SUCCESS) { return error; }
    if (type == ondemand::json_type::object) {
        ondemand::object object;
        error = value.get_object().get(object);
        if (error != SUCCESS) { return error; }
        for (auto result : object) {
            ondemand::field field;
            error = std::move(result).get(field);
            if (error != SUCCESS) { return error; }
            std::string_view key;
            error = field.unescaped_key().get(key);
            if (error != SUCCESS) { return error; }
            error = skip_value(decoder, field.value(), depth + 1);
            if (error != SUCCESS) { return error; }
        }
        return SUCCESS;
    }
    if (type == ondemand::json_type::array) {
        ondemand::array array;
        error = value.get_array().get(array);
        if (error != SUCCESS) { return error; }
        for (auto result : array) {
            ondemand::value element;
            error = std::move(result).get(element);
            if (error != SUCCESS) { return error; }
            error = skip_value(decoder, element, depth + 1);
            if (error != SUCCESS) { return error; }
        }
        return SUCCESS;
    }
    csj_value ignored;
    return read_value(decoder, value, ignored);
}

/// Reads an object field: its entries into `entries` when it is an object, its kind
/// otherwise. A later occurrence of the field replaces an earlier one.
error_code read_object(csj_decoder &decoder, std::vector<csj_attr> &entries, ondemand::value value, csj_object &out) {
    entries.clear();
    out = csj_object{};
    ondemand::json_type type;
    error_code error = value.type().get(type);
    if (error != SUCCESS) { return error; }
    if (type != ondemand::json_type::object) {
        csj_value scalar;
        error = read_value(decoder, value, scalar);
        out.kind = scalar.kind;
        return error;
    }
    out.kind = CSJ_OBJECT;
    ondemand::object object;
    error = value.get_object().get(object);
    if (error != SUCCESS) { return error; }
    for (auto result : object) {
        ondemand::field field;
        error = std::move(result).get(field);
        if (error != SUCCESS) { return error; }
        std::string_view key;
        error = field.unescaped_key().get(key);
        if (error != SUCCESS) { return error; }
        csj_attr attr{};
        attr.key = key.data();
        attr.key_length = key.size();
        ondemand::value entry = field.value();
        ondemand::json_type entry_type;
        error = entry.type().get(entry_type);
        if (error != SUCCESS) { return error; }
        if (entry_type == ondemand::json_type::object || entry_type == ondemand::json_type::array) {
            // Its text as the line has it (not validated here: the reader validates it as it
            // makes it canonical).
            std::string_view raw;
            error = simdjson::to_json_string(entry).get(raw);
            if (error != SUCCESS) { return error; }
            attr.value.kind = entry_type == ondemand::json_type::object ? CSJ_OBJECT : CSJ_ARRAY;
            attr.value.string = raw.data();
            attr.value.length = raw.size();
        } else {
            error = read_value(decoder, entry, attr.value);
            if (error != SUCCESS) { return error; }
        }
        entries.push_back(attr);
    }
    return SUCCESS;
}

/// True when the `length` bytes at `bytes` are `null` with nothing but JSON whitespace around it.
bool is_lone_null(const uint8_t *bytes, size_t length) noexcept {
    auto whitespace = [](uint8_t byte) { return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r'; };
    size_t start = 0;
    while (start < length && whitespace(bytes[start])) { start++; }
    size_t end = length;
    while (end > start && whitespace(bytes[end - 1])) { end--; }
    return end - start == 4 && std::memcmp(bytes + start, "null", 4) == 0;
}

/// Visits a root value that is not an object, to tell "not JSON" from "not an object".
/// `bytes` and `length` are the whole document.
error_code validate_root_scalar(csj_decoder &decoder, ondemand::document &document, ondemand::json_type type, const uint8_t *bytes,
                                size_t length) {
    switch (type) {
    case ondemand::json_type::array: {
        ondemand::array array;
        error_code error = document.get_array().get(array);
        if (error != SUCCESS) { return error; }
        for (auto result : array) {
            ondemand::value element;
            error = std::move(result).get(element);
            if (error != SUCCESS) { return error; }
            error = skip_value(decoder, element);
            if (error != SUCCESS) { return error; }
        }
        return SUCCESS;
    }
    case ondemand::json_type::string: {
        std::string_view ignored;
        return document.get_string().get(ignored);
    }
    case ondemand::json_type::number: {
        double ignored = 0;
        return document.get_double().get(ignored);
    }
    case ondemand::json_type::boolean: {
        bool ignored = false;
        return document.get_bool().get(ignored);
    }
    case ondemand::json_type::null:
        // Not document.is_null(): simdjson 3.0.1 (Debian 12's) checks the byte 5 places after
        // the token's start instead of 4 there, so `null6 ` passed for null and `null ` did
        // not, depending on the bytes after the line (the padding, the next lines).
        return is_lone_null(bytes, length) ? SUCCESS : simdjson::N_ATOM_ERROR;
    case ondemand::json_type::object:
        break;
    }
    return SUCCESS;
}

/// True when the document has tokens left after its root value.
bool has_trailing_content(ondemand::document &document) noexcept {
    const char *location = nullptr;
    return document.current_location().get(location) == SUCCESS;
}

/// Reads a DOM value into `out`: a scalar's value, or the kind of an object or array.
void read_element(simdjson::dom::element element, csj_value &out) noexcept {
    out = csj_value{};
    switch (element.type()) {
    case simdjson::dom::element_type::OBJECT: out.kind = CSJ_OBJECT; return;
    case simdjson::dom::element_type::ARRAY: out.kind = CSJ_ARRAY; return;
    case simdjson::dom::element_type::STRING: {
        std::string_view string = element.get_string().value_unsafe();
        out.kind = CSJ_STRING;
        out.string = string.data();
        out.length = string.size();
        return;
    }
    case simdjson::dom::element_type::INT64:
        out.kind = CSJ_INT;
        out.integer = element.get_int64().value_unsafe();
        out.number = double(out.integer);
        return;
    case simdjson::dom::element_type::UINT64:
        out.kind = CSJ_BIG_INT;
        out.number = double(element.get_uint64().value_unsafe());
        return;
    case simdjson::dom::element_type::DOUBLE:
        out.kind = CSJ_DOUBLE;
        out.number = element.get_double().value_unsafe();
        return;
    case simdjson::dom::element_type::BOOL:
        out.kind = CSJ_BOOL;
        out.boolean = element.get_bool().value_unsafe();
        return;
    case simdjson::dom::element_type::NULL_VALUE: out.kind = CSJ_NULL; return;
    }
}

/// Reads an object field from the DOM, as `read_object` does from the on-demand walk; the
/// compact text of an object or array inside it goes to `nested_texts`.
void read_dom_object(std::vector<csj_attr> &entries, std::deque<std::string> &nested_texts,
                     simdjson::dom::element value, csj_object &out) {
    entries.clear();
    out = csj_object{};
    if (value.type() != simdjson::dom::element_type::OBJECT) {
        csj_value scalar;
        read_element(value, scalar);
        out.kind = scalar.kind;
        return;
    }
    out.kind = CSJ_OBJECT;
    for (simdjson::dom::key_value_pair field : simdjson::dom::object(value.get_object().value_unsafe())) {
        csj_attr attr{};
        attr.key = field.key.data();
        attr.key_length = field.key.size();
        read_element(field.value, attr.value);
        if (attr.value.kind == CSJ_OBJECT || attr.value.kind == CSJ_ARRAY) {
            nested_texts.push_back(simdjson::minify(field.value));
            attr.value.string = nested_texts.back().data();
            attr.value.length = nested_texts.back().size();
        }
        entries.push_back(attr);
    }
}

/// Whether `count` bytes (8 to 64) at `a` and `b` are the same, compared 8 at a time.
inline bool same_bytes(const char *a, const char *b, size_t count) {
    uint64_t x, y;
    for (size_t offset = 0; offset + 8 <= count; offset += 8) {
        std::memcpy(&x, a + offset, 8);
        std::memcpy(&y, b + offset, 8);
        if (x != y) { return false; }
    }
    std::memcpy(&x, a + count - 8, 8);
    std::memcpy(&y, b + count - 8, 8);
    return x == y;
}

/// The key number of an attribute name, from the decoder's cache or else its function.
///
/// A slot is chosen and checked by the name's length and first and last eight bytes, which
/// are the whole of most names (the first version hashed every byte, and the chain of
/// multiplications held up the slot's load).
inline uint32_t key_number(csj_decoder &decoder, const char *name, size_t length) {
    constexpr unsigned slot_bits = 10;
    if (length == 0 || length > sizeof(csj_decoder::key_number_slot::name)) { return decoder.key_number(name, length); }
    if (decoder.key_numbers.empty()) { decoder.key_numbers.resize(size_t(1) << slot_bits); }
    uint64_t first = 0;
    uint64_t last = 0;
    if (length >= 8) {
        std::memcpy(&first, name, 8);
        std::memcpy(&last, name + length - 8, 8);
    } else {
        for (size_t index = 0; index < length; ++index) { first |= uint64_t(static_cast<uint8_t>(name[index])) << (8 * index); }
    }
    uint64_t mixed = (first ^ (last * 0x9e3779b97f4a7c15ULL) ^ length) * 0xbf58476d1ce4e5b9ULL;
    csj_decoder::key_number_slot &slot = decoder.key_numbers[mixed >> (64 - slot_bits)];
    if (slot.first == first && slot.last == last && slot.length == length &&
        (length <= 16 || same_bytes(slot.name, name, length))) {
        return slot.number;
    }
    uint32_t number = decoder.key_number(name, length);
    slot.first = first;
    slot.last = last;
    slot.number = number;
    slot.length = static_cast<uint32_t>(length);
    std::memcpy(slot.name, name, length);
    return number;
}

/// Writes `value` as an unsigned LEB128 varint at `out` and returns the end.
inline uint8_t *put_varint(uint8_t *out, uint64_t value) {
    while (value >= 0x80) {
        *out++ = static_cast<uint8_t>(value) | 0x80;
        value >>= 7;
    }
    *out++ = static_cast<uint8_t>(value);
    return out;
}

/// Packs an object's entries as Swift's `PackedAttributes` does from the same entries (its
/// `Writer`, in document order) into `out`, and sets `length` to the bytes written: an 8-byte
/// little-endian header of key-number bits, then per entry a varint tag (number << 1 | 1, or
/// name length << 1 followed by the name), a kind byte (0 string, 2 double, 3 false, 4 true,
/// 8 + n - 1 an integer of n bytes) and the value (a string's varint length and bytes, 8 bytes
/// of a double, the fewest little-endian bytes that give an integer back sign-extended).
/// False, with `out` to be ignored, for anything the Swift decoder must judge from the
/// entries: not an object, no entries or more than 48, a repeated key, a value that is not a
/// string, number or boolean.
bool pack_dom_object(csj_decoder &decoder, simdjson::dom::element value, std::vector<uint8_t> &out, size_t &length) {
    constexpr size_t max_entries = 48;
    if (value.type() != simdjson::dom::element_type::OBJECT) { return false; }
    // Left uninitialised (an array of `std::string_view` was zeroed on every call).
    uint32_t numbers[max_entries];
    const char *key_bytes[max_entries];
    size_t key_lengths[max_entries];
    uint64_t seen = 0;
    uint64_t header = 0;
    size_t count = 0;
    size_t used = 8;
    for (simdjson::dom::key_value_pair field : simdjson::dom::object(value.get_object().value_unsafe())) {
        if (count == max_entries) { return false; }
        std::string_view key = field.key;
        uint32_t number = key_number(decoder, key.data(), key.size());
        uint64_t bit = number == 0 ? 0 : uint64_t(1) << (number & 63);
        if ((seen & bit) != 0 || number == 0) {
            for (size_t earlier = 0; earlier < count; ++earlier) {
                if (numbers[earlier] == number &&
                    (number != 0 ||
                     (key_lengths[earlier] == key.size() && std::memcmp(key_bytes[earlier], key.data(), key.size()) == 0))) {
                    return false;
                }
            }
        }
        seen |= bit;
        numbers[count] = number;
        key_bytes[count] = key.data();
        key_lengths[count] = key.size();
        ++count;
        // The value read straight from the DOM (as `read_element` reads it, without its record).
        simdjson::dom::element element = field.value;
        simdjson::dom::element_type type = element.type();
        std::string_view text;
        if (type == simdjson::dom::element_type::STRING) {
            text = element.get_string().value_unsafe();
        } else if (type != simdjson::dom::element_type::INT64 && type != simdjson::dom::element_type::UINT64 &&
                   type != simdjson::dom::element_type::DOUBLE && type != simdjson::dom::element_type::BOOL) {
            return false;
        }
        // Tag, name, kind, a string's length and the value, at most.
        size_t most = 10 + key.size() + 1 + 10 + std::max(text.size(), size_t(8));
        if (out.size() < used + most) { out.resize(std::max(2 * out.size(), used + most)); }
        uint8_t *write = out.data() + used;
        if (number != 0) {
            header |= bit;
            write = put_varint(write, uint64_t(number) << 1 | 1);
        } else {
            write = put_varint(write, uint64_t(key.size()) << 1);
            std::memcpy(write, key.data(), key.size());
            write += key.size();
        }
        switch (type) {
        case simdjson::dom::element_type::STRING:
            *write++ = 0;
            write = put_varint(write, text.size());
            if (!text.empty()) { std::memcpy(write, text.data(), text.size()); }
            write += text.size();
            break;
        case simdjson::dom::element_type::INT64: {
            int64_t integer = element.get_int64().value_unsafe();
            uint64_t bits = uint64_t(integer);
            uint64_t magnitude = integer < 0 ? ~bits : bits;
            size_t significant = 65 - (magnitude == 0 ? 64 : __builtin_clzll(magnitude));
            size_t bytes = (significant + 7) >> 3;
            *write++ = static_cast<uint8_t>(8 + bytes - 1);
            for (size_t index = 0; index < bytes; ++index) { *write++ = static_cast<uint8_t>(bits >> (8 * index)); }
            break;
        }
        case simdjson::dom::element_type::BOOL: *write++ = element.get_bool().value_unsafe() ? 4 : 3; break;
        default: {
            // A double, or an integer beyond int64_t as the nearest double.
            double number = type == simdjson::dom::element_type::UINT64 ? double(element.get_uint64().value_unsafe())
                                                                       : element.get_double().value_unsafe();
            uint64_t bits;
            std::memcpy(&bits, &number, sizeof bits);
            *write++ = 2;
            for (size_t index = 0; index < 8; ++index) { *write++ = static_cast<uint8_t>(bits >> (8 * index)); }
            break;
        }
        }
        used = static_cast<size_t>(write - out.data());
    }
    if (count == 0) { return false; }
    for (size_t index = 0; index < 8; ++index) { out[index] = static_cast<uint8_t>(header >> (8 * index)); }
    length = used;
    return true;
}

/// An object field for the DOM path: packed when the decoder packs and the object allows it,
/// else its entries.
void read_dom_object_or_pack(csj_decoder &decoder, std::vector<csj_attr> &entries, std::vector<uint8_t> &packed,
                             simdjson::dom::element value, csj_object &out) {
    size_t length = 0;
    if (decoder.key_number != nullptr && pack_dom_object(decoder, value, packed, length)) {
        entries.clear();
        out = csj_object{};
        out.kind = CSJ_OBJECT;
        out.packed_length = length;
        return;
    }
    read_dom_object(entries, decoder.nested_texts, value, out);
}

/// Decodes a line with the DOM parser; false when it must be left to the on-demand walk.
bool decode_dom(csj_decoder &decoder, const uint8_t *bytes, size_t length, csj_record &record) {
    if (!decoder.dom_ready) {
        if (decoder.dom.allocate(simdjson::dom::MINIMAL_DOCUMENT_CAPACITY, dom_max_depth) != SUCCESS) { return false; }
        decoder.dom_ready = true;
    }
    simdjson::dom::element root;
    if (decoder.dom.parse(bytes, length, false).get(root) != SUCCESS) { return false; }
    simdjson::dom::object object;
    if (root.get_object().get(object) != SUCCESS) { return false; }
    for (simdjson::dom::key_value_pair field : object) {
        field_name name = classify(field.key);
        if (csj_value *slot = scalar_slot(record, name)) {
            read_element(field.value, *slot);
            continue;
        }
        switch (name) {
        case field_name::attrs:
            read_dom_object_or_pack(decoder, decoder.attrs, decoder.packed_attrs, field.value, record.attrs);
            break;
        case field_name::action_attrs:
            read_dom_object_or_pack(
                decoder, decoder.action_attrs, decoder.packed_action_attrs, field.value, record.action_attrs);
            break;
        case field_name::meta: read_dom_object(decoder.meta, decoder.nested_texts, field.value, record.meta); break;
        default: break;
        }
    }
    return true;
}

/// Points the record's object fields at the entries read into the decoder.
csj_status finish(csj_decoder &decoder, csj_record &record) noexcept {
    record.attrs.entries = decoder.attrs.data();
    record.attrs.count = decoder.attrs.size();
    record.action_attrs.entries = decoder.action_attrs.data();
    record.action_attrs.count = decoder.action_attrs.size();
    record.meta.entries = decoder.meta.data();
    record.meta.count = decoder.meta.size();
    record.attrs.packed = record.attrs.packed_length > 0 ? decoder.packed_attrs.data() : nullptr;
    record.action_attrs.packed = record.action_attrs.packed_length > 0 ? decoder.packed_action_attrs.data() : nullptr;
    return CSJ_OK;
}

csj_status fail(error_code error, const char **message) noexcept {
    *message = simdjson::error_message(error);
    return CSJ_INVALID_JSON;
}

/// Marks every field of the record absent. A field the line has is then written whole
/// (`read_element` and `read_value` reset the value they fill), so the rest of the record's
/// 552 bytes need no clearing: the decoder reuses one record for every line.
void clear(csj_record &record) noexcept {
    for (csj_value *value : {&record.ts, &record.type, &record.instrument, &record.tracker, &record.action, &record.app,
                             &record.name, &record.trigger, &record.event, &record.player, &record.progress,
                             &record.error}) {
        value->kind = CSJ_ABSENT;
    }
    record.attrs.kind = CSJ_ABSENT;
    record.attrs.packed_length = 0;
    record.action_attrs.kind = CSJ_ABSENT;
    record.action_attrs.packed_length = 0;
    record.meta.kind = CSJ_ABSENT;
}
static_assert(sizeof(csj_record) == 12 * sizeof(csj_value) + 3 * sizeof(csj_object), "clear() names every field");

csj_status decode(csj_decoder &decoder, const uint8_t *bytes, size_t length, size_t capacity,
                  csj_record &record, const char **message) {
    clear(record);
    decoder.attrs.clear();
    decoder.action_attrs.clear();
    decoder.meta.clear();
    decoder.nested_texts.clear();
    if (capacity < length || capacity - length < simdjson::SIMDJSON_PADDING) {
        decoder.scratch.resize(length + simdjson::SIMDJSON_PADDING);
        if (length > 0) { std::memcpy(decoder.scratch.data(), bytes, length); }
        std::memset(decoder.scratch.data() + length, 0, simdjson::SIMDJSON_PADDING);
        bytes = decoder.scratch.data();
        capacity = decoder.scratch.size();
    }
    if (decode_dom(decoder, bytes, length, record)) { return finish(decoder, record); }
    clear(record);
    decoder.attrs.clear();
    decoder.action_attrs.clear();
    decoder.meta.clear();

    ondemand::document document;
    error_code error = decoder.parser.iterate(bytes, length, capacity).get(document);
    if (error != SUCCESS) { return fail(error, message); }
    ondemand::json_type type;
    error = document.type().get(type);
    if (error != SUCCESS) { return fail(error, message); }
    if (type != ondemand::json_type::object) {
        error = validate_root_scalar(decoder, document, type, bytes, length);
        if (error != SUCCESS) { return fail(error, message); }
        if (type == ondemand::json_type::array && has_trailing_content(document)) {
            return fail(simdjson::TRAILING_CONTENT, message);
        }
        return CSJ_NOT_OBJECT;
    }

    ondemand::object object;
    error = document.get_object().get(object);
    if (error != SUCCESS) { return fail(error, message); }
    for (auto result : object) {
        ondemand::field field;
        error = std::move(result).get(field);
        if (error != SUCCESS) { return fail(error, message); }
        std::string_view key;
        error = field.unescaped_key().get(key);
        if (error != SUCCESS) { return fail(error, message); }
        field_name name = classify(key);
        if (csj_value *slot = scalar_slot(record, name)) {
            error = read_value(decoder, field.value(), *slot);
        } else {
            switch (name) {
            case field_name::attrs: error = read_object(decoder, decoder.attrs, field.value(), record.attrs); break;
            case field_name::action_attrs:
                error = read_object(decoder, decoder.action_attrs, field.value(), record.action_attrs);
                break;
            case field_name::meta: error = read_object(decoder, decoder.meta, field.value(), record.meta); break;
            default: error = skip_value(decoder, field.value()); break;
            }
        }
        if (error != SUCCESS) { return fail(error, message); }
    }
    if (has_trailing_content(document)) { return fail(simdjson::TRAILING_CONTENT, message); }
    return finish(decoder, record);
}

} // namespace

extern "C" {

size_t csj_padding(void) { return simdjson::SIMDJSON_PADDING; }

const char *csj_implementation_name(void) {
    return simdjson::get_active_implementation()->name().c_str();
}

csj_decoder *csj_decoder_create(void) {
    return new (std::nothrow) csj_decoder();
}

void csj_decoder_destroy(csj_decoder *decoder) { delete decoder; }

void csj_decoder_set_key_numbers(csj_decoder *decoder, csj_key_number_fn key_number) {
    decoder->key_number = key_number;
}

csj_status csj_decode(csj_decoder *decoder, const uint8_t *bytes, size_t length, size_t capacity,
                      csj_record *record, const char **message) {
    static const char empty[] = "";
    *message = empty;
    try {
        return decode(*decoder, bytes, length, capacity, *record, message);
    } catch (const std::bad_alloc &) {
        *message = simdjson::error_message(simdjson::MEMALLOC);
        return CSJ_INVALID_JSON;
    } catch (...) {
        *message = simdjson::error_message(simdjson::UNEXPECTED_ERROR);
        return CSJ_INVALID_JSON;
    }
}

} // extern "C"
