// The array a namespace's job data is ingested from (jobinfo::Ingest),
// assembled without copying the host's values.
//
// A registration is the host's array for the namespace plus what the
// server adds: the registered resources the array does not override
// (§17.2.5), PMIX_LOCALITY_STRING in the proc data of local procs with a
// cpuset (server_topology.h), the server's own keys where the host gave
// none (server_identity.h), the node-rank offset of a new namespace
// (jobinfo::kNodeRankOffsetKey) and, for a re-registration, everything
// registered before (first, so that the newer values win).
//
// At S = 100k procs the host's array holds about 10^6 infos: copying it
// (a malloc per string and per array) cost more than ingesting it, so an
// InfoAssembly is a list of parts -- spans of its sources, read in order
// as one array (jobinfo::InfoParts) -- that borrows the sources' infos.
// Threads: the server's (progress) thread.
#ifndef PMIXX_SRC_SERVER_REGISTRATION_INPUT_H
#define PMIXX_SRC_SERVER_REGISTRATION_INPUT_H

#include <deque>
#include <span>
#include <string>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "pmix_common.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::server {

struct Server;

// An info array made of borrowed parts and of values it owns.
class InfoAssembly {
 public:
  using Part = std::span<const pmix_info_t>;

  InfoAssembly() = default;
  InfoAssembly(InfoAssembly&&) = default;
  InfoAssembly& operator=(InfoAssembly&&) = default;
  InfoAssembly(const InfoAssembly&) = delete;
  InfoAssembly& operator=(const InfoAssembly&) = delete;

  // Appends infos (or one info), borrowed: they must stay valid and
  // unchanged while the assembly is read.
  void Borrow(const pmix_info_t& info) { BorrowAll(Part(&info, 1)); }
  void BorrowAll(Part infos);
  // Keeps infos alive with the assembly and appends them.
  void Adopt(wire::Infos infos);
  void Adopt(gds::InfoArray infos);
  // Appends {key, PMIX_DATA_ARRAY of PMIX_INFO: infos}, the array owned.
  void AdoptArray(const char* key, wire::Infos infos);

  // Whether an info of the parts [from_part, end) has this key (a linear
  // search).
  bool Has(const char* key, size_t from_part = 0) const;
  std::span<const Part> parts() const { return parts_; }
  size_t size() const;  // infos in all parts

 private:
  std::vector<Part> parts_;
  // Owned sources; a deque keeps each element (and so the buffer a
  // moved-in container points to) at a fixed address.
  std::deque<wire::Infos> infos_;
  std::deque<gds::InfoArray> arrays_;
  std::deque<pmix_data_array_t> darrays_;
  std::deque<pmix_info_t> entries_;
};

// The registration of namespace `name` (see the file comment), `info`
// being the host's array of this call: borrowed, as are s.resources.
// Reads the namespace's image for a re-registration (s.nspaces has name).
Result<InfoAssembly> AssembleRegistration(const Server& s, const std::string& name,
                                          std::span<const pmix_info_t> info);

// What the host registered for a namespace so far (its image's host
// values, gds Image::Registration); empty when the namespace has no image
// (new, or NODATA).
Result<InfoAssembly> RegisteredSoFar(const Server& s, const std::string& name);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_REGISTRATION_INPUT_H
