// Status and Result<T>: the internal error-carrying return types.
//
// Every internal function that can fail returns a Status (a wrapped
// pmix_status_t) or a Result<T> (a value or a failing Status). Both are
// [[nodiscard]]. Outputs are written only on success. Exceptions are never
// used for control flow; the only exceptions that can occur inside the
// library are std::bad_alloc and bugs, and both are caught at the C
// boundary by ApiGuard (api_guard.h).
#ifndef PMIXX_SRC_COMMON_STATUS_H
#define PMIXX_SRC_COMMON_STATUS_H

#include <optional>
#include <utility>

#include "pmix_common.h"

namespace pmix {

class [[nodiscard]] Status {
 public:
  constexpr Status() = default;  // PMIX_SUCCESS
  constexpr Status(pmix_status_t code) : code_(code) {}  // NOLINT: implicit by design

  constexpr bool ok() const { return code_ == PMIX_SUCCESS; }
  constexpr pmix_status_t code() const { return code_; }
  constexpr explicit operator bool() const { return ok(); }

 private:
  pmix_status_t code_ = PMIX_SUCCESS;
};

// A value of type T, or the Status that prevented producing it.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(status) {}     // NOLINT: must be an error

  bool ok() const { return value_.has_value(); }
  Status status() const { return ok() ? Status() : status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }

 private:
  std::optional<T> value_;
  Status status_ = PMIX_ERROR;
};

}  // namespace pmix

// Returns from the enclosing function when `expr` (a Status) is an error.
#define PMIX_RETURN_IF_ERROR(expr)              \
  do {                                          \
    ::pmix::Status pmix_status_tmp_ = (expr);   \
    if (!pmix_status_tmp_.ok()) return pmix_status_tmp_; \
  } while (0)

#endif  // PMIXX_SRC_COMMON_STATUS_H
