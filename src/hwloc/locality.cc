#include "src/hwloc/locality.h"

#include <strings.h>

#include <vector>

#include "src/hwloc/cpuset_text.h"

namespace pmix::hwloc {
namespace {

struct Level {
  hwloc_obj_type_t type;
  const char* code;
  pmix_locality_t bit;
};

constexpr Level kLevels[] = {
    {HWLOC_OBJ_NUMANODE, "NM", PMIX_LOCALITY_SHARE_NUMA},
    {HWLOC_OBJ_PACKAGE, "SK", PMIX_LOCALITY_SHARE_PACKAGE},
    {HWLOC_OBJ_L3CACHE, "L3", PMIX_LOCALITY_SHARE_L3CACHE},
    {HWLOC_OBJ_L2CACHE, "L2", PMIX_LOCALITY_SHARE_L2CACHE},
    {HWLOC_OBJ_L1CACHE, "L1", PMIX_LOCALITY_SHARE_L1CACHE},
    {HWLOC_OBJ_CORE, "CR", PMIX_LOCALITY_SHARE_CORE},
    {HWLOC_OBJ_PU, "HT", PMIX_LOCALITY_SHARE_HWTHREAD},
};

const Level* LevelOfType(hwloc_obj_type_t type) {
  for (const Level& l : kLevels) {
    if (l.type == type) return &l;
  }
  return nullptr;
}

const Level* LevelOfCode(std::string_view token) {
  if (token.size() < 2) return nullptr;
  for (const Level& l : kLevels) {
    if (token[0] == l.code[0] && token[1] == l.code[1]) return &l;
  }
  return nullptr;
}

// "<code><list>" of the objects at `depth` that intersect cpuset, or "".
std::string Token(hwloc_topology_t t, int depth, const char* code, hwloc_const_bitmap_t cpuset) {
  int width = hwloc_get_nbobjs_by_depth(t, depth);
  if (width <= 0) return {};
  Bitmap hits(hwloc_bitmap_alloc());
  if (!hits) throw std::bad_alloc();
  for (int w = 0; w < width; ++w) {
    hwloc_obj_t obj = hwloc_get_obj_by_depth(t, depth, static_cast<unsigned>(w));
    if (obj != nullptr && obj->cpuset != nullptr && hwloc_bitmap_intersects(obj->cpuset, cpuset))
      hwloc_bitmap_set(hits.get(), static_cast<unsigned>(w));
  }
  if (hwloc_bitmap_iszero(hits.get())) return {};
  return code + ListText(hits.get());
}

std::vector<std::string_view> Split(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    size_t colon = s.find(':');
    out.push_back(s.substr(0, colon));
    if (colon == std::string_view::npos) break;
    s.remove_prefix(colon + 1);
  }
  return out;
}

// The tokens of a locality string, without the optional "hwloc:" prefix;
// nullopt when it is not one of ours.
std::optional<std::string_view> Payload(std::string_view s) {
  if (s.size() >= 6 && strncasecmp(s.data(), "hwloc:", 6) == 0) s.remove_prefix(6);
  if (LevelOfCode(s) == nullptr) return std::nullopt;
  return s;
}

}  // namespace

std::optional<std::string> LocalityString(hwloc_topology_t topology, hwloc_const_bitmap_t cpuset) {
  if (cpuset == nullptr || hwloc_bitmap_iszero(cpuset) || hwloc_bitmap_isfull(cpuset))
    return std::nullopt;
  std::string out;
  auto add = [&out](std::string token) {
    if (token.empty()) return;
    if (!out.empty()) out += ':';
    out += token;
  };
  int depth = hwloc_topology_get_depth(topology);
  for (int d = 1; d < depth; ++d) {
    const Level* level = LevelOfType(hwloc_get_depth_type(topology, d));
    if (level != nullptr && level->type != HWLOC_OBJ_NUMANODE)
      add(Token(topology, d, level->code, cpuset));
  }
  add(Token(topology, HWLOC_TYPE_DEPTH_NUMANODE, "NM", cpuset));
  if (out.empty()) return std::nullopt;
  return out;
}

Result<pmix_locality_t> RelativeLocality(std::string_view a, std::string_view b) {
  auto pa = Payload(a);
  auto pb = Payload(b);
  if (!pa || !pb) return Status(PMIX_ERR_NOT_SUPPORTED);
  auto set_a = Split(*pa);
  auto set_b = Split(*pb);
  pmix_locality_t locality = PMIX_LOCALITY_SHARE_NODE;
  for (std::string_view ta : set_a) {
    const Level* level = LevelOfCode(ta);
    if (level == nullptr) return Status(PMIX_ERR_BAD_PARAM);
    auto bits_a = ParseList(ta.substr(2));
    if (!bits_a.ok()) return bits_a.status();
    for (std::string_view tb : set_b) {
      if (LevelOfCode(tb) != level) continue;
      auto bits_b = ParseList(tb.substr(2));
      if (!bits_b.ok()) return bits_b.status();
      if (hwloc_bitmap_intersects(bits_a->get(), bits_b->get())) locality |= level->bit;
      break;
    }
  }
  return locality;
}

}  // namespace pmix::hwloc
