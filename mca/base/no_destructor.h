// NoDestructor<T>: a process-lifetime object that is constructed on first
// use and deliberately never destroyed.
//
// The MCA engine's registries must outlive every static destructor: loaded
// components stay mapped and their contexts stay referenced until the
// process ends (a component's own destructors may already have run when
// ours would, so nothing may call back into it at exit). Placement-new into
// static storage keeps the object reachable, so leak checkers report it as
// "still reachable", not lost.
#ifndef PMIXX_MCA_BASE_NO_DESTRUCTOR_H
#define PMIXX_MCA_BASE_NO_DESTRUCTOR_H

#include <new>
#include <utility>

namespace pmix::mca {

template <class T>
class NoDestructor {
 public:
  template <class... Args>
  explicit NoDestructor(Args&&... args) {
    new (storage_) T(std::forward<Args>(args)...);
  }
  NoDestructor(const NoDestructor&) = delete;
  NoDestructor& operator=(const NoDestructor&) = delete;

  T& operator*() { return *std::launder(reinterpret_cast<T*>(storage_)); }
  T* operator->() { return &**this; }

 private:
  alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_NO_DESTRUCTOR_H
