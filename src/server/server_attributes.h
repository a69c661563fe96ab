// Attribute registration by the host (standard §17.2.12,
// PMIx_Register_attributes in the OpenPMIx 4.2 form: a function name and a
// NULL-terminated array of attribute names).
//
// The host says, per function of its pmix_server_module_t ("allocate",
// "job_control", ...; any name is taken, as OpenPMIx 4.2.2 does), which
// attributes it supports. A second registration for the same function is
// refused with PMIX_ERR_REPEAT_ATTR_REGISTRATION and changes nothing; a
// NULL array registers the function with no attributes. PMIX_ERR_INIT
// before PMIx_server_init, PMIX_ERR_BAD_PARAM for a NULL or empty function
// name. The registrations live until PMIx_server_finalize (Server::
// host_attributes); queries (PMIX_QUERY_ATTRIBUTE_SUPPORT) read them here.
//
// Threads: PMIx_Register_attributes may be called on any thread, also
// inside an upcall; the accessors are for the progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_ATTRIBUTES_H
#define PMIXX_SRC_SERVER_SERVER_ATTRIBUTES_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pmix::server {

// The attribute names the host registered for `function`, in its order;
// nullopt when it registered nothing for it (or no server runs).
std::optional<std::vector<std::string>> RegisteredAttributes(std::string_view function);

// The functions the host registered attributes for, sorted.
std::vector<std::string> RegisteredAttributeFunctions();

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_ATTRIBUTES_H
