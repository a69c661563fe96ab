#include "src/event/event.h"

#include <cstring>

namespace pmix::event {

namespace {

bool KeyIs(const pmix_info_t& info, const char* key) {
  return std::strncmp(info.key, key, PMIX_MAX_KEYLEN) == 0;
}

// A list of procs from a PMIX_PROC value or a data array of PMIX_PROC.
Status ReadProcs(const pmix_value_t& v, std::vector<pmix_proc_t>* out) {
  if (v.type == PMIX_PROC && v.data.proc != nullptr) {
    out->push_back(*v.data.proc);
    return Status();
  }
  if (v.type != PMIX_DATA_ARRAY || v.data.darray == nullptr) return PMIX_ERR_BAD_PARAM;
  const pmix_data_array_t& d = *v.data.darray;
  if (d.size == 0) return Status();
  if (d.type != PMIX_PROC || d.array == nullptr) return PMIX_ERR_BAD_PARAM;
  const auto* procs = static_cast<const pmix_proc_t*>(d.array);
  out->insert(out->end(), procs, procs + d.size);
  return Status();
}

Status ReadRange(const pmix_value_t& v, pmix_data_range_t* out) {
  if (v.type == PMIX_DATA_RANGE) {
    *out = v.data.range;
  } else if (v.type == PMIX_UINT8) {
    *out = v.data.uint8;
  } else {
    return PMIX_ERR_BAD_PARAM;
  }
  return *out <= PMIX_RANGE_PROC_LOCAL ? Status() : Status(PMIX_ERR_BAD_PARAM);
}

Status ReadString(const pmix_value_t& v, std::string* out) {
  if (v.type != PMIX_STRING) return PMIX_ERR_BAD_PARAM;
  *out = v.data.string != nullptr ? v.data.string : "";
  return Status();
}

// Applies one registration directive to `spec`; unknown keys are ignored.
Status ApplyDirective(const pmix_info_t& info, HandlerSpec* spec) {
  struct FlagRow {
    const char* key;
    bool HandlerSpec::*field;
  };
  static constexpr FlagRow kFlags[] = {
      {PMIX_EVENT_HDLR_FIRST, &HandlerSpec::first},
      {PMIX_EVENT_HDLR_LAST, &HandlerSpec::last},
      {PMIX_EVENT_HDLR_FIRST_IN_CATEGORY, &HandlerSpec::first_in_category},
      {PMIX_EVENT_HDLR_LAST_IN_CATEGORY, &HandlerSpec::last_in_category},
      {PMIX_EVENT_HDLR_PREPEND, &HandlerSpec::prepend},
  };
  for (const FlagRow& row : kFlags) {
    if (KeyIs(info, row.key)) {
      spec->*row.field = InfoFlag(info);
      return Status();
    }
  }
  const pmix_value_t& v = info.value;
  if (KeyIs(info, PMIX_EVENT_HDLR_APPEND)) {
    if (InfoFlag(info)) spec->prepend = false;
    return Status();
  }
  if (KeyIs(info, PMIX_EVENT_HDLR_NAME)) return ReadString(v, &spec->name);
  if (KeyIs(info, PMIX_EVENT_HDLR_BEFORE)) return ReadString(v, &spec->before);
  if (KeyIs(info, PMIX_EVENT_HDLR_AFTER)) return ReadString(v, &spec->after);
  if (KeyIs(info, PMIX_RANGE)) return ReadRange(v, &spec->range);
  if (KeyIs(info, PMIX_EVENT_CUSTOM_RANGE)) {
    spec->range = PMIX_RANGE_CUSTOM;
    return ReadProcs(v, &spec->custom_range);
  }
  if (KeyIs(info, PMIX_EVENT_AFFECTED_PROC) || KeyIs(info, PMIX_EVENT_AFFECTED_PROCS)) {
    return ReadProcs(v, &spec->affected);
  }
  if (KeyIs(info, PMIX_EVENT_RETURN_OBJECT)) {
    if (v.type != PMIX_POINTER) return PMIX_ERR_BAD_PARAM;
    spec->has_object = true;
    spec->object = v.data.ptr;
  }
  return Status();
}

// Reads the notification directives from the event's own infos.
Status ReadEventDirectives(Event* ev) {
  for (const pmix_info_t& info : ev->info.view()) {
    if (KeyIs(info, PMIX_EVENT_NON_DEFAULT)) {
      ev->non_default = InfoFlag(info);
    } else if (KeyIs(info, PMIX_EVENT_DO_NOT_CACHE)) {
      ev->do_not_cache = InfoFlag(info);
    } else if (KeyIs(info, PMIX_EVENT_CUSTOM_RANGE)) {
      PMIX_RETURN_IF_ERROR(ReadProcs(info.value, &ev->custom_range));
    } else if (KeyIs(info, PMIX_EVENT_AFFECTED_PROC) || KeyIs(info, PMIX_EVENT_AFFECTED_PROCS)) {
      PMIX_RETURN_IF_ERROR(ReadProcs(info.value, &ev->affected));
    }
  }
  return Status();
}

}  // namespace

bool InfoFlag(const pmix_info_t& info) {
  if (info.value.type == PMIX_UNDEF) return true;
  if (info.value.type == PMIX_BOOL) return info.value.data.flag;
  return false;
}

Result<Event> MakeEvent(pmix_status_t status, const pmix_proc_t& source, pmix_data_range_t range,
                        const pmix_info_t* info, size_t ninfo) {
  if (info == nullptr && ninfo > 0) return Status(PMIX_ERR_BAD_PARAM);
  if (range > PMIX_RANGE_PROC_LOCAL) return Status(PMIX_ERR_BAD_PARAM);
  Event ev;
  ev.status = status;
  ev.source = source;
  ev.range = range;
  if (ninfo > 0) {
    Result<wire::Infos> copy = wire::Infos::CopyOf({info, ninfo});
    if (!copy.ok()) return copy.status();
    ev.info = std::move(copy).value();
  }
  PMIX_RETURN_IF_ERROR(ReadEventDirectives(&ev));
  if (range == PMIX_RANGE_CUSTOM && ev.custom_range.empty()) return Status(PMIX_ERR_BAD_PARAM);
  return ev;
}

Result<HandlerSpec> ParseHandlerSpec(const pmix_status_t* codes, size_t ncodes,
                                     const pmix_info_t* info, size_t ninfo) {
  if ((codes == nullptr && ncodes > 0) || (info == nullptr && ninfo > 0)) {
    return Status(PMIX_ERR_BAD_PARAM);
  }
  HandlerSpec spec;
  if (ncodes > 0) spec.codes.assign(codes, codes + ncodes);
  for (size_t i = 0; i < ninfo; ++i) {
    if (!ApplyDirective(info[i], &spec).ok()) return Status(PMIX_ERR_EVENT_REGISTRATION);
  }
  if (spec.first && spec.last) return Status(PMIX_ERR_EVENT_REGISTRATION);
  return spec;
}

bool ProcMatches(const pmix_proc_t& pattern, const pmix_proc_t& proc) {
  if (std::strncmp(pattern.nspace, proc.nspace, PMIX_MAX_NSLEN) != 0) return false;
  return pattern.rank == proc.rank || pattern.rank == PMIX_RANK_WILDCARD ||
         proc.rank == PMIX_RANK_WILDCARD;
}

bool AnyProcMatches(std::span<const pmix_proc_t> patterns, const pmix_proc_t& proc) {
  for (const pmix_proc_t& p : patterns) {
    if (ProcMatches(p, proc)) return true;
  }
  return false;
}

bool TargetInRange(const Event& event, const pmix_proc_t& target) {
  switch (event.range) {
    case PMIX_RANGE_RM:
    case PMIX_RANGE_PROC_LOCAL:
      return false;
    case PMIX_RANGE_NAMESPACE:
      return std::strncmp(event.source.nspace, target.nspace, PMIX_MAX_NSLEN) == 0;
    case PMIX_RANGE_CUSTOM:
      return AnyProcMatches(event.custom_range, target);
    default:  // UNDEF, LOCAL, SESSION, GLOBAL
      return true;
  }
}

Result<wire::Bytes> PackEvent(const pmix_bfrops_module_t* codec, const Event& ev) {
  wire::Writer w(codec);
  w.Status(ev.status).Proc(ev.source).Pack(&ev.range, 1, PMIX_DATA_RANGE).InfoArray(ev.info.view());
  return w.Take();
}

}  // namespace pmix::event
