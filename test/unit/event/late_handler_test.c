/*
 * late_handler_test: a handler's module dlclosed while work it queued is
 * pending (src/event/handler_module.h).
 *
 * What Open MPI 4.1 does in every rank: its ext3x module's event handler
 * queues the event on Open MPI's own thread; MPI_Finalize deregisters,
 * calls PMIx_Finalize and dlcloses the module, and the queued call may run
 * only then (the thread descheduled on a loaded node): it jumped into the
 * unmapped module, a segfault at exit. Here, as a singleton: the module
 * (late_module.c) registers a handler; a PMIX_RANGE_PROC_LOCAL event
 * reaches it and it queues a call of its own on this program's queue;
 * then deregistration, PMIx_Finalize, dlclose, and only then the queued
 * call runs. The module must still be loaded (PMIx_Register_event_handler
 * made it so) and the late completion must do nothing harmful.
 *
 *   late_handler_test [MODULE.so]    (default: LATE_MODULE, set by the build)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define kCode (PMIX_EXTERNAL_ERR_BASE - 31)

static void (*g_fn)(void*);
static void* g_arg;

static void Post(void (*fn)(void*), void* arg) {
  g_fn = fn;
  g_arg = arg;
}

static int Fail(const char* why) {
  printf("FAIL: %s\n", why);
  return 1;
}

int main(int argc, char** argv) {
#ifdef LATE_MODULE
  const char* path = argc > 1 ? argv[1] : LATE_MODULE;
#else
  if (argc < 2) return Fail("usage: late_handler_test MODULE.so");
  const char* path = argv[1];
#endif
  unsetenv("PMIX_NAMESPACE");
  unsetenv("PMIX_SERVER_URI");
  pmix_proc_t me;
  if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) return Fail("PMIx_Init");
  void* module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (module == NULL) return Fail(dlerror());
  pmix_status_t (*reg)(pmix_status_t, void (*)(void (*)(void*), void*)) =
      (pmix_status_t(*)(pmix_status_t, void (*)(void (*)(void*), void*)))dlsym(module, "late_module_register");
  int (*invoked)(void) = (int (*)(void))dlsym(module, "late_module_invoked");
  pmix_status_t (*dereg)(void) = (pmix_status_t(*)(void))dlsym(module, "late_module_deregister");
  if (reg == NULL || invoked == NULL || dereg == NULL) return Fail("the module lacks its functions");
  if (reg(kCode, Post) != PMIX_SUCCESS) return Fail("registration");
  if (PMIx_Notify_event(kCode, &me, PMIX_RANGE_PROC_LOCAL, NULL, 0, NULL, NULL) != PMIX_SUCCESS)
    return Fail("PMIx_Notify_event");
  const struct timespec tick = {0, 1000000L};
  for (int i = 0; i < 20000 && !invoked(); i++) nanosleep(&tick, NULL);
  if (!invoked()) return Fail("the handler was not called within 20 s");
  if (g_fn == NULL) return Fail("the handler queued nothing");
  if (dereg() != PMIX_SUCCESS) return Fail("deregistration");
  if (PMIx_Finalize(NULL, 0) != PMIX_SUCCESS) return Fail("PMIx_Finalize");
  dlclose(module);
  /* Without the module kept loaded, g_fn now points into unmapped memory. */
  if (dlopen(path, RTLD_LAZY | RTLD_NOLOAD) == NULL)
    return Fail("the handler's module was unloaded by dlclose: its queued work would jump into "
                "unmapped code");
  g_fn(g_arg); /* the module's late completion, after PMIx_Finalize */
  printf("PASS: the handler's module stayed loaded; its completion after PMIx_Finalize was harmless\n");
  return 0;
}
