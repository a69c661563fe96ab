# bench: the client/server benchmark (bench/README.md). Built with the
# library against the in-tree headers (which keeps it compiling on ours);
# not installed. `make check` runs only bench/smoke.sh: tests never assert
# timings.
noinst_PROGRAMS += bench/pmix_bench
bench_pmix_bench_SOURCES = \
	bench/pmix_bench.c bench/bench.h bench/bench_util.c \
	bench/bench_client.c bench/bench_client.h \
	bench/bench_client_get.c bench/bench_client_blob.c \
	bench/bench_host.c bench/bench_host.h \
	bench/bench_host_collect.c \
	bench/bench_host_job.c bench/bench_host_job.h \
	bench/bench_job_info.c bench/bench_job_info.h \
	bench/bench_host_module.c bench/bench_host_module.h
bench_pmix_bench_CFLAGS = $(AM_CFLAGS) -pedantic
bench_pmix_bench_LDADD = src/libpmix.la -lm
bench_pmix_bench_LDFLAGS = -pthread
EXTRA_DIST += bench/run_bench.sh bench/run_scale.sh bench/plot_bench.sh bench/plot_bench.py \
	bench/README.md bench/smoke.sh bench/bench_job.png bench/bench_modex.png bench/soak.sh
# A few seconds: both modes, tiny, on our library (values checked, timings
# only printed), so that the benchmark keeps building and running.
TESTS += bench/smoke.sh

# `make bench`: OpenPMIx vs this build's library, side by side. The script
# builds its own copy of the program against the reference headers.
# Extra options go in BENCH_ARGS, e.g. make bench BENCH_ARGS='-n "2 8" --iters 200'.
bench: src/libpmix.la $(pmixcomponent_LTLIBRARIES)
	$(SHELL) $(top_srcdir)/bench/run_bench.sh --ours $(abs_top_builddir)/src/.libs \
		--components '$(PMIXX_COMPONENT_PATH)' $(BENCH_ARGS)

# `make bench-scale`: the scaling run of bench/README.md (S = 1k..100k,
# N = 8..128, both libraries, table + PNGs in $(abs_top_builddir)/bench-scale).
# Takes minutes and several GiB; extra options in BENCH_ARGS.
bench-scale: src/libpmix.la $(pmixcomponent_LTLIBRARIES)
	$(SHELL) $(top_srcdir)/bench/run_scale.sh --ours $(abs_top_builddir)/src/.libs \
		--components '$(PMIXX_COMPONENT_PATH)' --out $(abs_top_builddir)/bench-scale $(BENCH_ARGS)

# `make soak`: test/integration/soak.sh at full size (bench/soak.sh): 256
# clients x 100 fences, 10,000 init/finalize cycles, 1,000 processes, 2,000-
# connection floods. Minutes; for release checks.
soak: src/libpmix.la $(pmixcomponent_LTLIBRARIES) test/host/pmix_test_host \
		test/host/clients/client_soak test/host/clients/bad_peer
	top_builddir=$(abs_top_builddir) top_srcdir=$(abs_top_srcdir) \
		PMIX_MCA_mca_base_component_path='$(PMIXX_COMPONENT_PATH)' \
		$(SHELL) $(top_srcdir)/bench/soak.sh
.PHONY: bench bench-scale soak
