// The gds framework as the rest of the library uses it (the server's
// store and the client's cache, issue 4).
//
// Multi-select (include/pmix/mca/gds.h is the module interface and states
// placement, scope/view and status rules). Default() is the first selected
// module with a key/value store (highest priority; "hash" unless the user
// selects otherwise); RegionModule() the first selected module with regions
// (where the server lays out job-data images), nullptr when none is
// selected (images then live on the heap); ByName() finds a selected
// module by component name (a client attaches regions with the module its
// server names); AttachableModules() lists the selected modules that
// attach shared regions. All ensure the framework first and return its error if
// that fails; PMIX_ERR_NOT_FOUND when no selected module has that name.
// Thread-safe.
//
// Store is an RAII owner of one module store handle. Like the handle, it
// is used from one thread at a time (the progress thread). Outputs are
// InfoArray (an owned PMIx_Info_create array) or an owned pmix_value_t.
#ifndef PMIXX_MCA_GDS_BASE_GDS_BASE_H
#define PMIXX_MCA_GDS_BASE_GDS_BASE_H

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmix/mca/gds.h"
#include "src/common/status.h"

namespace pmix::gds {

class Image;  // image.h

Result<const pmix_gds_module_t*> Default();
Result<const pmix_gds_module_t*> RegionModule();
Result<const pmix_gds_module_t*> ByName(std::string_view name);
// The names of the selected modules whose shared regions this process can
// attach (region_attach set), in selection order: what a client tells its
// server (wire::Hello::regions). Empty when none is selected (e.g.
// PMIX_MCA_gds=hash).
Result<std::vector<std::string>> AttachableModules();

// An owned info array as returned by a module's fetch().
class InfoArray {
 public:
  InfoArray() = default;
  InfoArray(pmix_info_t* infos, size_t n) : infos_(infos), n_(n) {}
  InfoArray(InfoArray&& other) noexcept;
  InfoArray& operator=(InfoArray&& other) noexcept;
  ~InfoArray();
  std::span<const pmix_info_t> view() const { return {infos_, n_}; }
  size_t size() const { return n_; }
  const pmix_info_t& operator[](size_t i) const { return infos_[i]; }
  // Gives up ownership (for handing to a C caller).
  pmix_info_t* release();

 private:
  pmix_info_t* infos_ = nullptr;
  size_t n_ = 0;
};

struct ValueDeleter {
  void operator()(pmix_value_t* value) const { PMIx_Value_free(value, 1); }
};
using ValuePtr = std::unique_ptr<pmix_value_t, ValueDeleter>;

// The realm instance a store or fetch names; builds the qualifiers.
struct Where {
  pmix_gds_realm_t realm = PMIX_GDS_REALM_PROC;
  std::optional<uint32_t> nodeid;
  std::optional<std::string> hostname;
  std::optional<uint32_t> appnum;
  std::optional<uint32_t> session;

  static Where Proc() { return {}; }
  static Where Job() { return {PMIX_GDS_REALM_JOB, {}, {}, {}, {}}; }
  static Where App(uint32_t appnum) { return {PMIX_GDS_REALM_APP, {}, {}, appnum, {}}; }
  static Where NodeId(uint32_t id) { return {PMIX_GDS_REALM_NODE, id, {}, {}, {}}; }
  static Where Host(std::string name) {
    return {PMIX_GDS_REALM_NODE, {}, std::move(name), {}, {}};
  }
  static Where Session(uint32_t id) { return {PMIX_GDS_REALM_SESSION, {}, {}, {}, id}; }
  // The qualifier infos (borrowing hostname's storage: keep *this alive).
  std::vector<pmix_info_t> Qualifiers() const;
};

class Store {
 public:
  Store() = default;  // an empty handle (no module): Create() makes a usable one
  // A new store of module (info: module options).
  static Result<Store> Create(const pmix_gds_module_t* module,
                              std::span<const pmix_info_t> info = {});
  Store(Store&& other) noexcept;
  Store& operator=(Store&& other) noexcept;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  ~Store();

