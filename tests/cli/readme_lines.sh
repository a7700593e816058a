#!/usr/bin/env bash
# readme_lines.sh BUILD_DIR README - runs the build lines README.md gives a
# new user, exactly as written, against an install of BUILD_DIR, so that
# they cannot go stale:
#   - the kernel line (cc -shared ... kernels.c) on the README's own saxpy
#     kernel (its ```c block that defines saxpy);
#   - the pkg-config lines of "Pointing a CANN program at aclcpu" (export
#     PKG_CONFIG_PATH, cc app.c ...) on a host program that loads that
#     kernel, and ./a.out, which must find libaclcpu.so.0 by itself and
#     print OK;
#   - the LD_LIBRARY_PATH alternative, on the same program built without
#     the rpath.
# /opt/aclcpu in the README becomes a temporary prefix. Environment: CC
# (default cc), CMAKE (default cmake), CONSUMER_CFLAGS (extra flags, e.g.
# the library's -fsanitize flags). Exit 0 pass, 1 fail, 77 skip (no
# pkg-config).
set -u
build=${1:?usage: readme_lines.sh BUILD_DIR README}
readme=${2:?usage: readme_lines.sh BUILD_DIR README}
cc=${CC:-cc}
command -v pkg-config >/dev/null 2>&1 || { echo "SKIP: pkg-config is not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aclcpu-readme.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "FAIL: $*"; exit 1; }

"${CMAKE:-cmake}" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "cmake --install failed"; }

# The README's lines: the first line starting with each prefix, /opt/aclcpu -> the prefix,
# and "cc" -> $CC with the extra flags.
line() {
    local l
    l=$(grep -m1 -E "^$1" "$readme") || return 0
    l=${l//\/opt\/aclcpu/$prefix}
    echo "${l/#cc /$cc ${CONSUMER_CFLAGS:-} }"
}
kernel_line=$(line 'cc -shared ')
export_line=$(line 'export PKG_CONFIG_PATH=')
app_line=$(line 'cc app\.c ')
ld_line=$(grep -m1 -oE '`LD_LIBRARY_PATH=[^`]*`' "$readme" | tr -d '`')
[ -n "$kernel_line" ] || fail "README.md has no kernel build line (cc -shared ...)"
[ -n "$export_line" ] || fail "README.md has no 'export PKG_CONFIG_PATH=' line"
[ -n "$app_line" ] || fail "README.md has no 'cc app.c' line"
[ -n "$ld_line" ] || fail "README.md has no LD_LIBRARY_PATH line"

# The kernel: the README's ```c block that defines saxpy.
awk '/^```c$/ { inblock = 1; buf = ""; next }
     /^```$/ && inblock { if (buf ~ /void saxpy\(/) { printf "%s", buf; exit } inblock = 0; next }
     inblock { buf = buf $0 "\n" }' "$readme" >"$tmp/kernels.c"
grep -q 'void saxpy(' "$tmp/kernels.c" || fail "README.md has no saxpy kernel block"

cat >"$tmp/app.c" <<'APP'
/* Loads the README's saxpy kernel and checks y = 2x + y. */
#include <stdio.h>
#include <acl/acl.h>
struct saxpy_args { float a; const float *x; float *y; size_t n; };
#define N 1000
int main(void)
{
    aclrtStream s;
    aclrtBinHandle bin;
    aclrtFuncHandle fn;
    float hx[N], hy[N];
    void *x, *y;
    for (int i = 0; i < N; i++) hx[i] = (float)i, hy[i] = 1.0f;
    if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&s) ||
        aclrtBinaryLoadFromFile("./libkernels.so", NULL, &bin) || aclrtBinaryGetFunction(bin, "saxpy", &fn) ||
        aclrtMalloc(&x, sizeof(hx), ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMalloc(&y, sizeof(hy), ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMemcpy(x, sizeof(hx), hx, sizeof(hx), ACL_MEMCPY_HOST_TO_DEVICE) ||
        aclrtMemcpy(y, sizeof(hy), hy, sizeof(hy), ACL_MEMCPY_HOST_TO_DEVICE)) {
        printf("setup failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    struct saxpy_args args = {2.0f, x, y, N};
    if (aclrtLaunchKernel(fn, 64, &args, sizeof(args), s) || aclrtSynchronizeStream(s) ||
        aclrtMemcpy(hy, sizeof(hy), y, sizeof(hy), ACL_MEMCPY_DEVICE_TO_HOST)) {
        printf("run failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (hy[i] != 2.0f * (float)i + 1.0f) { printf("y[%d] = %g\n", i, hy[i]); return 1; }
    aclrtFree(x), aclrtFree(y), aclrtBinaryUnLoad(bin), aclrtDestroyStream(s), aclrtResetDevice(0), aclFinalize();
    puts("OK");
    return 0;
}
APP

cd "$tmp" || exit 1
run() { echo "+ $1"; bash -c "$1" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "$2"; }; }
unset LD_LIBRARY_PATH
run "$export_line && $kernel_line" "the README's kernel line failed"
run "$export_line && $app_line" "the README's build line failed"
run "./a.out" "./a.out (built with the README's line) did not run"
grep -qx OK "$tmp/out" || fail "./a.out printed: $(cat "$tmp/out")"
# The alternative: no rpath, the loader's path for the run.
run "$export_line && ${app_line%% -Wl,-rpath*}" "the build line without the rpath failed"
if ./a.out >/dev/null 2>&1; then echo "note: libaclcpu.so.0 was found without the rpath (a system path holds one)"; fi
run "$export_line && $ld_line" "the README's LD_LIBRARY_PATH line failed"
grep -qx OK "$tmp/out" || fail "the LD_LIBRARY_PATH run printed: $(cat "$tmp/out")"
echo "readme_lines: the README's lines work"
