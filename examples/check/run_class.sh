#!/bin/bash
# run_class.sh PROGRAM CLASS bug|fixed "REPORT TEXT" - runs one class of
# check_classes under ACLCPU_CHECK=1: "bug" must exit 66 with REPORT TEXT in
# its stderr, "fixed" must exit 0 with no report at all.
set -u
prog=$1 cls=$2 mode=$3 text=$4
err=$(ACLCPU_CHECK=1 "$prog" "$cls" "$mode" 2>&1 >/dev/null)
rc=$?
if [ "$mode" = bug ]; then
    [ $rc -eq 66 ] || { echo "$cls bug: exit $rc, want 66"; echo "$err"; exit 1; }
    grep -qF "==aclcpu-check== $text" <<<"$err" || { echo "$cls bug: no \"$text\" report"; echo "$err"; exit 1; }
else
    [ $rc -eq 0 ] || { echo "$cls fixed: exit $rc, want 0"; echo "$err"; exit 1; }
    if grep -q "==aclcpu-check==" <<<"$err"; then echo "$cls fixed: reported"; echo "$err"; exit 1; fi
fi
echo "$cls $mode: ok"
