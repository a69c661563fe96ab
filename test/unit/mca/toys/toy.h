/* The test-only "toy" framework's module interface (see toy.c and
 * test/unit/mca/repository_test.cc). */
#ifndef PMIXX_TEST_UNIT_MCA_TOYS_TOY_H
#define PMIXX_TEST_UNIT_MCA_TOYS_TOY_H

#define TOY_INTERFACE_MAJOR 3
#define TOY_INTERFACE_MINOR 1

typedef struct toy_module {
    const char *name;
    /* The values of toy_<name>_level and toy_<name>_label handed to open(). */
    long long (*level)(void);
    const char *(*label)(void);
} toy_module_t;

#endif
