// MappedVector<T>: a std::vector whose large buffers are anonymous
// mappings of their own, for the O(job size) temporaries of a
// registration (a 100k-rank job description is some 20 MB of them).
//
// Why not malloc: glibc serves a large block by mmap, and when such a
// block is freed it raises its mmap threshold (and, twice that, its trim
// threshold) to the block's size. Later blocks below it then come from
// the arena's heap, and after they are freed the heap keeps up to the
// trim threshold resident: a server that ingested one big job kept 10-20
// MB it no longer used, depending on the order of its frees. Buffers
// mapped here are unmapped at once and leave malloc's thresholds alone.
#ifndef PMIXX_SRC_COMMON_MAPPED_VECTOR_H
#define PMIXX_SRC_COMMON_MAPPED_VECTOR_H

#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <vector>

namespace pmix {

template <class T>
struct MappedAllocator {
  using value_type = T;
  // Below this, the heap (as glibc's default mmap threshold).
  static constexpr size_t kMapFrom = size_t{128} << 10;

  MappedAllocator() = default;
  template <class U>
  MappedAllocator(const MappedAllocator<U>&) {}  // NOLINT: rebinding is implicit

  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    size_t bytes = n * sizeof(T);
    if (bytes < kMapFrom) return static_cast<T*>(::operator new(bytes));
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    size_t bytes = n * sizeof(T);
    if (bytes < kMapFrom) {
      ::operator delete(p);
    } else {
      ::munmap(p, bytes);
    }
  }
  template <class U>
  bool operator==(const MappedAllocator<U>&) const {
    return true;
  }
};

template <class T>
using MappedVector = std::vector<T, MappedAllocator<T>>;

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_MAPPED_VECTOR_H
