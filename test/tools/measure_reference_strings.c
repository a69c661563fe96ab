/* Records what a libpmix's string functions return, over their whole input
 * domain, as "function<TAB>input<TAB>output" lines on stdout.
 *
 * Built against the reference implementation (Debian's OpenPMIx 4.2.2) by
 * measure_reference_strings.sh beside this file; its output is committed as
 * test/unit/common/reference_strings.tsv, which strings_test.cc replays
 * against our implementation.
 *
 * Usage: measure_reference_strings [--no-init] < attribute_inputs
 *   attribute_inputs: one token per line; each is passed to both
 *   PMIx_Get_attribute_string and PMIx_Get_attribute_name.
 *   By default the program first runs PMIx_tool_init with
 *   PMIX_TOOL_DO_NOT_CONNECT, because the reference answers some inputs
 *   (unknown data types) only after initialization.
 *
 * Encoding: a NULL pointer (input or output) is written as <NULL>; a call
 * that kills the process (run in a child) is written as <CRASH>; TAB, LF,
 * CR and backslash inside strings are written as \t \n \r \\. */
#define _DEFAULT_SOURCE 1

#include <limits.h>
#include <pmix.h>
#include <pmix_tool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void PrintEscaped(const char *s) {
  if (s == NULL) {
    fputs("<NULL>", stdout);
    return;
  }
  for (; *s != '\0'; ++s) {
    switch (*s) {
      case '\t':
        fputs("\\t", stdout);
        break;
      case '\n':
        fputs("\\n", stdout);
        break;
      case '\r':
        fputs("\\r", stdout);
        break;
      case '\\':
        fputs("\\\\", stdout);
        break;
      default:
        putchar(*s);
    }
  }
}

static void Row(const char *fn, const char *input, const char *output) {
  fputs(fn, stdout);
  putchar('\t');
  PrintEscaped(input);
  putchar('\t');
  PrintEscaped(output);
  putchar('\n');
}

static void RowNum(const char *fn, long long input, const char *output) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", input);
  Row(fn, buf, output);
}

static void RowUnsigned(const char *fn, unsigned long long input, const char *output) {
  char buf[32];
  snprintf(buf, sizeof buf, "%llu", input);
  Row(fn, buf, output);
}

static void MeasureStatus(void) {
  static const long long extra[] = {INT_MIN, -1000000, -10000, -5000, 100, 1000, INT_MAX};
  size_t i;
  long long v;
  for (v = -3100; v <= 10; ++v) RowNum("PMIx_Error_string", v, PMIx_Error_string((pmix_status_t)v));
  for (i = 0; i < sizeof extra / sizeof extra[0]; ++i)
    RowNum("PMIx_Error_string", extra[i], PMIx_Error_string((pmix_status_t)extra[i]));
}

/* The uint8_t-valued enums: the whole domain 0..255. */
static void MeasureUint8Enums(void) {
  static const struct {
    const char *name;
    const char *(*fn)(uint8_t);
  } kFunctions[] = {
      {"PMIx_Proc_state_string", PMIx_Proc_state_string},
      {"PMIx_Scope_string", PMIx_Scope_string},
      {"PMIx_Persistence_string", PMIx_Persistence_string},
      {"PMIx_Data_range_string", PMIx_Data_range_string},
      {"PMIx_Alloc_directive_string", PMIx_Alloc_directive_string},
      {"PMIx_Job_state_string", PMIx_Job_state_string},
      {"PMIx_Link_state_string", PMIx_Link_state_string},
  };
  size_t f;
  unsigned v;
  for (f = 0; f < sizeof kFunctions / sizeof kFunctions[0]; ++f) {
    for (v = 0; v <= 255; ++v) RowNum(kFunctions[f].name, v, kFunctions[f].fn((uint8_t)v));
  }
}

static void MeasureDataTypes(void) {
  static const unsigned extra[] = {1000, 4096, 32768, 65535};
  unsigned v;
  size_t i;
  for (v = 0; v <= 600; ++v)
    RowNum("PMIx_Data_type_string", v, PMIx_Data_type_string((pmix_data_type_t)v));
  for (i = 0; i < sizeof extra / sizeof extra[0]; ++i)
    RowNum("PMIx_Data_type_string", extra[i], PMIx_Data_type_string((pmix_data_type_t)extra[i]));
}

