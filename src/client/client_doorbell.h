// The client side of doorbells (src/wire/doorbell.h): a blocking fence's
// caller waits on its slot of the page the server rings, instead of on a
// reply its progress thread would read and pass on.
//
// The page is asked for once, at the first fence that can use it
// (with the server's release page when this kernel can wait on two words)
// (CurrentDoorbell), with the connection it came on: a waiting caller
// also writes its request on the socket itself (Connection::SendNow),
// so that neither sending nor release wakes the progress thread. A server
// that cannot give one (TCP, no descriptors)
// is not asked again until the next PMIx_Init. Every answer a waiter gets
// arrives in its slot: rung by the server, or stored there by this
// client's progress thread (an answer that came as a frame, a request that
// could not be sent, the server lost), so a waiter never misses one.
//
// Threads: any; the object locks itself.
#ifndef PMIXX_SRC_CLIENT_CLIENT_DOORBELL_H
#define PMIXX_SRC_CLIENT_CLIENT_DOORBELL_H

#include <bitset>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "src/common/status.h"
#include "src/wire/connection.h"
#include "src/wire/buffer.h"
#include "src/wire/doorbell.h"
#include "src/wire/protocol.h"

namespace pmix::client {

class Doorbell {
 public:
  explicit Doorbell(std::unique_ptr<wire::doorbell::Page> page,
                    std::shared_ptr<wire::Connection> conn = nullptr,
                    std::unique_ptr<wire::doorbell::ReleasePage> release = nullptr)
      : page_(std::move(page)), conn_(std::move(conn)), release_(std::move(release)) {}

  // Whether the server gave a release page (a ticket may then name a
  // word of it, which Await waits on too).
  bool has_release() const { return release_ != nullptr; }

  // The connection's codec (nullptr without one).
  const pmix_bfrops_module_t* codec() const { return conn_ != nullptr ? conn_->codec() : nullptr; }
  // Writes a one-way request on this thread (Connection::SendNow); false
  // when it must go the usual way.
  bool SendNow(wire::Msg type, const wire::Bytes& body) {
    return conn_ != nullptr && conn_->SendNow(static_cast<uint16_t>(type), 0, body);
  }

  // A free slot and a seq no ticket in flight has; nullopt when every
  // slot is taken (the caller goes the way of a reply instead).
  std::optional<wire::doorbell::Ticket> Acquire();
  // Waits for the answer to `t`, at most until `deadline`
  // (PMIX_ERR_TIMEOUT; the slot is then never used again, a late answer
  // may still land in it), and frees the slot. The answer's mail, if any,
  // is copied into *mail (cleared otherwise). Not on the progress thread.
  Status Await(const wire::doorbell::Ticket& t,
               std::optional<std::chrono::steady_clock::time_point> deadline,
               wire::Bytes* mail = nullptr);
  // The answer to ticket `seq` came otherwise; ignored unless that ticket
  // is in flight.
  void Deliver(uint32_t seq, pmix_status_t status);
  // Every ticket in flight gets `why` (the server was lost).
  void FailAll(pmix_status_t why);

 private:
  std::unique_ptr<wire::doorbell::Page> page_;
  const std::shared_ptr<wire::Connection> conn_;
  const std::unique_ptr<wire::doorbell::ReleasePage> release_;
  std::mutex mu_;
  std::map<uint32_t, uint32_t> in_flight_;  // seq -> slot
  std::bitset<wire::doorbell::kSlots> used_;
  std::bitset<wire::doorbell::kSlots> retired_;  // a late answer may land there
  uint32_t last_seq_ = 0;
};

// The initialised client's doorbell, asked of the server at the first
// call (a blocking round trip); nullptr when there is none (no server, a
// server that gives none, asked already and refused). Not on the
// progress thread.
std::shared_ptr<Doorbell> CurrentDoorbell();
// Progress thread: the server was lost (every waiter gets `why`).
void DoorbellServerLost(pmix_status_t why);
// PMIx_Finalize: the page goes with the last waiter; the next
// PMIx_Init asks again.
void DropDoorbell();
// The doorbell as it is now, without asking for one (nullptr: none).
std::shared_ptr<Doorbell> DoorbellIfAny();

}  // namespace pmix::client

#endif  // PMIXX_SRC_CLIENT_CLIENT_DOORBELL_H
