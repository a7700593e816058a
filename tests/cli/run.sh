#!/usr/bin/env bash
# run.sh ACLCPU FIXTURES [PROFILES [MOE]] - tests the aclcpu command on the
# fixtures of tests/cli/fixtures/ (see make_fixtures.py there for what each
# shows): --help on every subcommand, usage errors, info, advise, summary,
# doctor's verdict on each profile (aclcpu's and Ascend-shaped CSVs), its
# numbers against the fixtures' own summary.json, and every bad input (exit
# 2 and one line naming file:line:column). With PROFILES (the program of
# profiles.c) and MOE (examples/moe_multistream), also on real profiles the
# library writes now: each verdict, its key numbers, and summary's and
# doctor's numbers against the profile's own summary.json. CTest runs it
# (test "cli"). Exit 0 when every check passed, 1 otherwise.
set -u

aclcpu=${1:?usage: run.sh ACLCPU FIXTURES [PROFILES [MOE]]}
fx=${2:?usage: run.sh ACLCPU FIXTURES [PROFILES [MOE]]}
profiles=${3:-}
moe=${4:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aclcpu-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The tests must not depend on the caller's configuration.
unset ACLCPU_SOC ACLCPU_WORKERS ACLCPU_DEVICE_COUNT ACLCPU_DEVICE_MEMORY NO_COLOR
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
    [ -s "$tmp/out" ] && sed 's/^/  out| /' "$tmp/out" | head -n 40
    [ -s "$tmp/err" ] && sed 's/^/  err| /' "$tmp/err" | head -n 10
}

# run RC ARGS...: runs aclcpu ARGS, stdout to $tmp/out, stderr to $tmp/err;
# checks the exit code.
run() {
    local want=$1
    shift
    "$aclcpu" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" != "$want" ]; then
        fail "aclcpu $* exited $rc, expected $want"
        return 1
    fi
    ok
}

# flat FILE: the text with wrapped lines joined and blanks squeezed, so
# that a phrase is found wherever the 100-column wrapping broke it.
flat() { tr '\n' ' ' <"$1" | tr -s ' '; }

# has TEXT: the last run's stdout contains TEXT (fixed string), as written
# or across wrapped lines.
has() {
    if grep -qF -- "$1" "$tmp/out" || flat "$tmp/out" | grep -qF -- "$(echo "$1" | tr -s ' ')"; then
        ok
    else
        fail "output lacks: $1 (after: $last)"
    fi
}
lacks() {
    if flat "$tmp/out" | grep -qF -- "$(echo "$1" | tr -s ' ')"; then fail "output has: $1 (after: $last)"; else ok; fi
}

# check RC TEXT... ARGS: run, then each TEXT must appear. Args after "--".
check() {
    local want=$1
    shift
    local texts=()
    while [ "$1" != "--" ]; do texts+=("$1"); shift; done
    shift
    last="aclcpu $*"
    run "$want" "$@" || return
    for t in "${texts[@]}"; do has "$t"; done
}

# refuse PATTERN ARGS...: exit 2, nothing on stdout, exactly one line on
# stderr, matching the extended regex PATTERN.
refuse() {
    local pattern=$1
    shift
    last="aclcpu $*"
    run 2 "$@" || return
    if [ "$(wc -l <"$tmp/err")" != 1 ]; then fail "aclcpu $*: stderr is not one line"; return; fi
    if ! grep -qE -- "$pattern" "$tmp/err"; then fail "aclcpu $*: stderr does not match /$pattern/"; return; fi
    if [ -s "$tmp/out" ]; then fail "aclcpu $*: wrote to stdout on an error"; return; fi
    ok
}

# json_num KEY FILE: the first number after "KEY": in FILE.
json_num() {
    grep -oE "\"$1\": *-?[0-9.]+" "$2" | head -n 1 | sed -E 's/.*: *//'
}

# same A B: two numbers agree to 1e-3.
same() {
    if awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "" && b != "" && d < 0.001 && d > -0.001) }'; then
        ok
    else
        fail "$3: $1 != $2"
    fi
}

prof() { echo "$fx/$1"; }

# ---- help and usage ---------------------------------------------------------------------------
for cmd in info summary timeline doctor advise; do
    check 0 "usage: aclcpu $cmd" "--help" -- "$cmd" --help
    check 0 "usage: aclcpu $cmd" -- help "$cmd"
done
check 0 "commands:" "doctor" "advise" "Exit codes" -- --help
check 0 "aclcpu 0." -- --version
refuse "^aclcpu: error: no command given"
refuse "^aclcpu: error: no command 'frobnicate'" frobnicate
refuse "^aclcpu info: error: unexpected argument" info extra

# ---- info ---------------------------------------------------------------------------------------
check 0 "* Ascend910B1" "Ascend310P3" "Ascend950PR" "SoC      Ascend910B1 (default)" "ACLCPU_SOC " \
    "ACLCPU_WORKERS" "ACLCPU_HANG_TIMEOUT_MS" "ASCEND_GLOBAL_LOG_LEVEL" "ACLCPU_PROFILE" -- info
ACLCPU_SOC=Ascend310P3 ACLCPU_WORKERS=3 check 0 "* Ascend310P3" "cores    8 cube, 7 vector" \
    "workers  3 per device (ACLCPU_WORKERS)" "memory   24.00 GiB" -- info
# Every row of the library's table of environment variables, in text and JSON.
conf=$fx/../../../src/common/config.def
vars=$(grep -oE '^CONFIG_VAR\([A-Z_]+, "[A-Z_]+"' "$conf" | sed -E 's/.*"(.*)"/\1/')
[ "$(echo "$vars" | wc -l)" -ge 13 ] && ok || fail "config.def: fewer rows than the library reads"
ACLCPU_LINGER_US=7 run 0 info && for v in $vars; do has "  $v "; done
has "ACLCPU_LINGER_US             7 "
ACLCPU_LINGER_US=7 run 0 info --json && for v in $vars; do has "\"name\": \"$v\""; done
has '"value": "7"'
# The modelled clock's parameters, the latencies as ACLCPU_MODEL_*_NS set them.
check 0 "The modelled clock's parameters" "* Ascend910B1                       15.00         1.000          2.000" -- info
ACLCPU_MODEL_EVENT_NS=5500 check 0 "* Ascend910B1                       15.00         1.000          5.500" \
    -- info
check 0 '"hbm_sat_cores": 15.00' '"dispatch_us": 1.000' '"event_us": 2.000' -- info --json
ACLCPU_SOC=NoSuchSoc check 0 "ACLCPU_SOC=NoSuchSoc is not a profile" "* Ascend910B1" -- info
ACLCPU_SOC=Ascend950PR ACLCPU_DEVICE_MEMORY=2G check 0 '"soc": "Ascend950PR"' '"device_memory_bytes": 2147483648' \
    '"name": "ACLCPU_DEVICE_MEMORY"' '"value": "2G"' -- info --json
# Each profile's own cube and vector core counts.
check 0 '"name": "Ascend310P3", "product": "Atlas inference (300I)", "cube_cores": 8, "vector_cores": 7,' -- info --json

# ---- advise: the routing table ----------------------------------------------------------------------
refuse "^aclcpu advise: error: --problem speed: not a problem" advise --problem speed
check 0 '"decision_order"' -- advise --json
[ "$(grep -c '"problem": ' "$tmp/out")" = 18 ] && ok || fail "advise --json: not 18 routes (3 paths x 6 problems)"
check 0 "The order of decisions" "npu_wait_tensor" "record_event/wait_event inside a GE graph" -- advise --path ge --problem order
check 0 "record_stream" "class 5" -- advise --path npugraph_ex --problem lifetime
check 0 "aclrtSetStreamResLimit" "torch.npu.set_stream_limit" "cooperative" -- advise --path eager --problem limits
check 0 "torchair.scope.limit_core_num" "clamped silently" -- advise --path ge --problem tail
check 0 "aclrtCmoAsync" "npu_prefetch" "50%" -- advise --path eager --problem prefetch
check 0 "aclmdlRICaptureBegin" -- advise --path npugraph_ex --problem switch
[ "$(grep -c '(--path ' "$tmp/out")" = 1 ] && ok || fail "advise --path --problem: not one row"
check 0 "(--path eager --problem switch)" "(--path ge --problem switch)" "(--path npugraph_ex --problem switch)" \
    -- advise --problem switch

# ---- the guide's sections the command names ------------------------------------------------------------
# Every "docs/multistream.md §N" the command prints (advise's table, doctor's output on every
# fixture, every --help) names a section heading of docs/multistream.md.
guide=$fx/../../../docs/multistream.md
: >"$tmp/refs"
for args in "advise --json" "advise" "doctor --help" "advise --help" "info --help" "summary --help" "timeline --help"; do
    # shellcheck disable=SC2086  # the words of args
    "$aclcpu" $args >>"$tmp/refs" 2>&1
done
for p in fake_parallel fixed oversubscribed core_split limit_exceeded single_stream; do
    "$aclcpu" doctor "$(prof $p)" >>"$tmp/refs" 2>&1
    "$aclcpu" doctor --json "$(prof $p)" >>"$tmp/refs" 2>&1
done
grep -c 'multistream\.md' "$tmp/refs" | grep -qv '^0$' && ok || fail "the command names no section of the guide"
bare=$(grep -oE '[A-Za-z0-9_./-]*multistream\.md' "$tmp/refs" | grep -v '^docs/multistream\.md$' | sort -u)
[ -z "$bare" ] && ok || fail "references that are not docs/multistream.md: $bare"
sections=$(flat "$tmp/refs" | grep -oE 'multistream\.md( §[0-9]+(\.[0-9]+)?( \([^)]*\))?,?)+' |
    grep -oE '§[0-9]+(\.[0-9]+)?' | sort -u)
[ -n "$sections" ] && ok || fail "no § reference found"
for sec in $sections; do
    n=${sec#§}
    case $n in
    *.*) heading="### $n " ;;  # a subsection: "### 5.3 Sizing a split"
    *) heading="## $n. " ;;    # a section: "## 5. Core limits"
    esac
    grep -qF -- "$heading" "$guide" && ok || fail "the command names $sec, which docs/multistream.md lacks"
done

# ---- summary ------------------------------------------------------------------------------------------
refuse "^aclcpu summary: error: option --soc needs a value" summary "$(prof fixed)" --soc
refuse "^aclcpu summary: error: unexpected argument" summary "$(prof fixed)" "$(prof fixed)"
refuse "^aclcpu summary: error: --soc Ascend999: no such SoC profile" summary --soc Ascend999 "$(prof fixed)"
refuse "^aclcpu summary: error: --clock wall: modelled or measured" summary --clock wall "$(prof fixed)"
refuse "^aclcpu summary: error: --clock picks the files of a profile directory" summary --clock measured \
    "$fx/ascend_a3_blocknum.csv"
for p in fake_parallel fixed oversubscribed core_split limit_exceeded single_stream; do
    sj=$(prof $p)/ASCEND_PROFILER_OUTPUT/summary.json
    check 0 '"e2e_us"' -- summary --json "$(prof $p)"
    cp "$tmp/out" "$tmp/summary.json"
    for key in e2e_us computing_us free_us; do
        same "$(json_num $key "$tmp/summary.json")" "$(json_num $key "$sj")" "summary $p $key vs summary.json"
    done
done
check 0 "E2E             112.000" "Computing       111.600" "Free              0.400" \
    "summary.json)" "attention" "AI_CORE" "peak 24 of 24 cores: within the cores" -- summary "$(prof fake_parallel)"
check 0 "E2E             201.000" "clock  measured" -- summary --clock measured "$(prof fixed)"
# Ascend's own files: Block Dim + Step Id + PMU metrics; Block Num, no Step Id, no metrics.
a2=$fx/ascend_a2_stepid_blockdim.csv
a3=$fx/ascend_a3_blocknum.csv
check 0 "clock  as written in the file" "23 rows, Block Dim, Step Id, 25 metric columns" "steps  3 (Step Id 1..3" "E2E            1187.000" \
    "aclnnFlashAttentionScore" "MIX_AIC" "assumed: the profile in force" "hcom_allReduce" \
    "(1 kernel row has Stream ID N/A and is left out here)" -- summary "$a2"
check 0 "8 rows" "step   2" "E2E             205.000" -- summary --step 2 "$a2"
check 0 "4 rows, Block Num)" "cube   peak 36 of 24 cores at 10.200 us: over the cores for 65.000 us in 2 intervals" \
    "Ascend910_9392: 24 cube / 48 vector cores (--soc)" -- summary --soc Ascend910_9392 "$a3"
check 0 '"demand_blocks": 36' '"cores": 24' '"over_us": 65.000' -- summary --json --soc Ascend910_9392 "$a3"
refuse "^aclcpu summary: error: .*ascend_a3_blocknum.csv:1:1: --step 1: this kernel_details.csv has no 'Step Id' column" \
    summary --step 1 "$a3"
refuse "^aclcpu summary: error: .*--step 9: no kernel row has that Step Id" summary --step 9 "$a2"

printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num\nk,AI_CORE,0,5,8\n' >"$tmp/nostream.csv"
check 0 "Streams" "not known: kernel_details.csv has no Stream ID column" "(1 row, Block Num, no Stream ID)" \
    -- summary "$tmp/nostream.csv"
printf 'Device_id,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n0,k,AI_CORE,0,5,8,1\n1,k,AI_CORE,9,5,8,1\n' >"$tmp/twodev.csv"
refuse "twodev.csv:3:1: rows of device 1 here and of device 0 at line 2" summary "$tmp/twodev.csv"
# One stream's kernels: a launch repeated (max_us is the longer), a communication kernel (not
# computing time: 5 + 3 + 0 + 1 us), a zero duration (a kernel row like any other), a start whose
# fourth fraction digit rounds up (31.0005 us is 31.001), a name with a backslash (escaped in JSON).
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nk,AI_VECTOR_CORE,0,5,8,1\nk,AI_VECTOR_CORE,10,3,8,1\nc,COMMUNICATION,20,4,0,1\nz,AI_CORE,30,0,8,1\nb\\x,AI_CORE,31.0005,1,8,1\n' >"$tmp/kinds.csv"
check 0 "E2E              32.001" "Computing         9.000" "(5 rows, Block Num)" \
    "         1        4        9.000   28.1%        0.000       32.001       23.001" -- summary "$tmp/kinds.csv"
check 0 '"e2e_us": 32.001' '"computing_us": 9.000' '"name": "k", "engine": "AI_VECTOR_CORE", "count": 2, "total_us": 8.000, "avg_us": 4.000, "max_us": 5.000' \
    '"name": "b\\x"' -- summary --json "$tmp/kinds.csv"
# One stream: no fork/join episode was judged, so the run's total has no verdict (0 / 0 is not "fake").
check 0 '"episodes": 0,' '"base_us": 0.000, "overlap_pct": 0.0000, "verdict": null' -- summary --json "$tmp/kinds.csv"
check 1 '"base_us": 0.000, "overlap_pct": 0.0000, "verdict": null' -- doctor --json "$tmp/kinds.csv"
# A doubled quote inside a quoted field is one quote of the text, not its end.
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n"k""x",AI_CORE,0,5,8,1\n' >"$tmp/quoted.csv"
check 0 '"name": "k\"x"' -- summary --json "$tmp/quoted.csv"
# Kernels that touch (k1 ends at 5 where k2 starts) are one busy interval on the page's Computing
# lane, as in trace_view.json's Overlap Analysis (drawn from them when the profile has none).
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nk1,AI_CORE,0,5,8,1\nk2,AI_VECTOR_CORE,5,3,8,1\nk3,AI_CORE,10,2,8,2\n' >"$tmp/touching.csv"
check 0 "3 kernels on 2 streams" -- timeline "$tmp/touching.csv" -o "$tmp/touching.html"
grep -q '"ov":\[\[0,8000,10000,12000\],\[\]' "$tmp/touching.html" && ok || fail "touching page: Computing is not [0, 8] and [10, 12] us"
# Only communication kernels: no stream ran a compute kernel, so there is no main stream whose side
# ops stayed on it (and nothing to name): no finding.
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nc1,COMMUNICATION,0,4,0,1\nc2,COMMUNICATION,10,4,0,2\n' >"$tmp/comm_only.csv"
check 0 "Verdict: no findings in what could be checked." -- doctor "$tmp/comm_only.csv"
lacks "side-stream ops never left"

# ---- doctor: verdicts on each profile ---------------------------------------------------------------------
refuse "^aclcpu doctor: error: missing argument" doctor
refuse "^aclcpu doctor: error: unknown option '--frob'" doctor --frob "$(prof fixed)"
refuse "^aclcpu doctor: error: --path nope: not a path \(eager\|ge\|npugraph_ex\)" doctor --path nope "$(prof fixed)"
refuse "^aclcpu doctor: error: --limit 2=x16" doctor --limit 2=x16 "$(prof fixed)"
refuse "^aclcpu doctor: error: --limit 2=c0: expected" doctor --limit 2=c0 "$(prof fixed)"
check 1 "[3b] fake parallelism: streams 1 and 2 ran one after the other (overlap_pct 0.00)" \
    "Barrier: cast_silu (stream 1, task 4), the first main-stream op after the EVENT_WAIT (stream 1, task 3) on event 2 recorded on stream 2" \
    "held stream 1 for 29.800 us" "move it into the side-stream block" "step:     1 of 4 (dependencies)" \
    "aclrtStreamWaitEvent" "Stream.wait_event" "Verdict: 1 finding." -- doctor "$(prof fake_parallel)"
check 1 '"kind": "fake_parallel"' '"overlap_pct": 0.0000' '"verdict": "fake"' '"kind": "op"' '"name": "cast_silu"' \
    '"exit_code": 1' -- doctor --json "$(prof fake_parallel)"
