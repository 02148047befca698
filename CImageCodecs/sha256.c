#include "CImageCodecs.h"
#include <stdlib.h>
#include <openssl/evp.h>

void cic_sha256(const uint8_t *data, size_t length, uint8_t digest[32]) {
    unsigned int size = 32;
    EVP_Digest(data, length, digest, &size, EVP_sha256(), NULL);
}

void cic_free(void *pointer) { free(pointer); }
