#!/usr/bin/env bash
# vendor_samples.sh - compiles the vendor's own sample host code, unchanged,
# against aclcpu's headers and prints pass/fail per sample.
#
#   tools/vendor_samples.sh <reference-checkout> [--all] [--headers] [--cc <c++ compiler>]
#
# <reference-checkout> is a checkout of the public CANN runtime repository
# (the one whose example/ folder holds the samples), or a bare git directory
# of it (its HEAD is exported to a temporary folder first).
#
# For each sample that aclcpu has ported (examples/), every host source file
# the sample's CMakeLists.txt builds is compiled with
#     c++ -std=c++17 -Wall -fsyntax-only -I<aclcpu>/include ...
# using the include folders the sample's CMakeLists.txt names. Nothing of the
# vendor's is copied into this repository: this script only names files.
#
# Kernels: the samples' host code calls host-side launchers declared in the
# vendor's example/kernel_func/*.h (plain C++ declarations) or loads a kernel
# binary at run time, so a syntax check needs no kernel. Operator calls
# (aclnnAdd, aclnnMul) come from the operator library, not the runtime: a
# small stand-in header with their declarations is written to a temporary
# folder and put on the include path.
#
# --all also tries every other sample host file (not TDT and not adump),
# printed as "info" lines: those samples are not claimed to compile.
#
# --headers then compares include/acl with the reference's include/external/acl
# declaration by declaration (tools/header_diff.py: needs python3 and clang++):
# function types and C++ default arguments, typedefs, record layouts, enum
# values, static const codes and macros. "missing" lines are information;
# a "DIFFERS" line fails the run.
#
# Exit status: 0 when every supported sample compiles (and, with --headers,
# nothing the two header sets both declare differs), 1 otherwise.
# Not run by CI: CI has no checkout of the reference repository.
set -u

usage() { echo "usage: $0 <reference-checkout> [--all] [--headers] [--cc <c++ compiler>]" >&2; exit 2; }
[ $# -ge 1 ] || usage
REF=$1; shift
ALL=0
HEADERS_DIFF=0
CXX=${CXX:-g++}
while [ $# -gt 0 ]; do
  case $1 in
    --all) ALL=1 ;;
    --headers) HEADERS_DIFF=1 ;;
    --cc) shift; [ $# -gt 0 ] || usage; CXX=$1 ;;
    *) usage ;;
  esac
  shift
done

HERE=$(cd "$(dirname "$0")/.." && pwd)
INC=$HERE/include
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [ -d "$REF/example" ]; then
  EX=$(cd "$REF/example" && pwd)
  REFINC=$(cd "$REF" && pwd)/include/external
elif git -C "$REF" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$REF" archive HEAD example include/external | tar -x -C "$WORK" ||
    { echo "cannot export example/ from $REF" >&2; exit 2; }
  EX=$WORK/example
  REFINC=$WORK/include/external
else
  echo "$REF: neither a checkout with example/ nor a git directory" >&2; exit 2
fi

# Stand-in declarations of the two operators the model samples call (the
# operator library's API, not the runtime's).
mkdir -p "$WORK/stub/aclnnop"
cat > "$WORK/stub/aclnnop/aclnn_base_standin.h" <<'EOF'
#pragma once
#include <stdint.h>
#include "acl/acl.h"
#ifdef __cplusplus
extern "C" {
#endif
typedef int32_t aclnnStatus;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclOpExecutor aclOpExecutor;
aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format,
                           const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData);