check 1 "npu_wait_tensor" "ge:" -- doctor --path ge "$(prof fake_parallel)"
check 0 "overlap_pct 1.00, real" "Verdict: no findings." -- doctor "$(prof fixed)"
lacks "Not checked"
# An episode's join: recorded on the side stream (42.000) and waited for by main (70.400).
check 0 '"join_event": 2' '"join_recorded_us": 42.000' '"join_released_us": 70.400' -- summary --json "$(prof fixed)"
# A partial overlap (0.05 < overlap_pct < 0.5) is a finding too, not only a fake one.
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nmain_op,AI_CORE,0,100,8,1\nside_op,AI_VECTOR_CORE,80,60,8,2\n' >"$tmp/partial.csv"
check 1 "overlap 20.000 us, overlap_pct 0.33, partial" \
    "1. [3b] partial overlap: streams 1 and 2 ran mostly one after the other (overlap_pct 0.33)" -- doctor "$tmp/partial.csv"
check 0 '"findings": []' '"overlap_pct": 1.0000' '"verdict": "real"' '"exit_code": 0' -- doctor --json "$(prof fixed)"
check 1 "fake parallelism: streams 1 and 2" "No event orders them: moe_dispatch (stream 2, task 2, batch mode, 32 vector blocks) was ready at 5.200 but waited 30.000 us" \
    "batch-mode kernel could not start: moe_dispatch (stream 2) waited 30.000 us for 32 vector cores" \
    "nonzero_full (stream 1, task 3) held 32: 32 + 32 = 64 > 48 vector cores" \
    "EVENT_WAIT gap after the join: stream 1 idled 20.200 us waiting for event 2 of stream 2" \
    "Reported at or above 0.654 us: the larger of 1% of the profile's E2E (65.400 us, the whole profile) and 0.500 us." \
    "step:     2 of 4 (core limits)" "Verdict: 3 findings." -- doctor "$(prof oversubscribed)"
lacks "1 of 4 (dependencies)"
# Findings of one remedy step keep the order they were found in: the overlap verdict, then the
# batch-mode kernel it names as its cause (both core limits here).
has "1. [3b] fake parallelism: streams 1 and 2"
has "2. [3c] batch-mode kernel could not start: moe_dispatch"
# The same profile on a clock that does not start at 0 (kernel_details.csv and summary.json 1000 us
# later, no trace): summary.json's times are made relative to the first kernel like the CSV's, its
# durations are not (wait_us; measured_kernels' min/avg/max, negative ones printed as they are).
sh=$tmp/shifted/ASCEND_PROFILER_OUTPUT
mkdir -p "$sh"
awk -F, -v OFS=, 'NR > 1 { split($9, t, "\t"); $9 = sprintf("%.3f\t", t[1] + 1000) } { print }' \
    "$(prof oversubscribed)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" >"$sh/kernel_details.csv"
cat >"$sh/summary.json" <<'EOF'
{"aclcpu_profile_version": 1,
 "measured_kernels": [{"name": "prep", "engine": "AI_VECTOR_CORE", "launches": 2, "min_us": -0.25, "avg_us": 4.5,
                       "max_us": 9.0}],
 "batch_waits": [{"stream_id": 2, "task_id": 2, "name": "moe_dispatch", "block_num": 32, "engine": "vector",
                  "ready_us": 1005.2, "start_us": 1035.2, "wait_us": 30.0}]}
EOF
check 1 "batch-mode kernel could not start: moe_dispatch (stream 2) waited 30.000 us for 32 vector cores" \
    "moe_dispatch (stream 2, task 2) was ready at 5.200 and started at 35.200; meanwhile nonzero_full (stream 1, task 3) held 32" \
    -- doctor "$tmp/shifted"
check 0 '"min_us": -0.250, "avg_us": 4.500, "max_us": 9.000' -- summary --json "$tmp/shifted"
# A batch wait of zero (started the moment it was ready) explains nothing: the doctor does not blame cores.
sed -i 's/"ready_us": 1005.2, "start_us": 1035.2, "wait_us": 30.0/"ready_us": 1035.2, "start_us": 1035.2, "wait_us": 0.0/' "$sh/summary.json"
check 1 "fake parallelism: streams 1 and 2" "Barrier: not found." "and no batch-mode kernel waited" -- doctor "$tmp/shifted"
lacks "waited 0.000 us"
# A count must be whole: 32.5 blocks is refused where it stands.
sed -i 's/"block_num": 32,/"block_num": 32.5,/' "$sh/summary.json"
refuse 'shifted/ASCEND_PROFILER_OUTPUT/summary.json:[0-9]+:[0-9]+: "block_num" must be a whole number, not 32.5$' doctor "$tmp/shifted"
check 1 '"kind": "cores"' '"kind": "batch_wait"' '"wait_us": 30.000' '"held_blocks": 32' '"kind": "join_wait_gap"' '"threshold_us": 0.654' \
    -- doctor --json "$(prof oversubscribed)"
check 0 "overlap_pct 1.00, real" "Verdict: no findings." -- doctor "$(prof core_split)"
check 1 "Block Num over the core limit: stream 2 launched moe_swiglu with 40 vector blocks under a limit of 16" \
    "the runtime does not clamp numBlocks" "Verdict: 1 finding." -- doctor "$(prof limit_exceeded)"
check 1 '"kind": "limit_exceeded"' '"block_num": 40' '"limit": 16' -- doctor --json "$(prof limit_exceeded)"
check 1 "[3a] side-stream ops never left the main stream: all 3 kernels ran on stream 1" \
    "Stream 2 exists (2 tasks in trace_view.json) but ran no kernel." "torch.npu.stream(s)" \
    -- doctor "$(prof single_stream)"
# doctor computes overlap_pct itself; it must agree with the profile's own summary.json.
for p in fake_parallel fixed oversubscribed core_split limit_exceeded; do
    check "$( [ "$p" = fixed ] || [ "$p" = core_split ] && echo 0 || echo 1)" '"overlap_pct"' -- doctor --json "$(prof $p)"
    same "$(json_num overlap_pct "$tmp/out")" "$(json_num overlap_pct "$(prof $p)/ASCEND_PROFILER_OUTPUT/summary.json")" \
        "doctor $p overlap_pct vs summary.json"
done
# Without summary.json the waits come from trace_view.json: its event edges, or without them
# (flows renamed away) the Event Id of the records.
mkdir -p "$tmp/trace_only/ASCEND_PROFILER_OUTPUT" "$tmp/no_flows/ASCEND_PROFILER_OUTPUT"
for f in kernel_details.csv trace_view.json; do
    cp "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/$f" "$tmp/trace_only/ASCEND_PROFILER_OUTPUT/"
done
cp "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$tmp/no_flows/ASCEND_PROFILER_OUTPUT/"
sed 's/"cat": "event"/"cat": "elsewhere"/' "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/trace_view.json" \
    >"$tmp/no_flows/ASCEND_PROFILER_OUTPUT/trace_view.json"
for d in trace_only no_flows; do
    check 1 "Barrier: cast_silu (stream 1, task 4), the first main-stream op after the EVENT_WAIT (stream 1, task 3) on event 2 recorded on stream 2, which held stream 1 for 29.800 us" \
        "assumed: the profile in force" "batch-mode kernels that could not start, and kernels queued for cores in use: needs summary.json" -- doctor "$tmp/$d"
done

# A newer release's trace_view.json (stream in args "Physic Stream Id", tids that are not the
# stream ids): the same verdict and barrier as fake_parallel's.
check 1 "stream 1       4 kernels" "stream 2       2 kernels" \
    "Barrier: cast_silu (stream 1, task 4), the first main-stream op after the EVENT_WAIT (stream 1, task 3) on event 2 recorded on stream 2, which held stream 1 for 29.800 us" \
    "Verdict: 1 finding." -- doctor "$(prof physic_stream)"
lacks "stream 101"

# A bare CSV of the same profile: the same verdict, and the barrier said to be unknown rather than guessed.
check 1 "fake parallelism: streams 1 and 2" "Barrier: not known. kernel_details.csv has no event tasks" "Not checked" \
    -- doctor "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
lacks "cast_silu (stream 1, task 4), the first"
# Ascend-shaped CSVs.
check 1 "step   3 (Step Id" "main 2 / side 6: side window [1013.000, 1057.900], dominator none (no main-stream kernel meets it; the longest, aclnnFlashAttentionScore" \
    "overlap_pct 0.00, fake" "Barrier: not known" "[3b] fake parallelism: streams 2 and 6" \
    "batch-mode kernels that could not start, and kernels queued for cores in use: needs summary.json" -- doctor "$a2"
check 1 '"step": 3' '"kind": "unknown_no_trace"' '"class": "3b"' -- doctor --json "$a2"
check 1 "main 2 / side 6: side window [13.000, 57.900]" -- doctor --step 1 "$a2"
check 1 "[3c] cube cores oversubscribed: kernels running at once ask 36 blocks of 24 for 65.000 us" \
    "aclnnMatmul_MatMulV3_MatMulV3 (stream 3, task 107) 24 + aclnnGroupedMatmul_GroupedMatmul_GroupedMatmul" \
    "e.g. stream 3 c17 + stream 5 c7" "overlap_pct 1.00, real" -- doctor --soc Ascend910_9392 "$a3"
lacks "[3b]"
check 1 "Block Num over the core limit: stream 5 launched aclnnGroupedMatmul_GroupedMatmul_GroupedMatmul with 12 cube blocks under a limit of 8" \
    -- doctor --soc Ascend910_9392 --limit 5=c8v16 "$a3"
lacks "pass --limit"

# Real-shaped files (make_fixtures.py, write_real): Start Time(us) quoted with its TAB inside.
# Contention needs two streams: a 52-block kernel alone on the 48 vector cores runs in waves,
# said as its launch shape (a note), never as oversubscription with a split of the cores.
wide=$fx/ascend_wide_kernel.csv
check 0 "Launch shape (no finding): aclnnSoftmax_SoftmaxV2_SoftmaxV2 (stream 2) asks 52 vector blocks of 48 cores on its own, 2 launches" \
    "its blocks run in 2 waves (the last of 4 blocks), one stream, no contention" \
    "Verdict: no findings in what could be checked." -- doctor "$wide"
lacks "oversubscribed"
lacks "c24"
check 0 '"notes": [' '"Launch shape (no finding)' '"exit_code": 0' -- doctor --json "$wide"
check 0 "vector peak 52 of 48 cores: no contention between streams" \
    "wider than the cores alone: aclnnSoftmax_SoftmaxV2_SoftmaxV2 (stream 2) 52 blocks, 2 launches, 2 waves" -- summary "$wide"
lacks "over the cores for"
check 0 '"wider_than_cores": [' '"launches": 2' '"blocks": 52' '"waves": 2' '"contention": []' -- summary --json "$wide"
# A bad value inside quotes is named where it is, like any other.
sed '3s/"1733356800000012.500\t"/"17333568000000x2.500\t"/' "$wide" >"$tmp/bad_quoted.csv"
refuse "bad_quoted.csv:3:85: column 'Start Time\(us\)': '17333568000000x2.500' is not a time in us" summary "$tmp/bad_quoted.csv"
# A row written twice on one stream is one kernel: 30 + 10 of 48 vector cores, not 70; the
# allReduce with N/A ids is left out of the streams.
dup=$fx/ascend_duplicate_rows.csv
check 0 "5 rows, Block Num, 1 repeated row dropped" "vector peak 48 of 48 cores: within the cores" \
    "(1 kernel row has Stream ID N/A and is left out here)" "aclnnGelu_Gelu_Gelu                      AI_VECTOR_CORE       1" \
    -- summary "$dup"
check 0 "overlap_pct 1.00, real" "Verdict: no findings in what could be checked." -- doctor "$dup"
check 0 '"repeated_rows_dropped": 1' -- doctor --json "$dup"
lacks "oversubscribed"
# Overlapping rows of one stream that are not repeats count once too (the larger).
sed '0,/aclnnGelu/s/^\(0,4294967295,22,2,aclnnGelu_Gelu_Gelu,.*"1733356800000010\)\.500/\1.600/' "$dup" >"$tmp/overlapping_rows.csv"
check 0 "6 rows, Block Num)" "vector peak 48 of 48 cores: within the cores" -- summary "$tmp/overlapping_rows.csv"

# Any number of steps: 1100 (more than any fixed table would hold); doctor analyses the last.
awk 'BEGIN {
    print "Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Num,Mix Block Num"
    for (s = 1; s <= 1100; s++) {
        t = 1000 + (s - 1) * 100
        printf "%d,0,4294967295,%d,2,attn,attn,dynamic,AI_CORE,\"%.3f\t\",60.000,0.000,24,0\n", s, 2 * s, t
        printf "%d,0,4294967295,%d,3,gate,gate,dynamic,AI_VECTOR_CORE,\"%.3f\t\",30.000,0.000,8,0\n", s, 2 * s + 1, t + 10
    }
}' >"$tmp/many_steps.csv"
check 0 "steps  1100 (Step Id 1..1100" "E2E          109960.000" -- summary "$tmp/many_steps.csv"
check 0 "step   1100 (Step Id" "overlap_pct 1.00, real" -- doctor "$tmp/many_steps.csv"
check 0 "step   1050" "main 2 / side 3: side window [104910.000, 104940.000]" -- doctor --step 1050 "$tmp/many_steps.csv"
# Two steps are already several: doctor judges the last one by default, not the whole run.
awk 'BEGIN {
    print "Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Num,Mix Block Num"
    for (s = 1; s <= 2; s++) {
        t = 1000 + (s - 1) * 100
        printf "%d,0,4294967295,%d,2,attn,attn,dynamic,AI_CORE,\"%.3f\t\",60.000,0.000,24,0\n", s, 2 * s, t
        printf "%d,0,4294967295,%d,3,gate,gate,dynamic,AI_VECTOR_CORE,\"%.3f\t\",30.000,0.000,8,0\n", s, 2 * s + 1, t + 10
    }
}' >"$tmp/two_steps.csv"
check 0 "step   2 (Step Id" "main 2 / side 3: side window [110.000, 140.000]" -- doctor "$tmp/two_steps.csv"

refuse "fixtures: holds [0-9]+ profiler runs" doctor "$fx"
# Two runs are already several; the one named is the first by name (b is made first: the file
# system's order must not decide).
for r in b a; do
    mkdir -p "$tmp/two_runs/$r/ASCEND_PROFILER_OUTPUT"
    cp "$(prof fixed)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$tmp/two_runs/$r/ASCEND_PROFILER_OUTPUT/"
done
refuse "two_runs: holds 2 profiler runs \(one is .*/two_runs/a/ASCEND_PROFILER_OUTPUT\): name the one to read" \
    doctor "$tmp/two_runs"
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num\nk,AI_CORE,0,5,8\n' >"$tmp/nostream.csv"
refuse "nostream.csv:1:1: missing column 'Stream ID'" doctor "$tmp/nostream.csv"

# ---- real profiles: written now by the library ------------------------------------------------------
# profiles.c's cases (docs/multistream.md §3, §5) and moe_multistream's three runs, on the
# Ascend910B1 (24 cube / 48 vector cores) with declared costs: the modelled times are exact, so
# the verdicts and numbers below follow what the library writes.
real=$tmp/real
rp() { echo "$real/$1"; }
# gen NAME CMD...: runs a profile-writing program; its output is not checked here.
gen() {
    local name=$1
    shift
    if ACLCPU_SOC=Ascend910B1 "$@" >"$tmp/out" 2>"$tmp/err"; then ok; else fail "$name did not write its profiles"; fi
}
# profiles.c's cases are the doctor's worked examples, which count no synchronisation cost: they
# are modelled with the dispatch and event latencies at 0. moe_multistream's runs keep the SoC's.
[ -n "$profiles" ] && ACLCPU_MODEL_DISPATCH_NS=0 ACLCPU_MODEL_EVENT_NS=0 gen profiles "$profiles" "$real"
[ -n "$moe" ] && gen moe_multistream "$moe" "$real/moe"

# stream_busy FILE STREAM: busy_us of a stream object in FILE (summary.json or --json output).
stream_busy() {
    flat "$1" | grep -oE "\"stream_id\": $2,[^}]*\"busy_us\": *[0-9.]+" | head -n 1 | sed -E 's/.*: *//'
}
# dominator_task FILE: the dominator's task_id of the first pair, or "null".
dominator_task() {
    flat "$1" | grep -oE '"dominator": (null|\{[^}]*"task_id": [0-9]+)' | head -n 1 | grep -oE '(null|[0-9]+)$'
}

# agree P RC: summary's E2E, Computing, Free and per-stream busy time, and doctor's (exit RC)
# overlap_pct and dominator, against real profile P's own summary.json. Where no main-stream
# kernel meets the side window neither has a dominator ("dominator": null).
agree() {
    local d sj s
    d=$(rp "$1")
    sj=$d/ASCEND_PROFILER_OUTPUT/summary.json
    check 0 '"e2e_us"' -- summary --json "$d"
    cp "$tmp/out" "$tmp/summary.json"
    for key in e2e_us computing_us free_us; do
        same "$(json_num $key "$tmp/summary.json")" "$(json_num $key "$sj")" "summary $1 $key vs summary.json"
    done
    for s in $(grep -oE '"stream_id": [0-9]+, "tasks": [0-9]+, "kernels": [1-9]' "$sj" | sed -E 's/"stream_id": ([0-9]+),.*/\1/'); do
        same "$(stream_busy "$tmp/summary.json" "$s")" "$(stream_busy "$sj" "$s")" "summary $1 stream $s busy_us vs summary.json"
    done
    check "$2" '"exit_code"' -- doctor --json "$d"
    grep -q '"judged_on"' "$sj" || return 0 # no pair of streams
    same "$(json_num overlap_pct "$tmp/out")" "$(json_num overlap_pct "$sj")" "doctor $1 overlap_pct vs summary.json"
    if [ "$(json_num overlap_us "$sj")" = 0.000 ]; then
        [ "$(dominator_task "$tmp/out")" = null ] && ok || fail "doctor $1: a dominator where nothing meets the side window"
    else
        [ "$(dominator_task "$tmp/out")" = "$(dominator_task "$sj")" ] && ok ||
            fail "doctor $1 dominator task $(dominator_task "$tmp/out") != summary.json's $(dominator_task "$sj")"
    fi
}

