// Test helper: seeded random elements of every packable PMIx data type,
// malloc-built so the registry can release them. Containers nest up to
// `depth` levels (data arrays of every element type, values, infos).
#ifndef PMIXX_TEST_UNIT_BFROPS_RANDOM_VALUES_H
#define PMIXX_TEST_UNIT_BFROPS_RANDOM_VALUES_H

#include <cstdint>
#include <random>
#include <vector>

#include "pmix/mca/bfrops.h"
#include "pmix_common.h"

namespace pmix::test {

using Rng = std::mt19937_64;

// Every type the native codec packs (all registry types except PMIX_UNDEF,
// PMIX_KVAL and PMIX_POINTER).
const std::vector<pmix_data_type_t>& PackableTypes();

// Fills constructed storage `element` of `type` with a random value.
// Topologies are left NULL-objected (their round trip has its own test).
void FillRandom(Rng& rng, pmix_data_type_t type, void* element, int depth);

// A heap array of n random elements of `type`; FreeRandom releases it.
void* MakeRandomArray(Rng& rng, pmix_data_type_t type, size_t n, int depth);
void FreeRandom(pmix_data_type_t type, void* array, size_t n);

// The native codec's module, obtained through its component descriptor
// (open + query), as the framework would.
const pmix_bfrops_module_t* NativeModule();

}  // namespace pmix::test

#endif  // PMIXX_TEST_UNIT_BFROPS_RANDOM_VALUES_H
