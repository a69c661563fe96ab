// NULL-terminated string arrays ("argv") and environ-style arrays
// (standard §3.2.14-§3.2.15). The observable behaviour follows the inline
// pmix_argv_* / pmix_setenv of OpenPMIx 4.2's header: allocation failures
// return PMIX_ERR_OUT_OF_RESOURCE and leave the array as it was; splitting
// a NULL or empty string gives NULL; a trailing delimiter never produces
// an empty last element; joining a NULL or empty array gives "".
// Differences: NULL arguments are refused with PMIX_ERR_BAD_PARAM (they
// crashed there) and values have no length limit (there: 100000 chars).
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "pmix_common.h"

extern char** environ;

namespace {

size_t Count(char** argv) {
  size_t n = 0;
  if (argv != nullptr) {
    while (argv[n] != nullptr) ++n;
  }
  return n;
}

// Inserts a copy of `arg` at position `at` (0 = front, n = back).
pmix_status_t InsertAt(char*** argv, const char* arg, size_t at) {
  if (argv == nullptr || arg == nullptr) return PMIX_ERR_BAD_PARAM;
  size_t n = Count(*argv);
  char* copy = strdup(arg);
  if (copy == nullptr) return PMIX_ERR_OUT_OF_RESOURCE;
  auto* grown =
      static_cast<char**>(std::realloc(*argv, (n + 2) * sizeof(char*)));
  if (grown == nullptr) {
    std::free(copy);
    return PMIX_ERR_OUT_OF_RESOURCE;
  }
  std::memmove(grown + at + 1, grown + at, (n - at) * sizeof(char*));
  grown[at] = copy;
  grown[n + 1] = nullptr;
  *argv = grown;
  return PMIX_SUCCESS;
}

}  // namespace

extern "C" {

int PMIx_Argv_count(char** a) { return static_cast<int>(Count(a)); }

pmix_status_t PMIx_Argv_append_nosize(char*** argv, const char* arg) {
  return InsertAt(argv, arg, argv == nullptr ? 0 : Count(*argv));
}

pmix_status_t PMIx_Argv_prepend_nosize(char*** argv, const char* arg) {
  return InsertAt(argv, arg, 0);
}

pmix_status_t PMIx_Argv_append_unique_nosize(char*** argv, const char* arg) {
  if (argv == nullptr || arg == nullptr) return PMIX_ERR_BAD_PARAM;
  for (size_t i = 0; *argv != nullptr && (*argv)[i] != nullptr; ++i) {
    if (std::strcmp((*argv)[i], arg) == 0) return PMIX_SUCCESS;
  }
  return PMIx_Argv_append_nosize(argv, arg);
}

void PMIx_Argv_free(char** argv) {
  if (argv == nullptr) return;
  for (char** p = argv; *p != nullptr; ++p) std::free(*p);
  std::free(argv);
}

char** PMIx_Argv_split_inter(const char* src_string, int delimiter,
                             bool include_empty) {
  char** argv = nullptr;
  const char* s = src_string;
  while (s != nullptr && *s != '\0') {
    const char* end = s;
    while (*end != '\0' && *end != delimiter) ++end;
    if (end != s || include_empty) {
      char* token = strndup(s, static_cast<size_t>(end - s));
      bool ok = token != nullptr &&
                PMIx_Argv_append_nosize(&argv, token) == PMIX_SUCCESS;
      std::free(token);
      if (!ok) {
        PMIx_Argv_free(argv);
        return nullptr;
      }
    }
    s = *end == '\0' ? end : end + 1;
  }
  return argv;
}

char** PMIx_Argv_split_with_empty(const char* src_string, int delimiter) {
  return PMIx_Argv_split_inter(src_string, delimiter, true);
}

char** PMIx_Argv_split(const char* src_string, int delimiter) {
  return PMIx_Argv_split_inter(src_string, delimiter, false);
}

char* PMIx_Argv_join(char** argv, int delimiter) {
  size_t n = Count(argv);
  size_t length = 0;
  for (size_t i = 0; i < n; ++i) length += std::strlen(argv[i]) + 1;
  char* joined = static_cast<char*>(std::malloc(length == 0 ? 1 : length));
  if (joined == nullptr) return nullptr;
  char* out = joined;
  for (size_t i = 0; i < n; ++i) {
    size_t len = std::strlen(argv[i]);
    std::memcpy(out, argv[i], len);
    out += len;
    if (i + 1 < n) *out++ = static_cast<char>(delimiter);
  }
  *out = '\0';
  return joined;
}

char** PMIx_Argv_copy(char** argv) {
  if (argv == nullptr) return nullptr;
  size_t n = Count(argv);
  auto* copy = static_cast<char**>(std::calloc(n + 1, sizeof(char*)));
  if (copy == nullptr) return nullptr;
  for (size_t i = 0; i < n; ++i) {
    copy[i] = strdup(argv[i]);
    if (copy[i] == nullptr) {
      PMIx_Argv_free(copy);
      return nullptr;
    }
  }
  return copy;
}

// Sets name=value in `*env` (NULL value: "name="). When *env is the process
// environment, setenv(3)/unsetenv(3) are used instead. An existing entry is
// replaced only when `overwrite`, else PMIX_ERR_EXISTS.
pmix_status_t PMIx_Setenv(const char* name, const char* value, bool overwrite,
                          char*** env) {
  if (env == nullptr || name == nullptr) return PMIX_ERR_BAD_PARAM;
  if (*env == environ) {
    int rc = value == nullptr ? unsetenv(name)
                              : setenv(name, value, overwrite ? 1 : 0);
    return rc == 0 ? PMIX_SUCCESS : PMIX_ERR_BAD_PARAM;
  }
  size_t name_len = std::strlen(name);
  size_t value_len = value == nullptr ? 0 : std::strlen(value);
  char* entry = static_cast<char*>(std::malloc(name_len + value_len + 2));
  if (entry == nullptr) return PMIX_ERR_OUT_OF_RESOURCE;
  std::memcpy(entry, name, name_len);
  entry[name_len] = '=';
  if (value_len > 0) std::memcpy(entry + name_len + 1, value, value_len);
  entry[name_len + 1 + value_len] = '\0';
  for (size_t i = 0; *env != nullptr && (*env)[i] != nullptr; ++i) {
    if (std::strncmp((*env)[i], entry, name_len + 1) != 0) continue;
    if (!overwrite) {
      std::free(entry);
      return PMIX_ERR_EXISTS;
    }
    std::free((*env)[i]);
    (*env)[i] = entry;
    return PMIX_SUCCESS;
  }
  pmix_status_t rc = PMIx_Argv_append_nosize(env, entry);
  std::free(entry);
  return rc;
}

}  // extern "C"