if [ -n "$profiles" ]; then
    # The files Ascend's tools read, as the library writes them now: OP State static, Wait Time
    # device-wide (the side stream's first kernel waits from the row before it), op_statistic.csv,
    # profiler_info_0.json beside ASCEND_PROFILER_OUTPUT, an empty Step without marked steps.
    kd=$(rp fixed)/ASCEND_PROFILER_OUTPUT/kernel_details.csv
    grep -q ',static,AI_' "$kd" && ! grep -q ',N/A,AI_' "$kd" && ok || fail "fixed: OP State is not static"
    [ -f "$(rp fixed)/profiler_info_0.json" ] && grep -q '"rank_id": 0' "$(rp fixed)/profiler_info_0.json" && ok ||
        fail "fixed: no profiler_info_0.json with rank_id 0"
    head -n 1 "$(rp fixed)/ASCEND_PROFILER_OUTPUT/op_statistic.csv" |
        grep -qx 'OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)' && ok ||
        fail "fixed: op_statistic.csv header"
    sed -n 2p "$(rp fixed)/ASCEND_PROFILER_OUTPUT/step_trace_time.csv" | grep -q '^0,,' && ok ||
        fail "fixed: step_trace_time.csv Step is not empty without steps"
    agree fake_parallel 1
    agree fixed 0
    agree oversubscribed 1
    agree limit_exceeded 1
    agree core_split 0
    agree single_stream 1
    agree prefetch 0
    # Two forks, never joined: two episodes, each hidden by the main kernel issued after its fork.
    agree near_tie 0
    check 0 "main stream 1: it forks and joins" \
        "main 1 / side 2: 2 episodes (2 real, 0 partial, 0 fake; 0 joined right after the fork, 2 never joined)" \
        "episode 2, side 2: fork event 1 recorded 20.000, waited for until 20.000; never joined" -- doctor "$(rp near_tie)"
    # Without the edges (the bare CSV), busy time decides, said so, and the whole-run rule applies:
    # 20.000 and 20.001 us of overlap are a tie at the files' precision: the earlier kernel
    # dominates (one rule, services/overlap.c).
    check 0 "main stream 1: the busiest stream: no event edges and no step marks" \
        "main 1 / side 2: side window [0.000, 40.500], dominator ffn_up [0.000, 20.000]: overlap 20.000 us" \
        -- doctor "$(rp near_tie)/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
    check 1 "[3b] fake parallelism: streams 1 and 2 ran one after the other (overlap_pct 0.00)" \
        "dominator none (no main-stream kernel meets it; the longest, attention [41.600, 101.600], should hide it)" \
        "Barrier: cast_silu (stream 1, task 4), the first main-stream op after the EVENT_WAIT (stream 1, task 3) on event" \
        "recorded on stream 2, which held stream 1 for 29.600 us" "Verdict: 1 finding." -- doctor "$(rp fake_parallel)"
    lacks "EVENT_WAIT gap"
    check 0 "E2E             111.600" "Free              0.000" "peak 24 of 24 cores: within the cores" \
        -- summary "$(rp fake_parallel)"
    check 0 "main 1 / side 2: 1 episode (1 real, 0 partial, 0 fake; 0 joined right after the fork, 0 never joined): overlap 31.600 of 31.600 us, overlap_pct 1.00, real; worst: side window [10.000, 41.600], dominator attention [10.000, 70.000]" \
        "Verdict: no findings." -- doctor "$(rp fixed)"
    lacks "Not checked"
    # The batch wait explains the one interval of contention: one finding for it, not two.
    check 1 "No event orders them: moe_dispatch (stream 2, task 2, batch mode, 32 vector blocks) was ready at 5.000 but waited 30.000 us" \
        "nonzero_full (stream 1, task 3) held 32: 32 + 32 = 64 > 48 vector cores" \
        "EVENT_WAIT gap after the join: stream 1 idled 20.000 us waiting for event" "Verdict: 3 findings." \
        -- doctor "$(rp oversubscribed)"
    lacks "cores oversubscribed"
    check 1 '"kind": "batch_wait"' '"wait_us": 30.000' '"held_blocks": 32' '"kind": "join_wait_gap"' '"waits": 1' \
        -- doctor --json "$(rp oversubscribed)"
    # One kernel is "1 kernel" (the count of a stream line agrees with its noun).
    check 1 "stream 2       1 kernel, busy 20.000 us in [35.000, 55.000]" -- doctor "$(rp oversubscribed)"
    check 0 "ready at once up to 64: over the cores for 30.000 us in 1 interval (kernels queued; summary.json)" \
        "[5.000, 35.000] asks 64: nonzero_full (stream 1, 32), moe_dispatch (stream 2, 32)" -- summary "$(rp oversubscribed)"
    check 1 "Block Num over the core limit: stream 2 launched moe_swiglu with 40 vector blocks under a limit of 16" \
        "Verdict: 1 finding." -- doctor "$(rp limit_exceeded)"
    check 1 '"block_num": 40' '"limit": 16' -- doctor --json "$(rp limit_exceeded)"
    check 0 "worst: side window [0.000, 75.000], dominator attention [0.000, 60.000]" "Verdict: no findings." \
        -- doctor "$(rp core_split)"
    check 1 "[3a] side-stream ops never left the main stream: all 3 kernels ran on stream 1" \
        "Stream 2 exists (2 tasks in trace_view.json) but ran no kernel." "Verdict: 1 finding." -- doctor "$(rp single_stream)"
    # A stream that only prefetches is a side stream doing its job.
    check 0 "stream 2       0 kernels, 1 copy or prefetch of 2 tasks" "the prefetches and copies of the streams without kernels" \
        "Verdict: no findings in what could be checked." -- doctor "$(rp prefetch)"
    lacks "[3a]"
    # The join-gap threshold is the larger of 1% of E2E and 0.5 us: a gap between the two terms
    # is no finding, whichever term is the larger; a gap of exactly the threshold is one.
    check 0 "stream 1       3 kernels, busy 40.000 us in [0.000, 40.450]" "Verdict: no findings." -- doctor "$(rp gap_under_min)"
    lacks "EVENT_WAIT gap"
    check 0 "stream 1       3 kernels, busy 130.000 us in [0.000, 131.000]" "Verdict: no findings." \
        -- doctor "$(rp gap_under_share)"
    lacks "EVENT_WAIT gap"
    check 1 "EVENT_WAIT gap after the join: stream 1 idled 0.500 us waiting for event" "Verdict: 1 finding." \
        -- doctor "$(rp gap_at_min)"
    check 1 '"kind": "join_wait_gap"' '"wait_us": 0.500' '"waits": 1' -- doctor --json "$(rp gap_at_min)"
    # The same wait where the SoC's join costs 0.5 us (summary.json's dispatch and event latencies):
    # the stream waited for was on time, and the wait is the join's own cost, no gap.
    cp -r "$(rp gap_at_min)" "$tmp/gap_is_sync"
    sed -i 's/"dispatch_us": 0.000, "event_us": 0.000/"dispatch_us": 0.300, "event_us": 0.200/' \
        "$tmp/gap_is_sync/ASCEND_PROFILER_OUTPUT/summary.json"
    grep -q '"event_us": 0.200' "$tmp/gap_is_sync/ASCEND_PROFILER_OUTPUT/summary.json" && ok ||
        fail "gap_is_sync: summary.json has no latencies to set"
    check 0 "Verdict: no findings." -- doctor "$tmp/gap_is_sync"
    lacks "EVENT_WAIT gap"
    # One 52-block launch on the 48 vector cores beside a cube kernel of the other stream: its
    # waves are its launch shape (a note); summary.json lists no contention, doctor finds none.
    check 0 "Launch shape (no finding): rms_norm (stream 1) asks 52 vector blocks of 48 cores on its own, 1 launch" \
        "Verdict: no findings." -- doctor "$(rp wide_launch)"
    lacks "oversubscribed"
    grep -q '"contention": \[\]' "$(rp wide_launch)/ASCEND_PROFILER_OUTPUT/summary.json" && ok ||
        fail "wide_launch: summary.json lists contention for one stream's waves"
    # Kernels without a declared cost are modelled from the CPU time they took: summary, doctor
    # and the timeline header list them (name, launches, the spread of their times).
    check 0 "Kernels modelled from measured CPU time (no declared cost)" "undeclared (AI_VECTOR_CORE): 3 launches, " \
        -- summary "$(rp measured_cost)"
    lacks "rms_norm (AI_VECTOR_CORE): 1 launch"
    check 0 '"measured_kernels": [' '"name": "undeclared"' '"launches": 3' -- summary --json "$(rp measured_cost)"
    check 1 "Modelled from measured CPU time (no declared cost, so their times are this CPU's, not the chip's" \
        "undeclared (AI_VECTOR_CORE): 3 launches," -- doctor "$(rp measured_cost)"
    check 0 "modelled from measured CPU time (no declared cost): undeclared (AI_VECTOR_CORE): 3 launches" \
        -- timeline "$(rp measured_cost)" -o "$tmp/measured.html"
    grep -q 'class="facts measured-kernels">Modelled from measured CPU time (no declared cost): undeclared' \
        "$tmp/measured.html" && ok || fail "timeline page: no list of kernels modelled from measured CPU time"
    check 0 "none: every kernel has a declared cost" -- summary "$(rp fixed)"
    check 0 '"measured_kernels": null' -- summary --json "$(prof fixed)"  # older summary.json: not known
    # A side stream idling for the main stream's fork record is slack, not a gap after a join.
    check 0 "stream 2       2 kernels, busy 21.000 us in [0.000, 30.000]" "Verdict: no findings." -- doctor "$(rp fork_wait)"
    lacks "EVENT_WAIT gap"

    # ---- fork/join episodes: the main stream by structure (services/episodes.c) ----
    # The side stream (75 us an iteration) is busier than main (70): main is still the stream that
    # forks and joins. Joined right after each fork, three iterations: every episode fake, never
    # "1.00 real"; the finding blames the stream that waited (main's EVENT_WAIT, join later).
    agree fj_serialised 1
    check 1 "main stream 1: it forks and joins" \
        "main 1 / side 2: 3 episodes (0 real, 0 partial, 3 fake; 3 joined right after the fork, 0 never joined): overlap 0.000 of 225.000 us, overlap_pct 0.00, fake" \
        "[3b] fake parallelism: streams 1 and 2 ran one after the other (overlap_pct 0.00)" \
        "Barrier: the EVENT_WAIT (stream 1, task 3) on event 1 recorded on stream 2 comes right before the dominator attention and held stream 1 for 75.000 us" \
        "issue the wait after attention (join later)" -- doctor "$(rp fj_serialised)"
    lacks "overlap_pct 1.00, real"
    check 1 '"main_stream": {' '"stream_id": 1,' '"by": "fork_join"' '"early_join": true' '"early_joins": 3' \
        -- doctor --json "$(rp fj_serialised)"
    # --main names it: the side stream as main turns the roles (and is said to be the user's choice).
    check 1 "main stream 2: named by --main" "main 2 / side 1:" -- doctor --main 2 "$(rp fj_serialised)"
    refuse "^aclcpu doctor: error: --main x: not a stream id" doctor --main x "$(rp fj_serialised)"
    refuse "^aclcpu doctor: error: --main -1: not a stream id" doctor --main -1 "$(rp fj_serialised)"
    refuse "^aclcpu summary: error: --main 7: no task of this profile ran on stream 7" summary --main 7 "$(rp fj_serialised)"
    # Without the edges (the bare CSV), busy time decides and says so: the busier side is main there.
    # (Over the whole run the two streams' kernels do meet, so the fallback cannot see the
    # serialisation: the reason the edges decide whenever the files have them.)
    check 0 "main stream 2: the busiest stream: no event edges and no step marks" \
        -- doctor "$(rp fj_serialised)/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
    check 0 "main stream 1: named by --main" "main 1 / side 2: side window" \
        -- doctor --main 1 "$(rp fj_serialised)/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
    # Joined after the dominator, with step marks: real in every step; the last step by default.
    check 0 "step 1: 1 episode (1 real, 0 partial, 0 fake)" "step 3: 1 episode (1 real, 0 partial, 0 fake)" \
        "all episodes: 3 episodes (3 real, 0 partial, 0 fake), overlap 180.000 of 180.000 us, overlap_pct 1.00, real" \
        -- summary "$(rp fj_late_steps)"
    # (the side, 15 us longer than attention, is the tail at each join: a join gap, not an overlap finding)
    check 1 "step   3 (Step Id" "episode 1 (step 3), side 2:" "main 1 / side 2: 1 episode (1 real" \
        "EVENT_WAIT gap after the join: stream 1 idled 15.000 us" -- doctor "$(rp fj_late_steps)"
    lacks "[3b]"
    # The same step judged on the whole run's structure: step 2 alone keeps main 1.
    check 1 "main stream 1: it forks and joins" "episode 1 (step 2), side 2:" -- doctor --step 2 "$(rp fj_late_steps)"
    check 0 "step 2: 1 episode (0 real, 0 partial, 1 fake)" "main stream 1: it forks and joins" \
        -- summary "$(rp fj_early_steps)"
    # No event edges (the flows renamed away) but step marks: the stream carrying them is main,
    # though the side is busier.
    mkdir -p "$tmp/steps_only/ASCEND_PROFILER_OUTPUT"
    cp "$(rp fj_late_steps)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$tmp/steps_only/ASCEND_PROFILER_OUTPUT/"
    sed 's/"cat":"event"/"cat":"elsewhere"/' "$(rp fj_late_steps)/ASCEND_PROFILER_OUTPUT/trace_view.json" \
        >"$tmp/steps_only/ASCEND_PROFILER_OUTPUT/trace_view.json"
    check 0 "main stream 1: it carries the step marks (no fork/join edges)" "main 1 / side 2: side window" \
        -- summary "$tmp/steps_only"
    check 0 '"by": "step_marks"' '"episodes": []' -- summary --json "$tmp/steps_only"
    # Never joined: the episodes say so; main is the stream that forks.
    check 0 "main stream 1: it forks and joins" "3 never joined" "never joined: side 75.000 us" -- doctor "$(rp fj_no_join)"
    # Undeclared side costs (modelled from measured CPU time): the same verdicts.
    check 1 "main stream 1: it forks and joins" "(0 real, 0 partial, 3 fake; 3 joined right after the fork" \
        -- doctor "$(rp fj_undeclared_early)"
    check 0 "main stream 1: it forks and joins" "(3 real, 0 partial, 0 fake; 0 joined right after the fork" \
        -- doctor "$(rp fj_undeclared_late)"
    # Three streams: main (1) forks the side (2, late join: real) and the copy stream (3) waits for
    # main's buffer-free record before each copy, which main waits for right away (serialised).
    agree fj_three_streams 1
    check 1 "main stream 1: it forks and joins" "main 1 / side 2: 3 episodes (3 real, 0 partial, 0 fake" \
        "main 1 / side 3: 2 episodes (0 real, 0 partial, 2 fake; 2 joined right after the fork" \
        "[3b] fake parallelism: streams 1 and 3" -- doctor "$(rp fj_three_streams)"
    lacks "fake parallelism: streams 1 and 2"
    # doctor, summary and the timeline header give the same main stream and verdicts, on every
    # fork/join profile and on the same step.
    for c in fj_serialised fj_late_steps fj_no_join fj_three_streams fake_parallel fixed; do
        for stepopt in "" "--step 2" "--step 3"; do
            # doctor judges the last step unless told: the multi-step profile is compared step by step
            [ -n "$stepopt" ] && [ "$c" != fj_late_steps ] && continue
            [ -z "$stepopt" ] && [ "$c" = fj_late_steps ] && continue
            # shellcheck disable=SC2086  # the words of stepopt
            "$aclcpu" doctor $stepopt "$(rp $c)" >"$tmp/doc.txt" 2>/dev/null
            # shellcheck disable=SC2086
            "$aclcpu" summary $stepopt "$(rp $c)" >"$tmp/sum.txt" 2>/dev/null
            # shellcheck disable=SC2086
            "$aclcpu" timeline $stepopt "$(rp $c)" -o "$tmp/agree.html" >/dev/null 2>&1
            dl=$(grep -E '^  main [0-9]+ / side [0-9]+:' "$tmp/doc.txt")
            sl=$(grep -E '^  main [0-9]+ / side [0-9]+:' "$tmp/sum.txt")
            [ -n "$dl" ] && [ "$dl" = "$sl" ] && ok || fail "$c $stepopt: doctor and summary disagree: [$dl] [$sl]"
            # The header's first view (the modelled clock): main stream and each pair's pct and verdict.
            hl=$(grep -o 'main stream [0-9]* ([a-z_]*); overlap_pct:[^·]*' "$tmp/agree.html" | head -n 1 |
                grep -oE 'main [0-9]+ / side [0-9]+ <b>[0-9.]+ [a-z]+</b>' | sed -E 's/<b>//; s/<\/b>//')
            dv=$(echo "$dl" | sed -E 's/^  (main [0-9]+ \/ side [0-9]+):.*overlap_pct ([0-9.]+), ([a-z]+).*/\1 \2 \3/')
            [ -n "$hl" ] && [ "$hl" = "$dv" ] && ok || fail "$c $stepopt: timeline header [$hl] != doctor [$dv]"
            dm=$(grep -oE '^  main stream [0-9]+' "$tmp/doc.txt" | grep -oE '[0-9]+$')
            grep -q "main stream $dm (" "$tmp/agree.html" && ok || fail "$c $stepopt: timeline header's main stream is not $dm"
        done
    done
