#!/usr/bin/env bash
# run.sh ACLCPU FIXTURES - tests the aclcpu command on the fixtures of
# tests/cli/fixtures/ (see make_fixtures.py there for what each shows):
# --help on every subcommand, usage errors, info, advise, summary, doctor's
# verdict on each profile (aclcpu's and Ascend-shaped CSVs), its numbers
# against the fixtures' own summary.json, and every bad input (exit 2 and
# one line naming file:line:column). CTest runs it (test "cli").
# Exit 0 when every check passed, 1 otherwise.
set -u

aclcpu=${1:?usage: run.sh ACLCPU FIXTURES}
fx=${2:?usage: run.sh ACLCPU FIXTURES}
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
for cmd in info summary advise; do
    check 0 "usage: aclcpu $cmd" "--help" -- "$cmd" --help
    check 0 "usage: aclcpu $cmd" -- help "$cmd"
done
check 0 "commands:" "advise" "Exit codes" -- --help
check 0 "aclcpu 0." -- --version
refuse "^aclcpu: error: no command given"
refuse "^aclcpu: error: no command 'frobnicate'" frobnicate
refuse "^aclcpu info: error: unexpected argument" info extra


# ---- info ---------------------------------------------------------------------------------------
check 0 "* Ascend910B1" "Ascend310P3" "Ascend950PR" "SoC      Ascend910B1 (default)" "ACLCPU_SOC " \
    "ACLCPU_WORKERS" "ACLCPU_HANG_TIMEOUT_MS" "ASCEND_GLOBAL_LOG_LEVEL" "ACLCPU_PROFILE" -- info
ACLCPU_SOC=Ascend310P3 ACLCPU_WORKERS=3 check 0 "* Ascend310P3" "cores    8 cube, 7 vector" \
    "workers  3 per device (ACLCPU_WORKERS)" "memory   24.00 GiB" -- info
ACLCPU_SOC=NoSuchSoc check 0 "ACLCPU_SOC=NoSuchSoc is not a profile" "* Ascend910B1" -- info
ACLCPU_SOC=Ascend950PR ACLCPU_DEVICE_MEMORY=2G check 0 '"soc": "Ascend950PR"' '"device_memory_bytes": 2147483648' \
    '"name": "ACLCPU_DEVICE_MEMORY"' '"value": "2G"' -- info --json


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
check 0 "Streams" "not known: kernel_details.csv has no Stream ID column" -- summary "$tmp/nostream.csv"
printf 'Device_id,Name,Accelerator Core,Start Time(us),Duration(us),Block Num,Stream ID\n0,k,AI_CORE,0,5,8,1\n1,k,AI_CORE,9,5,8,1\n' >"$tmp/twodev.csv"
refuse "twodev.csv:3:1: rows of device 1 here and of device 0 at line 2" summary "$tmp/twodev.csv"


# ---- bad input: exit 2, one line, file:line:column -----------------------------------------------------------
bad=$fx/bad
for cmd in summary; do
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
done

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
