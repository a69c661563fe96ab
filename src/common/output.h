// The library's single diagnostic output facility.
//
// The library never prints to stdout and never exits. Everything it has to
// say goes to stderr through these functions, prefixed with the process id,
// and only when the verbosity of the named stream allows it. Errors (level
// 0) are always printed once, where they are decided. Verbosity comes from
// the environment variable PMIX_MCA_<stream>_base_verbose (e.g.
// PMIX_MCA_pmix_base_verbose=10); the MCA variable system takes this over
// when it lands. Thread-safe: each message is written with one write(2).
#ifndef PMIXX_SRC_COMMON_OUTPUT_H
#define PMIXX_SRC_COMMON_OUTPUT_H

#include <string_view>

namespace pmix::output {

// Prints "[pmix:<pid>] <stream>: error: <message>" unconditionally.
void Error(std::string_view stream, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

// For errors a peer can cause at will (malformed messages, a limit
// exceeded): as Error, but at most kPeerErrorBurst lines per stream in any
// kPeerErrorWindow; how many were left out is said on the next line that
// passes. A hostile client cannot flood the server's stderr with them.
inline constexpr int kPeerErrorBurst = 10;
inline constexpr int kPeerErrorWindowSeconds = 60;
void PeerError(std::string_view stream, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

// Prints the message when the stream's verbosity is >= level.
void Verbose(std::string_view stream, int level, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

// The verbosity of a stream (0 when unset or unparsable).
int Verbosity(std::string_view stream);

}  // namespace pmix::output

#endif  // PMIXX_SRC_COMMON_OUTPUT_H