fi

if [ -n "$moe" ]; then
    agree moe/single 1
    agree moe/dual 1
    agree moe/dual_limited 0
    # The device idles only while it dispatches the next task (1 us each on the 910B1) and while
    # a record releases its wait (2 us): 48 kernels, 4 joins.
    check 0 "Free             47.001" -- summary "$(rp moe/single)"
    check 0 "Free             44.001" -- summary "$(rp moe/dual)"
    check 0 "Free             44.001" -- summary "$(rp moe/dual_limited)"
    check 1 "[3a] side-stream ops never left the main stream: all 48 kernels ran on stream 1" -- doctor "$(rp moe/single)"
    # Two streams, every op on all the cores: the kernels never run over the cores (one that asks
    # for cores in use queues), so the contention is summary.json's, of kernels ready at once.
    # Judged per fork/join episode: in each of the 4 layers the side's kernels queue for the cube
    # cores routed_experts holds, so only 11 of their 32 us are hidden (the whole-run window once
    # named flash_attention, which never meets the side's work).
    check 1 "main 1 / side 2: 4 episodes (0 real, 4 partial, 0 fake; 0 joined right after the fork, 0 never joined): overlap 44.000 of 128.000 us, overlap_pct 0.34, partial" \
        "[3b] partial overlap: streams 1 and 2 ran mostly one after the other (overlap_pct 0.34)" \
        "No event orders them: in [146.008, 162.008] the kernels of streams 1 and 2 ready at once asked 48 cube blocks of 24 cube cores" \
        "[3c] cube cores oversubscribed: kernels ready at once asked 48 blocks of 24, for 228.000 us in 12 intervals" \
        "the worst, [167.008, 202.008]: routed_experts (stream 1, task 8) 24 + shared_down (stream 2, task 4) 24 = 48 > 24 cube cores" \
        "Kernels that waited for those cores: shared_gate_up (stream 2) 4 times, routed_experts (stream 1) 4 times, shared_down (stream 2) 4 times" \
        "e.g. stream 1 c15 + stream 2 c9" \
        "[acceptance] EVENT_WAIT gaps after the join: stream 1 idled 16.000 us in 4 waits for stream 2" \
        "In the longest, [210.008, 217.008], stream 2 ran shared_down (stream 2, task 4) [202.008, 214.008]" \
        "Idle beyond the 3.000 us each join costs on this SoC" \
        "Verdict: 3 findings." -- doctor "$(rp moe/dual)"
    check 1 '"kind": "core_contention"' '"demand_blocks": 48' '"over_us": 228.000' '"intervals": 12' \
        '"kind": "join_wait_gap"' '"wait_us": 16.000' '"waits": 4' -- doctor --json "$(rp moe/dual)"
    check 0 "peak 24 of 24 cores running at once;" \
        "ready at once up to 48: over the cores for 228.000 us in 12 intervals (kernels queued; summary.json)" \
        "[140.008, 146.008] asks 48: router (stream 1, 24), shared_gate_up (stream 2, 24)" "... 9 more" \
        -- summary "$(rp moe/dual)"
    check 0 '"contention_of": "kernels running or ready (summary.json)"' '"over_us": 228.000' -- summary --json "$(rp moe/dual)"
    # The split: no contention, no gap at the join.
    check 0 "4 episodes (4 real, 0 partial, 0 fake" "overlap 236.000 of 248.000 us, overlap_pct 0.95, real" \
        "Verdict: no findings." -- doctor "$(rp moe/dual_limited)"
    # Without summary.json the queued kernels cannot be seen: said, not guessed.
    mkdir -p "$tmp/dual_trace/ASCEND_PROFILER_OUTPUT"
    cp "$(rp moe/dual)"/ASCEND_PROFILER_OUTPUT/{kernel_details.csv,trace_view.json} "$tmp/dual_trace/ASCEND_PROFILER_OUTPUT/"
    check 1 "EVENT_WAIT gaps after the join: stream 1 idled 16.000 us in 4 waits for stream 2" \
        "kernels queued for cores in use: needs summary.json" -- doctor "$tmp/dual_trace"
    lacks "cores oversubscribed"
    check 0 "48 kernels on 2 streams" -- timeline "$(rp moe/dual)" -o "$tmp/moe.html"
fi

# ---- sweep 4 (sw1): boundaries and second occurrences of the doctor and summary rules -----------
# Each check below is named after the rule it holds (tests/mutate/mutations.txt, sweep 4 section).
sw1h='Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID'
# One stream's rows that overlap (b inside a, 2-4 in 0-10; d inside c, the last of stream 2): its
# busy time keeps a's end (10, not 4), and so does its last end; a later k on two engines is two
# top-kernel groups (AI_CORE k twice, 10 us, around the vector one); equal totals (a, c, k: 10 us)
# in name order; a compute row with Stream ID N/A is no stream.
printf '%s\na,AI_CORE,0,10,8,1\nb,AI_CORE,2,2,8,1\nc,AI_CORE,0,10,8,2\nd,AI_CORE,3,2,8,2\nk,AI_CORE,20,5,8,1\nk,AI_VECTOR_CORE,30,3,8,1\nk,AI_CORE,40,5,8,1\nn,AI_CORE,50,1,8,N/A\n' "$sw1h" >"$tmp/sw1_rows.csv"
check 0 "stream 1       5 kernels, busy 23.000 us in [0.000, 45.000]" \
    "stream 2       2 kernels, busy 10.000 us in [0.000, 10.000]" -- doctor "$tmp/sw1_rows.csv"
lacks "stream -1"
check 0 "         1        5       23.000   45.1%        0.000       45.000       22.000" \
    "(1 kernel row has Stream ID N/A and is left out here)" -- summary "$tmp/sw1_rows.csv"
flat "$tmp/out" | grep -qE ' a +AI_CORE +1 +10\.000 .* c +AI_CORE +1 +10\.000 .* k +AI_CORE +2 +10\.000 +5\.000 +5\.000 .* k +AI_VECTOR_CORE +1 +3\.000 ' &&
    ok || fail "sw1_rows: top kernels are not a, c, k (AI_CORE, 2 launches), k (AI_VECTOR_CORE)"
# Two rows of one stream that overlap with equal Block Num (x 0-10, y 5-15, 16 blocks each) count
# once, as one kernel, not twice and not zero times: with stream 2's 16 the cube cores are over from
# 0 to 15 us; the peak is taken at its first instant (0, though 5 and 10 reach it too).
printf '%s\nx,AI_CORE,0,10,16,1\ny,AI_CORE,5,10,16,1\nz,AI_CORE,0,20,16,2\n' "$sw1h" >"$tmp/sw1_equal_rows.csv"
check 0 "cube   peak 32 of 24 cores at 0.000 us: over the cores for 15.000 us in 1 interval" \
    -- summary "$tmp/sw1_equal_rows.csv"
# The span lists each kernel once, when it starts (x ending at 10 inside it is not listed again).
grep -qE '^ +\[0\.000, 15\.000\] asks 32: x \(stream 1, 16\), z \(stream 2, 16\), y \(stream 1, 16\)$' "$tmp/out" && ok ||
    fail "sw1_equal_rows: the span does not list x, z, y once each"
# A span's demand is its highest instant (36 at 0), not its last (26 from 10, when y replaces x);
# rows of one instant are taken in stream order, whatever the file's order (z is written first).
printf '%s\nz,AI_CORE,0,20,16,2\nx,AI_CORE,0,10,20,1\ny,AI_CORE,10,5,10,1\n' "$sw1h" >"$tmp/sw1_span_drop.csv"
check 0 "[0.000, 15.000] asks 36: x (stream 1, 20), z (stream 2, 16), y (stream 1, 10)" -- summary "$tmp/sw1_span_drop.csv"
# A side window that ends exactly when the main stream's only kernel starts: the dominator starts
# 0.000 us after it (not "before it opens"); a kernel of Task ID 0 is named with its task.
printf 'Task ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n0,main_op,AI_CORE,60,100,8,1\n1,side_op,AI_VECTOR_CORE,0,60,8,2\n' >"$tmp/sw1_touching_pair.csv"
check 1 "its longest kernel main_op (stream 1, task 0) [60.000, 160.000], starts 0.000 us after the side window ends" \
    -- doctor "$tmp/sw1_touching_pair.csv"
# A stream with a tail (no other test reaches the rule): dom (MIX_AIC, so on the cube cores) under
# --limit 1=c12 runs on alone for 20 of its 100 us after the side window [0, 80] ends: exactly the
# 20% share, a finding. --limit applies to its own stream only: stream 2's 8 cube blocks are over
# its c4, not over stream 1's c12. A --limit of all 24 cube cores is no limit: no tail, and wide's
# 30 blocks are over no limit.
printf 'Task ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Mix Block Num,Stream ID\n1,dom,MIX_AIC,0,100,12,0,1\n2,side,AI_CORE,0,80,8,0,2\n3,wide,AI_CORE,200,10,30,0,1\n' >"$tmp/sw1_tail.csv"
check 1 "[3c] stream 1 has a tail: dom runs 20.000 us alone after stream 2's work, on a cube limit of 12" \
    "[acceptance] Block Num over the core limit: stream 2 launched side with 8 cube blocks under a limit of 4" \
    "Block Num over the core limit: stream 1 launched wide with 30 cube blocks under a limit of 12" \
    "Verdict: 3 findings." -- doctor --limit 1=c12 --limit 2=c4 "$tmp/sw1_tail.csv"
check 0 "Verdict: no findings in what could be checked." -- doctor --limit 1=c24 "$tmp/sw1_tail.csv"
lacks "has a tail"
lacks "Block Num over the core limit"
# A tail is judged on a real pair only: the partial pair (overlap_pct 0.30) whose dominator runs on
# 70 us alone under c12 is a partial-overlap finding, not a tail.
printf 'Task ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Mix Block Num,Stream ID\n1,dom,AI_CORE,100,100,12,0,1\n2,s1,AI_CORE,0,10,8,0,2\n3,s2,AI_CORE,120,10,8,0,2\n' >"$tmp/sw1_partial_tail.csv"
check 1 "[3b] partial overlap: streams 1 and 2 ran mostly one after the other (overlap_pct 0.30)" "Verdict: 1 finding." \
    -- doctor --limit 1=c12 "$tmp/sw1_partial_tail.csv"
lacks "has a tail"
# Launches of one stream and name wider than the cores are grouped by their Block Num: w with 30
# blocks (once) and w with 48 (twice) are two launch shapes; 48 on 24 cores is 2 full waves, the
# last of 24 blocks (not 0).
printf '%s\nw,AI_CORE,0,10,30,1\nw,AI_CORE,20,10,48,1\nw,AI_CORE,30,10,48,1\nv,AI_VECTOR_CORE,0,40,8,2\n' "$sw1h" >"$tmp/sw1_wide_shapes.csv"
check 0 "wider than the cores alone: w (stream 1) 30 blocks, 1 launch, 2 waves" \
    "wider than the cores alone: w (stream 1) 48 blocks, 2 launches, 2 waves" -- summary "$tmp/sw1_wide_shapes.csv"
check 0 "w (stream 1) asks 48 cube blocks of 24 cores on its own, 2 launches (first at 20.000 us): its blocks run in 2 waves (the last of 24 blocks)" \
    -- doctor "$tmp/sw1_wide_shapes.csv"
# summary.json's contention was counted against the cores the profile was written for (48 vector):
# read with --soc Ascend310P3 (7 vector cores) it does not apply, and the sweep of kernels running
# at once decides (no contention between streams: one stream's launches are wider than 7).
check 0 "vector peak 32 of 7 cores: no contention between streams" -- summary --soc Ascend310P3 "$(prof oversubscribed)"
lacks "(kernels queued; summary.json)"
lacks "asks 64"
# kernel_details.csv's columns and values at their edges: a metric column is lower-case snake_case
# with a closed "(unit)" ('(x)' and 'aic_time(us' are neither); a column spelled two ways (Block
# Num, Block Dim) repeats; a count above INT_MAX, a Wait Time or Device_id that is no number is
# refused where it is.
printf '%s,(x)\nk,AI_CORE,0,5,8,1,3\n' "$sw1h" >"$tmp/sw1_paren_column.csv"
refuse "sw1_paren_column.csv:1:71: unknown column '\(x\)'" summary "$tmp/sw1_paren_column.csv"
printf '%s,aic_time(us\nk,AI_CORE,0,5,8,1,3\n' "$sw1h" >"$tmp/sw1_open_unit.csv"
refuse "sw1_open_unit.csv:1:71: unknown column 'aic_time\(us'" summary "$tmp/sw1_open_unit.csv"
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Block Dim,Stream ID\nk,AI_CORE,0,5,8,8,1\n' >"$tmp/sw1_two_spellings.csv"
refuse "sw1_two_spellings.csv:1:61: column 'Block Dim' repeats column 5 \('Block Num'\)" summary "$tmp/sw1_two_spellings.csv"
printf '%s\nk,AI_CORE,0,5,2147483648,1\n' "$sw1h" >"$tmp/sw1_big_count.csv"
refuse "sw1_big_count.csv:2:15: column 'Block Num': '2147483648' is not a whole number >= 0" summary "$tmp/sw1_big_count.csv"
printf '%s,Wait Time(us)\nk,AI_CORE,0,5,8,1,x\n' "$sw1h" >"$tmp/sw1_bad_wait.csv"
refuse "sw1_bad_wait.csv:2:19: column 'Wait Time\(us\)': 'x' is not a time in us" summary "$tmp/sw1_bad_wait.csv"
printf 'Device_id,%s\nd0,k,AI_CORE,0,5,8,1\n' "$sw1h" >"$tmp/sw1_bad_device.csv"
refuse "sw1_bad_device.csv:2:1: column 'Device_id': 'd0' is not a device id" summary "$tmp/sw1_bad_device.csv"
# Stream 0 is a stream (not N/A); two equal rows without a Task ID column are not known to be one
# task written twice: both are kept (3 rows, none dropped).
printf '%s\nk,AI_CORE,0,5,8,0\nk,AI_CORE,0,5,8,0\nj,AI_CORE,0,5,8,1\n' "$sw1h" >"$tmp/sw1_stream0.csv"
check 0 "(3 rows, Block Num)" "         0        2" -- summary "$tmp/sw1_stream0.csv"
lacks "Stream ID N/A"
lacks "repeated row"
# --limit's stream is an id >= 0 and it names at least one pool; the path line says "the default"
# only when --path was not given.
refuse "^aclcpu doctor: error: --limit -1=c4: expected" doctor --limit -1=c4 "$(prof fixed)"
refuse "^aclcpu doctor: error: --limit 2=: expected" doctor --limit 2= "$(prof fixed)"
check 0 "  path   eager" -- doctor --path eager "$(prof fixed)"
lacks "(the default"
# Busy time decides (a bare CSV of three streams): every pair is judged on the whole run, not only
# the busiest stream's: 2 and 3 ran one after the other (b [0, 60], then c [60, 90]).
printf '%s\na,AI_CORE,0,100,8,1\nb,AI_VECTOR_CORE,0,60,8,2\nc,AI_VECTOR_CORE,60,30,8,3\n' "$sw1h" >"$tmp/sw1_three_bare.csv"
check 1 "main 1 / side 3: side window [60.000, 90.000], dominator a [0.000, 100.000]: overlap 30.000 us, overlap_pct 1.00, real" \
    "main 2 / side 3: side window [60.000, 90.000], dominator none" \
    "[3b] fake parallelism: streams 2 and 3 ran one after the other (overlap_pct 0.00)" -- doctor "$tmp/sw1_three_bare.csv"
if [ -n "$profiles" ]; then
    # Two episodes in one step (fj_late_steps with step 3's rows marked step 2): the step is listed
    # once, with both.
    cp -r "$(rp fj_late_steps)" "$tmp/sw1_two_in_step"
    sed -i 's/^3,/2,/' "$tmp/sw1_two_in_step/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
    check 0 "steps  2 (Step Id 1..2" "step 2: 2 episodes (2 real, 0 partial, 0 fake), overlap 120.000 of 120.000 us" \
        -- summary "$tmp/sw1_two_in_step"
    [ "$(grep -c '^  step 2: ' "$tmp/out")" = 1 ] && ok || fail "sw1_two_in_step: step 2 is not listed once"
fi
# What serialised a fake pair, from summary.json's facts alone (no trace_view.json): a bare
# kernel_details.csv of attention (stream 1, 0-60) and the side's kernels after it, with a
# hand-written summary.json. sw1_facts DIR ROWS JSON writes one.
sw1_facts() {
    mkdir -p "$tmp/$1/ASCEND_PROFILER_OUTPUT"
    printf 'Task ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n%b' "$2" \
        >"$tmp/$1/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
    printf '%s\n' "$3" >"$tmp/$1/ASCEND_PROFILER_OUTPUT/summary.json"
}
sw1_wait='{"aclcpu_profile_version": 1, "event_waits": [{"stream_id": 2, "task_id": 1, "event_id": 1, "recorded_on_stream": 1, "start_us": 0.0, "end_us": 60.2, "wait_us": 60.2}]}'
# The side's wait on stream 1's record, released at 60.2 after attention started, right before the
# side's first kernel (60.2): the side branch is ordered after the main stream's work.
sw1_facts sw1_side_waits '1,attention,AI_CORE,0,60,20,1\n2,gate,AI_VECTOR_CORE,60.2,15,16,2\n' "$sw1_wait"
check 1 "Barrier: stream 2 started only when the EVENT_WAIT (stream 2, task 1) on event 1 recorded on stream 1 was released at 60.200, after attention started" \
    -- doctor "$tmp/sw1_side_waits"
