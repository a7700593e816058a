#!/usr/bin/env bash
# golden.sh ACLCPU PROFILES FIXTURES GOLDEN [--write] - the aclcpu command's
# whole outputs, and the library's modelled profile files, against the
# expected copies kept in GOLDEN (tests/cli/golden/).
#
# run.sh checks chosen phrases of each report; a change to any other number,
# column, line or order of a report passes it. This script regenerates, in a
# temp dir, the full stdout (and stderr where there is any) and the exit code
# of every read-only command of `aclcpu` (help, info, advise, summary, doctor,
# timeline's embedded data) on every fixture of FIXTURES, on the small CSVs
# run.sh makes, and on the profiles PROFILES (tests/cli/profiles.c) writes with
# declared kernel costs, plus the library's own modelled files of those
# profiles, and compares them with GOLDEN: a unified diff of what differs and
# exit 1, or exit 0. With --write it rewrites GOLDEN instead (after an
# intended change; read the diff first: docs/testing.md).
#
# What is left out because it is not the same on every machine: the measured
# clock's files of the written profiles (*_measured.*, and the timeline's
# measured view of them), the profiles whose kernels have no declared cost
# (measured_cost, fj_undeclared_*: modelled from CPU time), the default
# worker count of `info` (the CPUs; ACLCPU_WORKERS is set), the timeline
# page's script and style (not data), `stress` (it runs a program), and
# profiler_info_0.json (no modelled numbers). CTest runs it (cli_golden).
set -u

