#!/bin/bash
# Holds docs/conformance.md to what it claims:
#  1. every function the library exports is named in it (a function with no
#     row has not been audited against the reference);
#  2. every test a row cites (`suite.name`) exists as TEST(suite, name), and
#     every CTest name it cites exists, so a row never points at nothing.
# usage: check_conformance.sh <repo root> <build dir>
set -u
root=$1
build=$2
doc=$root/docs/conformance.md
status=0

missing=$(grep -v '^#' "$root/tests/exported-symbols.txt" | grep . | while read -r fn; do
    grep -q "\b$fn\b" "$doc" || echo "$fn"
done)
if [ -n "$missing" ]; then
    echo "conformance.md names no rule for these exported functions:"
    echo "$missing" | sed 's/^/  /'
    status=1
fi

# Tests: TEST(suite, name) in tests/test_*.c.
defined=$(grep -ho 'TEST([a-z_0-9]*, *[a-z_0-9]*)' "$root"/tests/test_*.c |
          sed 's/TEST(\([a-z_0-9]*\), *\([a-z_0-9]*\))/\1.\2/' | sort -u)
ctests=$(ctest --test-dir "$build" -N 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: *//p' | sort -u)
# The test column is the last cell of each table row.
cited=$(grep '^|' "$doc" | grep -v '^| *---' | awk -F'|' '{print $(NF-1)}' |
        grep -o '`[^`]*`' | tr -d '`' | tr ',' '\n' | sed 's/^ *//;s/ *$//' | sort -u)
unknown=""
for t in $cited; do
    case $t in
    *.*) echo "$defined" | grep -qx "$t" || unknown="$unknown $t" ;;
    *) echo "$ctests" | grep -qx "$t" || echo "$defined" | grep -q "^$t\." || unknown="$unknown $t" ;;
    esac
done
if [ -n "$unknown" ]; then
    echo "conformance.md cites tests that do not exist:"
    for t in $unknown; do echo "  $t"; done
    status=1
fi
[ $status = 0 ] && echo "conformance.md: every exported function named, every cited test exists"
exit $status
