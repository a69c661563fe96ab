// The native bfrops codec ("native1"): the wire format of every PMIx data
// type used by PMIx_Data_pack/unpack and by the library's messages.
//
// Wire format, version "native1". All integers are fixed-width and
// little-endian, whatever the host's byte order.
//
//   group     := u16 type, u32 count, count x element(type)
//                One pack call appends one group (nothing when count is 0).
//                Unpacking a group whose type differs from the requested one
//                fails with PMIX_ERR_PACK_MISMATCH.
//   integers  bool u8 (0/1 only); byte/int8/uint8 and the u8 enums (persist,
//             scope, range, command, proc/job/link state, alloc directive)
//             1 byte; int16/uint16, data type, IOF channel, locality, storage
//             access type 2; int/uint, int32/uint32, pid, status, rank, info
//             directives 4; size_t, int64/uint64, time_t, device type and
//             the storage medium/accessibility/persistence masks 8.
//   float     IEEE-754 bits as u32; double as u64.
//   timeval   u64 seconds, u64 microseconds (two's complement).
//   string    u32 length (0xFFFFFFFF = NULL) + bytes, no NUL.
//   fixed     nspace / key fields: u32 length (<= 255 / 511) + bytes.
//   bytes     byte object, regex, compressed string/bytes: u32 size + bytes.
//   argv      u32 count (0xFFFFFFFF = NULL) + count non-NULL strings.
//   proc      fixed nspace, u32 rank.       envar  string, string, u8 sep.
//   value     u16 type + payload: nothing for PMIX_UNDEF; for types a value
//             holds by pointer (proc, proc info, data array, coord, regattr,
//             cpuset, geometry, device distance, endpoint, topology, nspace,
//             the stats, data buffer) a u8 presence flag then the element;
//             otherwise the element. Types a value cannot hold are refused.
//   info      fixed key, u32 flags (PMIX_INFO_PERSISTENT dropped), value.
//   pdata     proc, fixed key, value.
//   app       cmd, argv, env, cwd, u32 maxprocs, u32 ninfo + infos.
//   query     keys argv, u32 nqual + infos.
//   data array  u16 element type, u32 size, size x element.
//   proc info proc, hostname, executable, u32 pid, u32 exit code, u8 state.
//   coord     u8 view, u32 dims, dims x u32.
//   geometry  u64 fabric, uuid, osname, u32 ncoords + coords.
//   endpoint  uuid, osname, bytes.   device distance  uuid, osname, u64
//             type, u16 min, u16 max.  regattr  name, fixed string, u16
//             type, description argv.
//   stats     every field in declaration order with the widths above;
//             node stats end with u32 n + disk stats, u32 n + net stats.
//   cpuset / topology  source string, u8 marker (0 = no object, 1 = text),
//             text: hwloc bitmap list string ("0-3,8": ascending decimal
//             items, indexes <= 2^20; a set beyond that or infinite does not
//             pack) / hwloc XML export. Objects whose source is not
//             "hwloc*" are PMIX_ERR_NOT_SUPPORTED.
//   data buffer  u64 bytes used, u64 unpack offset, the bytes.
//   PMIX_POINTER and PMIX_KVAL: PMIX_ERR_NOT_SUPPORTED (a pointer cannot
//   cross processes); PMIX_UNDEF and unknown codes:
//   PMIX_ERR_UNKNOWN_DATA_TYPE.
//
// Unpack safety: every read is bounds-checked against bytes_used; counts
// are checked against the bytes left (each element takes a per-type
// minimum on the wire, TypeCodec::min_wire) before anything is allocated,
// so memory used is at most a constant factor (< 64, the C structs being
// fat) of the buffer's size; unpack_bounded also charges every allocation
// to its budget first, which bounds it absolutely. Values with an inner
// size are validated: a cpuset names at most 2^20 CPUs in ascending
// decimal items (no hex, signs or infinite ranges), so that nothing that
// unpacks can make a later print or copy loop without bound. Values and
// data arrays nest at most 64 deep. On any error nothing stays allocated, the
// caller's storage is untouched and unpack_ptr is unchanged.
// Statuses: truncated data PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER (also
// for an empty buffer), a group of another type PMIX_ERR_PACK_MISMATCH,
// a group larger than *num_vals PMIX_ERR_UNPACK_INADEQUATE_SPACE (nothing
// consumed), malformed content PMIX_ERR_UNPACK_FAILURE.
//
// Thread safety: stateless; concurrent calls on different buffers are safe.
#ifndef PMIXX_PLUGINS_BFROPS_NATIVE_NATIVE_MODULE_H
#define PMIXX_PLUGINS_BFROPS_NATIVE_NATIVE_MODULE_H

#include "pmix/mca/bfrops.h"

namespace pmix::bfrops::native {

// The codec's wire name.
inline constexpr const char* kCodecName = "native1";

// The module (immutable; valid for the process lifetime).
extern const pmix_bfrops_module_t kModule;

}  // namespace pmix::bfrops::native

#endif  // PMIXX_PLUGINS_BFROPS_NATIVE_NATIVE_MODULE_H
