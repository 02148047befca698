// CRC-32 (the polynomial of zlib and PNG) through libdeflate, whose carry-less-multiply
// implementation runs at memory speed: a check against torn or corrupt files, not a
// content identity (that is `cic_sha256`).
#include "CImageCodecs.h"
#include <libdeflate.h>

uint32_t cic_crc32(const uint8_t *data, size_t length) {
    return libdeflate_crc32(0, data, length);
}