aclScalar *aclCreateScalar(void *value, aclDataType dataType);
aclnnStatus aclDestroyTensor(const aclTensor *tensor);
aclnnStatus aclDestroyScalar(const aclScalar *scalar);
#ifdef __cplusplus
}
#endif
EOF
cat > "$WORK/stub/aclnnop/aclnn_add.h" <<'EOF'
#pragma once
#include "aclnnop/aclnn_base_standin.h"
#ifdef __cplusplus
extern "C" {
#endif
aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
EOF
cat > "$WORK/stub/aclnnop/aclnn_mul.h" <<'EOF'
#pragma once
#include "aclnnop/aclnn_base_standin.h"
#ifdef __cplusplus
extern "C" {
#endif
aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
#ifdef __cplusplus
}
#endif
EOF

# sample directory (under example/) | host sources, relative to it | extra include folders, relative to it
SUPPORTED="
0_quickstart/3_cross_version/0_runtime_compatibility|main.cpp|
1_basic_features/stream/0_simple_stream|main.cpp|
1_basic_features/stream/1_stream_with_failure_mode|main.cpp|
1_basic_features/stream/2_multi_stream|main.cpp|
1_basic_features/event/0_event_status|main.cpp|
1_basic_features/event/1_event_timestamp|main.cpp|
1_basic_features/memory/0_h2h_memory_copy|main.cpp|
1_basic_features/memory/1_h2d_sync_memory_copy|main.cpp|
1_basic_features/memory/2_h2d_async_memory_copy|main.cpp|
1_basic_features/memory/3_d2h_sync_memory_copy|main.cpp|
1_basic_features/memory/4_d2h_async_memory_copy|main.cpp|
1_basic_features/memory/5_d2d_sync_memory_copy|main.cpp|
1_basic_features/memory/6_d2d_async_memory_copy|main.cpp|
1_basic_features/memory/7_physical_memory_sharing_withpid|proc_a.cpp proc_b.cpp ../file_ops.cpp|..
1_basic_features/memory/8_physical_memory_sharing_withoutpid|proc_a.cpp proc_b.cpp ../file_ops.cpp|..
1_basic_features/memory/9_multistream_sync_memory|main.cpp file_ops.cpp|..
1_basic_features/memory/10_ipc_memory_withpid|proc_a.cpp proc_b.cpp ../file_ops.cpp|..
1_basic_features/memory/11_ipc_memory_withoutpid|proc_a.cpp proc_b.cpp ../file_ops.cpp|..
2_advanced_features/notify/0_ipc_notify_withpid|proc_a.cpp proc_b.cpp ../../../1_basic_features/memory/file_ops.cpp|../../../1_basic_features/memory
2_advanced_features/notify/1_ipc_notify_withoutpid|proc_a.cpp proc_b.cpp ../../../1_basic_features/memory/file_ops.cpp|../../../1_basic_features/memory
2_advanced_features/ipcevent/0_ipcevent|proc_a.cpp proc_b.cpp|
2_advanced_features/model_ri/2_model_switch|main.cpp ../model_utils.cpp|..
2_advanced_features/model_ri/4_model_sync_external|main.cpp|..
2_advanced_features/callback/2_callback_exception|main.cpp exception_callback_sample.cpp ../callback_utils.cpp|..
3_memory_advanced/allocator/0_custom_allocator|main.cpp|
3_memory_advanced/host_register/0_simple_zero_copy|main.cpp simple_zero_copy.cpp|
3_memory_advanced/managed_memory/0_uvm_allocate|main.cpp ../file_ops.cpp|..
4_reliability/overflow_detection/0_overflow_detection|main.cpp|
"
# The shared host-side headers, each compiled on its own (kernel launchers,
# memory, callback, model and kernel-file helpers).
HEADERS="
kernel_func/kernel_ops.h
kernel_func/kernel_add.h
utils.h
runtime_init_utils.h
1_basic_features/memory/mem_utils.h
1_basic_features/memory/memory_runtime_utils.h
2_advanced_features/callback/callback_utils.h
2_advanced_features/model_ri/model_utils.h
2_advanced_features/kernel/kernel_utils.h
3_memory_advanced/managed_memory/kernel_utils.h
"

FAILED=0
LOG=$WORK/log

# compile <label> <dir> <file> <extra include dirs...>: one file, syntax only.
compile() {
  local dir=$1 file=$2; shift 2
  local incs=(-I"$INC" -I"$WORK/stub" -I"$EX" -I"$dir")
  local d
  for d in "$@"; do incs+=(-I"$dir/$d"); done
  local lang=()
  case $file in *.h) lang=(-x c++) ;; esac
  (cd "$dir" && "$CXX" -std=c++17 -Wall -fsyntax-only "${incs[@]}" "${lang[@]}" "$file") >"$LOG" 2>&1
}

report() {  # report <kind> <name> <status>
  printf '%-5s %-4s %s\n' "$1" "$3" "$2"
  if [ "$3" = fail ] || { [ "$1" = info ] && [ -s "$LOG" ]; }; then
    sed -n '1,12s/^/      /p' "$LOG"
  fi
}

CHECKED=" "
while IFS='|' read -r sample srcs extra; do
  [ -n "$sample" ] || continue
  CHECKED="$CHECKED$sample "
  dir=$EX/$sample
  if [ ! -d "$dir" ]; then
    echo "skip  $sample (not in this checkout)"; continue
  fi
  status=pass
  for f in $srcs; do
    if ! compile "$dir" "$f" $extra; then
      status=fail; report ok "$sample/$f" fail; FAILED=1
    fi
  done
  [ $status = pass ] && report ok "$sample" pass
done <<EOF
$SUPPORTED
EOF

for h in $HEADERS; do
  [ -f "$EX/$h" ] || { echo "skip  $h (not in this checkout)"; continue; }
  if compile "$(dirname "$EX/$h")" "$(basename "$h")"; then report ok "$h" pass
  else report ok "$h" fail; FAILED=1; fi
done

if [ $ALL = 1 ]; then
  # Every other sample folder: its .cpp files, with its parent folder and the
  # memory helpers on the include path.
  find "$EX" -name '*.cpp' -not -path '*/kernel_func/*' -not -path '*tdt*' -not -path '*adump*' \
       -not -path '*/tools/*' | sort | while read -r f; do
    dir=$(dirname "$f"); rel=${dir#$EX/}
    case "$CHECKED" in *" $rel "*) continue ;; esac
    [ -f "$dir/CMakeLists.txt" ] || continue       # shared helper files are checked with their samples
    grep -q 'kernel_operator.h' "$f" && continue  # a kernel source, not host code
    if compile "$dir" "$(basename "$f")" .. ../../../1_basic_features/memory; then
      report info "$rel/$(basename "$f")" pass
    else
      report info "$rel/$(basename "$f")" fail
    fi
  done
fi

if [ $FAILED = 0 ]; then echo "all supported samples compile"; else echo "some supported samples do not compile"; fi
if [ $HEADERS_DIFF = 1 ]; then
  echo "---- include/acl against $REFINC/acl ----"
  python3 "$HERE/tools/header_diff.py" "$REFINC" "$INC" || FAILED=1
fi
exit $FAILED
