// Helpers of the region tests: a byte pattern, descriptor passing over a socket, and counts of this
// process's descriptors and memory-file mappings (leak checks).
#ifndef PMIXX_TEST_UNIT_GDS_REGION_TEST_UTIL_H
#define PMIXX_TEST_UNIT_GDS_REGION_TEST_UTIL_H

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pmix/mca/gds.h"

namespace pmix::gds::test {

// Whether memfds can be sealed here (where shmem is available).
bool MemfdSealingWorks();

// The byte at offset i of a filled region.
inline uint8_t Pattern(size_t i) { return static_cast<uint8_t>((i * 131 + 7) ^ (i >> 9)); }
void Fill(const pmix_gds_region_t& region, size_t size);
bool HasPattern(const void* base, size_t size);

// Sends fd (not closed) and a size over a Unix socket; receives them
// (the received descriptor is the caller's; -1 on failure).
bool SendFd(int sock, int fd, size_t size);
int RecvFd(int sock, size_t* size);

// Entries of /proc/self/fd; lines of /proc/self/maps naming a memfd (or
// holding `what`).
size_t OpenFdCount();
size_t MappingCount(std::string_view what = "/memfd:");

}  // namespace pmix::gds::test

#endif  // PMIXX_TEST_UNIT_GDS_REGION_TEST_UTIL_H
