#include "src/server/server_monitor.h"

#include <sys/stat.h>

#include <chrono>
#include <list>
#include <memory>
#include <string>

#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/event/event.h"
#include "src/event/roles.h"
#include "src/runtime/context.h"

namespace pmix::server {
namespace {

struct Watch {
  pmix_proc_t proc{};
  std::string id;
  pmix_status_t alert = PMIX_SUCCESS;
  bool heartbeat = false;  // else a file
  uint32_t period_s = 1;
  uint32_t drops = 1;
  uint32_t missed = 0;
  bool alerted = false;
  bool beat = false;  // heartbeat since the last check
  // file:
  std::string path;
  bool by_size = false, by_access = false, by_modify = false;
  struct stat last{};
  bool have_last = false;
  std::unique_ptr<runtime::ProgressEngine::Timer> timer;
};

std::list<Watch>& Watches() {
  static std::list<Watch> watches;  // progress thread only
  return watches;
}

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b) {
  return PMIX_CHECK_NSPACE(a.nspace, b.nspace) && a.rank == b.rank;
}

void Raise(Server& s, Watch& w) {
  pmix_info_t info[2];
  PMIx_Info_load(&info[0], PMIX_EVENT_AFFECTED_PROC, &w.proc, PMIX_PROC);
  PMIx_Info_load(&info[1], PMIX_MONITOR_ID, w.id.c_str(), PMIX_STRING);
  auto ev = event::MakeEvent(w.alert, w.proc, PMIX_RANGE_NAMESPACE, info, 2);
  PMIx_Info_destruct(&info[0]);
  PMIx_Info_destruct(&info[1]);
  if (!ev.ok()) return;
  output::Verbose("server", 1, "monitor %s: %s:%u stalled", w.id.c_str(), w.proc.nspace, w.proc.rank);
  EventsNotifyFromHost(s, std::make_shared<const event::Event>(std::move(*ev)), [](Status) {});
}

// True when the file shows the activity the watch looks for.
bool FileMoved(Watch& w) {
  struct stat now {};
  if (::stat(w.path.c_str(), &now) != 0) return false;  // missing: no progress either
  bool moved = !w.have_last;
  if (w.have_last) {
    moved = (w.by_size && now.st_size != w.last.st_size) ||
            (w.by_access && (now.st_atim.tv_sec != w.last.st_atim.tv_sec ||
                             now.st_atim.tv_nsec != w.last.st_atim.tv_nsec)) ||
            (w.by_modify && (now.st_mtim.tv_sec != w.last.st_mtim.tv_sec ||
                             now.st_mtim.tv_nsec != w.last.st_mtim.tv_nsec));
  }
  w.last = now;
  w.have_last = true;
  return moved;
}

void Arm(Watch& w);

void Check(Watch* w) {
  Server* s = CurrentServer();
  if (s == nullptr) return;
  if (s->FindPeer(w->proc) == nullptr) {  // its proc is gone: so is the monitor
    Watches().remove_if([w](const Watch& x) { return &x == w; });
    return;
  }
  bool alive = w->heartbeat ? w->beat : FileMoved(*w);
  w->beat = false;
  if (alive) {
    w->missed = 0;
    w->alerted = false;
  } else if (++w->missed >= w->drops && !w->alerted) {
    w->alerted = true;
    Raise(*s, *w);
  }
  Arm(*w);
}

void Arm(Watch& w) {
  Watch* self = &w;
  w.timer = runtime::Engine()->AddTimer(std::chrono::seconds(w.period_s), [self] { Check(self); });
}

uint32_t Positive(std::span<const pmix_info_t> d, const char* key, uint32_t fallback) {
  auto v = InfoU32(d, key);
  return v && *v > 0 ? *v : fallback;
}

// Whether a directive asks for it: a bool's value, or the mere presence of
// the standard's char* forms (PMIX_MONITOR_FILE_ACCESS / _MODIFY).
bool Asked(std::span<const pmix_info_t> d, const char* key) {
  for (const auto& i : d) {
    if (!PMIX_CHECK_KEY(&i, key)) continue;
    return i.value.type == PMIX_BOOL ? i.value.data.flag : true;
  }
  return false;
}

void Cancel(const pmix_proc_t& who, const pmix_info_t& monitor) {
  std::string id = monitor.value.type == PMIX_STRING && monitor.value.data.string != nullptr
                       ? monitor.value.data.string
                       : "";
  Watches().remove_if(
      [&](const Watch& w) { return SameProc(w.proc, who) && (id.empty() || w.id == id); });
}

}  // namespace

void MonitorInLibrary(Server& s, const pmix_proc_t& who, const pmix_info_t& monitor,
                      pmix_status_t error, std::span<const pmix_info_t> directives,
                      const InfosDone& done) {
  (void)s;
  if (PMIX_CHECK_KEY(&monitor, PMIX_SEND_HEARTBEAT)) {
    for (Watch& w : Watches()) {
      if (w.heartbeat && SameProc(w.proc, who)) w.beat = true;
    }
    return done(PMIX_SUCCESS, wire::Infos());
  }
  if (PMIX_CHECK_KEY(&monitor, PMIX_MONITOR_CANCEL)) {
    Cancel(who, monitor);
    return done(PMIX_SUCCESS, wire::Infos());
  }
  Watch w;
  w.proc = who;
  w.id = InfoString(directives, PMIX_MONITOR_ID).value_or("");
  if (PMIX_CHECK_KEY(&monitor, PMIX_MONITOR_HEARTBEAT)) {
    w.heartbeat = true;
    w.alert = error != PMIX_SUCCESS ? error : PMIX_MONITOR_HEARTBEAT_ALERT;
    w.period_s = Positive(directives, PMIX_MONITOR_HEARTBEAT_TIME, 1);
    w.drops = Positive(directives, PMIX_MONITOR_HEARTBEAT_DROPS, 1);
  } else if (PMIX_CHECK_KEY(&monitor, PMIX_MONITOR_FILE)) {
    if (monitor.value.type != PMIX_STRING || monitor.value.data.string == nullptr ||
        monitor.value.data.string[0] == '\0')
      return done(PMIX_ERR_BAD_PARAM, wire::Infos());
    w.path = monitor.value.data.string;
    w.alert = error != PMIX_SUCCESS ? error : PMIX_MONITOR_FILE_ALERT;
    w.period_s = Positive(directives, PMIX_MONITOR_FILE_CHECK_TIME, 1);
    w.drops = Positive(directives, PMIX_MONITOR_FILE_DROPS, 1);
    w.by_size = Asked(directives, PMIX_MONITOR_FILE_SIZE);
    w.by_access = Asked(directives, PMIX_MONITOR_FILE_ACCESS);
    w.by_modify = Asked(directives, PMIX_MONITOR_FILE_MODIFY);
    if (!w.by_size && !w.by_access && !w.by_modify) return done(PMIX_ERR_BAD_PARAM, wire::Infos());
    FileMoved(w);  // the state to compare with
  } else {
    return done(PMIX_ERR_NOT_SUPPORTED, wire::Infos());
  }
  if (runtime::Engine() == nullptr) return done(PMIX_ERR_INIT, wire::Infos());
  Watches().push_back(std::move(w));
  Arm(Watches().back());
  done(PMIX_SUCCESS, wire::Infos());
}

void MonitorShutdown(Server&) { Watches().clear(); }

}  // namespace pmix::server
