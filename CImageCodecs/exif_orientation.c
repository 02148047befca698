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

cic_orientation_steps cic_orientation_steps_for(uint32_t orientation, uint32_t width, uint32_t height) {
    ptrdiff_t w = width, h = height;
    switch (orientation) {
    case 2: return (cic_orientation_steps){w - 1, -1, w};
    case 3: return (cic_orientation_steps){(h - 1) * w + w - 1, -1, -w};
    case 4: return (cic_orientation_steps){(h - 1) * w, 1, -w};
    case 5: return (cic_orientation_steps){0, h, 1};
    case 6: return (cic_orientation_steps){h - 1, h, -1};
    case 7: return (cic_orientation_steps){(w - 1) * h + h - 1, -h, -1};
    case 8: return (cic_orientation_steps){(w - 1) * h, -h, 1};
    default: return (cic_orientation_steps){0, 1, w};
    }
}
