// Run-length deflate: the encoding zlib calls Z_RLE (literals, and repeats of the previous
// byte as matches at distance 1), with a Huffman code fitted to each block (RFC 1951,
// sections 3.2.5-3.2.7), written for speed. PNG rows under the Up filter are mostly
// literals with skewed statistics and long runs of zeros (transparent or flat areas), so
// this gives about the bytes of libdeflate's level 1 on photo stickers for a fraction of
// its time: there is no match search, only a few word operations per eight literals, and
// the literals are read from the input again when the block is written.
#include "deflate_runs.h"
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

enum {
    BLOCK_INPUT = 1 << 17,   // input bytes per block: one Huffman code each
    STORED_MAX = 65535,      // bytes per stored block
    LITLEN_SYMBOLS = 286,
    END_OF_BLOCK = 256,
    MAX_BITS = 15,
    CODELEN_SYMBOLS = 19,
    MAX_CODELEN_BITS = 7,
    MIN_RUN = 3,
    MAX_RUN = 258,
};

size_t cic_zlib_compress_runs_bound(size_t length) {
    // Every block is at worst stored: a 3-bit header, up to 7 bits of padding and LEN/NLEN
    // per 65535 bytes (under 6 bytes); plus the zlib header, Adler-32 and the writer's
    // eight spare bytes.
    return length + (length / STORED_MAX + length / BLOCK_INPUT + 2) * 6 + 2 + 4 + 8;
}

/// Bits collected LSB first (RFC 1951, section 3.1.1). Every write stores eight bytes and
/// moves on by the whole bytes it holds, so there is no branch per code; the output has
/// eight bytes to spare at its end for this.
typedef struct {
    uint8_t *out;
    uint64_t bits;
    unsigned count;   // bits held, under 8 between writes
} bit_writer;

static inline void store_le64(uint8_t *p, uint64_t value) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap64(value);
#endif
    memcpy(p, &value, sizeof value);
}

/// Writes `length` bits of `value` (at most 56; with under 8 held, 64 bits never overflow).
static inline void put_bits(bit_writer *w, uint64_t value, unsigned length) {
    w->bits |= value << w->count;
    w->count += length;
    store_le64(w->out, w->bits);
    unsigned whole = w->count >> 3;
    w->out += whole;
    w->bits >>= 8 * whole;
    w->count &= 7;
}

/// Writes out the bits still held, padding the last byte with zeros.
static void align_to_byte(bit_writer *w) {
    if (w->count > 0) *w->out++ = (uint8_t)w->bits;
    w->bits = 0;
    w->count = 0;
}

typedef struct {
    uint32_t frequency;
    uint16_t symbol;
} weighted_symbol;

static int rarer_first(const void *a, const void *b) {
    const weighted_symbol *x = a, *y = b;
    if (x->frequency != y->frequency) return x->frequency < y->frequency ? -1 : 1;
    return (int)x->symbol - (int)y->symbol;
}

/// Code lengths of at most `limit` bits for `count` symbols (zero for unused ones): the
/// depths of Huffman's tree, built with two queues over the symbols sorted by frequency;
/// when it is deeper than `limit`, the count of codes per length is reshaped as in the
/// JPEG standard's Annex K.3 (ITU-T T.81) and the lengths are handed out again, the
/// shortest to the most frequent. At least two symbols get a code, as zlib also ensures.
static void code_lengths(const uint32_t *frequency, int count, int limit, uint8_t *lengths) {
    weighted_symbol leaves[LITLEN_SYMBOLS + 1];
    int n = 0;
    memset(lengths, 0, (size_t)count);
    for (int s = 0; s < count; s++) {
        if (frequency[s] > 0) leaves[n++] = (weighted_symbol){frequency[s], (uint16_t)s};
    }
    for (int s = 0; n < 2; s++) {
        if (frequency[s] == 0) leaves[n++] = (weighted_symbol){0, (uint16_t)s};
    }
    qsort(leaves, (size_t)n, sizeof leaves[0], rarer_first);

    // Nodes 0 ..< n are the leaves, n ..< 2n - 1 the merged ones, in the order made.
    uint64_t weight[2 * LITLEN_SYMBOLS];
    int parent[2 * LITLEN_SYMBOLS];
    for (int i = 0; i < n; i++) weight[i] = leaves[i].frequency;
    int leaf = 0, merged = n, made = n;
    for (int step = 0; step < n - 1; step++) {
        int pair[2];
        for (int k = 0; k < 2; k++) {
            if (leaf < n && (merged >= made || weight[leaf] <= weight[merged])) pair[k] = leaf++;
            else pair[k] = merged++;
        }
        weight[made] = weight[pair[0]] + weight[pair[1]];
        parent[pair[0]] = parent[pair[1]] = made;
        made++;
    }
    int depth[2 * LITLEN_SYMBOLS];
    int per_length[2 * LITLEN_SYMBOLS] = {0};
    int deepest = 0;
    depth[made - 1] = 0;
    for (int node = made - 2; node >= 0; node--) {
        depth[node] = depth[parent[node]] + 1;
        if (node < n) {
            per_length[depth[node]]++;
            if (depth[node] > deepest) deepest = depth[node];
        }
    }
    for (int i = deepest; i > limit; i--) {
        while (per_length[i] > 0) {
            int j = i - 2;
            while (per_length[j] == 0) j--;
            per_length[i] -= 2;
            per_length[i - 1] += 1;
            per_length[j + 1] += 2;
            per_length[j] -= 1;
        }
    }
    // The rarest symbols take the longest codes.
    int next = 0;
    for (int length = deepest < limit ? deepest : limit; length >= 1; length--) {
        for (int k = 0; k < per_length[length]; k++) lengths[leaves[next++].symbol] = (uint8_t)length;
    }
}

