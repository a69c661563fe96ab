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

bool Read(const pmix_value_t& v, Number* out) {
  const auto& d = v.data;
  switch (v.type) {
    case PMIX_SIZE:
      *out = Unsigned(d.size);
      return true;
    case PMIX_PID:
      *out = Signed(d.pid);
      return true;
    case PMIX_INT:
      *out = Signed(d.integer);
      return true;
    case PMIX_INT8:
      *out = Signed(d.int8);
      return true;
    case PMIX_INT16:
      *out = Signed(d.int16);
      return true;
    case PMIX_INT32:
      *out = Signed(d.int32);
      return true;
    case PMIX_INT64:
      *out = Signed(d.int64);
      return true;
    case PMIX_UINT:
      *out = Unsigned(d.uint);
      return true;
    case PMIX_UINT8:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_PROC_STATE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
      *out = Unsigned(d.uint8);
      return true;
    case PMIX_UINT16:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE:
      *out = Unsigned(d.uint16);
      return true;
    case PMIX_UINT32:
    case PMIX_PROC_RANK:
      *out = Unsigned(d.uint32);
      return true;
    case PMIX_UINT64:
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
      *out = Unsigned(d.uint64);
      return true;
    case PMIX_STATUS:
      *out = Signed(d.status);
      return true;
    case PMIX_FLOAT:
      *out = Float(d.fval);
      return true;
    case PMIX_DOUBLE:
      *out = Float(d.dval);
      return true;
    default:
      return false;
  }
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
  switch (type) {
    case PMIX_SIZE:
      return Write<size_t>(n, dest);
    case PMIX_PID:
      return Write<pid_t>(n, dest);
    case PMIX_INT:
      return Write<int>(n, dest);
    case PMIX_INT8:
      return Write<int8_t>(n, dest);
    case PMIX_INT16:
      return Write<int16_t>(n, dest);
    case PMIX_INT32:
    case PMIX_STATUS:
      return Write<int32_t>(n, dest);
    case PMIX_INT64:
      return Write<int64_t>(n, dest);
    case PMIX_UINT:
      return Write<unsigned int>(n, dest);
    case PMIX_UINT8:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_PROC_STATE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
      return Write<uint8_t>(n, dest);
    case PMIX_UINT16:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE:
      return Write<uint16_t>(n, dest);
    case PMIX_UINT32:
    case PMIX_PROC_RANK:
      return Write<uint32_t>(n, dest);
    case PMIX_UINT64:
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
      return Write<uint64_t>(n, dest);
    case PMIX_FLOAT:
      return Write<float>(n, dest);
    case PMIX_DOUBLE:
      return Write<double>(n, dest);
    default:
      return PMIX_ERR_BAD_PARAM;
  }
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
