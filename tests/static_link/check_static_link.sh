#!/usr/bin/env bash
# check_static_link.sh ARCHIVE INCLUDE_DIR OUT_DIR - links clash.c (a program
# that defines task_alloc, device_get and other names of aclcpu's internals)
# statically against ARCHIVE and runs it; it must print OK.
#
# Environment (CTest sets these): CC (default cc), CONSUMER_CFLAGS (extra
# flags for compiling and linking, e.g. the library's -fsanitize flags).
# Exit: 0 pass, 1 fail.
set -euo pipefail

archive=${1:?usage: check_static_link.sh ARCHIVE INCLUDE_DIR OUT_DIR}
include=${2:?usage: check_static_link.sh ARCHIVE INCLUDE_DIR OUT_DIR}
out=${3:?usage: check_static_link.sh ARCHIVE INCLUDE_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
read -r -a cflags <<<"${CONSUMER_CFLAGS:-}"

mkdir -p "$out"
echo "---- $cc clash.c $archive -lpthread -ldl"
if ! "$cc" "${cflags[@]}" -std=c11 -Wall -Wextra -Werror -I"$include" -o "$out/clash" "$here/clash.c" "$archive" \
    -lpthread -ldl 2>"$out/link.log"; then
    cat "$out/link.log" >&2
    echo "FAIL: a program defining names of aclcpu's internals does not link against $archive" \
        "(the archive exports more than the API)" >&2
    exit 1
fi
got=$("$out/clash") || {
    echo "FAIL: $out/clash exited with status $?" >&2
    exit 1
}
[ "$got" = OK ] || {
    echo "FAIL: $out/clash printed '$got', want 'OK'" >&2
    exit 1
}
echo "static link with clashing names: OK"
