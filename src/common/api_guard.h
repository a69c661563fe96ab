// The one guard every extern "C" PMIx_* shim runs its body in.
//
// No C++ exception may cross the C ABI. ApiGuard runs `body` and maps any
// escaping exception to a status: std::bad_alloc -> PMIX_ERR_NOMEM,
// anything else -> PMIX_ERROR plus one log line naming the API function.
// For void functions use ApiGuardVoid; for functions returning a pointer or
// other value use ApiGuardValue with the value to return on failure.
#ifndef PMIXX_SRC_COMMON_API_GUARD_H
#define PMIXX_SRC_COMMON_API_GUARD_H

#include <exception>
#include <new>
#include <type_traits>

#include "pmix_common.h"
#include "src/common/output.h"
#include "src/common/status.h"

namespace pmix {

// `body` returns pmix_status_t or pmix::Status.
template <class F>
pmix_status_t ApiGuard(const char* api, F&& body) noexcept {
  try {
    if constexpr (std::is_same_v<decltype(body()), Status>) {
      return body().code();
    } else {
      return body();
    }
  } catch (const std::bad_alloc&) {
    return PMIX_ERR_NOMEM;
  } catch (const std::exception& e) {
    output::Error("pmix", "%s: internal error: %s", api, e.what());
  } catch (...) {
    output::Error("pmix", "%s: internal error", api);
  }
  return PMIX_ERROR;
}

template <class T, class F>
T ApiGuardValue(const char* api, T on_failure, F&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return on_failure;
  } catch (const std::exception& e) {
    output::Error("pmix", "%s: internal error: %s", api, e.what());
  } catch (...) {
    output::Error("pmix", "%s: internal error", api);
  }
  return on_failure;
}

template <class F>
void ApiGuardVoid(const char* api, F&& body) noexcept {
  ApiGuardValue(api, 0, [&] {
    body();
    return 0;
  });
}

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_API_GUARD_H
