#!/usr/bin/env bash
# stress.sh ACLCPU PLANTED_RACE - `aclcpu stress` on the planted race of
# examples/stress: the racy program must draw a difference within 20 seeds
# (exit 1, the seeds listed), its fixed twin none (exit 0); and the usage
# errors. CTest runs it (test "cli_stress"). Exit 0 when every check passed.
set -u
aclcpu=${1:?usage: stress.sh ACLCPU PLANTED_RACE}
race=${2:?usage: stress.sh ACLCPU PLANTED_RACE}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aclcpu-stress.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset ACLCPU_SCHED ACLCPU_SOC ACLCPU_WORKERS
failed=0
fail() {
    failed=1
    echo "FAIL: $*"
    sed 's/^/  out| /' "$tmp/out" | head -n 30
}
# expect RC PATTERN ARGS...: runs aclcpu ARGS; checks the exit code and that stdout matches PATTERN.
expect() {
    local want=$1 pat=$2
    shift 2
    "$aclcpu" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ "$rc" = "$want" ] || fail "aclcpu $* exited $rc, expected $want"
    grep -Eq -- "$pat" "$tmp/out" "$tmp/err" || fail "aclcpu $*: no line matches '$pat'"
}

expect 1 "^Verdict: [0-9]+ of 20 seeds differ from seed 1: " stress -n 20 -- "$race"
grep -q "output differs at line 1: \"sum " "$tmp/out" || fail "the racy run names no differing sum"
expect 0 "^Verdict: all 20 seeds agree\.$" stress -n 20 -- "$race" --fixed
grep -q "seed 1: exit 0, 12 bytes of output (the reference)" "$tmp/out" || fail "the reference run is not described"
# A seeded schedule keeps the guaranteed orders: the fixed twin prints the whole sum every time.
for seed in 3 7 11; do
    out=$(ACLCPU_SCHED=random:$seed "$race" --fixed)
    [ "$out" = "sum 8390656" ] || { failed=1; echo "FAIL: seed $seed printed '$out'"; }
done
# The library says which schedule it plays, and ignores a value that is not random:<seed>.
log=$(ACLCPU_SCHED=random:5 ASCEND_GLOBAL_LOG_LEVEL=1 ASCEND_SLOG_PRINT_TO_STDOUT=1 "$race" --fixed 2>&1)
echo "$log" | grep -q "ACLCPU_SCHED: seeded schedule 5 on device 0" || { failed=1; echo "FAIL: no seeded-schedule line: $log"; }
for bad in "random:" "random:x" "random:12z" "chaos" "random:-1"; do
    log=$(ACLCPU_SCHED=$bad ASCEND_GLOBAL_LOG_LEVEL=1 ASCEND_SLOG_PRINT_TO_STDOUT=1 "$race" --fixed 2>&1)
    echo "$log" | grep -q "ACLCPU_SCHED=$bad is not random:<seed>" || { failed=1; echo "FAIL: '$bad' drew no warning"; }
    echo "$log" | grep -q "seeded schedule" && { failed=1; echo "FAIL: '$bad' turned a seeded schedule on"; }
    echo "$log" | grep -q "^sum 8390656$" || { failed=1; echo "FAIL: '$bad': the program did not run"; }
done
# --check: each run under the race checker; the race is reported from the order of calls in
# every run (exit 66), the fixed twin draws no report.
expect 1 "^The race checker reported in 5 of 5 runs" stress -n 5 --check -- "$race"
grep -q "==aclcpu-check== unsynchronised cross-stream write-read race" "$tmp/err" || fail "--check: no checker report on stderr"
grep -q "each under the race checker (ACLCPU_CHECK=1)" "$tmp/out" || fail "--check: the header does not say the checker is on"
expect 0 "^Verdict: all 5 seeds agree\.$" stress -n 5 --check -- "$race" --fixed
grep -q "race checker reported" "$tmp/out" && fail "--check: the fixed twin drew a report"
# The exit status is part of the result: runs that print the same but end differently differ.
expect 1 "^Verdict: 1 of 2 seeds differ from seed 1: 2\\." stress -n 2 -- sh -c 'exit $((${ACLCPU_SCHED#random:} % 2))'
grep -q "seed 2: exit 0 (seed 1: exit 1)" "$tmp/out" || fail "the differing exit status is not named"
expect 2 "no program" stress -n 3
expect 2 "seeds 0: a count" stress -n 0 -- "$race"
expect 2 "cannot run /no/such/program" stress -n 2 -- /no/such/program
expect 0 "usage: aclcpu stress" stress --help
# ---- sweep 4 (issue 19): stress's limits and its report of several differences ----------------------
# Every seed listed, in order and comma-separated; a line missing from a run is "(no more output)";
# a different exit status is said apart from the output; --from 0 and --timeout 86400 are taken,
# --timeout 0 and 86401 and --seeds 100001 are not.
expect 1 "^Verdict: 2 of 4 seeds differ from seed 1: 2, 4\\." stress -n 4 -- sh -c 'exit $(((${ACLCPU_SCHED#random:} + 1) % 2))'
expect 1 "^  seed 2: output differs at line 2: \"\\(no more output\\)\" \\(seed 1: \"b\"\\)$" \
    stress -n 2 -- sh -c 'echo a; [ "${ACLCPU_SCHED#random:}" = 1 ] && echo b'
grep -qx '  seed 2: exit 1 (seed 1: exit 0)' "$tmp/out" || fail "stress: the differing exit status is not said"
expect 1 "^  seed 2: output differs at line 2: \"c\" \\(seed 1: \"b\"\\)$" \
    stress -n 2 -- sh -c 'echo a; [ "${ACLCPU_SCHED#random:}" = 1 ] && echo b; echo c'
expect 0 "^aclcpu stress: sh under 2 seeded schedules \\(ACLCPU_SCHED=random:0\\.\\.1\\)$" stress -n 2 --from 0 --timeout 86400 -- sh -c 'echo a'
expect 2 "--timeout 0: seconds, 1 to 86400" stress -n 2 --timeout 0 -- true
expect 2 "--timeout 86401: seconds, 1 to 86400" stress -n 2 --timeout 86401 -- true
expect 2 "--seeds 100001: a count from 1 to 100000" stress -n 100001 -- true
# Output that differs only by a final newline differs too.
expect 1 "^  seed 2: output differs at line 1: \"a\" \\(seed 1: \"a\"\\)$" \
    stress -n 2 -- sh -c 'printf a; [ "${ACLCPU_SCHED#random:}" = 1 ] || echo'
[ "$failed" = 0 ] && echo "stress: all checks passed"
exit "$failed"