/// Canonical Huffman codes for `lengths` (RFC 1951, section 3.2.2), bit-reversed so they
/// can be written LSB first.
static void canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
    uint16_t per_length[MAX_BITS + 1] = {0}, next[MAX_BITS + 1] = {0};
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    uint16_t code = 0;
    for (int bits = 1; bits <= MAX_BITS; bits++) {
        code = (uint16_t)((code + per_length[bits - 1]) << 1);
        next[bits] = code;
    }
    for (int s = 0; s < count; s++) {
        if (lengths[s] == 0) continue;
        uint16_t value = next[lengths[s]]++, reversed = 0;
        for (int b = 0; b < lengths[s]; b++) reversed = (uint16_t)((reversed << 1) | ((value >> b) & 1));
        codes[s] = reversed;
    }
}

/// Deflate's length symbols: 257 + index for lengths from base[index], with extra bits.
static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
/// The order code-length code lengths are sent in (RFC 1951, section 3.2.7).
static const uint8_t codelen_order[CODELEN_SYMBOLS] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/// One block's runs: where each starts in the input and its length (3-258); every byte
/// between them is a literal, written from the input itself.
typedef struct {
    size_t *run_start;
    uint16_t *run_length;
    size_t count;
    uint32_t litlen_frequency[LITLEN_SYMBOLS];
    uint8_t length_index[MAX_RUN + 1];   // run length -> index into length_base
} block_runs;

static void find_runs(block_runs *block, const uint8_t *input, size_t start, size_t end) {
    // Literals are counted in four tables in turn, so repeats of one byte value do not
    // each wait on the last increment of its counter.
    uint32_t frequency[LITLEN_SYMBOLS] = {0}, literals[4][256] = {{0}};
    frequency[END_OF_BLOCK] = 1;
    size_t count = 0, i = start;
    while (i < end) {
        // Eight literals at once while none of them starts a run: a run starts where the
        // XORs of a byte with the next three are all zero, and a word has a zero byte
        // exactly when (v - 0x01..01) & ~v & 0x80..80 is not zero (the bit trick of
        // S. E. Anderson's "Bit Twiddling Hacks").
        while (end - i >= 8 + MIN_RUN) {
            uint64_t a, b, c, d;
            memcpy(&a, input + i, 8);
            memcpy(&b, input + i + 1, 8);
            memcpy(&c, input + i + 2, 8);
            memcpy(&d, input + i + 3, 8);
            uint64_t differences = (a ^ b) | (b ^ c) | (c ^ d);
            if ((differences - 0x0101010101010101u) & ~differences & 0x8080808080808080u) break;
            for (int k = 0; k < 8; k++) literals[k & 3][input[i + k]]++;
            i += 8;
        }
        uint8_t byte = input[i];
        literals[i & 3][byte]++;
        i++;
        // A run is worth a match from three repeats on: one compare of the literal and the
        // next three bytes as a word (most literals start none, and this one branch is then
        // well predicted).
        uint32_t four;
        if (end - i < MIN_RUN) continue;
        memcpy(&four, input + i - 1, sizeof four);
        if (four != byte * 0x01010101u) continue;
        size_t run = MIN_RUN, available = end - i;
        while (run < available && input[i + run] == byte) run++;
        while (run >= MIN_RUN) {
            size_t length = run < MAX_RUN ? run : MAX_RUN;
            block->run_start[count] = i;
            block->run_length[count++] = (uint16_t)length;
            frequency[257 + block->length_index[length]]++;
            run -= length;
            i += length;
        }
    }
    for (int byte = 0; byte < 256; byte++) {
        frequency[byte] = literals[0][byte] + literals[1][byte] + literals[2][byte] + literals[3][byte];
    }
    memcpy(block->litlen_frequency, frequency, sizeof frequency);
    block->count = count;
}

