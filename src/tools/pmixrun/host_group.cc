// pmixrun's group upcall (host_group.h).
#include "src/tools/pmixrun/host_group.h"

#include <atomic>
#include <cstdlib>

#include "pmix.h"

namespace pmixrun {
namespace {

std::atomic<size_t> g_next_context_id{1};

struct Reply {
  pmix_info_t* info = nullptr;
  size_t n = 0;
};

void ReleaseReply(void* cbdata) {
  auto* r = static_cast<Reply*>(cbdata);
  PMIx_Info_free(r->info, r->n);
  delete r;
}

pmix_status_t Group(pmix_group_operation_t op, char[], const pmix_proc_t procs[], size_t nprocs,
                    const pmix_info_t directives[], size_t ndirs, pmix_info_cbfunc_t cbfunc,
                    void* cbdata) {
  bool want_id = false;
  const pmix_byte_object_t* endpt = nullptr;
  for (size_t i = 0; i < ndirs; ++i) {
    const pmix_info_t& d = directives[i];
    if (PMIX_CHECK_KEY(&d, PMIX_LOCAL_COLLECTIVE_STATUS) && d.value.type == PMIX_STATUS &&
        d.value.data.status != PMIX_SUCCESS)
      return d.value.data.status;
    if (PMIX_CHECK_KEY(&d, PMIX_GROUP_ASSIGN_CONTEXT_ID)) want_id = PMIx_Info_true(&d);
    if (PMIX_CHECK_KEY(&d, PMIX_GROUP_ENDPT_DATA) && d.value.type == PMIX_BYTE_OBJECT &&
        d.value.data.bo.size > 0)
      endpt = &d.value.data.bo;
  }
  if (op != PMIX_GROUP_CONSTRUCT || cbfunc == nullptr) return PMIX_OPERATION_SUCCEEDED;
  auto* reply = new Reply;
  reply->info = PMIx_Info_create(3);
  if (reply->info == nullptr) {
    delete reply;
    return PMIX_ERR_NOMEM;
  }
  if (want_id) {
    size_t id = g_next_context_id.fetch_add(1);
    PMIx_Info_load(&reply->info[reply->n++], PMIX_GROUP_CONTEXT_ID, &id, PMIX_SIZE);
  }
  pmix_data_array_t members{PMIX_PROC, nprocs, const_cast<pmix_proc_t*>(procs)};
  PMIx_Info_load(&reply->info[reply->n++], PMIX_GROUP_MEMBERSHIP, &members, PMIX_DATA_ARRAY);
  if (endpt != nullptr)
    PMIx_Info_load(&reply->info[reply->n++], PMIX_GROUP_ENDPT_DATA, endpt, PMIX_BYTE_OBJECT);
  cbfunc(PMIX_SUCCESS, reply->info, reply->n, cbdata, ReleaseReply, reply);
  return PMIX_SUCCESS;
}

}  // namespace

void FillGroupModule(pmix_server_module_t* module) { module->group = Group; }

}  // namespace pmixrun
