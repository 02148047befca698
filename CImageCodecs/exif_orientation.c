// The EXIF Orientation tag, read from a JPEG's APP1 payload (EXIF 2.3, section 4.6.4;
// TIFF 6.0 for the IFD layout). Only IFD0 is read: that is where cameras put it.
#include "exif_orientation.h"

#include <string.h>

static uint32_t exif_read(const uint8_t *p, int little_endian, int bytes) {
    uint32_t value = 0;
    for (int i = 0; i < bytes; i++) {
        int index = little_endian ? bytes - 1 - i : i;
        value = (value << 8) | p[index];
    }
    return value;
}

uint32_t cic_exif_orientation(const uint8_t *data, size_t length) {
    if (length < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *tiff = data + 6;
    size_t size = length - 6;
    int little_endian;
    if (tiff[0] == 'I' && tiff[1] == 'I') little_endian = 1;
    else if (tiff[0] == 'M' && tiff[1] == 'M') little_endian = 0;
    else return 1;
    uint32_t ifd = exif_read(tiff + 4, little_endian, 4);
    if (ifd > size || size - ifd < 2) return 1;
    uint32_t count = exif_read(tiff + ifd, little_endian, 2);
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry + 12 > size) return 1;
        if (exif_read(tiff + entry, little_endian, 2) == 0x0112) {
            uint32_t value = exif_read(tiff + entry + 8, little_endian, 2);
            return (value >= 1 && value <= 8) ? value : 1;
        }
    }
    return 1;
}
