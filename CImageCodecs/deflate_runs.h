// Internal: the run-length deflate encoder behind the speed-first PNG writer (not exported).
#ifndef CIC_DEFLATE_RUNS_H
#define CIC_DEFLATE_RUNS_H

#include <stddef.h>
#include <stdint.h>

/// The most `cic_zlib_compress_runs` writes for `length` input bytes.
size_t cic_zlib_compress_runs_bound(size_t length);

/// Compresses `input` as a zlib stream (RFC 1950) whose deflate blocks (RFC 1951) hold
/// literals and runs of the previous byte (matches at distance 1) under a Huffman code
/// fitted to each block, or are stored when that is no smaller. `output` has at least
/// `cic_zlib_compress_runs_bound(length)` bytes; returns the bytes written.
size_t cic_zlib_compress_runs(const uint8_t *input, size_t length, uint8_t *output);

#endif
