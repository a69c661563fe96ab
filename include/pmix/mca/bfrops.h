/*
 * bfrops: the wire encoding of every PMIx data type (PMIx_Data_pack/unpack
 * and every message the library sends).
 *
 * Multi-select: every available codec is kept, ordered by priority. The
 * first is the local default; peers agree on a codec by name during the
 * connection handshake. Called on any thread; a module keeps no mutable
 * state, so concurrent calls on different buffers are safe.
 *
 * Buffer rules (pmix_data_buffer_t): base_ptr is malloc'd and grown with
 * realloc; pack appends at pack_ptr and updates bytes_used; unpack reads
 * from unpack_ptr and never past base_ptr + bytes_used. Unpacked values are
 * malloc-family allocations the caller releases with the standard macros.
 * Unpack is bounds-checked: a truncated buffer gives
 * PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, a type tag that differs from the
 * requested type PMIX_ERR_PACK_MISMATCH, a corrupt or absurd length
 * PMIX_ERR_UNPACK_FAILURE; on error unpack_ptr is left where it was and
 * nothing is allocated.
 *
 * Memory bound (interface 2): unpack_bounded charges every allocation it
 * makes for the values (arrays, strings, byte runs, objects, with a small
 * per-allocation overhead) to *budget before making it, and fails with
 * PMIX_ERR_OUT_OF_RESOURCE when the budget cannot cover it; a server
 * decodes what a peer sent that way, so a message's decoded size is
 * bounded however its counts are crafted. *budget is only lowered on
 * success.
 */
#ifndef PMIX_MCA_BFROPS_H
#define PMIX_MCA_BFROPS_H

#include <pmix/mca/mca.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_BFROPS_INTERFACE_MAJOR 2
#define PMIX_BFROPS_INTERFACE_MINOR 0

typedef struct pmix_bfrops_module {
    /* The codec's wire name, exchanged in the handshake (e.g. "native1"). */
    const char *codec;
    /* Appends num_vals values of type read from src (an array of the C type
     * of `type`; for PMIX_STRING an array of char*). */
    pmix_status_t (*pack)(pmix_data_buffer_t *buffer, const void *src, int32_t num_vals,
                          pmix_data_type_t type);
    /* Reads up to *num_vals values of type into dest (caller storage for
     * *num_vals elements); sets *num_vals to the number read. */
    pmix_status_t (*unpack)(pmix_data_buffer_t *buffer, void *dest, int32_t *num_vals,
                            pmix_data_type_t type);
    /* As unpack, with the values' memory charged to *budget (bytes). */
    pmix_status_t (*unpack_bounded)(pmix_data_buffer_t *buffer, void *dest, int32_t *num_vals,
                                    pmix_data_type_t type, size_t *budget);
} pmix_bfrops_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_BFROPS_H */
