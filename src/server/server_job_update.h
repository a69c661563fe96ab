// Job-data updates after clients connected (issue 10): a re-registration
// of a namespace or PMIx_server_register_resources makes a new generation
// of the namespace's image (jobinfo::Ingest, generation + 1), and every
// connected client of that namespace receives it at once, one-way
// (wire::Msg::kJobUpdate: string nspace, the image as in
// src/wire/job_image.h -- a descriptor to a client on the Unix socket, the
// bytes to others). A client replaces its image only with a newer
// generation (client_state.h says how readers stay safe). Clients that
// are still being admitted get the newest image in their welcome.
//
// Clients of other namespaces that fetched this namespace's image (get or
// connect replies) are not told: they keep the generation they fetched.
//
// Progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_JOB_UPDATE_H
#define PMIXX_SRC_SERVER_SERVER_JOB_UPDATE_H

#include "src/server/server_state.h"

namespace pmix::server {

// Sends ns's current image to each of its connected clients; returns how
// many it was queued for.
size_t PushJobImage(Server& s, const Namespace& ns);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_JOB_UPDATE_H
