// Fd: owns one file descriptor and closes it when destroyed. Move-only.
#ifndef PMIXX_MCA_PTL_BASE_FD_H
#define PMIXX_MCA_PTL_BASE_FD_H

#include <unistd.h>

#include <utility>

namespace pmix::ptl {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) Reset(std::exchange(other.fd_, -1));
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  // Gives up ownership without closing.
  int Release() { return std::exchange(fd_, -1); }
  void Reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace pmix::ptl

#endif  // PMIXX_MCA_PTL_BASE_FD_H