/// A code-length token: symbol 0-18 and, for 16-18, its repeat count's extra bits.
typedef struct {
    uint8_t symbol;
    uint8_t extra;
} codelen_token;

/// The run-length coding of a block's code lengths (RFC 1951, section 3.2.7).
static size_t codelen_tokens(const uint8_t *lengths, size_t count, codelen_token *tokens) {
    size_t n = 0, i = 0;
    while (i < count) {
        uint8_t length = lengths[i];
        size_t run = 1;
        while (i + run < count && lengths[i + run] == length) run++;
        i += run;
        if (length == 0) {
            while (run >= 11) {
                size_t take = run < 138 ? run : 138;
                tokens[n++] = (codelen_token){18, (uint8_t)(take - 11)};
                run -= take;
            }
            if (run >= 3) {
                tokens[n++] = (codelen_token){17, (uint8_t)(run - 3)};
                run = 0;
            }
        } else {
            tokens[n++] = (codelen_token){length, 0};
            run--;
            while (run >= 3) {
                size_t take = run < 6 ? run : 6;
                tokens[n++] = (codelen_token){16, (uint8_t)(take - 3)};
                run -= take;
            }
        }
        while (run > 0) {
            tokens[n++] = (codelen_token){length, 0};
            run--;
        }
    }
    return n;
}

static const uint8_t codelen_extra_bits[CODELEN_SYMBOLS] = {[16] = 2, [17] = 3, [18] = 7};

static void write_stored(bit_writer *w, const uint8_t *input, size_t start, size_t end, int last) {
    do {
        size_t length = end - start < STORED_MAX ? end - start : STORED_MAX;
        put_bits(w, last && start + length == end, 1);
        put_bits(w, 0, 2);
        align_to_byte(w);
        uint8_t *p = w->out;
        p[0] = (uint8_t)length;
        p[1] = (uint8_t)(length >> 8);
        p[2] = (uint8_t)~length;
        p[3] = (uint8_t)(~length >> 8);
        memcpy(p + 4, input + start, length);
        w->out = p + 4 + length;
        start += length;
    } while (start < end);
}

