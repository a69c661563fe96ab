// The client/server protocol: message types and the connection hello.
//
// Connection setup (DESIGN §5): the client connects through a ptl module
// and sends kHello, a frame whose payload is a list of byte strings in a
// codec-independent encoding (Fields below), because the codec is what the
// hello negotiates. The server answers kHello with Fields too: a status,
// the codec it will speak (the client's, when it has it) and, packed with
// that codec, the welcome (message bodies in message_bodies.md order for
// the role). Every later message body is packed with the agreed codec.
//
// A request expects a reply (same type, kFlagReply, same tag); other
// messages are one-way.
#ifndef PMIXX_SRC_WIRE_PROTOCOL_H
#define PMIXX_SRC_WIRE_PROTOCOL_H

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::wire {

// The protocol revision, first field of the hello; a server refuses others.
inline constexpr const char* kProtocol = "pmixx-proto-1";

enum class Msg : uint16_t {
  kHello = 1,          // client/tool -> server (request)
  kFinalize = 2,       // request: the client is leaving cleanly
  kAbort = 3,          // request: status, message, procs
  kCommit = 4,         // one-way: the data put since the last commit
  kFence = 5,          // request: procs, directives
  kGet = 6,            // request: proc, key, directives
  kNotify = 7,         // request: an event from the client (client -> server)
  kEvent = 8,          // one-way: an event delivered to a client (server -> client)
  kGetCredential = 9,  // request
  kValidateCredential = 10,  // request
  kJobControl = 11,
  kQuery = 12,
  kLog = 13,
  kPublish = 14,
  kLookup = 15,
  kUnpublish = 16,
  kSpawn = 17,
  kConnect = 18,
  kDisconnect = 19,
  kGroup = 20,
  kMonitor = 21,
  kAllocate = 22,
  kProcessSet = 23,
  kIof = 24,
  kFabric = 40,        // request: u32 operation, directives (server_fabric.h)
  // one-way, server -> client: a new generation of a namespace's job-data
  // image (string nspace, the image as in src/wire/job_image.h)
  kJobUpdate = 41,
  // request, Unix-socket clients: a doorbell page (src/wire/doorbell.h);
  // body empty or u32 flags (1: the client can wait on a release word);
  // the reply is a status and, on success, the page's descriptor (then the
  // release page's, when asked for and available). A kFence request may then end with a ticket (u32 slot,
  // u32 seq) after its directives.
  kDoorbell = 42,
  // one-way, server -> doorbell client: modex chunks holding this
  // client's own records, offered ahead of a fence so that its answer can
  // be mail (server/server_collective.h): u32 n, then per chunk string
  // medium (gds module), u64 serial, u64 size; the frame carries the n
  // descriptors in order.
  kChunks = 43,
  // one-way, client -> server: the chunks of a kChunks the client now
  // keeps under their serials (wire::RegionCache::Keep): u32 n, u64 serial
  // each.
  kChunksKept = 44,
};

// The codec-independent encoding of the hello: u32 count, then per field
// u32 length + bytes (little-endian). Decoding rejects truncation, excess
// bytes and more than kMaxHelloFields fields (PMIX_ERR_UNPACK_FAILURE).
inline constexpr size_t kMaxHelloFields = 64;
Bytes EncodeFields(const std::vector<std::string>& fields);
Result<std::vector<std::string>> DecodeFields(std::span<const uint8_t> bytes);

// The hello's fields, in order.
struct Hello {
  std::string protocol = kProtocol;
  std::string version;   // the library's version string
  std::string role;      // "client" or "tool" (src/server/server_tool.h)
  std::string codec;     // bfrops codec name the client speaks
  std::string psec;      // the psec module its credential is from
  std::string credential;
  std::string nspace;
  uint32_t rank = 0;
  uint32_t pid = 0;
  // A tool's PMIx_tool_init directives, packed with `codec` as an info
  // array (empty: none). Optional on the wire (a 9-field hello has none).
  std::string info;
  // The gds modules whose shared regions the peer can attach
  // (gds::AttachableModules), comma-separated; "" for none (a client
  // started with PMIX_MCA_gds=hash). The server sends a peer that cannot
  // attach its regions their bytes inline instead of descriptors.
  // Optional on the wire (an 11th field): absent, the peer did not say,
  // and is sent descriptors wherever the connection carries them.
  std::optional<std::string> regions;

  // Whether the peer can attach regions of the gds module named `module`:
  // it is in `regions`, or the peer did not say.
  bool CanAttach(std::string_view module) const;

  Bytes Encode() const;
  static Result<Hello> Decode(std::span<const uint8_t> bytes);
};

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_PROTOCOL_H
