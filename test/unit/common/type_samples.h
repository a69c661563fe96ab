// Test helper: sample elements of every PMIx data type, built with malloc
// so that the registry under test can release them, for table-driven tests
// over all types.
#ifndef PMIXX_TEST_UNIT_COMMON_TYPE_SAMPLES_H
#define PMIXX_TEST_UNIT_COMMON_TYPE_SAMPLES_H

#include <cstddef>
#include <string>
#include <vector>

#include <hwloc.h>

#include "pmix_common.h"

namespace pmix::test {

enum class Variant {
  kTypical,  // every field set, owned strings and arrays non-empty
  kEdge,     // empty strings, zero sizes, extreme numbers where they exist
  kNulls,    // every pointer NULL, every count 0
};

// Every type code the registry can hold as an array element (all except
// PMIX_UNDEF and PMIX_KVAL).
const std::vector<pmix_data_type_t>& ElementTypes();

// Types whose elements compare EQUAL to their copies (topologies too: a
// copy has the same tree). The others (app, query, data buffer) report
// PMIX_VALUE_COMPARISON_NOT_AVAIL.
bool ComparesEqualToCopy(pmix_data_type_t type, Variant variant);

// Fills raw storage `element` (ElementSize(type) bytes) with a sample;
// release it with pmix::DestructElement.
void FillSample(pmix_data_type_t type, Variant variant, void* element);

// A heap buffer holding one sample element, destructed and freed on scope
// exit (unless Release()d).
class Sample {
 public:
  Sample(pmix_data_type_t type, Variant variant);
  ~Sample();
  Sample(const Sample&) = delete;
  Sample& operator=(const Sample&) = delete;
  void* get() const { return element_; }
  pmix_data_type_t type() const { return type_; }

 private:
  pmix_data_type_t type_;
  void* element_;
};

// Fixed topologies with known answers (XML: hwloc's synthetic loader
// upsets valgrind).
extern const char kTwoCoreNodeXml[];  // one package, two cores of one PU each
extern const char kNodeWithHcaXml[];  // one PU, an HCA (mlx5_0) behind a PCI bridge
// Loads `xml`, keeping every I/O object when `keep_io`; nullptr on failure.
hwloc_topology_t LoadXmlTopology(const char* xml, bool keep_io = false);

std::string TypeName(pmix_data_type_t type);
std::string VariantName(Variant variant);

}  // namespace pmix::test

#endif  // PMIXX_TEST_UNIT_COMMON_TYPE_SAMPLES_H
