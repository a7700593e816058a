#!/bin/bash
# tests_under_check.sh TESTS PLANTED - runs every suite of the unit-test
# runner TESTS under the race checker (ACLCPU_CHECK=1), two suites at a
# time, and checks its verdicts: the cases listed in PLANTED (they free
# memory in use or race on purpose) must each draw a report, and no other
# case may draw one (a correct program draws none). The test runner ends
# each case with _exit, so the checker's exit 66 does not apply: the
# reports are read from the output, each attributed to the case whose
# result line follows it. CTest runs it (test "tests_under_check").
set -u
tests=${1:?usage: tests_under_check.sh TESTS PLANTED}
planted=${2:?usage: tests_under_check.sh TESTS PLANTED}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aclcpu-undercheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$tests" --list | awk '{print $1}' | sort -u >"$tmp/suites"
[ -s "$tmp/suites" ] || { echo "FAIL: $tests lists no suites"; exit 1; }
export ACLCPU_CHECK=1 tests tmp
xargs -P 2 -I{} sh -c '"$tests" {} >"$tmp/{}.log" 2>&1; echo $? >"$tmp/{}.rc"' <"$tmp/suites"

failed=0
while read -r suite; do
    if [ "$(cat "$tmp/$suite.rc")" != 0 ]; then
        echo "FAIL: suite $suite fails under ACLCPU_CHECK=1:"
        grep -E "^FAIL" "$tmp/$suite.log" | head -5
        failed=1
    fi
done <"$tmp/suites"
# Each case with the report classes it drew: "suite.case|class|class".
while read -r suite; do
    awk '
        /^==aclcpu-check== [a-z]/ { pend = pend "|" substr($0, 18) }
        /^(ok|FAIL|skip) / { if (pend != "") { sub(":$", "", $2); print $2 pend } pend = "" }' "$tmp/$suite.log"
done <"$tmp/suites" >"$tmp/reported"

grep -v '^#' "$planted" | grep . | sort -u >"$tmp/want"
cut -d'|' -f1 "$tmp/reported" | sort -u >"$tmp/got"
while read -r case; do
    echo "FAIL: $case drew a report it must not: $(grep -F "$case|" "$tmp/reported" | cut -d'|' -f2-)"
    failed=1
done < <(comm -13 "$tmp/want" "$tmp/got")
while read -r case; do
    grep -qE "^skip +$case\$" "$tmp"/*.log && continue # skipped in this build (e.g. under a sanitizer)
    echo "FAIL: $case plants a bug but drew no report"
    failed=1
done < <(comm -23 "$tmp/want" "$tmp/got")
n=$(cat "$tmp/suites" | wc -l)
if [ "$failed" = 0 ]; then
    echo "tests_under_check: $n suites under ACLCPU_CHECK=1; $(wc -l <"$tmp/want") planted cases reported, no other report"
fi
exit $failed