/// Writes `input[start ..< end]` as one block with its own Huffman code, or as stored
/// blocks where that code would not be smaller.
static void write_block(bit_writer *w, block_runs *block, const uint8_t *input, size_t start, size_t end, int last) {
    find_runs(block, input, start, end);
    uint8_t lengths[LITLEN_SYMBOLS + 2];   // literal/length code lengths, then the distance ones
    code_lengths(block->litlen_frequency, LITLEN_SYMBOLS, MAX_BITS, lengths);
    int literal_codes = LITLEN_SYMBOLS;
    while (literal_codes > 257 && lengths[literal_codes - 1] == 0) literal_codes--;
    // Two distance codes of one bit, as zlib sends when one is used: distance 1 is code 0.
    lengths[literal_codes] = lengths[literal_codes + 1] = 1;

    codelen_token header[LITLEN_SYMBOLS + 2];
    size_t header_count = codelen_tokens(lengths, (size_t)literal_codes + 2, header);
    uint32_t codelen_frequency[CODELEN_SYMBOLS] = {0};
    for (size_t k = 0; k < header_count; k++) codelen_frequency[header[k].symbol]++;
    uint8_t codelen_lengths[CODELEN_SYMBOLS];
    code_lengths(codelen_frequency, CODELEN_SYMBOLS, MAX_CODELEN_BITS, codelen_lengths);
    int codelen_codes = CODELEN_SYMBOLS;
    while (codelen_codes > 4 && codelen_lengths[codelen_order[codelen_codes - 1]] == 0) codelen_codes--;

    // The block's exact size in bits, against the stored blocks' most.
    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)codelen_codes;
    for (int s = 0; s < CODELEN_SYMBOLS; s++) {
        bits += (uint64_t)codelen_frequency[s] * (codelen_lengths[s] + codelen_extra_bits[s]);
    }
    for (int s = 0; s < LITLEN_SYMBOLS; s++) {
        uint64_t per_symbol = lengths[s];
        if (s > 256) per_symbol += length_extra[s - 257] + 1;   // extra bits and the distance code
        bits += (uint64_t)block->litlen_frequency[s] * per_symbol;
    }
    size_t length = end - start;
    uint64_t stored_bits = ((uint64_t)length + (length / STORED_MAX + 1) * 6) * 8;
    if (bits >= stored_bits) {
        write_stored(w, input, start, end, last);
        return;
    }

    uint16_t codes[LITLEN_SYMBOLS + 2] = {0}, codelen_codes_table[CODELEN_SYMBOLS] = {0};
    canonical_codes(lengths, literal_codes, codes);
    canonical_codes(codelen_lengths, CODELEN_SYMBOLS, codelen_codes_table);
    put_bits(w, last ? 1 : 0, 1);
    put_bits(w, 2, 2);   // dynamic Huffman codes
    put_bits(w, (uint32_t)(literal_codes - 257), 5);
    put_bits(w, 2 - 1, 5);
    put_bits(w, (uint32_t)(codelen_codes - 4), 4);
    for (int k = 0; k < codelen_codes; k++) put_bits(w, codelen_lengths[codelen_order[k]], 3);
    for (size_t k = 0; k < header_count; k++) {
        uint8_t symbol = header[k].symbol;
        put_bits(w, codelen_codes_table[symbol], codelen_lengths[symbol]);
        if (codelen_extra_bits[symbol]) put_bits(w, header[k].extra, codelen_extra_bits[symbol]);
    }
    // Each run's code, extra bits and one-bit distance code (0) go out in one write.
    uint32_t run_code[MAX_RUN + 1];
    uint8_t run_bits[MAX_RUN + 1];
    for (int run = MIN_RUN; run <= MAX_RUN; run++) {
        int index = block->length_index[run], symbol = 257 + index;
        run_code[run] = codes[symbol] | (uint32_t)(run - length_base[index]) << lengths[symbol];
        run_bits[run] = (uint8_t)(lengths[symbol] + length_extra[index] + 1);
    }
    // The hot loops work on a copy of the writer: its bytes go out through a byte pointer,
    // which could alias the caller's writer, so each write would reload it.
    bit_writer local = *w;
    size_t at = start;
    for (size_t k = 0; k <= block->count; k++) {
        // The literals up to the next run (or the block's end), three to a write of up to
        // 45 bits, then the run's code, extra bits and one-bit distance code (0) in one.
        size_t literals_end = k < block->count ? block->run_start[k] : end;
        for (; at + 3 <= literals_end; at += 3) {
            uint8_t a = input[at], b = input[at + 1], c = input[at + 2];
            unsigned a_bits = lengths[a], ab_bits = a_bits + lengths[b];
            put_bits(&local, codes[a] | (uint64_t)codes[b] << a_bits | (uint64_t)codes[c] << ab_bits,
                     ab_bits + lengths[c]);
        }
        for (; at < literals_end; at++) put_bits(&local, codes[input[at]], lengths[input[at]]);
        if (k == block->count) break;
        int run = block->run_length[k];
        put_bits(&local, run_code[run], run_bits[run]);
        at += (size_t)run;
    }
    put_bits(&local, codes[END_OF_BLOCK], lengths[END_OF_BLOCK]);
    *w = local;
}

size_t cic_zlib_compress_runs(const uint8_t *input, size_t length, uint8_t *output) {
    block_runs block;
    // Each run covers three bytes or more of its block.
    size_t most_runs = BLOCK_INPUT / MIN_RUN + 1;
    block.run_start = malloc(sizeof(size_t) * most_runs);
    block.run_length = malloc(sizeof(uint16_t) * most_runs);
    if (block.run_start == NULL || block.run_length == NULL) {
        free(block.run_start);
        free(block.run_length);
        return 0;
    }
    for (int index = 0; index < 29; index++) {
        int upper = index == 28 ? MAX_RUN : length_base[index + 1] - 1;
        for (int run = length_base[index]; run <= upper; run++) block.length_index[run] = (uint8_t)index;
    }
    output[0] = 0x78;   // deflate, 32 KB window
    output[1] = 0x01;   // fastest compression; (0x78 * 256 + 0x01) is a multiple of 31
    bit_writer w = {output + 2, 0, 0};
    size_t start = 0;
    do {
        size_t end = length - start > BLOCK_INPUT ? start + BLOCK_INPUT : length;
        write_block(&w, &block, input, start, end, end == length);
        start = end;
    } while (start < length);
    align_to_byte(&w);
    free(block.run_start);
    free(block.run_length);
    uint32_t adler = libdeflate_adler32(1, input, length);
    w.out[0] = (uint8_t)(adler >> 24);
    w.out[1] = (uint8_t)(adler >> 16);
    w.out[2] = (uint8_t)(adler >> 8);
    w.out[3] = (uint8_t)adler;
    return (size_t)(w.out + 4 - output);
}
