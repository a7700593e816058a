#!/bin/sh
# tests/mutate/run.sh [FILTER] - the mutation run (`make mutate`).
#
# Applies each single-line mutation of tests/mutate/mutations.txt to a copy
# of the tree, rebuilds it incrementally, runs the test suite against the
# mutant and reverts; prints the kill rate per folder and the survivors.
# FILTER (an extended regex) keeps only the mutations whose line of the
# data file matches it (e.g. 'src/core/event.c' or 'tools/').
#
# DESIGN: the copy (MUTATE_DIR, default build-mutate/, which git ignores)
# holds tree/ (the working tree's tracked and untracked files, taken fresh
# each run) and build/ (a non-Werror Ninja build without examples or
# benchmarks, kept between runs). A mutant changes one source file, so a
# rebuild is one object and the links; the test programs link the shared
# library and are not relinked for it (CMAKE_LINK_DEPENDS_NO_SHARED). The
# suites a mutation names run first (most mutants die there, in seconds);
# a mutant that survives them meets every suite, the slowest last,
# stopping at the first failure. A mutant that does not compile is counted apart, not as a kill.
# The original file is put back after each mutant and on any exit (trap).
#
# Environment: MUTATE_LINES (only these lines of the data file: a comma-
# separated list of numbers and ranges, e.g. 120,300-400; the ids M<line>
# of a run's report are such numbers), MUTATE_DIR, MUTATE_JOBS (ctest and
# ninja, default 2),
# MUTATE_CASE_TIMEOUT (seconds per test case, default 20),
# MUTATE_SUITE_TIMEOUT (seconds per ctest test, default 180).
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
filter=${1:-}
work=${MUTATE_DIR:-$root/build-mutate}
jobs=${MUTATE_JOBS:-2}
case_timeout=${MUTATE_CASE_TIMEOUT:-20}
suite_timeout=${MUTATE_SUITE_TIMEOUT:-180}
tree=$work/tree
build=$work/build
log=$work/log
results=$work/results.txt
lines=${MUTATE_LINES:-}
# in_lines N: N is in MUTATE_LINES.
in_lines() {
    printf '%s\n' "$lines" | tr ',' '\n' | awk -F- -v n="$1" '
        NF == 1 && $1 == n { found = 1 }
        NF == 2 && n >= $1 && n <= $2 { found = 1 }
        END { exit !found }'
}
# Not run against mutants: tests of the packaging and of the build itself
# (install, static link, README lines), the browser test, the examples and
# the checks of the docs against the tree (conformance_doc cites example
# tests, which this build leaves out); none of them checks a rule of a
# mutated line.
skip='^(install|static_link|api_linkable_static|readme_lines|cli_timeline|bench_smoke|headers|headers_cxx|exported_symbols|conformance_doc|api_coverage|mutate_list|standalone_docs)$|^example_'

mkdir -p "$work" "$log"
# The copy is brought up to date file by file: a file whose bytes changed
# is copied (so its time is now), the others keep theirs. tar alone would
# give each file the working tree's time, which can be older than the
# object an earlier run built from that file's mutant or from an older
# version: the build would then keep the stale object.
incoming=$work/incoming
rm -rf "$incoming"
mkdir -p "$incoming" "$tree"
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - --no-recursion) | (cd "$incoming" && tar xf -)
(cd "$incoming" && find . -type f) | while IFS= read -r f; do
    if ! cmp -s "$incoming/$f" "$tree/$f"; then
        mkdir -p "$(dirname "$tree/$f")"
        cp "$incoming/$f" "$tree/$f"
    fi
done
(cd "$tree" && find . -type f) | while IFS= read -r f; do
    [ -e "$incoming/$f" ] || rm -f "$tree/$f"
done
rm -rf "$incoming"
data=$tree/tests/mutate/mutations.txt

if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$tree" -B "$build" -G Ninja -DACLCPU_WERROR=OFF -DACLCPU_EXAMPLES=OFF -DACLCPU_BENCH=OFF \
        -DCMAKE_LINK_DEPENDS_NO_SHARED=ON >"$log/configure.txt" 2>&1 || {
        echo "mutate: cmake failed (see $log/configure.txt)" >&2
        exit 2
    }
fi

# Mutants are made from the tree's copy (taken above), and the original is
# put back from a saved copy: the working tree may change during the run
# (an edit, a merge) without mixing its new files into the old tree.
current=""
saved=$work/original
restore() {
    if [ -n "$current" ]; then
        cp "$saved" "$tree/$current"
        current=""
    fi
}
trap 'restore' EXIT
trap 'restore; exit 130' INT TERM

# The unmutated tree builds whole; a mutant rebuilds only what the tests it
# meets run: the shared library (the test programs load it), the command and
# the programs built from library sources of their own. The static archive
# and the programs linked with it are left stale (their tests are skipped).
mutant_targets="aclcpu aclcpu-cli overlap_rule episodes_rule lockcheck-test prof-session-check check-cache-test"
build_tree() { ninja -C "$build" -j "$jobs" >"$1" 2>&1; }
build_mutant() { ninja -C "$build" -j "$jobs" $mutant_targets >"$1" 2>&1; }

# The slowest tests (a minute of fuzzing, every suite again under the
# checker) meet a mutant last: ctest lets a running test finish after
# another one failed, so run first they would cost each kill a minute.
slow='^(fuzz_smoke|tests_under_check|examples_under_check)$'

