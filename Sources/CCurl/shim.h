// CCurl: Debian's libcurl (libcurl4-openssl-dev) for the CurlTransport adapter, its only importer.
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call; these static inline wrappers give
// each argument type its own spelling.
#pragma once
#include <curl/curl.h>

static inline CURLcode waymark_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode waymark_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode waymark_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode waymark_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode waymark_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*waymark_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode waymark_curl_setopt_data_callback(CURL *handle, CURLoption option,
                                                         waymark_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
static inline CURLcode waymark_curl_setopt_progress_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode waymark_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
