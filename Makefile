# The two commands a newcomer types:  make demo   and   make test.
# Everything goes through CMake; this file only names the common runs.

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
VALGRIND := valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --track-fds=no -q

.PHONY: all build demo test test-asan test-tsan test-valgrind bench install clean

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(GENERATOR) $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Builds everything and runs the multi-stream pipeline demo.
demo: build
	$(BUILD)/examples/pipeline_demo

# Builds everything and runs every test (CTest runs each suite; the runner
# forks each test case with a timeout).
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DACLCPU_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug"

test-tsan:
	$(MAKE) test BUILD=build-tsan CMAKE_FLAGS="-DACLCPU_SANITIZE=thread"

test-valgrind:
	$(MAKE) build BUILD=build-valgrind CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=Debug -DACLCPU_BENCH=OFF"
	cd build-valgrind && ACLCPU_TEST_TIMEOUT=600 ctest --output-on-failure -j $(JOBS) -E 'headers|exported_symbols|example' \
	  --timeout 3000 -DCTEST_MEMORYCHECK_COMMAND=/usr/bin/valgrind \
	  --overwrite MemoryCheckCommandOptions="$(VALGRIND)" -T memcheck

bench: build
	$(BUILD)/bench/aclcpu-bench $(if $(BENCH_JSON),--json $(BENCH_JSON))

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

clean:
	rm -rf build build-asan build-tsan build-valgrind
