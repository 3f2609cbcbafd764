#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
// libcurl's easy interface, for InfluxDB's requests (MetricsPush/CurlPost.swift). Swift cannot
// call C's variadic functions: curl_easy_setopt and curl_easy_getinfo are wrapped here, one
// function for each type of argument used.
#include <curl/curl.h>
#include <string.h>

static inline CURLcode avt_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

static inline CURLcode avt_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode avt_curl_setopt_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode avt_curl_setopt_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode avt_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}

static inline CURLcode avt_curl_getinfo_string(CURL *curl, CURLINFO info, char **value) {
    return curl_easy_getinfo(curl, info, value);
}

/// Where an answer's body goes: its first `capacity` bytes into `bytes`, `count` of them so far;
/// the rest is read and dropped.
struct avt_curl_body {
    char *bytes;
    size_t capacity;
    size_t count;
};

static size_t avt_curl_collect(char *data, size_t size, size_t items, void *target) {
    struct avt_curl_body *body = (struct avt_curl_body *)target;
    size_t length = size * items;
    size_t room = body->capacity - body->count;
    size_t taken = length < room ? length : room;
    if (taken > 0) {
        memcpy(body->bytes + body->count, data, taken);
        body->count += taken;
    }
    return length;
}

/// Collects the answer's body into `body`, which must outlive curl_easy_perform.
static inline CURLcode avt_curl_collect_body(CURL *curl, struct avt_curl_body *body) {
    CURLcode code = curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, avt_curl_collect);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(curl, CURLOPT_WRITEDATA, body);
}
#endif