aclcpu=${1:?usage: golden.sh ACLCPU PROFILES FIXTURES GOLDEN [--write]}
profiles=${2:?usage: golden.sh ACLCPU PROFILES FIXTURES GOLDEN [--write]}
fx=${3:?usage: golden.sh ACLCPU PROFILES FIXTURES GOLDEN [--write]}
golden=${4:?usage: golden.sh ACLCPU PROFILES FIXTURES GOLDEN [--write]}
write=0
[ "${5:-}" = --write ] && write=1
case $aclcpu in /*) ;; *) aclcpu=$PWD/$aclcpu ;; esac
case $profiles in /*) ;; *) profiles=$PWD/$profiles ;; esac
case $fx in /*) ;; *) fx=$PWD/$fx ;; esac
case $golden in /*) ;; *) golden=$PWD/$golden ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/aclcpu-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=$tmp/golden

# Nothing of the caller's configuration may reach the outputs: no aclcpu or
# CANN variable (the library's table, config.def, and whatever else is set),
# no colour, one locale, one width (the command wraps at a fixed width; set
# anyway so that a future COLUMNS reader is pinned).
for v in $(env | grep -oE '^(ACLCPU_[A-Z0-9_]*|ASCEND_[A-Z0-9_]*|PROFILING_MODE)=' | tr -d =); do unset "$v"; done
export NO_COLOR=1 LC_ALL=C LANG=C COLUMNS=100 TZ=UTC

# ---- the inputs, under names that do not depend on where the tree is -----------------------------
in=$tmp/in
mkdir -p "$in" "$out"
for f in "$fx"/*; do ln -s "$f" "$in/$(basename "$f")"; done
# run.sh's own small CSVs (the same generators).
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num\nk,AI_CORE,0,5,8\n' >"$in/nostream.csv"
printf 'Device_id,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n0,k,AI_CORE,0,5,8,1\n1,k,AI_CORE,9,5,8,1\n' >"$in/twodev.csv"
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nk,AI_VECTOR_CORE,0,5,8,1\nk,AI_VECTOR_CORE,10,3,8,1\nc,COMMUNICATION,20,4,0,1\nz,AI_CORE,30,0,8,1\nb\\x,AI_CORE,31.0005,1,8,1\n' >"$in/kinds.csv"
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nmain_op,AI_CORE,0,100,8,1\nside_op,AI_VECTOR_CORE,80,60,8,2\n' >"$in/partial.csv"
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n"k""x",AI_CORE,0,5,8,1\n' >"$in/quoted.csv"
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nk1,AI_CORE,0,5,8,1\nk2,AI_VECTOR_CORE,5,3,8,1\nk3,AI_CORE,10,2,8,2\n' >"$in/touching.csv"
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nc1,COMMUNICATION,0,4,0,1\nc2,COMMUNICATION,10,4,0,2\n' >"$in/comm_only.csv"
sed '3s/"1733356800000012.500\t"/"17333568000000x2.500\t"/' "$fx/ascend_wide_kernel.csv" >"$in/bad_quoted.csv"
# Four intervals of contention between streams 1 and 2 (16 + 16 cube blocks of 24 each time): the
# summary lists the first three and counts the rest.
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n' >"$in/four_spans.csv"
for t in 0 10 20 30; do printf 'a%s,AI_CORE,%s,5,16,1\nb%s,AI_CORE,%s,5,16,2\n' $t $t $t $t >>"$in/four_spans.csv"; done
# Cube, mix and vector kernels for a SoC whose cores are coupled (Ascend910A: no vector pool): every
# block asks the one pool, the mix kernel for its cube and its vector blocks (10 + 8 + 16 = 34 > 32).
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Mix Block Num,Stream ID\nc,AI_CORE,0,10,10,0,1\nm,MIX_AIC,0,10,8,16,2\nv,AI_VECTOR_CORE,20,5,4,0,1\n' >"$in/coupled.csv"
steps_csv() {
    awk -v n="$1" 'BEGIN {
        print "Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Num,Mix Block Num"
        for (s = 1; s <= n; s++) {
            t = 1000 + (s - 1) * 100
            printf "%d,0,4294967295,%d,2,attn,attn,dynamic,AI_CORE,\"%.3f\t\",60.000,0.000,24,0\n", s, 2 * s, t
            printf "%d,0,4294967295,%d,3,gate,gate,dynamic,AI_VECTOR_CORE,\"%.3f\t\",30.000,0.000,8,0\n", s, 2 * s + 1, t + 10
        }
    }'
}
steps_csv 2 >"$in/two_steps.csv"
steps_csv 1100 >"$in/many_steps.csv"
sed '0,/aclnnGelu/s/^\(0,4294967295,22,2,aclnnGelu_Gelu_Gelu,.*"1733356800000010\)\.500/\1.600/' \
    "$fx/ascend_duplicate_rows.csv" >"$in/overlapping_rows.csv"
# The profiles profiles.c writes: the doctor's worked examples, no synchronisation cost (as run.sh).
prof=$tmp/prof
if ! ACLCPU_SOC=Ascend910B1 ACLCPU_MODEL_DISPATCH_NS=0 ACLCPU_MODEL_EVENT_NS=0 "$profiles" "$prof" \
    >"$tmp/profiles.log" 2>&1; then
    echo "golden: $profiles did not write its profiles:" >&2
    cat "$tmp/profiles.log" >&2
    exit 1
fi

# ---- the outputs ------------------------------------------------------------------------------------
# cmd FILE ARGS...: appends to FILE "$ aclcpu ARGS", the stdout, the stderr (each line "stderr| ")
# and the exit code. Run in the current directory, so that the paths it prints are the relative
# ones given.
cmd() {
    local file=$1
    shift
    {
        echo "\$ aclcpu $*"
        "$aclcpu" "$@" 2>"$tmp/err"
        local rc=$?
        sed 's/^/stderr| /' "$tmp/err"
        echo "[exit $rc]"
        echo
    } >>"$file"
}

# page FILE ARGS...: `aclcpu timeline ARGS -o page.html` as cmd does, then the page's data: the
# lines of its body before its script (the facts, the controls and the JSON blocks its script
# draws from), less the legend and the config block (the same on every page), and without the
# measured clock's view where MEASURED=0.
page() {
    local file=$1
    shift
    rm -f page.html
    cmd "$file" timeline "$@" -o page.html
    [ -f page.html ] || return 0
    {
        echo "--- page.html: the body before the script"
        sed -n '/^<\/head><body>$/,/^<script>$/p' page.html | sed '1d;$d' |
            grep -vE '^<div class="legend">|^<script type="application/json" id="config">' |
            if [ "${MEASURED:-1}" = 0 ]; then
                awk '/^<div class="measured">/ { skip = 1 } !skip && !/id="data-measured"/ { print } skip && /^<\/div>$/ { skip = 0 }'
            else cat; fi
        echo
    } >>"$file"
    rm -f page.html
}

cd "$in" || exit 1

# help, info, advise: tables of the command itself.
f=$out/help.txt
cmd "$f" --help
for c in info summary timeline doctor advise stress; do cmd "$f" "$c" --help; done
cmd "$f"
cmd "$f" frobnicate
f=$out/info.txt
# The worker count by default is this machine's CPUs: pinned.
ACLCPU_WORKERS=4 cmd "$f" info
ACLCPU_WORKERS=4 cmd "$f" info --json
ACLCPU_SOC=Ascend310P3 ACLCPU_WORKERS=3 ACLCPU_DEVICE_MEMORY=2G ACLCPU_MODEL_EVENT_NS=5500 cmd "$f" info
ACLCPU_SOC=NoSuchSoc ACLCPU_WORKERS=4 ACLCPU_LINGER_US=7 cmd "$f" info
ACLCPU_SOC=Ascend950PR ACLCPU_WORKERS=4 ACLCPU_DEVICE_COUNT=2 cmd "$f" info --json
f=$out/advise.txt
cmd "$f" advise
cmd "$f" advise --json
cmd "$f" advise --path ge
cmd "$f" advise --problem tail
cmd "$f" advise --path npugraph_ex --problem limits --json
cmd "$f" advise --problem speed

# A profile's reports: summary and doctor in text and JSON, and the timeline's data.
reports() {
    local f=$1 p=$2
    cmd "$f" summary "$p"
    cmd "$f" summary --json "$p"
    cmd "$f" doctor "$p"
    cmd "$f" doctor --json "$p"
    page "$f" "$p"
}

mkdir -p "$out/fixtures"
for p in fake_parallel fixed oversubscribed core_split limit_exceeded single_stream physic_stream \
    ascend_a2_stepid_blockdim.csv ascend_a3_blocknum.csv ascend_duplicate_rows.csv ascend_wide_kernel.csv; do
    reports "$out/fixtures/${p%.csv}.txt" "$p"
done
# The options that change a report.
f=$out/fixtures/fake_parallel.txt
cmd "$f" summary --top 3 fake_parallel
# A repeated option: the last value counts (--top 3 here, not 1).
cmd "$f" summary --top 1 --top 3 fake_parallel
cmd "$f" doctor --path ge fake_parallel
cmd "$f" doctor --path npugraph_ex fake_parallel
cmd "$f" doctor fake_parallel/ASCEND_PROFILER_OUTPUT/kernel_details.csv
cmd "$f" doctor --main 2 fake_parallel
cmd "$f" timeline --json fake_parallel -o page.html
f=$out/fixtures/fixed.txt
cmd "$f" summary --clock measured fixed
cmd "$f" summary --clock measured --json fixed
cmd "$f" doctor --clock measured fixed
f=$out/fixtures/oversubscribed.txt
cmd "$f" doctor --path ge oversubscribed
# --soc takes the SoC's join cost from the table (dispatch + event release, here 2 + 3 us), not
# summary.json's: the join-wait gap counts only the idle beyond it.
ACLCPU_MODEL_DISPATCH_NS=2000 ACLCPU_MODEL_EVENT_NS=3000 cmd "$f" doctor --soc Ascend910B1 oversubscribed
f=$out/fixtures/ascend_a2_stepid_blockdim.txt
cmd "$f" summary --step 2 ascend_a2_stepid_blockdim.csv
cmd "$f" doctor --step 1 ascend_a2_stepid_blockdim.csv
cmd "$f" doctor --step 9 ascend_a2_stepid_blockdim.csv
f=$out/fixtures/ascend_a3_blocknum.txt
cmd "$f" summary --soc Ascend910_9392 ascend_a3_blocknum.csv
cmd "$f" summary --json --soc Ascend910_9392 ascend_a3_blocknum.csv
cmd "$f" doctor --soc Ascend910_9392 ascend_a3_blocknum.csv
cmd "$f" doctor --soc Ascend910_9392 --json ascend_a3_blocknum.csv
cmd "$f" doctor --soc Ascend910_9392 --limit 5=c8v16 ascend_a3_blocknum.csv
# A stream that is not a whole number before the = is a usage error, not stream 5.
cmd "$f" doctor --soc Ascend910_9392 --limit 5x=c8v16 ascend_a3_blocknum.csv
cmd "$f" summary --step 1 ascend_a3_blocknum.csv
# The barrier of a fake pair is the main stream's last wait on the side before the dominator
# (two_joins: event 3's, not event 2's); contention explains a pair only with kernels of both
# streams in it (wide_side: one stream's launch wider than the cores, so the barrier is not found).
cmd "$out/fixtures/two_joins.txt" doctor two_joins
cmd "$out/fixtures/wide_side.txt" doctor wide_side
# Bad input: exit 2 and one line naming the file, line and column.
f=$out/fixtures/bad.txt
for b in bad/*; do
    cmd "$f" summary "$b"
    cmd "$f" doctor "$b"
done
cmd "$f" doctor .
# run.sh's small CSVs.
f=$out/fixtures/made_csvs.txt
cmd "$f" summary nostream.csv
cmd "$f" doctor nostream.csv
cmd "$f" summary twodev.csv
cmd "$f" summary kinds.csv
cmd "$f" summary --json kinds.csv
cmd "$f" doctor kinds.csv
cmd "$f" doctor partial.csv
cmd "$f" doctor --json partial.csv
cmd "$f" summary bad_quoted.csv
cmd "$f" summary two_steps.csv
cmd "$f" doctor two_steps.csv
cmd "$f" summary --top 2 many_steps.csv
cmd "$f" doctor many_steps.csv
cmd "$f" doctor --step 1050 --json many_steps.csv
cmd "$f" summary overlapping_rows.csv
cmd "$f" summary --json quoted.csv
page "$f" touching.csv
cmd "$f" summary comm_only.csv
cmd "$f" doctor comm_only.csv
cmd "$f" summary four_spans.csv
cmd "$f" summary --soc Ascend910A coupled.csv

# The written profiles: the library's modelled files, and the reports on them.
cd "$prof" || exit 1
mkdir -p "$out/profiles"
for d in */; do
    p=${d%/}
    case $p in measured_cost | fj_undeclared_*) continue ;; esac # modelled from this CPU's time
    mkdir -p "$out/profiles/$p"
    for m in summary.json kernel_details.csv op_statistic.csv step_trace_time.csv; do
        cp "$p/ASCEND_PROFILER_OUTPUT/$m" "$out/profiles/$p/$m"
    done
    f=$out/profiles/$p.txt
    cmd "$f" summary "$p"
    cmd "$f" doctor "$p"
    # trace_view.json, the JSON reports and the page for some (the size of the golden dir: the
    # reports on the others read their traces, and the fixtures' cover the JSON and page writers).
    case $p in fixed | oversubscribed | prefetch | single_stream | near_tie | wide_launch | fj_late_steps | fj_three_streams)
        cp "$p/ASCEND_PROFILER_OUTPUT/trace_view.json" "$out/profiles/$p/trace_view.json"
        ;;
    esac
    case $p in fixed | oversubscribed | prefetch | near_tie | wide_launch | fj_*)
        cmd "$f" summary --json "$p"
        cmd "$f" doctor --json "$p"
        MEASURED=0 page "$f" "$p"
        ;;
    esac