# run_suites LOG EXCLUDE [CTEST ARGS]: 0 when every test passes (all but
# those matching the regex EXCLUDE, narrowed by CTEST ARGS such as -R).
run_suites() {
    out=$1
    except=$2
    shift 2
    (cd "$build" && ACLCPU_TEST_TIMEOUT=$case_timeout ACLCPU_TEST_STOP_ON_FAILURE=1 ctest -j "$jobs" --timeout "$suite_timeout" \
        --stop-on-failure --output-on-failure -E "$except" "$@") >"$out" 2>&1
}

echo "mutate: building the unmutated tree in $build"
build_tree "$log/baseline-build.txt" || { echo "mutate: the tree does not build (see $log/baseline-build.txt)" >&2; exit 2; }
if [ "${MUTATE_SKIP_BASELINE:-0}" != 1 ]; then
    echo "mutate: running the suite on the unmutated tree"
    run_suites "$log/baseline-test.txt" "$skip" || {
        echo "mutate: the suite fails without a mutation (see $log/baseline-test.txt)" >&2
        exit 2
    }
fi

: >"$results"
tab=$(printf '\t')
lineno=0
# Each data line: FILE<TAB>PATTERN<TAB>REPLACEMENT<TAB>SUITES<TAB>RULE.
while IFS= read -r line <&3; do
    lineno=$((lineno + 1))
    case $line in '' | '#'*) continue ;; esac
    if [ -n "$filter" ] && ! printf '%s\n' "$line" | grep -qE -- "$filter"; then continue; fi
    if [ -n "$lines" ] && ! in_lines "$lineno"; then continue; fi
    IFS=$tab read -r file pattern replacement suites rule <<LINE
$line
LINE
    id="M$lineno"
    folder=$(dirname "$file")
    if [ ! -f "$tree/$file" ]; then
        echo "$id	bad	$folder	$file	no such file" >>"$results"
        echo "mutate: $id: no file $file" >&2
        continue
    fi
    matches=$(grep -cF -- "$pattern" "$tree/$file")
    if [ "$matches" != 1 ]; then
        echo "$id	bad	$folder	$file	the pattern matches $matches lines" >>"$results"
        echo "mutate: $id: '$pattern' matches $matches lines of $file" >&2
        continue
    fi
    cp "$tree/$file" "$saved"
    current=$file
    # Through the environment, not -v: awk would read the backslashes of
    # a pattern such as '\0' as escapes, and the mutant would not apply.
    MUT_PAT=$pattern MUT_REP=$replacement awk 'BEGIN { pat = ENVIRON["MUT_PAT"]; rep = ENVIRON["MUT_REP"] } {
        i = index($0, pat)
        if (i) $0 = substr($0, 1, i - 1) rep substr($0, i + length(pat))
        print
    }' "$saved" >"$tree/$file"
    if cmp -s "$saved" "$tree/$file"; then
        cp "$saved" "$tree/$file"
        current=""
        echo "$id	bad	$folder	$file	the mutant changes nothing" >>"$results"
        echo "mutate: $id: applying '$pattern' changed nothing in $file" >&2
        continue
    fi
    if build_mutant "$log/$id-build.txt"; then
        status=survived
        if [ -n "$suites" ] && [ "$suites" != - ]; then
            re="^($(echo "$suites" | tr ',' '|'))\$"
            run_suites "$log/$id-test.txt" "$skip" -R "$re" || status=killed
        fi
        if [ "$status" = survived ]; then
            run_suites "$log/$id-test.txt" "$skip|$slow" || status=killed
        fi
        if [ "$status" = survived ]; then
            run_suites "$log/$id-test-slow.txt" "$skip" -R "$slow" || status=killed
        fi
    else
        status=nocompile
    fi
    restore
    [ "$status" = killed ] && rm -f "$log/$id-build.txt"
    echo "$id	$status	$folder	$file	$rule" >>"$results"
    printf 'mutate: %-5s %-9s %s: %s\n' "$id" "$status" "$file" "$rule"
done 3<"$data"

# The restored files must build again for the next run's first mutant.
build_tree "$log/final-build.txt" >/dev/null 2>&1

echo
echo "mutate: kill rate per folder (killed / compiled mutants; not compiled apart)"
awk -F'\t' '$2 != "bad" {
        n[$3] += ($2 != "nocompile"); k[$3] += ($2 == "killed"); nc[$3] += ($2 == "nocompile")
    }
    END {
        for (f in n) {
            printf "  %-16s %3d / %3d  %5.1f%%", f, k[f], n[f], n[f] ? 100 * k[f] / n[f] : 0
            if (nc[f]) printf "  (%d did not compile)", nc[f]
            printf "\n"
            tk += k[f]; tn += n[f]
        }
        printf "  %-16s %3d / %3d  %5.1f%%\n", "all", tk, tn, tn ? 100 * tk / tn : 0
    }' "$results" | sort
survivors=$(awk -F'\t' '$2 == "survived"' "$results")
if [ -n "$survivors" ]; then
    echo
    echo "mutate: survivors (the tests miss these rules; logs in $log)"
    printf '%s\n' "$survivors" | awk -F'\t' '{ printf "  %s %s: %s\n", $1, $4, $5 }'
fi
bad=$(awk -F'\t' '$2 == "bad" || $2 == "nocompile"' "$results")
if [ -n "$bad" ]; then
    echo
    echo "mutate: mutations to fix in tests/mutate/mutations.txt"
    printf '%s\n' "$bad" | awk -F'\t' '{ printf "  %s %s %s: %s\n", $1, $2, $4, $5 }'
fi
