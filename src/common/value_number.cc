// PMIx_Value_get_number's conversion rules (pmix::GetNumber).
//
// Numeric types are the plain widths (size, int*, uint*, float, double)
// and the named integer types (pid, status, rank, persistence, scope,
// range, states, directives, locality, device type, storage bitmasks). A
// value converts to any numeric type that holds it exactly (floats are
// truncated toward zero when the integer part fits); a value of one named
// type does not convert to a different named type. Everything else is
// PMIX_ERR_BAD_PARAM (our headers, like OpenPMIx 4.2's, have no dedicated
// "lost precision" / "change of sign" codes).
#include <sys/types.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "src/common/value_ops.h"

namespace pmix {
namespace {

// A numeric value widened without loss.
struct Number {
  enum Kind { kSigned, kUnsigned, kFloat } kind;
  int64_t s = 0;
  uint64_t u = 0;
  double d = 0;
};

Number Signed(int64_t v) { return {Number::kSigned, v, 0, 0}; }
Number Unsigned(uint64_t v) { return {Number::kUnsigned, 0, v, 0}; }
Number Float(double v) { return {Number::kFloat, 0, 0, v}; }

bool IsPlain(pmix_data_type_t type) {
  return (type >= PMIX_SIZE && type <= PMIX_DOUBLE && type != PMIX_PID);
}

// Calls f(std::type_identity<T>{}) with the C type T that holds a numeric
// `type` in a pmix_value_t; false for a type that is not numeric. The one
// table of numeric types, shared by reading and writing.
template <class F>
bool WithCType(pmix_data_type_t type, F&& f) {
  switch (type) {
    case PMIX_SIZE: f(std::type_identity<size_t>{}); return true;
    case PMIX_PID: f(std::type_identity<pid_t>{}); return true;
    case PMIX_INT: f(std::type_identity<int>{}); return true;
    case PMIX_INT8: f(std::type_identity<int8_t>{}); return true;
    case PMIX_INT16: f(std::type_identity<int16_t>{}); return true;
    case PMIX_INT32:
    case PMIX_STATUS: f(std::type_identity<int32_t>{}); return true;
    case PMIX_INT64: f(std::type_identity<int64_t>{}); return true;
    case PMIX_UINT: f(std::type_identity<unsigned int>{}); return true;
    case PMIX_UINT8:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_PROC_STATE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE: f(std::type_identity<uint8_t>{}); return true;
    case PMIX_UINT16:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE: f(std::type_identity<uint16_t>{}); return true;
    case PMIX_UINT32:
    case PMIX_PROC_RANK: f(std::type_identity<uint32_t>{}); return true;
    case PMIX_UINT64:
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST: f(std::type_identity<uint64_t>{}); return true;
    case PMIX_FLOAT: f(std::type_identity<float>{}); return true;
    case PMIX_DOUBLE: f(std::type_identity<double>{}); return true;
    default: return false;
  }
}

// Every member of the value union starts at its first byte, so the value
// of type T is read from there.
bool Read(const pmix_value_t& v, Number* out) {
  return WithCType(v.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T x;
    std::memcpy(&x, &v.data, sizeof x);
    if constexpr (std::is_floating_point_v<T>) {
      *out = Float(x);
    } else if constexpr (std::is_signed_v<T>) {
      *out = Signed(x);
    } else {
      *out = Unsigned(x);
    }
  });
}

// Stores `n` as a T at `dest` when it fits.
template <class T>
Status Write(const Number& n, void* dest) {
  using Limits = std::numeric_limits<T>;
  T out{};
  if constexpr (!Limits::is_integer) {
    out = n.kind == Number::kFloat    ? static_cast<T>(n.d)
          : n.kind == Number::kSigned ? static_cast<T>(n.s)
                                      : static_cast<T>(n.u);
  } else if (n.kind == Number::kFloat) {
    double t = std::trunc(n.d);
    if (!std::isfinite(t) || t < static_cast<double>(Limits::min()) ||
        t >= std::ldexp(1.0, Limits::digits)) {
      return PMIX_ERR_BAD_PARAM;
    }
    out = static_cast<T>(t);
  } else if (n.kind == Number::kSigned) {
    if (n.s < 0 ? (!Limits::is_signed || n.s < int64_t{Limits::min()})
                : static_cast<uint64_t>(n.s) > uint64_t{Limits::max()}) {
      return PMIX_ERR_BAD_PARAM;
    }
    out = static_cast<T>(n.s);
  } else {
    if (n.u > uint64_t{Limits::max()}) return PMIX_ERR_BAD_PARAM;
    out = static_cast<T>(n.u);
  }
  std::memcpy(dest, &out, sizeof out);
  return Status();
}

Status WriteAs(pmix_data_type_t type, const Number& n, void* dest) {
  Status status = PMIX_ERR_BAD_PARAM;
  WithCType(type, [&](auto tag) { status = Write<typename decltype(tag)::type>(n, dest); });
  return status;
}

}  // namespace

Status GetNumber(const pmix_value_t& value, void* dest,
                 pmix_data_type_t type) noexcept {
  Number n{};
  if (!Read(value, &n)) return PMIX_ERR_BAD_PARAM;
  if (value.type != type && !IsPlain(value.type) && !IsPlain(type)) {
    return PMIX_ERR_BAD_PARAM;  // e.g. a scope is not a process state
  }
  return WriteAs(type, n, dest);
}

}  // namespace pmix