lacks "pass --limit" # summary.json lists the limits in force (none here): they were checked
# The same wait with the side's first kernel at 65, 4.8 us after it (more than 2% of attention): it
# does not explain the delay; the files hold facts (summary.json), so the barrier is "not found",
# not "not known".
sw1_facts sw1_side_wait_early '1,attention,AI_CORE,0,60,20,1\n2,gate,AI_VECTOR_CORE,65,15,16,2\n' "$sw1_wait"
check 1 "Barrier: not found. No EVENT_WAIT of stream 1 on stream 2 precedes attention" -- doctor "$tmp/sw1_side_wait_early"
lacks "started only when"
# Released at 5, before the dominator (attention, 20-80) started: it explains nothing either.
sw1_facts sw1_side_wait_before '1,prep,AI_CORE,0,1,20,1\n3,attention,AI_CORE,20,60,20,1\n2,gate,AI_VECTOR_CORE,5,10,16,2\n' \
    '{"aclcpu_profile_version": 1, "event_waits": [{"stream_id": 2, "task_id": 1, "event_id": 1, "recorded_on_stream": 1, "start_us": 0.0, "end_us": 5.0, "wait_us": 5.0}]}'
check 1 "Barrier: not found." -- doctor "$tmp/sw1_side_wait_before"
lacks "started only when"
# A batch-mode kernel of the side that waited after the side window opened (its second kernel) did
# not keep the pair apart: a finding of its own, not the pair's cause.
sw1_facts sw1_late_batch '1,attention,AI_CORE,0,60,20,1\n2,gate,AI_VECTOR_CORE,60.2,15,16,2\n3,moe,AI_VECTOR_CORE,75.2,15,32,2\n' \
    '{"aclcpu_profile_version": 1, "batch_waits": [{"stream_id": 2, "task_id": 3, "name": "moe", "block_num": 32, "engine": "vector", "ready_us": 60.2, "start_us": 75.2, "wait_us": 15.0}]}'
check 1 "Barrier: not found." "batch-mode kernel could not start: moe (stream 2) waited 15.000 us for 32 vector cores" \
    -- doctor "$tmp/sw1_late_batch"
lacks "No event orders them"
# Contention of both streams' kernels that ended before the side window opened ([0, 10]) did not
# keep the pair apart either.
sw1_facts sw1_early_contention '1,attention,AI_CORE,0,60,20,1\n2,gate,AI_CORE,60.2,15,16,2\n' \
    '{"aclcpu_profile_version": 1, "core_usage": {"cube_cores": 24, "vector_cores": 48, "contention": [{"engine": "cube", "start_us": 0.0, "end_us": 10.0, "demand_blocks": 36, "cores": 24, "kernels": [{"stream_id": 1, "task_id": 1, "name": "attention"}, {"stream_id": 2, "task_id": 2, "name": "gate"}]}]}}'
check 1 "Barrier: not found." -- doctor "$tmp/sw1_early_contention"
lacks "No event orders them"
# The stream whose record released a wait, from trace_view.json alone (no summary.json, no event
# flows: the Event Id of the records): the latest record of the event on another stream that ended
# by the wait's end. Event 2 is recorded on stream 2 (ends 39.9), on stream 3 earlier (20.2) and
# after the wait (45.0), and on the waiting stream 1 itself (40.0): only stream 2's released the
# wait (stream 1, task 3, ends 40.0), so cast_silu after it is the barrier. The zero-length wait at
# 41.0 (task 7) held nothing and is no wait (else attention would follow a wait). sw1_task STREAM
# TASK TYPE TS DUR [EVENT]: one device task of trace_view.json.
sw1_task() {
    local a="\"Task Type\": \"$3\", \"Stream Id\": $1, \"Task Id\": $2"
    [ -n "${6:-}" ] && a="$a, \"Event Id\": $6"
    printf ',\n{"ph": "X", "pid": 2, "tid": %s, "name": "%s", "ts": "%s", "dur": %s, "args": {%s}}' "$1" "$3" "$4" "$5" "$a"
}
sw1_trace_head='[{"ph": "M", "pid": 2, "name": "process_name", "args": {"name": "Ascend Hardware"}}'
mkdir -p "$tmp/sw1_records/ASCEND_PROFILER_OUTPUT"
printf 'Task ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n1,rms_norm,AI_VECTOR_CORE,0,10,24,1\n4,cast_silu,AI_VECTOR_CORE,40,2,8,1\n5,attention,AI_CORE,42,60,20,1\n2,gate,AI_VECTOR_CORE,10.2,29.5,16,2\n' \
    >"$tmp/sw1_records/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
{
    printf '%s' "$sw1_trace_head"
    sw1_task 1 1 AI_VECTOR_CORE 0.000 10.0
    sw1_task 1 3 EVENT_WAIT 10.200 29.8 2
    sw1_task 1 4 AI_VECTOR_CORE 40.000 2.0
    sw1_task 1 5 AI_CORE 42.000 60.0
    sw1_task 1 6 EVENT_RECORD 39.800 0.2 2
    sw1_task 1 7 EVENT_WAIT 41.000 0 2
    sw1_task 2 2 AI_VECTOR_CORE 10.200 29.5
    sw1_task 2 3 EVENT_RECORD 39.700 0.2 2
    sw1_task 3 1 EVENT_RECORD 20.000 0.2 2
    sw1_task 3 2 EVENT_RECORD 44.800 0.2 2
    printf '\n]\n'
} >"$tmp/sw1_records/ASCEND_PROFILER_OUTPUT/trace_view.json"
check 1 "Barrier: cast_silu (stream 1, task 4), the first main-stream op after the EVENT_WAIT (stream 1, task 3) on event 2 recorded on stream 2, which held stream 1 for 29.800 us" \
    -- doctor "$tmp/sw1_records"
# A stream without kernels that only sets memory (MEMSET_ASYNC) is a side stream doing its job, like
# a copy or prefetch stream: no [3a] finding.
mkdir -p "$tmp/sw1_memset/ASCEND_PROFILER_OUTPUT"
printf 'Task ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n1,attention,AI_CORE,0,60,20,1\n' \
    >"$tmp/sw1_memset/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
{
    printf '%s' "$sw1_trace_head"
    sw1_task 1 1 AI_CORE 0.000 60.0
    sw1_task 2 1 MEMSET_ASYNC 0.000 5.0
    printf '\n]\n'
} >"$tmp/sw1_memset/ASCEND_PROFILER_OUTPUT/trace_view.json"
check 0 "stream 2       0 kernels, 1 copy or prefetch of 1 tasks" "the prefetches and copies of the streams without kernels" \
    -- doctor "$tmp/sw1_memset"
lacks "[3a]"
# With event flows, a wait is released by the flow that ends at it: the flow of event 5 into a later
# wait of stream 1 (task 8, [103, 104]) does not release the earlier one (task 3, no flow of its
# own), whose record is still found by its Event Id (stream 2).
cp -r "$tmp/sw1_records" "$tmp/sw1_later_flow"
sed -i '$d' "$tmp/sw1_later_flow/ASCEND_PROFILER_OUTPUT/trace_view.json"
{
    sw1_task 1 8 EVENT_WAIT 103.000 1.0 5
    sw1_task 3 3 EVENT_RECORD 103.300 0.2 5
    printf ',\n{"ph": "s", "cat": "event", "name": "Event 5", "id": 1, "pid": 2, "tid": 3, "ts": "103.500"}'
    printf ',\n{"ph": "f", "bp": "e", "cat": "event", "name": "Event 5", "id": 1, "pid": 2, "tid": 1, "ts": "104.000"}'
    printf '\n]\n'
} >>"$tmp/sw1_later_flow/ASCEND_PROFILER_OUTPUT/trace_view.json"
check 1 "Barrier: cast_silu (stream 1, task 4), the first main-stream op after the EVENT_WAIT (stream 1, task 3) on event 2 recorded on stream 2" \
    -- doctor "$tmp/sw1_later_flow"
# doctor's note on kernels modelled from measured CPU time lists four, then counts the rest: four
# are all listed (no "more"), five are four and "1 more".
sw1_m() { printf '{"name": "m%s", "engine": "AI_CORE", "launches": 1, "min_us": 1.0, "avg_us": 1.0, "max_us": 1.0}' "$1"; }
sw1_facts sw1_measured4 '1,attention,AI_CORE,0,60,20,1\n' \
    "{\"aclcpu_profile_version\": 1, \"measured_kernels\": [$(sw1_m 1), $(sw1_m 2), $(sw1_m 3), $(sw1_m 4)]}"
check 1 "m4 (AI_CORE): 1 launch" -- doctor "$tmp/sw1_measured4"
lacks "more (aclcpu summary lists them)"
sw1_facts sw1_measured5 '1,attention,AI_CORE,0,60,20,1\n' \
    "{\"aclcpu_profile_version\": 1, \"measured_kernels\": [$(sw1_m 1), $(sw1_m 2), $(sw1_m 3), $(sw1_m 4), $(sw1_m 5)]}"
check 1 "m4 (AI_CORE): 1 launch" "; and 1 more (aclcpu summary lists them)." -- doctor "$tmp/sw1_measured5"
lacks "m5 (AI_CORE)"
# The kernels that held a batch-mode kernel's cores are the other streams' that ran between its
# ready and start: not its own stream's pre (running then too).
sw1_facts sw1_batch_held '1,big,AI_VECTOR_CORE,0,30,32,1\n2,pre,AI_VECTOR_CORE,0,20,8,2\n3,moe,AI_VECTOR_CORE,30,20,32,2\n' \
    '{"aclcpu_profile_version": 1, "batch_waits": [{"stream_id": 2, "task_id": 3, "name": "moe", "block_num": 32, "engine": "vector", "ready_us": 10.0, "start_us": 30.0, "wait_us": 20.0}]}'
check 1 "moe (stream 2, task 3) was ready at 10.000 and started at 30.000; meanwhile big (stream 1, task 1) held 32: 32 + 32 = 64 > 48 vector cores" \
    -- doctor "$tmp/sw1_batch_held"
# Block Num over the limits in force as summary.json lists them: stream 2's four kernels over its
# v16 are one finding (up to the largest, 40, listed first; four are listed whole), the one over v8
# another, stream 3's two over c8 a third (two are "kernels"); a limit of all 48 vector cores is no
# limit, and 16 blocks under v16 are within it.
sw1_lim() { printf '{"stream_id": %s, "task_id": %s, "name": "k%s", "engine": "%s", "block_num": %s, "limit": %s}' "${4:-2}" "$1" "$1" "${5:-vector}" "$2" "$3"; }
sw1_facts sw1_limit_groups '1,attention,AI_CORE,0,60,20,1\n2,k2,AI_VECTOR_CORE,0,10,16,2\n' \
    "{\"aclcpu_profile_version\": 1, \"limits\": [$(sw1_lim 1 40 16), $(sw1_lim 2 30 16), $(sw1_lim 3 20 8), $(sw1_lim 4 25 16), $(sw1_lim 5 50 48), $(sw1_lim 6 16 16), $(sw1_lim 7 17 16), $(sw1_lim 8 12 8 3 cube), $(sw1_lim 9 10 8 3 cube)]}"
check 1 "Block Num over the core limit: 4 kernels of stream 2 exceed its vector limit of 16 (up to 40 blocks)" \
    "Stream 2, vector limit 16: k1 (task 1) 40 blocks, k2 (task 2) 30 blocks, k4 (task 4) 25 blocks, k7 (task 7) 17 blocks. Limits" \
    "Block Num over the core limit: stream 2 launched k3 with 20 vector blocks under a limit of 8" \
    "Block Num over the core limit: 2 kernels of stream 3 exceed its cube limit of 8 (up to 12 blocks)" \
    -- doctor "$tmp/sw1_limit_groups"
lacks "k5"
lacks "k6"
# --limit states the limits in force: it replaces summary.json's list (k2's 16 blocks over v8).
check 1 "Block Num over the core limit: stream 2 launched k2 with 16 vector blocks under a limit of 8" \
    -- doctor --limit 2=v8 "$tmp/sw1_limit_groups"
lacks "exceed its"
# The limit in force at a launch is its kernel task's Core Limit in trace_view.json, not that of
# another task of the stream at the same instant (the record, task 1, sorted before it).
mkdir -p "$tmp/sw1_trace_limit/ASCEND_PROFILER_OUTPUT"
printf 'Task ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n1,attention,AI_CORE,0,60,20,1\n2,moe,AI_VECTOR_CORE,0,20,40,2\n' \
    >"$tmp/sw1_trace_limit/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
{
    printf '%s' "$sw1_trace_head"
    sw1_task 1 1 AI_CORE 0.000 60.0
    sw1_task 2 1 EVENT_RECORD 0.000 0 3
    printf ',\n{"ph": "X", "pid": 2, "tid": 2, "name": "moe", "ts": "0.000", "dur": 20.0, "args": {"Task Type": "AI_VECTOR_CORE", "Stream Id": 2, "Task Id": 2, "Block Num": 40, "Core Limit": "c24v16"}}'
    printf '\n]\n'
} >"$tmp/sw1_trace_limit/ASCEND_PROFILER_OUTPUT/trace_view.json"
check 1 "Block Num over the core limit: stream 2 launched moe with 40 vector blocks under a limit of 16" \
    -- doctor "$tmp/sw1_trace_limit"
# EVENT_WAIT gaps after the join, from summary.json's waits (3 us each join costs on the 910B1, so
# each 5 us wait idles 2): stream 1's seven waits for stream 2 are one finding of 14 us listing six
# waits; of equal waits the first is the longest, and of stream 2's kernels during it the three
# first that ran in it (not early, which ended before it, nor s4, the fourth). Its wait on stream 3
# is a finding of its own. Its wait at 0, before any kernel of stream 1 had ended, is no join.
# Stream 2, the side of main 1, waiting for stream 3 (not for main) is a join too.
mkdir -p "$tmp/sw1_gaps/ASCEND_PROFILER_OUTPUT"
cat >"$tmp/sw1_gaps/ASCEND_PROFILER_OUTPUT/kernel_details.csv" <<'EOF'
Task ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID
1,a,AI_VECTOR_CORE,0,10,8,1
10,k1,AI_VECTOR_CORE,15,10,8,1
11,k2,AI_VECTOR_CORE,30,10,8,1
12,k3,AI_VECTOR_CORE,45,10,8,1
13,k4,AI_VECTOR_CORE,60,10,8,1
14,k5,AI_VECTOR_CORE,75,10,8,1
15,k6,AI_VECTOR_CORE,90,10,8,1
16,k7,AI_VECTOR_CORE,105,10,8,1
30,k8,AI_VECTOR_CORE,120,5,8,1
40,early,AI_VECTOR_CORE,5,4.5,8,2
41,s1,AI_VECTOR_CORE,10.0,0.5,8,2
42,s2,AI_VECTOR_CORE,11.0,0.5,8,2
43,s3,AI_VECTOR_CORE,12.0,0.5,8,2
44,s4,AI_VECTOR_CORE,13.0,0.5,8,2
50,late,AI_VECTOR_CORE,40,5,8,2
70,x,AI_VECTOR_CORE,112,3,8,3
EOF
cat >"$tmp/sw1_gaps/ASCEND_PROFILER_OUTPUT/summary.json" <<'EOF'
{"aclcpu_profile_version": 1, "event_waits": [
 {"stream_id": 1, "task_id": 90, "event_id": 1, "recorded_on_stream": 2, "start_us": 0, "end_us": 5, "wait_us": 5},
 {"stream_id": 1, "task_id": 100, "event_id": 2, "recorded_on_stream": 2, "start_us": 10, "end_us": 15, "wait_us": 5},
 {"stream_id": 1, "task_id": 101, "event_id": 2, "recorded_on_stream": 2, "start_us": 25, "end_us": 30, "wait_us": 5},
 {"stream_id": 1, "task_id": 102, "event_id": 2, "recorded_on_stream": 2, "start_us": 40, "end_us": 45, "wait_us": 5},
 {"stream_id": 1, "task_id": 103, "event_id": 2, "recorded_on_stream": 2, "start_us": 55, "end_us": 60, "wait_us": 5},
 {"stream_id": 1, "task_id": 104, "event_id": 2, "recorded_on_stream": 2, "start_us": 70, "end_us": 75, "wait_us": 5},
 {"stream_id": 1, "task_id": 105, "event_id": 2, "recorded_on_stream": 2, "start_us": 85, "end_us": 90, "wait_us": 5},
 {"stream_id": 1, "task_id": 106, "event_id": 2, "recorded_on_stream": 2, "start_us": 100, "end_us": 105, "wait_us": 5},
 {"stream_id": 1, "task_id": 120, "event_id": 3, "recorded_on_stream": 3, "start_us": 115, "end_us": 120, "wait_us": 5},
 {"stream_id": 2, "task_id": 60, "event_id": 4, "recorded_on_stream": 3, "start_us": 50, "end_us": 55, "wait_us": 5}
]}
EOF
check 1 "EVENT_WAIT gaps after the join: stream 1 idled 14.000 us in 7 waits for stream 2" \
    "105 [85.000, 90.000] 5.000 us, ...) add up to 35.000 us. In the longest, [10.000, 15.000], stream 2 ran s1 (stream 2, task 41) [10.000, 10.500], s2 (stream 2, task 42) [11.000, 11.500], s3 (stream 2, task 43) [12.000, 12.500]: that stream is the tail." \
    "EVENT_WAIT gap after the join: stream 1 idled 2.000 us waiting for event 3 of stream 3" \
    "EVENT_WAIT gap after the join: stream 2 idled 2.000 us waiting for event 4 of stream 3" -- doctor "$tmp/sw1_gaps"
