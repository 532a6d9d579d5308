/* A stand-in for miniaudio.h, which Go module zips drop from Ollama's
 * vendored llama.cpp. latgate's end-to-end test serves text models only:
 * audio decoding is never used, so every function here fails cleanly. */
#pragma once
#include <stddef.h>
#include <stdint.h>
typedef int ma_result;
typedef uint64_t ma_uint64;
typedef int ma_format;
typedef int ma_encoding_format;
#define MA_SUCCESS 0
#define MA_ERROR (-1)
#define ma_format_f32 5
#define ma_encoding_format_wav 1
typedef struct { ma_format format; int channels; int sampleRate; } ma_decoder_config;
typedef struct { int unused; } ma_decoder;
typedef struct { int unused; } ma_encoder_config;
typedef struct { int unused; } ma_encoder;
static inline ma_decoder_config ma_decoder_config_init(ma_format f, int ch, int sr) { ma_decoder_config c = {f, ch, sr}; return c; }
static inline ma_result ma_decoder_init_memory(const void *d, size_t n, const ma_decoder_config *c, ma_decoder *dec) { (void)d; (void)n; (void)c; (void)dec; return MA_ERROR; }
static inline ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *d, ma_uint64 *n) { (void)d; *n = 0; return MA_ERROR; }
static inline ma_result ma_decoder_read_pcm_frames(ma_decoder *d, void *out, ma_uint64 n, ma_uint64 *read) { (void)d; (void)out; (void)n; *read = 0; return MA_ERROR; }
static inline ma_result ma_decoder_uninit(ma_decoder *d) { (void)d; return MA_SUCCESS; }
