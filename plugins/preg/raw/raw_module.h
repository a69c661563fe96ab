// preg/raw: the input verbatim behind the prefix "raw:".
//
// Node list "a,b,c" -> "raw:a,b,c"; ppn "0,1;2,3" -> "raw:0,1;2,3" (the
// output format of OpenPMIx's raw component, so its raw regexes parse here
// too). Declines (PMIX_ERR_NOT_SUPPORTED) an input containing '*', which
// no preg output may contain (consumers join environment values with it),
// and a string without the prefix when parsing. Parsing splits on ',' for
// nodes and on ';' for ppn, keeping empty fields; "raw:" is the empty list.
#ifndef PMIXX_PLUGINS_PREG_RAW_RAW_MODULE_H
#define PMIXX_PLUGINS_PREG_RAW_RAW_MODULE_H

#include "pmix/mca/preg.h"

namespace pmix::preg::raw {

extern const pmix_preg_module_t kModule;

}  // namespace pmix::preg::raw

#endif  // PMIXX_PLUGINS_PREG_RAW_RAW_MODULE_H