lacks "106 [100.000"
lacks "early (stream 2"
lacks "s4 (stream 2"
lacks "task 90"
# Core contention from summary.json: four intervals of 64 vector blocks of 48 (main of stream 1, 40
# blocks, from each interval's start; w0..w3 of stream 2, 24 blocks, 10 us later), each with a batch
# wait of stream 2 that does not explain it: w0's waited 0 us, w1's started as its interval opened,
# w2's was ready only when its interval ended, and task 99's is no kernel of its interval. So all
# four are the finding (no "(and N in which a batch-mode kernel waited"); of equal intervals the
# first is the worst; main, there from each start, did not wait; the four kernels that waited are
# each listed once ("1 time"). The split weighs each stream's kernels by blocks x duration, each
# kernel once (main of task 10 is listed in two intervals): 40 x 30 x 4 against 24 x 20 x 4.
sw1_facts sw1_contention '10,main,AI_VECTOR_CORE,0,30,40,1\n20,w0,AI_VECTOR_CORE,10,20,24,2\n11,main,AI_VECTOR_CORE,100,30,40,1\n21,w1,AI_VECTOR_CORE,110,20,24,2\n12,main,AI_VECTOR_CORE,200,30,40,1\n22,w2,AI_VECTOR_CORE,210,20,24,2\n13,main,AI_VECTOR_CORE,300,30,40,1\n23,w3,AI_VECTOR_CORE,310,20,24,2\n' ''
cat >"$tmp/sw1_contention/ASCEND_PROFILER_OUTPUT/summary.json" <<'EOF'
{"aclcpu_profile_version": 1, "soc": {"name": "Ascend910B1", "cube_cores": 24, "vector_cores": 48},
 "core_usage": {"cube_cores": 24, "vector_cores": 48, "contention": [
  {"engine": "vector", "start_us": 0, "end_us": 30, "demand_blocks": 64, "cores": 48, "kernels": [{"stream_id": 1, "task_id": 10, "name": "main"}, {"stream_id": 2, "task_id": 20, "name": "w0"}]},
  {"engine": "vector", "start_us": 100, "end_us": 130, "demand_blocks": 64, "cores": 48, "kernels": [{"stream_id": 1, "task_id": 11, "name": "main"}, {"stream_id": 2, "task_id": 21, "name": "w1"}, {"stream_id": 1, "task_id": 10, "name": "main"}]},
  {"engine": "vector", "start_us": 200, "end_us": 230, "demand_blocks": 64, "cores": 48, "kernels": [{"stream_id": 1, "task_id": 12, "name": "main"}, {"stream_id": 2, "task_id": 22, "name": "w2"}]},
  {"engine": "vector", "start_us": 300, "end_us": 330, "demand_blocks": 64, "cores": 48, "kernels": [{"stream_id": 1, "task_id": 13, "name": "main"}, {"stream_id": 2, "task_id": 23, "name": "w3"}]}]},
 "batch_waits": [
  {"stream_id": 2, "task_id": 20, "name": "w", "block_num": 24, "engine": "vector", "ready_us": 0, "start_us": 10, "wait_us": 0.0},
  {"stream_id": 2, "task_id": 21, "name": "w", "block_num": 24, "engine": "vector", "ready_us": 100, "start_us": 100, "wait_us": 10.0},
  {"stream_id": 2, "task_id": 22, "name": "w", "block_num": 24, "engine": "vector", "ready_us": 230, "start_us": 240, "wait_us": 10.0},
  {"stream_id": 2, "task_id": 99, "name": "w", "block_num": 24, "engine": "vector", "ready_us": 300, "start_us": 310, "wait_us": 10.0}]}
EOF
check 1 "[3c] vector cores oversubscribed: kernels ready at once asked 64 blocks of 48, for 120.000 us in 4 intervals" \
    "summary.json lists 4 intervals (120.000 us in all) in which the kernels running or ready asked for more vector cores than there are; the worst, [0.000, 30.000]:" \
    "Kernels that waited for those cores: w0 (stream 2) 1 time, w1 (stream 2) 1 time, w2 (stream 2) 1 time, w3 (stream 2) 1 time: a kernel" \
    "e.g. stream 1 v34 + stream 2 v14" -- doctor "$tmp/sw1_contention"
lacks "in which a batch-mode kernel waited"
lacks "main (stream 1) 4 times"

# Seven streams of 8 vector blocks each at once (56 > 48): the worst interval names six kernels and
# "..."; the split gives 48 / 7 = 6.86 each, and the 6 cores left over one each to the first six
# streams (equal remainders: the first first, once each).
{
    echo "$sw1h"
    for s in 1 2 3 4 5 6 7; do echo "k$s,AI_VECTOR_CORE,0,10,8,$s"; done
} >"$tmp/sw1_seven.csv"
check 1 "k6 (stream 6) 8 + ... = 56 > 48 vector cores" \
    "e.g. stream 1 v7 + stream 2 v7 + stream 3 v7 + stream 4 v7 + stream 5 v7 + stream 6 v7 + stream 7 v6 (in" \
    -- doctor "$tmp/sw1_seven.csv"
# A stream whose share rounds to no core still gets one: 1 block for 1 us beside 48 for 100.
printf '%s\nbig,AI_VECTOR_CORE,0,100,48,1\ntiny,AI_VECTOR_CORE,10,1,1,2\n' "$sw1h" >"$tmp/sw1_split_min.csv"
check 1 "e.g. stream 1 v48 + stream 2 v1 (in" -- doctor "$tmp/sw1_split_min.csv"
# Kernels running at once over the cores (the sweep: summary.json has no core_usage here) are
# contention even where a batch-mode kernel among them waited: only summary.json's intervals of
# kernels ready at once are left to the batch-wait finding.
sw1_facts sw1_sweep_batch '1,a,AI_VECTOR_CORE,0,30,40,1\n2,b,AI_VECTOR_CORE,10,20,24,2\n3,c,AI_VECTOR_CORE,15,10,8,3\n' \
    '{"aclcpu_profile_version": 1, "batch_waits": [{"stream_id": 3, "task_id": 3, "name": "c", "block_num": 8, "engine": "vector", "ready_us": 12.0, "start_us": 15.0, "wait_us": 3.0}]}'
check 1 "[3c] vector cores oversubscribed: kernels running at once ask 72 blocks of 48 for 20.000 us" \
    "[3c] batch-mode kernel could not start: c (stream 3) waited 3.000 us for 8 vector cores" -- doctor "$tmp/sw1_sweep_batch"
# The files' times have 3 decimals: kernels 0.001 us apart (k2 of stream 2 starts at 5.001 where k1
# ended at 5) are one busy interval (Computing 10.000, not 9.999); a stream's gap of 0.5 us (stream
# 1: 0-5, then 5.5-10) is idle time, not busy.
printf '%s\nk1,AI_CORE,0,5,8,1\nk2,AI_CORE,5.001,4.999,8,2\nk3,AI_CORE,5.5,4.5,8,1\n' "$sw1h" >"$tmp/sw1_precision.csv"
check 0 "Computing        10.000" "         1        2        9.500" -- summary "$tmp/sw1_precision.csv"
# Step Id 0 is a step like any other: --step 0 judges it, and the gap threshold is its E2E's.
cp -r "$tmp/sw1_gaps" "$tmp/sw1_gaps_step0"
sed -i '1s/^/Step Id,/; 2,$s/^/0,/' "$tmp/sw1_gaps_step0/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
check 1 "step   0 (Step Id" "Reported at or above 1.250 us: the larger of 1% of step 0's E2E (125.000 us) and 0.500 us." \
    -- doctor --step 0 "$tmp/sw1_gaps_step0"
# An episode joined by event 0 is joined (event ids start at 0): fake_parallel with its join event
# renumbered 2 -> 0 is marked on the page as joined, to the side's record (40.0 us).
mkdir -p "$tmp/sw1_event0/ASCEND_PROFILER_OUTPUT"
cp "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$tmp/sw1_event0/ASCEND_PROFILER_OUTPUT/"
sed 's/"Event 2"/"Event 0"/; s/"Event Id": 2$/"Event Id": 0/' "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/trace_view.json" \
    >"$tmp/sw1_event0/ASCEND_PROFILER_OUTPUT/trace_view.json"
check 0 "2 event edges" -- timeline "$tmp/sw1_event0" -o "$tmp/sw1_event0.html"
grep -q '"ep":\[1,2,10200,40000,1,2\]' "$tmp/sw1_event0.html" && ok || fail "sw1_event0 page: the episode joined by event 0 is not joined"
# Free below the files' precision is 0: a communication kernel ending 0.001 us after the last
# compute kernel makes E2E 10.001 against 10.000 of Computing.
printf '%s\nk,AI_CORE,0,10,8,1\nc,COMMUNICATION,0,10.001,0,2\n' "$sw1h" >"$tmp/sw1_free_eps.csv"
check 0 "E2E              10.001" "Free              0.000" -- summary "$tmp/sw1_free_eps.csv"

# ---- bad input: exit 2, one line, file:line:column -----------------------------------------------------------
bad=$fx/bad
for cmd in summary doctor timeline; do
    o=()
    [ "$cmd" = timeline ] && o=(-o "$tmp/never.html")
    refuse "^aclcpu $cmd: error: /no/such/profile: no such file or directory$" $cmd "${o[@]}" /no/such/profile
    refuse "unknown_column.csv:1:256: unknown column 'Queue Depth'" $cmd "${o[@]}" "$bad/unknown_column.csv"
    refuse "missing_column.csv:1:1: missing column 'Duration\(us\)'" $cmd "${o[@]}" "$bad/missing_column.csv"
    refuse "bad_number.csv:3:48: column 'Duration\(us\)': '5.0x0' is not a time in us" $cmd "${o[@]}" "$bad/bad_number.csv"
    refuse "short_row.csv:3:1: this row has 5 fields, the header has 21" $cmd "${o[@]}" "$bad/short_row.csv"
    refuse "unterminated_quote.csv:2:18: unterminated quoted field" $cmd "${o[@]}" "$bad/unterminated_quote.csv"
    refuse "empty.csv:1:1: empty file" $cmd "${o[@]}" "$bad/empty.csv"
    refuse "empty_profile/ASCEND_PROFILER_OUTPUT/kernel_details.csv:2:1: the profile is empty" $cmd "${o[@]}" "$bad/empty_profile"
    refuse "truncated_trace/ASCEND_PROFILER_OUTPUT/trace_view.json:[0-9]+:[0-9]+: unexpected end of the file .*is not closed" \
        $cmd "${o[@]}" "$bad/truncated_trace"
    refuse "truncated_summary/ASCEND_PROFILER_OUTPUT/summary.json:[0-9]+:[0-9]+: unexpected end of the file.*the object opened at 1:1 is not closed" \
        $cmd "${o[@]}" "$bad/truncated_summary"
    refuse "not_json/ASCEND_PROFILER_OUTPUT/trace_view.json:2:15: expected a member name" $cmd "${o[@]}" "$bad/not_json"
    # Only a byte-order mark: empty, not a header named by the mark.
    refuse "bom_only.csv:1:1: empty file" $cmd "${o[@]}" "$bad/bom_only.csv"
    refuse "negative_count.csv:2:60: column 'Block Num': '-8' is not a whole number >= 0" $cmd "${o[@]}" "$bad/negative_count.csv"
    # \uD800 must be followed by a low surrogate (\uDC00-\uDFFF); \uE000 is above them.
    refuse 'bad_surrogate/ASCEND_PROFILER_OUTPUT/trace_view.json:2:24: bad \\u escape \(a high surrogate without its low half\)' \
        $cmd "${o[@]}" "$bad/bad_surrogate"
    # A byte that is not printable ASCII is named by its value, never written raw into the message.
    refuse "non_ascii_json/ASCEND_PROFILER_OUTPUT/trace_view.json:2:10: expected a value but found byte 0xc3$" \
        $cmd "${o[@]}" "$bad/non_ascii_json"
done

# summary.json's contention is read like its other lists: a missing field is named where it is.
mkdir -p "$tmp/no_demand"
cp -r "$(prof oversubscribed)/ASCEND_PROFILER_OUTPUT" "$tmp/no_demand/"
sed -i '/"demand_blocks"/d' "$tmp/no_demand/ASCEND_PROFILER_OUTPUT/summary.json"
refuse 'no_demand/ASCEND_PROFILER_OUTPUT/summary.json:[0-9]+:[0-9]+: this item has no "demand_blocks"' doctor "$tmp/no_demand"

# ---- timeline without a browser: the page itself -----------------------------------------------------------
refuse "^aclcpu timeline: error: --width 5" timeline --width 5 "$(prof fixed)"
# The width's range is [200, 20000], both ends included.
refuse "^aclcpu timeline: error: --width 199: a number of pixels from 200 to 20000" timeline --width 199 "$(prof fixed)"
refuse "^aclcpu timeline: error: --width 20001: a number of pixels from 200 to 20000" timeline --width 20001 "$(prof fixed)"
check 0 "wrote $tmp/w200.html: 6 kernels" -- timeline --width 200 "$(prof fixed)" -o "$tmp/w200.html"
check 0 "wrote $tmp/w20000.html: 6 kernels" -- timeline --width 20000 "$(prof fixed)" -o "$tmp/w20000.html"
check 0 "wrote $tmp/fixed.html: 6 kernels on 2 streams, 2 event edges, the measured clock on the toggle" \
    -- timeline "$(prof fixed)" -o "$tmp/fixed.html"
page=$tmp/fixed.html
# The page carries each clock as data (its script draws it; cli_timeline opens it in Chromium).
[ "$(grep -o '"nkernels":6,' "$page" | wc -l)" = 2 ] && ok || fail "page: not 6 + 6 kernels (two clocks)"
[ "$(grep -o '"lanes":\[1,2\]' "$page" | wc -l)" = 2 ] && ok || fail "page: not 2 + 2 lanes"
[ "$(grep -o '"nedges":2,' "$page" | wc -l)" = 2 ] && ok || fail "page: not 2 + 2 event edges"
grep -q '"b":\[24,20,16,4,8,24\],"m":\[0,0,0,0,0,0\]' "$page" && grep -q "Block Num ' + k.b\[j\]" "$page" && ok ||
    fail "page: no Block Num tooltip"
grep -q '"ov":\[\[' "$page" && grep -q '\["Computing","#' "$page" && grep -q '\["Free","#' "$page" && ok ||
    fail "page: no Overlap Analysis lanes"
grep -q '"cores":\[{"pool":0,"name":"cube cores","cap":24,' "$page" && grep -q '{"pool":1,"name":"vector cores","cap":48,' "$page" &&
    ok || fail "page: no cores lanes with the SoC's capacity"
grep -q 'id="clock"' "$page" && ok || fail "page: no clock toggle"
grep -qiE '<link|src=|@import|url\(http|fetch\(' "$page" && fail "page: not self-contained" || ok
check 0 '"kernels": 4' '"event_edges": 0' '"measured_clock": false' -- timeline --json "$a3" -o "$tmp/a3.html"
grep -q 'disabled><label for="clock"> measured clock: not in this profile' "$tmp/a3.html" && ok || fail "a3 page: toggle not disabled"

check 0 '"event_edges": 2' -- timeline --json "$tmp/trace_only" -o "$tmp/t.html"
check 0 '"event_edges": 0' -- timeline --json "$tmp/no_flows" -o "$tmp/t.html"
[ -e "$tmp/never.html" ] && fail "timeline wrote a page for bad input" || ok
# The fork/join episodes the page marks are doctor's, with their own verdicts: the side's span
# from its wait on the fork to its record of the join ([main, side, start ns, end ns, joined,
# verdict 0 real / 2 fake]); never joined, to the end of its last kernel, joined 0; without
# edges there is none.
grep -q '"ep":\[1,2,10200,42000,1,0\]' "$tmp/fixed.html" && ok || fail "fixed page: not one joined real episode 1->2 [10.2, 42] us"
check 0 "2 event edges" -- timeline "$(prof fake_parallel)" -o "$tmp/fp.html"
grep -q '"ep":\[1,2,10200,40000,1,2\]' "$tmp/fp.html" && ok || fail "fake_parallel page: not one joined fake episode 1->2 [10.2, 40] us"
mkdir -p "$tmp/no_join/ASCEND_PROFILER_OUTPUT"
cp "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$tmp/no_join/ASCEND_PROFILER_OUTPUT/"
sed '/"cat": "event",/{N;s/"cat": "event",\n\( *\)"name": "Event 2"/"cat": "elsewhere",\n\1"name": "Event 2"/}' \
    "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/trace_view.json" >"$tmp/no_join/ASCEND_PROFILER_OUTPUT/trace_view.json"
check 0 "1 event edges" -- timeline "$tmp/no_join" -o "$tmp/nj.html"
grep -q '"ep":\[1,2,10200,39800,0,2\]' "$tmp/nj.html" && ok || fail "no_join page: not one unjoined fake episode 1->2 to its last kernel's end (39.8 us)"
# Rows whose Stream ID is N/A (communication) get their own lane; contention spans reach the page.
check 0 "" -- timeline "$fx/ascend_a2_stepid_blockdim.csv" -o "$tmp/a2.html"
grep -q '"lanes":\[-1,2,6\]' "$tmp/a2.html" && ok || fail "a2 page: no lane for the Stream ID N/A rows"
check 0 "" -- timeline "$(prof oversubscribed)" -o "$tmp/over.html"
grep -q '{"pool":1,"name":"vector cores","cap":48,"queued":true,"spans":\[5200,35200,64\]}' "$tmp/over.html" && ok ||
    fail "oversubscribed page: no contention span of 64 vector blocks on 48 cores"
check 0 "0 event edges" -- timeline "$tmp/no_flows" -o "$tmp/nf.html"
grep -q '"ep":\[\]' "$tmp/nf.html" && ok || fail "no_flows page: episodes without edges"

