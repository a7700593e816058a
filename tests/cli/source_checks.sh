#!/usr/bin/env bash
# source_checks.sh CHECK ROOT - checks on the source tree at ROOT that keep
# rules from decaying (CTest runs each CHECK as its own test):
#   standalone    nothing a user reads (README.md, docs/, include/, tools/,
#                 examples/) points at files outside the repository: no
#                 "shared/spec", "../shared", DESIGN.md or the spec files'
#                 names, and multistream.md only as docs/multistream.md (a
#                 user's clone has only the repository).
#   config_reads  the library reads the environment only through its table
#                 (src/common/config.def, config.c): no getenv, plat_getenv
#                 or secure_getenv call anywhere else in src/ (posix.c
#                 defines the wrapper), so every variable shows in
#                 `aclcpu info`.
#   tmp_paths     the tests, examples and benchmarks make their temporary
#                 files under $TMPDIR (unset: /tmp), never at a fixed /tmp/
#                 path: under CTest TMPDIR is a private folder that
#                 tmpdir_left_empty checks is left empty, which a fixed
#                 path would escape (and leave behind in the user's /tmp).
# Exit 0 when the check passes, 1 (listing each offending line) otherwise.
set -u
check=${1:?usage: source_checks.sh standalone|config_reads|tmp_paths ROOT}
root=${2:?usage: source_checks.sh standalone|config_reads|tmp_paths ROOT}
cd "$root" || exit 1

case $check in
standalone)
    files=(README.md docs include tools examples)
    bad=$(grep -rnE 'shared/spec|\.\./shared|DESIGN\.md|acl-api\.md|prof-api\.md|peers\.md' "${files[@]}")
    # multistream.md is the repo's docs/multistream.md: named so, or bare inside docs/.
    bad+=$(grep -rnoE '[A-Za-z0-9_./-]*multistream\.md' "${files[@]}" |
        grep -vE ':docs/multistream\.md$' | grep -vE '^docs/[^:]*:[0-9]+:multistream\.md$')
    ;;
config_reads)
    bad=$(grep -rnE '\b(plat_getenv|secure_getenv|getenv)[[:space:]]*\(' src --include='*.c' --include='*.h' |
        grep -vE '^src/common/config\.c:' | grep -vE '^src/platform/(posix\.c|platform\.h):[0-9]+:.*plat_getenv\(const char \*name\)')
    ;;
tmp_paths)
    bad=$({
        grep -rnE '"/tmp/' tests examples bench --include='*.c' --include='*.h' --include='*.cpp'
        grep -rnE '/tmp/' tests examples bench --include='*.sh' --include='*.cmake' --include='CMakeLists.txt' \
            --exclude=source_checks.sh | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#'
    })
    ;;
*)
    echo "source_checks.sh: no check '$check'" >&2
    exit 2
    ;;
esac
if [ -n "$bad" ]; then
    echo "$check: these lines break the rule:"
    echo "$bad"
    exit 1
fi
echo "$check: ok"