/* Bitmask inputs: every value of the low byte, every single bit, and the
 * low nibble combined with each higher bit. */
static void ForEachMaskInput(unsigned bits, void (*fn)(unsigned long long)) {
  unsigned long long v;
  unsigned b, low;
  for (v = 0; v < 256; ++v) fn(v);
  for (b = 8; b < bits; ++b) {
    for (low = 0; low < 16; ++low) fn((1ULL << b) | low);
  }
  fn(bits == 64 ? ~0ULL : (1ULL << bits) - 1);
}

static void IofRow(unsigned long long v) {
  RowUnsigned("PMIx_IOF_channel_string", v, PMIx_IOF_channel_string((pmix_iof_channel_t)v));
}

static void DeviceRow(unsigned long long v) {
  RowUnsigned("PMIx_Device_type_string", v, PMIx_Device_type_string((pmix_device_type_t)v));
}

static void DirectivesRow(unsigned long long v) {
  char *s = PMIx_Info_directives_string((pmix_info_directives_t)v);
  RowUnsigned("PMIx_Info_directives_string", v, s);
  free(s);
}

static void MeasureValueComparison(void) {
  int v;
  for (v = -2; v <= 10; ++v)
    RowNum("PMIx_Value_comparison_string", v, PMIx_Value_comparison_string((pmix_value_cmp_t)v));
}

/* Calls fn(NULL) in a child so that a crash of the reference is recorded
 * instead of ending the measurement. */
static void MeasureNullInput(const char *name, const char *(*fn)(const char *)) {
  int fds[2];
  pid_t pid;
  char buf[512];
  ssize_t n;
  int status;
  fflush(stdout);
  if (pipe(fds) != 0) return;
  pid = fork();
  if (pid == 0) {
    const char *r = fn(NULL);
    close(fds[0]);
    if (write(fds[1], r == NULL ? "<NULL>" : r, r == NULL ? 6 : strlen(r)) < 0) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  n = read(fds[0], buf, sizeof buf - 1);
  close(fds[0]);
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || n < 0) {
    Row(name, NULL, "<CRASH>");
    return;
  }
  buf[n] = '\0';
  Row(name, NULL, strcmp(buf, "<NULL>") == 0 ? NULL : buf);
}

static void MeasureAttributes(void) {
  char line[4096];
  MeasureNullInput("PMIx_Get_attribute_string", PMIx_Get_attribute_string);
  MeasureNullInput("PMIx_Get_attribute_name", PMIx_Get_attribute_name);
  while (fgets(line, sizeof line, stdin) != NULL) {
    line[strcspn(line, "\r\n")] = '\0';
    Row("PMIx_Get_attribute_string", line, PMIx_Get_attribute_string(line));
    Row("PMIx_Get_attribute_name", line, PMIx_Get_attribute_name(line));
  }
}

int main(int argc, char **argv) {
  pmix_proc_t me;
  int initialized = 0;
  if (!(argc > 1 && strcmp(argv[1], "--no-init") == 0)) {
    pmix_info_t info;
    bool flag = true;
    PMIX_INFO_LOAD(&info, PMIX_TOOL_DO_NOT_CONNECT, &flag, PMIX_BOOL);
    if (PMIx_tool_init(&me, &info, 1) != PMIX_SUCCESS) {
      fprintf(stderr, "PMIx_tool_init failed\n");
      return 1;
    }
    initialized = 1;
  }
  MeasureStatus();
  MeasureUint8Enums();
  MeasureDataTypes();
  ForEachMaskInput(16, IofRow);
  ForEachMaskInput(64, DeviceRow);
  ForEachMaskInput(32, DirectivesRow);
  MeasureValueComparison();
  MeasureAttributes();
  fflush(stdout);
  if (initialized) PMIx_tool_finalize();
  return 0;
}