done
cmd "$out/profiles/fj_serialised.txt" doctor --main 2 fj_serialised
cmd "$out/profiles/fj_serialised.txt" doctor fj_serialised/ASCEND_PROFILER_OUTPUT/kernel_details.csv
cmd "$out/profiles/near_tie.txt" doctor near_tie/ASCEND_PROFILER_OUTPUT/kernel_details.csv
cmd "$out/profiles/fj_late_steps.txt" doctor --step 2 fj_late_steps
cmd "$out/profiles/fj_late_steps.txt" summary --step 1 --json fj_late_steps
cmd "$out/profiles/fj_three_streams.txt" doctor --path npugraph_ex fj_three_streams

# ---- compare, or write --------------------------------------------------------------------------------
if [ "$write" = 1 ]; then
    mkdir -p "$golden"
    rm -rf "${golden:?}/help.txt" "$golden/info.txt" "$golden/advise.txt" "$golden/fixtures" "$golden/profiles"
    cp -r "$out"/. "$golden"/
    echo "golden: wrote $golden ($(du -sk "$golden" | cut -f1) KiB, $(find "$golden" -type f | wc -l) files)"
    exit 0
fi
if diff -ru "$golden" "$out" >"$tmp/diff" 2>&1; then
    echo "golden: every output is as in $golden ($(find "$out" -type f | wc -l) files)"
    exit 0
fi
sed "s|$out|(now)|g" "$tmp/diff"
echo "golden: outputs differ from $golden (above: - expected, + now). After an intended change," \
    "read the diff, then: tests/cli/golden.sh ... --write (docs/testing.md)"
exit 1
