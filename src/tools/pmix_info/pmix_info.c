/* pmix_info: what this pmixx installation is and holds (see info.h). */
#include "src/tools/pmix_info/info.h"

int main(int argc, char **argv) { return pmixx_info_main(argc, argv); }