# ---- sweep 4 (issue 19): the readers' and the JSON writer's boundaries and second occurrences ---------
# summary.json is parsed by the command's own JSON reader: each error is named at its line and
# column, every value form is read, and each field's range is checked at its ends.
sw=$tmp/sw2
# sw_prof NAME [FIXTURE]: a profile directory with FIXTURE's (default fixed) files but for
# summary.json, which is read from stdin.
sw_prof() {
    mkdir -p "$sw/$1"
    cp -r "$(prof "${2:-fixed}")/ASCEND_PROFILER_OUTPUT" "$sw/$1/"
    cat >"$sw/$1/ASCEND_PROFILER_OUTPUT/summary.json"
}
# sw_json NAME TEXT: a profile whose summary.json is TEXT (printf's format, so \n is a newline).
sw_json() {
    # shellcheck disable=SC2059  # TEXT is the format on purpose
    printf "$2" | sw_prof "$1"
}
sj=ASCEND_PROFILER_OUTPUT/summary.json
# Lines and columns count from 1 on every line, the column starting again after each newline.
sw_json json_where '{"aclcpu_profile_version": 1,\n "x": [1,\n  2}'
refuse "json_where/$sj:3:4: expected ',' or '\]' in the array opened at 2:7 but found '\}'$" summary "$sw/json_where"
sw_json json_lead0 '{"aclcpu_profile_version": 1, "x": 01}'
refuse "json_lead0/$sj:1:36: bad number$" summary "$sw/json_lead0"
sw_json json_point '{"aclcpu_profile_version": 1, "x": 1.}'
refuse "json_point/$sj:1:36: bad number \(no digits after the decimal point\)$" summary "$sw/json_point"
sw_json json_exp '{"aclcpu_profile_version": 1, "x": 1e+}'
refuse "json_exp/$sj:1:36: bad number \(no digits in the exponent\)$" summary "$sw/json_exp"
sw_json json_minus '{"aclcpu_profile_version": 1, "x": -}'
refuse "json_minus/$sj:1:36: bad number$" summary "$sw/json_minus"
sw_json json_escape '{"aclcpu_profile_version": 1, "x": "\\x"}'
refuse "json_escape/$sj:1:37: bad escape '\\\\x' in a string$" summary "$sw/json_escape"
sw_json json_hex '{"aclcpu_profile_version": 1, "x": "\\u12G4"}'
refuse "json_hex/$sj:1:37: bad \\\\u escape \(expected four hex digits\)$" summary "$sw/json_hex"
# A high surrogate followed by a \u escape below the low surrogates.
sw_json json_low '{"aclcpu_profile_version": 1, "x": "\\ud800\\u0041"}'
refuse "json_low/$sj:1:37: bad \\\\u escape \(a high surrogate without its low half\)$" summary "$sw/json_low"
sw_json json_after '{"aclcpu_profile_version": 1} x'
refuse "json_after/$sj:1:31: unexpected 'x' after the end of the document$" summary "$sw/json_after"
sw_json json_member '{"aclcpu_profile_version": 1, 5: 1}'
refuse "json_member/$sj:1:31: expected a member name \(a string\) but found '5'$" summary "$sw/json_member"
sw_json json_colon '{"aclcpu_profile_version" 1}'
refuse "json_colon/$sj:1:27: expected ':' after the member name \"aclcpu_profile_version\" but found '1'$" summary "$sw/json_colon"
sw_json json_word '{"aclcpu_profile_version": 1, "x": tru}'
refuse "json_word/$sj:1:36: expected a value but found 't'$" summary "$sw/json_word"
sw_json json_ctrl '{"aclcpu_profile_version": 1, "x": "a\tb"}'
refuse "json_ctrl/$sj:1:38: control character 0x09 inside a string \(it must be escaped\)$" summary "$sw/json_ctrl"
sw_json json_instr '{"aclcpu_profile_version": 1, "x": "abc'
refuse "json_instr/$sj:1:40: unexpected end of the file inside the string opened at 1:36$" summary "$sw/json_instr"
sw_json json_eof_name '{"aclcpu_profile_version": 1, "x"'
refuse "json_eof_name/$sj:1:34: unexpected end of the file: the object opened at 1:1 is not closed$" summary "$sw/json_eof_name"
sw_json json_eof_top ''
refuse "json_eof_top/$sj:1:1: unexpected end of the file \(expected a value\)$" summary "$sw/json_eof_top"
# Every value form, empty containers, a byte-order mark and nesting to exactly 256 levels are read;
# object and 255 arrays) are read; the 257th level is refused.
deep=$(printf '%255s' '' | tr ' ' '[')$(printf '%255s' '' | tr ' ' ']')
sw_json json_forms '\357\273\277{"aclcpu_profile_version": 1, "a": [true, false, null, -0.5e+1, 2E-3, 0, -0, 1e5, "\\/"],\n "o": {}, "e": [], "d": '"$deep"'}'
check 0 "E2E              80.400" -- summary "$sw/json_forms"
sw_json json_deep '{"aclcpu_profile_version": 1, "d": ['"$deep"']}'
refuse "json_deep/$sj:1:291: nested deeper than 256 levels$" summary "$sw/json_deep"
# Escapes decode to their bytes (UTF-8 of 1 to 4 bytes at each length's ends, a surrogate pair,
# the highest one) and the JSON writer escapes them back: quote, backslash, \n and \t by name,
# other control bytes (to 0x1f) as \u00XX, bytes above 0x7F as they are.
sw_json json_names '{"aclcpu_profile_version": 1, "measured_kernels": [{"name": "a\\u007f\\u0080\\u07ff\\u0800\\uffff\\ud83d\\ude00\\udbff\\udfff\\"\\\\\\/\\b\\f\\n\\r\\t\\u001fz",\n "engine": "AI_CORE", "launches": 1, "min_us": 0.0005, "avg_us": -0.0004, "max_us": -0.0005}]}'
check 0 -- summary --json "$sw/json_names"
want=$(printf '"name": "a\177\302\200\337\277\340\240\200\357\277\277\360\237\230\200\364\217\277\277\\"\\\\/\\u0008\\u000c\\n\\u000d\\t\\u001fz"')
grep -qF -- "$want" "$tmp/out" && ok || fail "summary --json: the measured kernel's name is not decoded and escaped back byte for byte"
# Rounding to 3 decimals: 0.0005 is 0.001; below half a unit is 0.000, never -0.000.
has '"min_us": 0.001, "avg_us": 0.000, "max_us": -0.001'
# summary.json's fields: the version, the SoC's core counts at both ends of their ranges, whole
# numbers from -1 (an id) or 0 (a count) to 2^31-1, times up to 1e15 us either way, the types.
sw_json sum_version '{"aclcpu_profile_version": 2}'
refuse "sum_version/$sj:1:28: aclcpu_profile_version 2: this aclcpu reads version 1$" summary "$sw/sum_version"
sw_json sum_array '[{"aclcpu_profile_version": 1}]'
refuse "sum_array/$sj:1:1: expected an object, found an array$" summary "$sw/sum_array"
sw_json sum_noversion '{"aclcpu_profile_version": true}'
refuse "sum_noversion/$sj:1:1: no \"aclcpu_profile_version\": not an aclcpu summary.json$" summary "$sw/sum_noversion"
sw_json soc_ends '{"aclcpu_profile_version": 1, "soc": {"name": "Tiny", "cube_cores": 1, "vector_cores": 65536}}'
check 0 "SoC    Tiny: 1 cube / 65536 vector cores (summary.json)" -- summary "$sw/soc_ends"
sw_json soc_wide '{"aclcpu_profile_version": 1, "soc": {"name": "Wide", "cube_cores": 65536, "vector_cores": 0}}'
check 0 "SoC    Wide: 65536 cube / 0 vector cores (summary.json)" -- summary "$sw/soc_wide"
for bad_soc in '"cube_cores": 0, "vector_cores": 48' '"cube_cores": 24, "vector_cores": -1' \
    '"cube_cores": 65537, "vector_cores": 48' '"cube_cores": 24, "vector_cores": 65537' \
    '"cube_cores": "24", "vector_cores": 48' '"cube_cores": 24'; do
    sw_json soc_bad '{"aclcpu_profile_version": 1, "soc": {"name": "X", '"$bad_soc"'}}'
    refuse "soc_bad/$sj:1:38: \"soc\" must be an object with \"name\", \"cube_cores\" \(1..65536\) and \"vector_cores\" \(0..65536\)$" \
        summary "$sw/soc_bad"
    rm -rf "$sw/soc_bad"
done
# The SoC's join cost is its dispatch plus its event latency, each when given (oversubscribed's
# stream 1 idled 20.200 us after its join).
sed 's/^\( *"name": "Ascend910B1",\)$/\1 "dispatch_us": 0.25, "event_us": 0.5,/' "$(prof oversubscribed)/$sj" |
    sw_prof sync_cost oversubscribed
check 1 "Idle beyond the 0.750 us each join costs on this SoC when the stream waited for is on time" -- doctor "$sw/sync_cost"
# limit hits: stream_id -1 and task_id 2^31-1 are read; each field's first value out of range is not.
limit() { echo '{"aclcpu_profile_version": 1, "limits": [{"stream_id": 1, "task_id": 1, "name": "k", "engine": "cube", "block_num": 4, "limit": 2},'"$1"']}'; }
limit '{"stream_id": -1, "task_id": 2147483647, "name": "k", "engine": "vector", "block_num": 0, "limit": 2147483647}' | sw_prof lim_ends
check 0 "E2E              80.400" -- summary "$sw/lim_ends"
# lim_bad FIELDS PATTERN: the second limit hit with FIELDS is refused with PATTERN (a number's
# position is its value's, at 1:146 where the second item's first value is).
lim_bad() {
    limit "{$1}" | sw_prof lim_bad
    refuse "lim_bad/$sj:$2" summary "$sw/lim_bad"
    rm -rf "$sw/lim_bad"
}
l='"name": "k", "engine": "cube", "block_num": 4, "limit": 2'
lim_bad "\"stream_id\": -2, \"task_id\": 1, $l" '1:146: "stream_id" must be a whole number, not -2$'
lim_bad "\"stream_id\": 1, \"task_id\": 2147483648, $l" '1:160: "task_id" must be a whole number, not 2.14748e\+09$'
lim_bad "\"stream_id\": 1.5, \"task_id\": 1, $l" '1:146: "stream_id" must be a whole number, not 1.5$'
lim_bad '"stream_id": 1, "task_id": 1, "name": "k", "engine": "cube", "block_num": -1, "limit": 2' \
    '1:[0-9]+: "block_num" must not be negative$'
lim_bad '"stream_id": 1, "task_id": 1, "name": "k", "engine": "gpu", "block_num": 4, "limit": 2' \
    '1:[0-9]+: "engine" must be "cube" or "vector", not "gpu"$'
lim_bad '"stream_id": 1, "task_id": 1, "name": 5, "engine": "cube", "block_num": 4, "limit": 2' \
    '1:[0-9]+: "name" must be a string, not a number$'
lim_bad '"stream_id": "1", "task_id": 1, "name": "k", "engine": "cube", "block_num": 4, "limit": 2' \
    '1:[0-9]+: "stream_id" must be a number, not a string$'
limit 5 | sw_prof lim_item
refuse "lim_item/$sj:1:132: expected an object, found a number$" summary "$sw/lim_item"
# Times: 1e15 us either way is read, beyond it is not.
bw='{"aclcpu_profile_version": 1, "batch_waits": [{"stream_id": 2, "task_id": 2, "name": "k", "engine": "vector", "block_num": 8,'
echo "$bw"' "ready_us": -1e15, "start_us": 1e15, "wait_us": 0}]}' | sw_prof time_ends
check 0 "E2E              80.400" -- summary "$sw/time_ends"
echo "$bw"' "ready_us": 0, "start_us": 1.5e15, "wait_us": 0}]}' | sw_prof time_big
refuse "time_big/$sj:1:[0-9]+: \"start_us\" must be a time in us, not 1.5e\+15$" summary "$sw/time_big"
echo "$bw"' "ready_us": -1.5e15, "start_us": 0, "wait_us": 0}]}' | sw_prof time_small
refuse "time_small/$sj:1:[0-9]+: \"ready_us\" must be a time in us, not -1.5e\+15$" summary "$sw/time_small"
# The lists must be arrays and core_usage an object; the kernels of every contention interval are
# read, the second's too.
sw_json list_type '{"aclcpu_profile_version": 1, "event_waits": {}}'
refuse "list_type/$sj:1:46: \"event_waits\" must be an array, not an object$" summary "$sw/list_type"
sw_json usage_type '{"aclcpu_profile_version": 1, "core_usage": []}'
refuse "usage_type/$sj:1:45: \"core_usage\" must be an object, not an array$" summary "$sw/usage_type"
span='{"engine": "cube", "start_us": 0, "end_us": 1, "demand_blocks": 30, "kernels": [{"stream_id": 1, "task_id": 1}]}'
sw_json second_span '{"aclcpu_profile_version": 1, "core_usage": {"contention": ['"$span"',\n {"engine": "cube", "start_us": 2, "end_us": 3, "demand_blocks": 30, "kernels": [{"stream_id": 1}]}]}}'
refuse "second_span/$sj:2:82: this item has no \"task_id\"$" summary "$sw/second_span"
# The facts (limits, waits, contention) are the modelled clock's: the measured clock does not read them.
sw_json facts_clock '{"aclcpu_profile_version": 1, "limits": 5}'
refuse "facts_clock/$sj:1:41: \"limits\" must be an array, not a number$" summary "$sw/facts_clock"
check 0 "clock  measured" -- summary --clock measured "$sw/facts_clock"
# kernel_details.csv: CRLF line ends and a blank line between rows, a quoted name over two lines,
# times written "+1", ".5" and "5.", durations rounded at the fourth decimal only (0.00045 is
# 0.000; 0.0005 is 0.001).
hdr='Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID'
printf '%s\r\nk1,AI_CORE,+1,5,8,1\r\n\r\nk2,AI_VECTOR_CORE,.5,0.00045,8,2\r\n"q\nr" ,AI_CORE,10,0.0005,8,1\r\nk3,AI_CORE,5.,1,8,1\r\n' \
    "$hdr" >"$tmp/sw2_crlf.csv"
check 0 '"files": "sw2_crlf.csv (4 rows, Block Num)"' '"e2e_us": 9.501' \
    '"name": "k2", "engine": "AI_VECTOR_CORE", "count": 1, "total_us": 0.000' \
    '"name": "q\nr", "engine": "AI_CORE", "count": 1, "total_us": 0.001' -- summary --json "$tmp/sw2_crlf.csv"
# Lines go on counting past a quoted newline and a CRLF: the bad time is on line 4.
printf '%s\r\n"q\nr",AI_CORE,1,1,8,1\r\nk,AI_CORE,1x,1,8,1\r\n' "$hdr" >"$tmp/sw2_lines.csv"
refuse "sw2_lines.csv:4:11: column 'Start Time\(us\)': '1x' is not a time in us$" summary "$tmp/sw2_lines.csv"
printf '%s\n"q\nr" x,AI_CORE,1,1,8,1\n' "$hdr" >"$tmp/sw2_afterquote.csv"
refuse "sw2_afterquote.csv:3:4: unexpected 'x' after a closing quote \(expected ',' or the end of the line\)$" \
    summary "$tmp/sw2_afterquote.csv"
# Engines: the names in any case; any core naming HCCL or COMMUNICATION is communication (not
# computing time).
printf '%s\nh,HCCL,0,4,0,1\nx,hcom_Communication_x,5,3,0,1\nv,ai_vector_core,10,2,8,1\n' "$hdr" >"$tmp/sw2_engines.csv"
check 0 '"computing_us": 2.000' '"name": "h", "engine": "COMMUNICATION"' '"name": "x", "engine": "COMMUNICATION"' \
    '"name": "v", "engine": "AI_VECTOR_CORE"' -- summary --json "$tmp/sw2_engines.csv"
# ACLCPU_SOC set but empty is the same as unset.
ACLCPU_SOC='' check 0 "assumed: the profile in force (ACLCPU_SOC unset, the default); pass --soc" -- summary "$tmp/sw2_engines.csv"
# Notify tasks wait and record like event tasks: fake_parallel's barrier found through NOTIFY_WAIT
# and NOTIFY_RECORD (no flows: the record is found by its Event Id), and the page marks the waits.
mkdir -p "$sw/notify/ASCEND_PROFILER_OUTPUT"
cp "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$sw/notify/ASCEND_PROFILER_OUTPUT/"
sed 's/"cat": "event"/"cat": "elsewhere"/; s/EVENT_WAIT/NOTIFY_WAIT/; s/EVENT_RECORD/NOTIFY_RECORD/' \
    "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/trace_view.json" >"$sw/notify/ASCEND_PROFILER_OUTPUT/trace_view.json"
check 1 "on event 2 recorded on stream 2, which held stream 1 for 29.800 us" -- doctor "$sw/notify"
check 0 "" -- timeline "$sw/notify" -o "$tmp/sw2_notify.html"
grep -q '"w":\[1,0,1,0\]' "$tmp/sw2_notify.html" && ok || fail "notify page: the NOTIFY_WAIT tasks are not marked as waits"
# summary's lists at their limits: three wide launches are all listed, a fourth is counted; a
# contention interval names four kernels, a fifth is "..."; --top 0 lists none; one Step Id is
# no steps line.
for n in 3 4 5; do
    { echo "$hdr"; for i in $(seq 1 "$n"); do echo "w$i,AI_VECTOR_CORE,$((i * 10)),5,52,1"; done; } >"$tmp/sw2_wide$n.csv"
    { echo "$hdr"; for i in $(seq 1 "$n"); do echo "k$i,AI_CORE,0,5,7,$i"; done; } >"$tmp/sw2_span$n.csv"
