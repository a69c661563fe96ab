/*
 * pmix_tool.h - the tool interface of the PMIx Standard v5.0 (ch. 18):
 * initialization as a tool (debugger, launcher front end, monitor), the
 * connections a tool keeps to one or more servers, and I/O forwarding.
 * A tool may use every client call of pmix.h once initialized.
 */

#ifndef PMIx_TOOL_API_H
#define PMIx_TOOL_API_H

#include <pmix.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Initializes the library as a tool and returns the tool's identifier in
 * *proc; connects to a server unless told not to (PMIX_TOOL_DO_NOT_CONNECT).
 * Each successful call is matched by one PMIx_tool_finalize. */
PMIX_EXPORT pmix_status_t PMIx_tool_init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo);
PMIX_EXPORT pmix_status_t PMIx_tool_finalize(void);
/* Connects to a further server; *myproc receives the tool's identifier as
 * that server knows it, *server the server's identifier. */
PMIX_EXPORT pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t *myproc, pmix_proc_t *server,
                                                     pmix_info_t info[], size_t ninfo);
/* Drops the connection to one server; the library stays initialized. */
PMIX_EXPORT pmix_status_t PMIx_tool_disconnect(const pmix_proc_t *server);
/* Identifiers of all connected servers, in a new array (PMIX_PROC_FREE). */
PMIX_EXPORT pmix_status_t PMIx_tool_get_servers(pmix_proc_t *servers[], size_t *nservers);
/* Makes server the one that receives requests from now on. */
PMIX_EXPORT pmix_status_t PMIx_tool_set_server(const pmix_proc_t *server, pmix_info_t info[],
                                               size_t ninfo);

/* Delivers forwarded output of source on channel to a PMIx_IOF_pull
 * registrant; payload and info belong to the library. */
typedef void (*pmix_iof_cbfunc_t)(size_t iofhdlr, pmix_iof_channel_t channel,
                                  pmix_proc_t *source, pmix_byte_object_t *payload,
                                  pmix_info_t info[], size_t ninfo);

/* Asks for the output of procs on the given channels.  With regcbfunc NULL
 * the call blocks and returns the handler id (>= 0) or an error; otherwise
 * regcbfunc receives the id. */
PMIX_EXPORT pmix_status_t PMIx_IOF_pull(const pmix_proc_t procs[], size_t nprocs,
                                        const pmix_info_t directives[], size_t ndirs,
                                        pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc,
                                        pmix_hdlr_reg_cbfunc_t regcbfunc, void *regcbdata);
/* Cancels a pull registration; cbfunc NULL: blocking. */
PMIX_EXPORT pmix_status_t PMIx_IOF_deregister(size_t iofhdlr, const pmix_info_t directives[],
                                              size_t ndirs, pmix_op_cbfunc_t cbfunc,
                                              void *cbdata);
/* Sends bo to the stdin of targets (bo NULL: directives only, e.g. start
 * or stop forwarding this process's own stdin); cbfunc NULL: blocking. */
PMIX_EXPORT pmix_status_t PMIx_IOF_push(const pmix_proc_t targets[], size_t ntargets,
                                        pmix_byte_object_t *bo,
                                        const pmix_info_t directives[], size_t ndirs,
                                        pmix_op_cbfunc_t cbfunc, void *cbdata);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_TOOL_API_H */