  const pmix_gds_module_t* module() const { return module_; }

  Status Put(const pmix_proc_t& proc, const Where& where, pmix_scope_t scope,
             std::span<const pmix_info_t> kvs);
  // One key/value (copied).
  Status PutValue(const pmix_proc_t& proc, const Where& where, pmix_scope_t scope,
                  std::string_view key, const pmix_value_t& value);
  // key empty = every key of that instance (gds.h fetch()).
  Result<InfoArray> Fetch(const pmix_proc_t& proc, const Where& where, pmix_gds_view_t view,
                          std::string_view key) const;
  // One key's value, owned by the caller.
  Result<ValuePtr> FetchValue(const pmix_proc_t& proc, const Where& where,
                              pmix_gds_view_t view, std::string_view key) const;
  // The realm's instances as qualifier infos (gds.h instances()).
  Result<InfoArray> Instances(const pmix_proc_t& proc, pmix_gds_realm_t realm) const;
  Status Remove(const pmix_proc_t& proc);
  Status RemoveSession(uint32_t session);

  // Job-data images (image.h). A namespace's image answers the fetches,
  // instances and removals above after the module's store: a value stored
  // with Put for the same key and realm instance takes precedence (also
  // when it exists only in a scope the view does not see:
  // PMIX_ERR_EXISTS_OUTSIDE_SCOPE then, as if it had replaced the image's
  // value). Session fetches look in every image, newest first.
  // AttachImage replaces the namespace's image (a new generation);
  // Remove of a whole namespace detaches it.
  // Replacing or detaching drops the store's reference: the old image's
  // memory goes when the last shared_ptr (FindImage's, or a region
  // mapping's owner) does. Like everything here, it needs the store's one
  // thread at a time: a caller with concurrent readers (the client's Get
  // fast path) swaps under its exclusive lock and reads under its shared
  // lock, copying values out before unlocking (fetches return copies);
  // images are immutable, so a reader holding one needs no lock at all.
  void AttachImage(std::shared_ptr<const Image> image);
  std::shared_ptr<const Image> FindImage(std::string_view nspace) const;
  void DetachImage(std::string_view nspace);

 private:
  Store(const pmix_gds_module_t* module, void* handle) : module_(module), handle_(handle) {}
  void Reset();
  Result<InfoArray> ModuleFetch(const pmix_proc_t& proc, const Where& where, pmix_gds_view_t view,
                                std::string_view key) const;
  // The image a fetch about proc/where reads, or nullptr.
  const Image* ImageFor(const pmix_proc_t& proc, const Where& where) const;

  const pmix_gds_module_t* module_ = nullptr;
  void* handle_ = nullptr;
  struct Attached {
    std::shared_ptr<const Image> image;
    uint64_t order = 0;  // attach order, for session lookups (newest first)
  };
  std::vector<Attached> images_;  // few: the namespaces this process knows
  uint64_t next_order_ = 0;
  // What each namespace ever stored into the module's store: the realms
  // (bit per pmix_gds_realm_t) and the ranks of its PROC-realm data. A
  // fetch the module's store cannot answer goes to the image directly: the
  // common case of job data, and of other processes' keys in a client that
  // stored only its own.
  struct Stored {
    std::string nspace;
    unsigned realms = 0;
    std::vector<pmix_rank_t> ranks;  // PROC realm, at most kTrackedRanks
    bool any_rank = false;           // PROC data of ranks beyond `ranks`
  };
  static constexpr size_t kTrackedRanks = 16;
  std::vector<Stored> stored_;
  unsigned stored_sessions_ = 0;  // 1 once any session data was stored
  bool MayHold(const pmix_proc_t& proc, const Where& where) const;
  void NoteStored(const pmix_proc_t& proc, const Where& where);
};

}  // namespace pmix::gds

#endif  // PMIXX_MCA_GDS_BASE_GDS_BASE_H
