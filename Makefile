# The two commands a newcomer types:  make demo   and   make test.
# Everything goes through CMake; this file only names the common runs.

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# The project's own builds treat warnings as errors (CMake's default is off,
# so that a user's plain cmake build survives a newer compiler's warnings);
# CMAKE_FLAGS comes after it and may turn it off.
WERROR_FLAG := -DACLCPU_WERROR=ON
# Words put in front of ctest by `make test` (the sanitizer runs set it).
TEST_PREFIX ?=
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

# The sanitizer runtimes of GCC 12 (and LLVM before 18) cannot start when the
# kernel randomizes mmap with more than 28 bits (vm.mmap_rnd_bits = 32, the
# default on newer kernels): TSan dies with "unexpected memory mapping", ASan
# loops forever printing "AddressSanitizer:DEADLYSIGNAL". Their tests run with
# address randomization off (setarch -R; every child process inherits it).
# Where setarch -R is not permitted (e.g. Docker's default seccomp profile),
# lower the entropy instead, as root: sysctl -w vm.mmap_rnd_bits=28.
ARCH := $(shell uname -m)
NO_ASLR := $(shell setarch $(ARCH) -R true >/dev/null 2>&1 && echo "setarch $(ARCH) -R")
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
TSAN_ENV := TSAN_OPTIONS=second_deadlock_stack=1

# Memcheck for every test suite. Valgrind follows the runner's forked test
# children by itself (--trace-children also follows exec), checks each child
# for leaks when it exits, counts definite leaks as errors, and exits 99 on any
# error, which fails that test case, its suite, and so the ctest run.
VALGRIND := $(shell command -v valgrind 2>/dev/null)
VALGRIND_OPTS := --error-exitcode=99 --trace-children=yes --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --num-callers=30 --track-fds=no -q
# Not under valgrind: tests that run no library code in-process (header checks,
# symbol list, config reads, standalone docs, source_rules: greps over src/;
# the reliability tools: ASan/TSan runs cover them, valgrind would take hours;
# services_layer: nm), run tools (install, static_link and readme_lines: cmake
# and the compiler; examples: cmake -P; cli: a shell script running the aclcpu
# command, grep and Chromium).
VALGRIND_EXCLUDE := ^(tests_under_check|examples_under_check|headers|headers_cxx|exported_symbols|source_rules|services_layer|install|static_link|bench_smoke|cli|cli_golden|cli_timeline|standalone_docs|config_reads|readme_lines|fuzz_smoke|faultinj_sweep)$$|^example_|^dag_stress_

.PHONY: all build demo test test-asan test-tsan test-valgrind sanitizer-aslr-check bench bench-check install clean \
  fuzz stress faultinj reliability

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(GENERATOR) $(WERROR_FLAG) $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Builds everything and runs the multi-stream pipeline demo.
demo: build
	$(BUILD)/examples/pipeline_demo

# Builds everything and runs every test (CTest runs each suite; the runner
# forks each test case with a timeout).
test: build
	cd $(BUILD) && $(TEST_PREFIX) ctest --output-on-failure -j $(JOBS)

# AddressSanitizer + UndefinedBehaviorSanitizer (both abort on the first error;
# LeakSanitizer checks every test case's process at its end).
test-asan: sanitizer-aslr-check
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DACLCPU_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug" \
	  TEST_PREFIX="env $(ASAN_ENV) $(NO_ASLR)"

# ThreadSanitizer (a report makes the process exit 66, failing the test case).
test-tsan: sanitizer-aslr-check
	$(MAKE) test BUILD=build-tsan CMAKE_FLAGS="-DACLCPU_SANITIZE=thread" TEST_PREFIX="env $(TSAN_ENV) $(NO_ASLR)"

# Fails early, with the fix, where neither setarch -R nor the kernel's
# randomization lets the sanitizer runtimes start.
sanitizer-aslr-check:
	@bits=$$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 0); \
	if [ -z "$(NO_ASLR)" ] && [ "$$bits" -gt 28 ]; then \
	  echo "error: vm.mmap_rnd_bits is $$bits and 'setarch $(ARCH) -R' is not permitted here, so the" \
	    "sanitizer runtimes cannot start. Fix (as root): sysctl -w vm.mmap_rnd_bits=28" >&2; \
	  exit 1; \
	fi

