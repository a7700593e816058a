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
for cmd in info advise; do
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

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
