// The number a C caller put in an enum-typed parameter or field, read
// without loading it as the enum.
//
// C lets any int through an enum type (a plugin's pmix_mca_param_type_t, a
// caller's pmix_value_cmp_t); in C++ loading an enum object whose value is
// outside the enumeration's range is undefined behaviour (UBSan's
// -fsanitize=enum stops there). Code that must answer any value (name an
// unknown one, refuse it) switches on EnumValue(e) instead of on e: the
// bytes are copied, never loaded as the enum.
#ifndef PMIXX_SRC_COMMON_ENUM_VALUE_H
#define PMIXX_SRC_COMMON_ENUM_VALUE_H

#include <cstring>
#include <type_traits>

namespace pmix {

template <typename E>
  requires std::is_enum_v<E>
std::underlying_type_t<E> EnumValue(const E& e) {
  std::underlying_type_t<E> value;
  std::memcpy(&value, &e, sizeof value);
  return value;
}

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_ENUM_VALUE_H
