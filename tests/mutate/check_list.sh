#!/bin/bash
# tests/mutate/check_list.sh <repo root> - keeps the mutation list usable
# between mutation runs (a CTest): every line of mutations.txt has its five
# tab-separated fields, names a file that exists, and its pattern is found
# on exactly one line of that file, and the replacement differs from it.
# A pattern that stopped matching is a mutation the next run would skip.
set -u
root=$1
data=$root/tests/mutate/mutations.txt
status=0
n=0
while IFS= read -r line; do
    case $line in '#'* | '') continue ;; esac
    n=$((n + 1))
    IFS=$'\t' read -r file pattern replacement suites rule <<<"$line"
    if [ -z "${rule:-}" ]; then
        echo "mutations.txt: not five tab-separated fields: $line"
        status=1
        continue
    fi
    if [ ! -f "$root/$file" ]; then
        echo "mutations.txt: no file $file (rule: $rule)"
        status=1
        continue
    fi
    count=$(grep -cF -- "$pattern" "$root/$file")
    if [ "$count" != 1 ]; then
        echo "mutations.txt: '$pattern' is on $count lines of $file, not 1 (rule: $rule)"
        status=1
    fi
    if [ "$pattern" = "$replacement" ]; then
        echo "mutations.txt: the replacement equals the pattern in $file (rule: $rule)"
        status=1
    fi
done <"$data"
[ $status = 0 ] && echo "mutations.txt: $n mutations, each pattern on exactly one line"
exit $status