done
check 0 "wider than the cores alone: w3 (stream 1) 52 blocks, 1 launch, 2 waves" -- summary "$tmp/sw2_wide3.csv"
lacks "more wider than the cores"
check 0 "wider than the cores alone: w3 (stream 1)" "... 1 more wider than the cores (--json lists them)" -- summary "$tmp/sw2_wide4.csv"
lacks "w4 (stream 1)"
check 0 "[0.000, 5.000] asks 28: k1 (stream 1, 7), k2 (stream 2, 7), k3 (stream 3, 7), k4 (stream 4, 7)" -- summary "$tmp/sw2_span4.csv"
lacks "k4 (stream 4, 7), ..."
check 0 "asks 35: k1 (stream 1, 7), k2 (stream 2, 7), k3 (stream 3, 7), k4 (stream 4, 7), ..." -- summary "$tmp/sw2_span5.csv"
lacks "k5 (stream 5"
check 0 "... 4 more (--top)" -- summary --top 0 "$tmp/sw2_span4.csv"
lacks "k1 AI_CORE"
printf 'Step Id,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n7,a,AI_CORE,0,5,8,1\n7,b,AI_CORE,6,5,8,1\n' \
    >"$tmp/sw2_one_step.csv"
check 0 "(2 rows, Block Num, Step Id)" -- summary "$tmp/sw2_one_step.csv"
lacks "steps  "
# A limit hit belongs to the step of its kernel (by stream and task id): the last step, judged by
# default, has none; step 1 has it.
mkdir -p "$sw/step_limit/ASCEND_PROFILER_OUTPUT"
{
    echo "Step Id,Task ID,Stream ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Mix Block Num"
    echo "1,2,2,attn,AI_VECTOR_CORE,0,60,40,0"
    echo "1,3,3,gate,AI_VECTOR_CORE,10,30,8,0"
    echo "2,4,2,attn,AI_VECTOR_CORE,100,60,40,0"
    echo "2,5,3,gate,AI_VECTOR_CORE,110,30,8,0"
} >"$sw/step_limit/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
echo '{"aclcpu_profile_version": 1, "limits": [{"stream_id": 2, "task_id": 2, "name": "attn", "engine": "vector", "block_num": 40, "limit": 16}]}' \
    >"$sw/step_limit/ASCEND_PROFILER_OUTPUT/summary.json"
"$aclcpu" doctor "$sw/step_limit" >"$tmp/out" 2>&1
last="aclcpu doctor step_limit"
lacks "over the core limit"
check 1 "Block Num over the core limit: stream 2 launched attn with 40 vector blocks under a limit of 16" \
    -- doctor --step 1 "$sw/step_limit"
# trace_view.json in its other forms: an object holding "traceEvents", ts as numbers, dur and the
# args' ids as numeric strings, flow ids as strings: fake_parallel's barrier and edges all the same.
tv=ASCEND_PROFILER_OUTPUT/trace_view.json
fp_trace=$(prof fake_parallel)/$tv
# sw_trace NAME: a profile of fake_parallel's kernel_details.csv and the trace_view.json on stdin.
sw_trace() {
    mkdir -p "$sw/$1/ASCEND_PROFILER_OUTPUT"
    cp "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$sw/$1/ASCEND_PROFILER_OUTPUT/"
    cat >"$sw/$1/$tv"
}
{
    echo '{"otherData": {}, "traceEvents":'
    sed 's/"ts": "\([0-9.]*\)"/"ts": \1/; s/"dur": \([0-9.]*\)/"dur": "\1"/; s/"\(Stream Id\|Task Id\|Event Id\)": \([0-9]*\)/"\1": "\2"/
        s/"id": \([0-9]*\)/"id": "e\1"/' "$fp_trace"
    echo '}'
} | sw_trace trace_forms
check 1 "on event 2 recorded on stream 2, which held stream 1 for 29.800 us" -- doctor "$sw/trace_forms"
check 0 "6 kernels on 2 streams, 2 event edges" -- timeline "$sw/trace_forms" -o "$tmp/sw2_forms.html"
# The Overlap Analysis lanes are found by their thread names (Computing and Free swapped here),
# and without those names by their tids (0 Computing ... 3 Free: Free's intervals moved to tid 2
# here, Communication(Not Overlapped), so that they differ from the lanes drawn from the kernels).
sed 's/"name": "Computing"/"name": "Free_"/; s/"name": "Free"/"name": "Computing"/; s/"name": "Free_"/"name": "Free"/' \
    "$fp_trace" | sw_trace lanes_swapped
check 0 "" -- timeline "$sw/lanes_swapped" -o "$tmp/sw2_lanes.html"
grep -q '"ov":\[\[10000,10200,39800,40000\],\[\],\[\],\[0,10000,10200,39800,40000,112000\]\]' "$tmp/sw2_lanes.html" &&
    ok || fail "lanes_swapped page: the lanes are not taken by their thread names"
sed '/"pid": 3,/{n;s/"name": "thread_name"/"name": "thread_label"/;s/"tid": 3,/"tid": 2,/}' "$fp_trace" | sw_trace lanes_by_tid
check 0 "" -- timeline "$sw/lanes_by_tid" -o "$tmp/sw2_lanes.html"
grep -q '"ov":\[\[0,10000,10200,39800,40000,112000\],\[\],\[10000,10200,39800,40000\],\[\]\]' "$tmp/sw2_lanes.html" &&
    ok || fail "lanes_by_tid page: the unnamed lanes are not taken by their tids"
# The first "Ascend Hardware" process is the device's: a second one named later changes nothing.
sed '$ s/^]$/, {"ph": "M", "pid": 9, "name": "process_name", "args": {"name": "Ascend Hardware"}}]/' "$fp_trace" |
    sw_trace second_hw
check 1 "on event 2 recorded on stream 2, which held stream 1 for 29.800 us" -- doctor "$sw/second_hw"
# A device task needs a string name, a tid >= 0, a ts in us and a dur from 0 (included) to 1e15
# (excluded), each refused at the event; any other event that is not an object is refused too.
hw='{"ph": "M", "pid": 2, "name": "process_name", "args": {"name": "Ascend Hardware"}}'
# sw_task FIELDS: a trace of one device task with FIELDS on line 2.
sw_task() { printf '[%s,\n {"ph": "X", "pid": 2, %s}]' "$hw" "$1" | sw_trace task; }
task_bad() {
    sw_task "$1"
    refuse "task/$tv:2:2: $2$" doctor "$sw/task"
    rm -rf "$sw/task"
}
task_bad '"tid": 1, "ts": "1", "dur": 1' 'a device task \("ph":"X"\) without a string "name"'
task_bad '"name": "k", "tid": -1, "ts": "1", "dur": 1' "device task 'k' has no \"tid\" \(the stream id, a whole number >= 0\)"
task_bad '"name": "k", "tid": 1, "ts": "1x", "dur": 1' "device task 'k' has no \"ts\" in us"
task_bad '"name": "k", "tid": 1, "ts": 1, "dur": -1' "device task 'k' has no \"dur\" in us"
task_bad '"name": "k", "tid": 1, "ts": 1, "dur": 1e15' "device task 'k' has no \"dur\" in us"
sw_task '"name": "k", "tid": 0, "ts": 1, "dur": 0'
check 1 "fake parallelism" -- doctor "$sw/task"
rm -rf "$sw/task"
printf '[%s, 5]' "$hw" | sw_trace task
refuse "task/$tv:1:86: a trace event must be an object, this is a number$" doctor "$sw/task"
rm -rf "$sw/task"
echo '[{"ph": "M", "pid": 2, "name": "process_name", "args": {"name": "Ascend Software"}}]' | sw_trace task
refuse "task/$tv:1:1: no \"Ascend Hardware\" process \(process_name metadata\): no device tasks$" doctor "$sw/task"
rm -rf "$sw/task"
echo '{"traceEvent": []}' | sw_trace task
refuse "task/$tv:1:1: expected an array of trace events \(or an object with \"traceEvents\"\), found an object$" doctor "$sw/task"
# Options: "--name=value", a flag given a value, a short option never takes "=", "--" ends the
# options (then "--help" and "-x" are arguments), "-" alone is an argument, 16 repeats and not 17.
check 0 "k1                                       AI_CORE" "... 3 more (--top)" -- summary --top=1 "$tmp/sw2_span4.csv"
refuse "^aclcpu summary: error: option --json takes no value" summary --json=1 "$tmp/sw2_span4.csv"
refuse "^aclcpu timeline: error: unknown option '-o=x.html'" timeline -o=x.html "$tmp/sw2_span4.csv"
cp "$tmp/sw2_span4.csv" "$tmp/-sw2.csv"
abs_aclcpu=$(cd "$(dirname "$aclcpu")" && pwd)/$(basename "$aclcpu")
if (cd "$tmp" && "$abs_aclcpu" summary --json -- -sw2.csv) >"$tmp/out" 2>"$tmp/err" &&
    grep -qF '"files": "-sw2.csv (4 rows, Block Num)"' "$tmp/out"; then ok; else fail "summary -- -sw2.csv: not read as a file"; fi
refuse "^aclcpu summary: error: --help: no such file or directory$" summary -- --help
refuse "^aclcpu summary: error: -: no such file or directory$" summary -
reps=()
for _ in $(seq 16); do reps+=(--top 1); done
check 0 "... 3 more (--top)" -- summary "${reps[@]}" "$tmp/sw2_span4.csv"
refuse "^aclcpu summary: error: option --top given more than 16 times" summary "${reps[@]}" --top 1 "$tmp/sw2_span4.csv"
# help alone is the command list, as -h is; help of no command is refused.
check 0 "commands:" -- help
check 0 "commands:" -- -h
refuse "^aclcpu: error: no command 'nosuch'" help nosuch
# --width from 200 to 20000, both ends included.
for w in 200 20000; do check 0 "4 kernels on 4 streams" -- timeline --width "$w" "$tmp/sw2_span4.csv" -o "$tmp/sw2_w.html"; done
for w in 199 20001; do refuse "^aclcpu timeline: error: --width $w: a number of pixels from 200 to 20000" \
    timeline --width "$w" "$tmp/sw2_span4.csv" -o "$tmp/sw2_w.html"; done
# --main names any stream with a task, one with trace tasks only too; stream 0 is a stream like any
# other (refused here: no task ran on it). --step 0 is a step number (none has it), -1 is not.
check 0 "main stream 2: named by --main" -- summary --main 2 "$(prof single_stream)"
refuse "^aclcpu summary: error: --main 0: no task of this profile ran on stream 0" summary --main 0 "$(prof single_stream)"
refuse "^aclcpu summary: error: .*--step 0: no kernel row has that Step Id$" summary --step 0 "$a2"
refuse "^aclcpu summary: error: --step -1: not a step number" summary --step -1 "$a2"
# ACLCPU_SOC set but empty: the default SoC, said to be the default.
ACLCPU_SOC='' check 0 "SoC      Ascend910B1 (default)" -- info
# A file cut after a member's colon names the one object left open (the outermost).
sw_json json_eof_value '{"aclcpu_profile_version":'
refuse "json_eof_value/$sj:1:27: unexpected end of the file \(expected a value\): the object opened at 1:1 is not closed$" \
    summary "$sw/json_eof_value"
# The page's data of two steps on two streams, exactly: starts, Step Ids and task ids as deltas
# (task ids from the previous kernel of the same lane), names and engines by table index, each
# step's span, Computing and the Free between (drawn from the kernels: no trace here).
printf 'Step Id,Task ID,Stream ID,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Mix Block Num\n1,5,1,a,AI_CORE,0,4,8,0\n1,9,2,b,MIX_AIC,1,2,8,4\n2,6,1,c,AI_VECTOR_CORE,10,3,16,0\n2,12,2,a,AI_CORE,11,1,8,0\n' \
    >"$tmp/sw2_page.csv"
check 0 "4 kernels on 2 streams" -- timeline "$tmp/sw2_page.csv" -o "$tmp/sw2_page.html"
for want in '"k":{"s":[0,1000,9000,1000],"d":[4000,2000,3000,1000],"l":[0,1,0,1],"e":[0,2,1,0],"st":[1,0,1,0],"n":[0,1,2,0],"i":[3,4,5,3],"id":[5,9,1,3],"b":[8,8,16,8],"m":[0,4,0,0]}' \
    '"steps":[1,0,4000,2,10000,13000]' '"ov":[[0,4000,10000,13000],[],[],[4000,10000]]' \
    '"names":["a","b","c","AI_CORE","MIX_AIC","AI_VECTOR_CORE"]'; do
    grep -qF -- "$want" "$tmp/sw2_page.html" && ok || fail "sw2_page.html lacks $want"
done
# A field of another type than a number or a string (null here) is refused as such too.
lim_bad '"stream_id": null, "task_id": 1, "name": "k", "engine": "cube", "block_num": 4, "limit": 2' \
    '1:146: "stream_id" must be a number, not null$'
lim_bad '"stream_id": 1, "task_id": 1, "name": "k", "engine": [], "block_num": 4, "limit": 2' \
    '1:[0-9]+: "engine" must be a string, not an array$'
# --step keeps summary.json's facts of the step only: oversubscribed with prep as step 1 and the
# rest as step 2 has neither the batch wait nor the contention of [5.2, 35.2] in step 1.
mkdir -p "$sw/over_steps"
cp -r "$(prof oversubscribed)/ASCEND_PROFILER_OUTPUT" "$sw/over_steps/"
awk 'NR == 1 { print "Step Id," $0; next } { print (NR == 2 ? "1," : "2,") $0 }' \
    "$(prof oversubscribed)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" >"$sw/over_steps/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
check 1 "2. [3c] batch-mode kernel could not start: moe_dispatch (stream 2) waited 30.000 us" -- doctor "$sw/over_steps"
check 1 "all 1 kernels ran on stream 1" "Verdict: 1 finding." -- doctor --step 1 "$sw/over_steps"
lacks "batch-mode kernel could not start"
check 0 "vector peak 8 of 48 cores: within the cores" -- summary --step 1 "$sw/over_steps"
# And the trace's edges and Overlap Analysis lanes of the step only (those that touch its span
# count), the lanes clipped to it.
if [ -n "$profiles" ]; then
    check 0 "4 kernels on 2 streams, 3 event edges" -- timeline --step 2 "$(rp fj_late_steps)" -o "$tmp/sw2_step.html"
    grep -qF '"ov":[[85000,170000],[],[],[]]' "$tmp/sw2_step.html" && ok || fail "fj_late_steps --step 2 page: lanes not clipped to the step"
fi
# A profile of one zero-length kernel: E2E 0, and no share of it is a percentage ("-", not nan).
printf 'Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\nz,AI_CORE,5,0,8,1\n' >"$tmp/sw2_zero.csv"
check 0 "Computing         0.000  -" "Free              0.000  -" \
    "         1        1        0.000       -        0.000        0.000        0.000" -- summary "$tmp/sw2_zero.csv"
lacks "nan"
# Blanks and TABs around a field are trimmed inside quotes too (the name and a quoted duration);
# a Stream ID of NA or nothing is N/A like "N/A".
printf '%s\n"\t k5 \t",AI_CORE, 0 ,"  5\t",8,1\nn1,AI_CORE,1,1,8,NA\nn2,AI_CORE,2,1,8,\n' "$hdr" >"$tmp/sw2_na.csv"
check 0 "(2 kernel rows have Stream ID N/A and are left out here)" -- summary "$tmp/sw2_na.csv"
check 0 '"e2e_us": 5.000' '"name": "k5", "engine": "AI_CORE", "count": 1, "total_us": 5.000' -- summary --json "$tmp/sw2_na.csv"
# summary.json's contention: "ready at once up to" is the most any interval asked, not the last's.
sw_json most_asked '{"aclcpu_profile_version": 1, "soc": {"name": "Ascend910B1", "cube_cores": 24, "vector_cores": 48},\n "core_usage": {"contention": [{"engine": "vector", "start_us": 0, "end_us": 5, "demand_blocks": 64, "kernels": [{"stream_id": 1, "task_id": 1}]},\n {"engine": "vector", "start_us": 10, "end_us": 12, "demand_blocks": 50, "kernels": [{"stream_id": 2, "task_id": 2}]}]}}'
check 0 "ready at once up to 64: over the cores for 7.000 us in 2 intervals (kernels queued; summary.json)" \
    "[10.000, 12.000] asks 50: shared_expert_gate (stream 2, 16)" -- summary "$sw/most_asked"
# A lane interval that only touches the step's span is clipped to nothing and dropped:
# fake_parallel with rms_norm as step 1 and the rest as step 2 (from 10.2 us) keeps no Free
# [10.2, 10.2]. A Step Id of 0 is a step like the others.
mkdir -p "$sw/fp_steps/ASCEND_PROFILER_OUTPUT"
cp "$fp_trace" "$sw/fp_steps/$tv"
awk 'NR == 1 { print "Step Id," $0; next } { print (NR == 2 ? "1," : "2,") $0 }' \
    "$(prof fake_parallel)/ASCEND_PROFILER_OUTPUT/kernel_details.csv" >"$sw/fp_steps/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
check 0 "5 kernels on 2 streams" -- timeline --step 2 "$sw/fp_steps" -o "$tmp/sw2_fp_steps.html"
grep -qF '"ov":[[10200,39800,40000,112000],[],[],[39800,40000]]' "$tmp/sw2_fp_steps.html" && ok ||
    fail "fp_steps --step 2 page: a lane interval clipped to nothing is kept"
printf 'Step Id,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n0,a,AI_CORE,0,5,8,1\n1,b,AI_CORE,6,5,8,1\n' \
    >"$tmp/sw2_step0.csv"
check 0 "steps  2 (Step Id 0..1; --step N for one)" -- summary "$tmp/sw2_step0.csv"

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
