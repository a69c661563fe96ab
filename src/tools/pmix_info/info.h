// pmix_info's report, run inside libpmix so that it sees the one engine
// (frameworks, components, variables) of the process.
//
// pmixx_info_main is the only non-API symbol libpmix exports. It is private
// to the pmix_info program (not declared in any installed header) and
// prints to stdout, which the library does nowhere else: it runs only when
// that program asks it to.
#ifndef PMIXX_SRC_TOOLS_PMIX_INFO_INFO_H
#define PMIXX_SRC_TOOLS_PMIX_INFO_INFO_H

#ifdef __cplusplus
extern "C" {
#endif

// Parses pmix_info's command line, prints the report, returns the exit
// status (0 success, 1 bad usage).
__attribute__((visibility("default"))) int pmixx_info_main(int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif  // PMIXX_SRC_TOOLS_PMIX_INFO_INFO_H
