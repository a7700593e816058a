#!/usr/bin/env bash
# check_install.sh BUILD_DIR - proves an installed aclcpu works for a program
# built outside the source tree.
#
# Installs BUILD_DIR into a temporary prefix (cmake --install --prefix), then
# builds tests/install/consumer three ways against that prefix and runs each
# build, which must print OK:
#   1. cc main.c $(pkg-config --cflags --libs aclcpu)   (PKG_CONFIG_PATH)
#   2. a CMake project: find_package(aclcpu) + aclcpu::aclcpu, and
#      aclcpu::aclcpu_static                              (CMAKE_PREFIX_PATH)
#   3. cc main.c -lascendcl                               (the CANN name)
# Each dynamically linked program must load libaclcpu from the prefix.
#
# Environment (CTest sets these): CC (default cc), CMAKE (default cmake),
# CMAKE_GENERATOR_NAME (default: CMake's), CONSUMER_CFLAGS (extra flags for
# compiling and linking the consumer, e.g. the library's -fsanitize flags),
# KEEP_TMP=1 keeps the temporary directory.
# Exit: 0 pass, 1 fail, 77 skip (pkg-config missing; the other builds still
# ran and passed).
set -euo pipefail

build=${1:?usage: check_install.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
cmake=${CMAKE:-cmake}
read -r -a cflags <<<"${CONSUMER_CFLAGS:-}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/aclcpu-install.XXXXXX")
if [ "${KEEP_TMP:-0}" = 1 ]; then
    echo "keeping $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
prefix=$tmp/prefix

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

step() {
    echo "---- $*"
}

# Runs a consumer program and checks that it prints exactly OK.
run_app() {
    local what=$1
    shift
    local out
    out=$("$@") || fail "$what: $* exited with status $?"
    [ "$out" = OK ] || fail "$what: $* printed '$out', want 'OK'"
    echo "$what: OK"
}

# Checks that a program resolves libaclcpu into the prefix, not the build tree.
check_loads_from_prefix() {
    local what=$1
    shift
    command -v ldd >/dev/null 2>&1 || return 0
    local line
    line=$("$@" 2>/dev/null | grep 'libaclcpu\.so' || true)
    case "$line" in
    *"=> $libdir/"*) ;;
    *) fail "$what: libaclcpu does not load from $libdir: ${line:-not found by ldd}" ;;
    esac
}

step "install $build into $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log" >&2
    fail "cmake --install failed"
}
for h in acl/acl.h acl/acl_base.h acl/acl_rt.h aclcpu/aclcpu.h mstx/ms_tools_ext.h profiling/aprof_pub.h; do
    [ -f "$prefix/include/$h" ] || fail "$prefix/include/$h was not installed"
done
lib=$(find "$prefix" -name libaclcpu.so -print -quit)
[ -n "$lib" ] || fail "libaclcpu.so was not installed"
libdir=$(cd "$(dirname "$lib")" && pwd)
for f in libascendcl.so libaclcpu.a pkgconfig/aclcpu.pc cmake/aclcpu/aclcpuConfig.cmake \
    cmake/aclcpu/aclcpuConfigVersion.cmake cmake/aclcpu/aclcpuTargets.cmake; do
    [ -e "$libdir/$f" ] || fail "$libdir/$f was not installed"
done

# The consumer is built from a copy outside the source tree, so nothing can
# reach the tree's own headers or libraries.
cp -R "$here/consumer" "$tmp/src"

# 1. pkg-config
have_pkg_config=1
if command -v pkg-config >/dev/null 2>&1; then
    step "pkg-config: $cc main.c \$(pkg-config --cflags --libs aclcpu)"
    pc_flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs aclcpu) ||
        fail "pkg-config --cflags --libs aclcpu failed"
    echo "pkg-config gives: $pc_flags"
    # shellcheck disable=SC2086  # pkg-config output is a list of words
    "$cc" "${cflags[@]}" -o "$tmp/app_pkgconfig" "$tmp/src/main.c" $pc_flags ||
        fail "building with pkg-config flags failed"
    check_loads_from_prefix pkg-config env LD_LIBRARY_PATH="$libdir" ldd "$tmp/app_pkgconfig"
    run_app pkg-config env LD_LIBRARY_PATH="$libdir" "$tmp/app_pkgconfig"
else
    have_pkg_config=0
    echo "pkg-config not found: skipping the pkg-config build"
fi

# 2. CMake find_package
step "cmake: find_package(aclcpu REQUIRED) with CMAKE_PREFIX_PATH=$prefix"
gen=()
[ -n "${CMAKE_GENERATOR_NAME:-}" ] && gen=(-G "$CMAKE_GENERATOR_NAME")
"$cmake" -S "$tmp/src" -B "$tmp/build-cmake" "${gen[@]}" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="${CONSUMER_CFLAGS:-}" >"$tmp/cmake.log" 2>&1 || {
    cat "$tmp/cmake.log" >&2
    fail "configuring the find_package consumer failed"
}
"$cmake" --build "$tmp/build-cmake" >"$tmp/cmake-build.log" 2>&1 || {
    cat "$tmp/cmake-build.log" >&2
    fail "building the find_package consumer failed"
}
# CMake gives the program an rpath to the imported library's directory.
check_loads_from_prefix find_package ldd "$tmp/build-cmake/app"
run_app find_package "$tmp/build-cmake/app"
if command -v ldd >/dev/null 2>&1 && ldd "$tmp/build-cmake/app_static" | grep -q 'libaclcpu\.so'; then
    fail "find_package-static: app_static links libaclcpu.so, not libaclcpu.a"
fi
run_app find_package-static "$tmp/build-cmake/app_static"

# 3. -lascendcl, with an rpath
step "ascendcl: $cc main.c -I$prefix/include -L$libdir -lascendcl"
"$cc" "${cflags[@]}" -o "$tmp/app_ascendcl" "$tmp/src/main.c" -I"$prefix/include" -L"$libdir" -lascendcl \
    -Wl,-rpath,"$libdir" || fail "building with -lascendcl failed"
check_loads_from_prefix ascendcl ldd "$tmp/app_ascendcl"
run_app ascendcl "$tmp/app_ascendcl"

if [ "$have_pkg_config" = 0 ]; then
    echo "SKIP: pkg-config is not installed, so the pkg-config build was not checked" \
        "(find_package and -lascendcl passed)"
    exit 77
fi
echo "install check passed"
