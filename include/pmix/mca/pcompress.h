/*
 * pcompress: lossless compression of large strings and blobs
 * (PMIx_Data_compress/decompress, PMIX_COMPRESSED_STRING and
 * PMIX_COMPRESSED_BYTE_OBJECT values, and blobs above the
 * pcompress_base_limit parameter).
 *
 * Single-select: the available component with the highest priority. Called
 * on any thread; modules are stateless. Outputs are malloc'd and owned by
 * the caller; on failure (false) nothing is allocated and outputs are
 * untouched. A compressed block records its uncompressed size, so
 * decompress needs no length hint and refuses a block that claims more than
 * it can hold or that does not decode exactly.
 */
#ifndef PMIX_MCA_PCOMPRESS_H
#define PMIX_MCA_PCOMPRESS_H

#include <pmix/mca/mca.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_PCOMPRESS_INTERFACE_MAJOR 1
#define PMIX_PCOMPRESS_INTERFACE_MINOR 0

typedef struct pmix_pcompress_module {
    bool (*compress)(const uint8_t *in, size_t len, uint8_t **out, size_t *outlen);
    bool (*decompress)(const uint8_t *in, size_t len, uint8_t **out, size_t *outlen);
    /* A string and its terminating NUL; decompress_string gives it back. */
    bool (*compress_string)(const char *str, uint8_t **out, size_t *outlen);
    bool (*decompress_string)(const uint8_t *in, size_t len, char **str);
} pmix_pcompress_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_PCOMPRESS_H */
