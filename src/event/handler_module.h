// The code of a registered event handler stays mapped until the process
// exits.
//
// Why: a handler may hand the event on to a thread of its own and call its
// completion from there later, as Open MPI 4.1's mca_pmix_ext3x does with
// every event (ext3x_event_hdlr queues process_event on Open MPI's async
// progress thread). Such work can still be queued when the caller
// deregisters, calls PMIx_Finalize and dlcloses the module: Open MPI's
// MPI_Finalize does exactly that, and the async thread, descheduled on a
// loaded node since PMIx_Init delivered PMIX_MODEL_DECLARED, then jumps
// into the unmapped process_event (a rank's segfault at exit). Keeping the
// handler's shared object loaded (RTLD_NODELETE) makes such late work
// harmless: it finds its registration gone and calls our completion, which
// ignores a chain that no longer exists.
//
// Threads: any.
#ifndef PMIXX_SRC_EVENT_HANDLER_MODULE_H
#define PMIXX_SRC_EVENT_HANDLER_MODULE_H

namespace pmix::event {

// Marks the shared object holding `code` (a handler's address) as never
// to be unloaded. Nothing happens for the main program, for this library,
// or when the address belongs to no loaded object. Never fails.
void KeepModuleLoaded(const void* code);

}  // namespace pmix::event

#endif  // PMIXX_SRC_EVENT_HANDLER_MODULE_H