test-valgrind:
	@test -n "$(VALGRIND)" || { echo "error: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
	$(MAKE) build BUILD=build-valgrind CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=Debug -DACLCPU_BENCH=OFF -DACLCPU_EXAMPLES=OFF"
	cd build-valgrind && rm -f Testing/Temporary/MemoryChecker.*.log && \
	  ACLCPU_TEST_TIMEOUT=600 ctest --output-on-failure -j $(JOBS) -E '$(VALGRIND_EXCLUDE)' --timeout 3000 \
	    --overwrite MemoryCheckCommand=$(VALGRIND) --overwrite MemoryCheckCommandOptions="$(VALGRIND_OPTS)" \
	    -T memcheck || { \
	  for f in Testing/Temporary/MemoryChecker.*.log; do \
	    if [ -s "$$f" ]; then echo "==== $$f"; cat "$$f"; fi; \
	  done; exit 1; }

# The reliability tools (docs/reliability.md), long runs. `make test` and the
# sanitizer runs already run their bounded versions (CTest label "reliability").
# fuzz: FUZZ_SEEDS sequences from FUZZ_SEED, FUZZ_CALLS main-thread calls each,
# in an ASan+UBSan build (build-asan), under nice.
FUZZ_SEED ?= 1
FUZZ_SEEDS ?= 1000
FUZZ_CALLS ?= 10000
FUZZ_TIMEOUT ?= 120
fuzz: sanitizer-aslr-check
	$(MAKE) build BUILD=build-asan CMAKE_FLAGS="-DACLCPU_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug"
	env $(ASAN_ENV) $(NO_ASLR) nice -n 19 build-asan/tests/aclcpu-fuzz --seed $(FUZZ_SEED) --seeds $(FUZZ_SEEDS) \
	  --calls $(FUZZ_CALLS) --timeout $(FUZZ_TIMEOUT)

# stress: STRESS_OPS operations of the DAG stress with 1, 2 and 4 workers, in a
# TSan build (build-tsan).
STRESS_OPS ?= 1000000
STRESS_SEED ?= 1
stress: sanitizer-aslr-check
	$(MAKE) build BUILD=build-tsan CMAKE_FLAGS="-DACLCPU_SANITIZE=thread"
	for w in 1 2 4; do \
	  env $(TSAN_ENV) ACLCPU_WORKERS=$$w $(NO_ASLR) nice -n 19 build-tsan/tests/aclcpu-dag-stress \
	    --seed $(STRESS_SEED) --ops $(STRESS_OPS) || exit 1; \
	done

# faultinj: the allocation/thread-creation failure sweep under ASan+UBSan (LSan).
faultinj: sanitizer-aslr-check
	$(MAKE) build BUILD=build-asan CMAKE_FLAGS="-DACLCPU_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug"
	env $(ASAN_ENV) $(NO_ASLR) nice -n 19 build-asan/tests/aclcpu-faultinj

reliability: fuzz stress faultinj

bench: build
	$(BUILD)/bench/aclcpu-bench $(if $(BENCH_JSON),--json $(BENCH_JSON))

# The launch workloads with the race checker off, then on (docs/checker.md: at
# most 3x with it on).
BENCH_CHECKED := launch_enqueue launch_args launch_drain mt_launch event_hop
bench-check: build
	@for w in $(BENCH_CHECKED); do \
	  echo "== $$w, checker off"; $(BUILD)/bench/aclcpu-bench --no-peer --only $$w | grep -E "^$$w"; \
	  echo "== $$w, ACLCPU_CHECK=1"; ACLCPU_CHECK=1 $(BUILD)/bench/aclcpu-bench --no-peer --only $$w | grep -E "^$$w"; \
	done

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

clean:
	rm -rf build build-asan build-tsan build-valgrind build-gcc-release build-gcc-debug build-clang-release

# The mutation run (tests/mutate/run.sh, docs/testing.md): each mutation of
# tests/mutate/mutations.txt built and tested in build-mutate/; prints the
# kill rate per folder and the survivors. Slow (minutes per dozen
# mutations): not part of `make test` or CI. MUTATE_FILTER picks lines by a
# regex of their text, MUTATE_LINES by number (120,300-400).
.PHONY: mutate
mutate:
	MUTATE_LINES="$(MUTATE_LINES)" nice -n 19 sh tests/mutate/run.sh "$(MUTATE_FILTER)"
