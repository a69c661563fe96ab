# Fuzz targets (test/fuzz/README.md). Every build replays their corpora
# (every input and every crash ever found) through a plain main(); a
# --enable-fuzzers build (clang) also runs libFuzzer on them for a bounded
# time (PMIXX_FUZZ_SECONDS per target, default 60).
PMIXX_FUZZ_UNPACK_SOURCES = test/fuzz/unpack_fuzzer.cc $(PLUGIN_BFROPS_NATIVE_SOURCES)
PMIXX_FUZZ_SERVER_SOURCES = test/fuzz/server_fuzzer.cc
PMIXX_FUZZ_IMAGE_SOURCES = test/fuzz/image_fuzzer.cc

check_PROGRAMS += test/fuzz/unpack_replay test/fuzz/server_replay test/fuzz/image_replay
test_fuzz_unpack_replay_SOURCES = $(PMIXX_FUZZ_UNPACK_SOURCES) test/fuzz/replay_main.cc
test_fuzz_unpack_replay_CPPFLAGS = $(AM_CPPFLAGS)
test_fuzz_unpack_replay_LDADD = src/libpmix_core.la
test_fuzz_unpack_replay_LDFLAGS = -pthread
test_fuzz_server_replay_SOURCES = $(PMIXX_FUZZ_SERVER_SOURCES) test/fuzz/replay_main.cc
test_fuzz_server_replay_LDADD = src/libpmix_core.la
# The server's dlopen'd components resolve the PMIx_* API against the program.
test_fuzz_server_replay_LDFLAGS = -pthread -Wl,--export-dynamic
test_fuzz_image_replay_SOURCES = $(PMIXX_FUZZ_IMAGE_SOURCES) test/fuzz/replay_main.cc
test_fuzz_image_replay_LDADD = src/libpmix_core.la
# The image's codec is a bfrops component, dlopen'd as the server's are.
test_fuzz_image_replay_LDFLAGS = -pthread -Wl,--export-dynamic
TESTS += test/fuzz/replay.sh

if PMIXX_FUZZERS
check_PROGRAMS += test/fuzz/unpack_fuzzer test/fuzz/server_fuzzer test/fuzz/image_fuzzer
test_fuzz_unpack_fuzzer_SOURCES = $(PMIXX_FUZZ_UNPACK_SOURCES)
test_fuzz_unpack_fuzzer_CPPFLAGS = $(AM_CPPFLAGS)
test_fuzz_unpack_fuzzer_LDADD = src/libpmix_core.la
test_fuzz_unpack_fuzzer_LDFLAGS = -pthread -fsanitize=fuzzer
test_fuzz_server_fuzzer_SOURCES = $(PMIXX_FUZZ_SERVER_SOURCES)
test_fuzz_server_fuzzer_LDADD = src/libpmix_core.la
test_fuzz_server_fuzzer_LDFLAGS = -pthread -Wl,--export-dynamic -fsanitize=fuzzer
test_fuzz_image_fuzzer_SOURCES = $(PMIXX_FUZZ_IMAGE_SOURCES)
test_fuzz_image_fuzzer_LDADD = src/libpmix_core.la
test_fuzz_image_fuzzer_LDFLAGS = -pthread -Wl,--export-dynamic -fsanitize=fuzzer
TESTS += test/fuzz/run_fuzzers.sh
endif
EXTRA_DIST += test/fuzz/replay.sh test/fuzz/run_fuzzers.sh test/fuzz/README.md test/fuzz/corpus
