#pragma once
// libpng's write API for LibPNGWriter (the only importer). Swift cannot call setjmp, so the whole write, with its
// setjmp and the callbacks that longjmp out of a libpng error, is the C function below; Swift sees a status and a
// message.
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The PNG bytes written so far (grown with realloc; the caller frees `data` with waymark_png_output_free), and the
/// message of the libpng error that stopped the write.
typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    char message[256];
} waymark_png_output;

static inline void waymark_png_output_free(waymark_png_output *out) {
    free(out->data);
    out->data = NULL;
    out->size = 0;
    out->capacity = 0;
}

static inline void waymark_png_write_data(png_structp png, png_bytep bytes, size_t length) {
    waymark_png_output *out = (waymark_png_output *)png_get_io_ptr(png);
    if (length > out->capacity - out->size) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (capacity - out->size < length) {
            if (capacity > SIZE_MAX / 2) png_error(png, "the PNG is larger than memory can hold");
            capacity *= 2;
        }
        unsigned char *grown = (unsigned char *)realloc(out->data, capacity);
        if (grown == NULL) png_error(png, "out of memory for the PNG bytes");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, bytes, length);
    out->size += length;
}

static inline void waymark_png_flush(png_structp png) { (void)png; }

/// libpng's error callback: keeps the message and jumps back to waymark_png_encode's setjmp (never returns).
static inline void waymark_png_error(png_structp png, png_const_charp message) {
    waymark_png_output *out = (waymark_png_output *)png_get_error_ptr(png);
    snprintf(out->message, sizeof out->message, "%s", message ? message : "unknown error");
    png_longjmp(png, 1);
}

/// libpng's warnings (none for the parameters LibPNGWriter passes) are dropped rather than printed.
static inline void waymark_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// Writes `height` rows of `width` 8-bit RGB (`alpha` 0) or RGBA (`alpha` 1) pixels, `stride` bytes apart from
/// `rows`, as a PNG into `out`: every row with filter 0 (none), zlib at `level` (0–9), IDAT chunks of up to
/// `buffer_size` bytes, and a bKGD chunk of (`red`, `green`, `blue`) when `background` is non-zero.
/// Returns 0, or -1 with `out->message` naming libpng's error. Either way the caller frees `out`.
static inline int waymark_png_encode(
    const unsigned char *rows, size_t stride, png_uint_32 width, png_uint_32 height, int alpha, int level,
    size_t buffer_size, int background, png_uint_16 red, png_uint_16 green, png_uint_16 blue,
    waymark_png_output *out) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, out, waymark_png_error, waymark_png_warning);
    if (png == NULL) {
        snprintf(out->message, sizeof out->message, "libpng could not start a write (out of memory)");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        snprintf(out->message, sizeof out->message, "libpng could not start a write (out of memory)");
        return -1;
    }
    // `png` and `info` are not changed after this point, so they hold their values when libpng jumps back here.
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, out, waymark_png_write_data, waymark_png_flush);
    png_set_IHDR(
        png, info, width, height, 8, alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
        PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (background) {
        png_color_16 colour = {.index = 0, .red = red, .green = green, .blue = blue, .gray = 0};
        png_set_bKGD(png, info, &colour);
    }
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, level);
    png_set_compression_buffer_size(png, buffer_size);
    png_write_info(png, info);
    for (png_uint_32 y = 0; y < height; y++) {
        png_write_row(png, rows + (size_t)y * stride);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}
