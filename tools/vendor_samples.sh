#!/usr/bin/env bash
# vendor_samples.sh - compiles the vendor's own sample host code, unchanged,
# against aclcpu's headers and prints pass/fail per sample.
#
#   tools/vendor_samples.sh <reference-checkout> [--all] [--headers] [--run <build dir>]
#                           [--cc <c++ compiler>]
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
# (aclnnAdd, aclnnMul) come from the operator library, not the runtime: the
# stand-in headers in tools/vendor_samples/include declare them.
#
# --run <build dir> then links each sample with <build dir>'s libaclcpu.so and
# the stand-ins of tools/vendor_samples (the kernel_ops.h/kernel_add.h
# launchers as CPU kernels, aclnnAdd/aclnnMul), runs it as its run.sh does
# (both processes of a two-process sample at once, in a fresh folder with
# file/, input data, and the kernel binary the sample loads: <build
# dir>/examples/libmemory_kernels.so), and checks with
# tools/vendor_samples/readme_check.py that every line of the README's output
# is in the program's output.
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
# nothing the two header sets both declare differs; with --run, every sample
# runs and shows its README's lines), 1 otherwise.
# Not run by CI: CI has no checkout of the reference repository.
set -u

usage() { echo "usage: $0 <reference-checkout> [--all] [--headers] [--run <build dir>] [--cc <c++ compiler>]" >&2; exit 2; }
[ $# -ge 1 ] || usage
REF=$1; shift
ALL=0
HEADERS_DIFF=0
RUN_BUILD=
CXX=${CXX:-g++}
while [ $# -gt 0 ]; do
  case $1 in
    --all) ALL=1 ;;
    --headers) HEADERS_DIFF=1 ;;
    --run) shift; [ $# -gt 0 ] || usage; RUN_BUILD=$(cd "$1" && pwd) || exit 2 ;;
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

# Stand-ins for the operator library's headers (aclnnAdd, aclnnMul: not the
# runtime's API) and for the kernels: tools/vendor_samples/.
STANDIN=$HERE/tools/vendor_samples
# sample directory (under example/) | host sources, relative to it | extra include folders, relative to
# it | environment for --run ("-": none) | "racy" where the vendor's code races on a fast device (--run tries 3 times)
SUPPORTED="
0_quickstart/3_cross_version/0_runtime_compatibility|main.cpp||-|
1_basic_features/stream/0_simple_stream|main.cpp||-|
1_basic_features/stream/1_stream_with_failure_mode|main.cpp||-|
1_basic_features/stream/2_multi_stream|main.cpp||-|
1_basic_features/event/0_event_status|main.cpp||-|
1_basic_features/event/1_event_timestamp|main.cpp||-|
1_basic_features/memory/0_h2h_memory_copy|main.cpp||-|
1_basic_features/memory/1_h2d_sync_memory_copy|main.cpp||-|
1_basic_features/memory/2_h2d_async_memory_copy|main.cpp||-|
1_basic_features/memory/3_d2h_sync_memory_copy|main.cpp||-|
1_basic_features/memory/4_d2h_async_memory_copy|main.cpp||-|
1_basic_features/memory/5_d2d_sync_memory_copy|main.cpp||ASCEND_RT_LAUNCH_BLOCKING=1|
1_basic_features/memory/6_d2d_async_memory_copy|main.cpp||-|
1_basic_features/memory/7_physical_memory_sharing_withpid|proc_a.cpp proc_b.cpp ../file_ops.cpp|..|-|
1_basic_features/memory/8_physical_memory_sharing_withoutpid|proc_a.cpp proc_b.cpp ../file_ops.cpp|..|-|
1_basic_features/memory/9_multistream_sync_memory|main.cpp file_ops.cpp|..|ACLCPU_SOC=Ascend910B1|
1_basic_features/memory/10_ipc_memory_withpid|proc_a.cpp proc_b.cpp ../file_ops.cpp|..|ACLCPU_DEVICE_COUNT=4|racy
1_basic_features/memory/11_ipc_memory_withoutpid|proc_a.cpp proc_b.cpp ../file_ops.cpp|..|ACLCPU_DEVICE_COUNT=4|racy
2_advanced_features/notify/0_ipc_notify_withpid|proc_a.cpp proc_b.cpp ../../../1_basic_features/memory/file_ops.cpp|../../../1_basic_features/memory|ACLCPU_DEVICE_COUNT=4|
2_advanced_features/notify/1_ipc_notify_withoutpid|proc_a.cpp proc_b.cpp ../../../1_basic_features/memory/file_ops.cpp|../../../1_basic_features/memory|ACLCPU_DEVICE_COUNT=4|
2_advanced_features/ipcevent/0_ipcevent|proc_a.cpp proc_b.cpp||ACLCPU_DEVICE_COUNT=4|
2_advanced_features/model_ri/2_model_switch|main.cpp ../model_utils.cpp|..|-|
2_advanced_features/model_ri/4_model_sync_external|main.cpp|..|-|
2_advanced_features/callback/2_callback_exception|main.cpp exception_callback_sample.cpp ../callback_utils.cpp|..|-|racy
3_memory_advanced/allocator/0_custom_allocator|main.cpp||-|
3_memory_advanced/host_register/0_simple_zero_copy|main.cpp simple_zero_copy.cpp||-|
3_memory_advanced/managed_memory/0_uvm_allocate|main.cpp ../file_ops.cpp|..|-|
4_reliability/overflow_detection/0_overflow_detection|main.cpp||ACLCPU_SOC=Ascend910B1|
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
  local incs=(-I"$INC" -I"$STANDIN/include" -I"$EX" -I"$dir")
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
while IFS='|' read -r sample srcs extra env flags; do
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


# ---- --run: link, run as run.sh does, compare with the README -----------------
# build_obj <dir> <source> <out.o> <extra include dirs...>
build_obj() {
  local dir=$1 src=$2 obj=$3; shift 3
  local incs=(-I"$INC" -I"$STANDIN/include" -I"$EX" -I"$dir")
  local d
  for d in "$@"; do incs+=(-I"$dir/$d"); done
  (cd "$dir" && "$CXX" -std=c++17 -w -c "${incs[@]}" "$src" -o "$obj") >>"$LOG" 2>&1
}
link_exe() {  # link_exe <exe> <objects...>
  local exe=$1; shift
  "$CXX" -o "$exe" "$@" "$WORK/standin_kernels.o" "$WORK/standin_aclnn.o" -L"$RUN_BUILD" -laclcpu \
    -Wl,-rpath,"$RUN_BUILD" -ldl -lpthread >>"$LOG" 2>&1
}
# prepare <run dir> <sample dir> <bin dir>: a fresh folder as the sample's
# run.sh and scripts prepare it, with the sample's programs.
prepare() {
  local run=$1 dir=$2 bin=$3 k
  rm -rf "$run"; mkdir -p "$run/file" "$run/input" "$run/output"
  cp "$bin"/* "$run"/
  for k in simple_zero_copy_kernel ascendc_kernels_simple; do
    mkdir -p "$run/out/fatbin/$k"
    ln -s "$RUN_BUILD/examples/libmemory_kernels.so" "$run/out/fatbin/$k/$k.o"
  done
  if [ -f "$dir/scripts/gen_data.py" ]; then   # two 8x2048 fp16 inputs, as gen_data.py makes them
    (cd "$run" && python3 -c '
import random, struct
for name in ("input/input_x.bin", "input/input_y.bin"):
    open(name, "wb").write(struct.pack("<16384e", *[random.uniform(1, 100) for _ in range(16384)]))')
  fi
}
# verify_uvm <run dir>: output_z.bin = input_x.bin + input_y.bin (verify_result.py's check).
verify_uvm() {
  (cd "$1" && python3 -c '
import struct, sys
n = 16384
x, y, z = (struct.unpack("<%de" % n, open(f, "rb").read()) for f in
           ("input/input_x.bin", "input/input_y.bin", "output/output_z.bin"))
bad = sum(1 for a, b, c in zip(x, y, z) if abs(struct.unpack("<e", struct.pack("<e", a + b))[0] - c) > 1e-3 * abs(c))
print("      output_z.bin: %d of %d elements differ from x + y" % (bad, n))
sys.exit(1 if bad else 0)')
}
# run_sample <run dir> <env> <pair 0|1>: the output goes to <run dir>/output.txt
# (a two-process sample: Process A's, then Process B's).
run_sample() {
  local run=$1 env=$2 pair=$3 vars=() pa ra rb
  [ "$env" = - ] || vars=($env)
  cd "$run" || return 1
  if [ "$pair" = 1 ]; then
    env "${vars[@]}" timeout 120 ./proc_a >a.txt 2>a.err & pa=$!
    env "${vars[@]}" timeout 120 ./proc_b >b.txt 2>b.err; rb=$?
    wait $pa; ra=$?
    cat a.txt b.txt >output.txt
    cd - >/dev/null; [ $ra = 0 ] && [ $rb = 0 ]
  else
    env "${vars[@]}" timeout 120 ./main >output.txt 2>stderr.txt; ra=$?
    cd - >/dev/null; [ $ra = 0 ]
  fi
}
if [ -n "$RUN_BUILD" ]; then
  echo "---- running the samples against $RUN_BUILD ----"
  [ -e "$RUN_BUILD/libaclcpu.so" ] || { echo "$RUN_BUILD has no libaclcpu.so" >&2; exit 2; }
  : >"$LOG"
  if ! "$CXX" -std=c++17 -Wall -c -I"$INC" -I"$STANDIN/include" -I"$EX" "$STANDIN/standin_kernels.cpp" \
         -o "$WORK/standin_kernels.o" >>"$LOG" 2>&1 ||
     ! "$CXX" -std=c++17 -Wall -c -I"$INC" -I"$STANDIN/include" "$STANDIN/standin_aclnn.cpp" \
         -o "$WORK/standin_aclnn.o" >>"$LOG" 2>&1; then
    sed 's/^/      /' "$LOG"; echo "cannot build the stand-ins"; exit 1
  fi
  while IFS='|' read -r sample srcs extra env flags; do
    [ -n "$sample" ] || continue
    dir=$EX/$sample; name=$(basename "$sample"); obj=$WORK/obj/$name; bin=$WORK/bin/$name
    [ -d "$dir" ] || continue
    : >"$LOG"; mkdir -p "$obj" "$bin"
    pair=0; common=(); ok=1
    for f in $srcs; do
      case $f in proc_a.cpp|proc_b.cpp) pair=1 ;; main.cpp) ;; *) common+=("$f") ;; esac
    done
    cobjs=()
    for f in "${common[@]}"; do
      o=$obj/$(basename "$f" .cpp).o
      build_obj "$dir" "$f" "$o" $extra || ok=0
      cobjs+=("$o")
    done
    progs=main; [ $pair = 1 ] && progs="proc_a proc_b"
    for p in $progs; do
      { build_obj "$dir" "$p.cpp" "$obj/$p.o" $extra && link_exe "$bin/$p" "$obj/$p.o" "${cobjs[@]}"; } || ok=0
    done
    if [ $ok = 0 ]; then
      status=fail; report run "$sample" fail; FAILED=1; continue
    fi
    tries=1; [ "$flags" = racy ] && tries=3
    for try in $(seq 1 $tries); do
      run=$WORK/run/$name
      prepare "$run" "$dir" "$bin"
      : >"$LOG"
      rc=0
      run_sample "$run" "$env" $pair || { rc=1; echo "      the program failed" >>"$LOG"; }
      python3 "$STANDIN/readme_check.py" "$name" "$dir/README_en.md" "$run/output.txt" >>"$LOG" 2>&1 || rc=1
      if [ -f "$dir/scripts/verify_result.py" ]; then verify_uvm "$run" >>"$LOG" 2>&1 || rc=1; fi
      [ $rc = 0 ] && break
    done
    label=$sample; [ $tries -gt 1 ] && label="$sample (racy; try $try of $tries)"
    if [ $rc = 0 ]; then
      printf '%-5s %-4s %s\n' run pass "$label"
      grep 'known:' "$LOG"
    else
      printf '%-5s %-4s %s\n' run fail "$label"; sed -n '1,12p' "$LOG"; FAILED=1
    fi
  done <<EOF
$SUPPORTED
EOF
fi

if [ $FAILED = 0 ]; then echo "all supported samples pass"; else echo "some supported samples fail"; fi
if [ $HEADERS_DIFF = 1 ]; then
  echo "---- include/acl against $REFINC/acl ----"
  python3 "$HERE/tools/header_diff.py" "$REFINC" "$INC" || FAILED=1
fi
exit $FAILED
