/* config.h.  Generated from config.h.in by configure.  */
/* config.h.in.  Generated from configure.ac by autoheader.  */

/* Define to 1 if you have the <dlfcn.h> header file. */
#define HAVE_DLFCN_H 1

/* Define to 1 if you have the <inttypes.h> header file. */
#define HAVE_INTTYPES_H 1

/* Define to 1 if you have the <stdint.h> header file. */
#define HAVE_STDINT_H 1

/* Define to 1 if you have the <stdio.h> header file. */
#define HAVE_STDIO_H 1

/* Define to 1 if you have the <stdlib.h> header file. */
#define HAVE_STDLIB_H 1

/* Define to 1 if you have the <strings.h> header file. */
#define HAVE_STRINGS_H 1

/* Define to 1 if you have the <string.h> header file. */
#define HAVE_STRING_H 1

/* Define to 1 if you have the <sys/stat.h> header file. */
#define HAVE_SYS_STAT_H 1

/* Define to 1 if you have the <sys/types.h> header file. */
#define HAVE_SYS_TYPES_H 1

/* Define to 1 if you have the <unistd.h> header file. */
#define HAVE_UNISTD_H 1

/* Define to the sub-directory where libtool stores uninstalled libraries. */
#define LT_OBJDIR ".libs/"

/* Name of package */
#define PACKAGE "pmixx"

/* Define to the address where bug reports for this package should be sent. */
#define PACKAGE_BUGREPORT ""

/* Define to the full name of this package. */
#define PACKAGE_NAME "pmixx"

/* Define to the full name and version of this package. */
#define PACKAGE_STRING "pmixx 0.1.0"

/* Define to the one symbol short name of this package. */
#define PACKAGE_TARNAME "pmixx"

/* Define to the home page for this package. */
#define PACKAGE_URL ""

/* Define to the version of this package. */
#define PACKAGE_VERSION "0.1.0"

/* The C compiler's version line */
#define PMIXX_CC_VERSION "Debian clang version 14.0.6"

/* The arguments configure was run with */
#define PMIXX_CONFIGURE_ARGS " 'CXX=clang++' 'CC=clang' '--prefix=/work/wt/topo/_install_clang'"

/* Build configuration */
#define PMIXX_CONFIG_SUMMARY "CC=clang CXX=clang++ munge=yes gtest=yes dlopen=yes"

/* The C++ compiler's version line */
#define PMIXX_CXX_VERSION "Debian clang version 14.0.6"

/* Components are dlopen'd plugins */
#define PMIXX_ENABLE_DLOPEN 1

/* Whether munge was found */
#define PMIXX_HAVE_MUNGE 1

/* Define to 1 if all of the C90 standard headers exist (not just the ones
   required in a freestanding environment). This macro is provided for
   backward compatibility; new code need not use it. */
#define STDC_HEADERS 1

/* Version number of package */
#define VERSION "0.1.0"
