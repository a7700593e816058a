#!/usr/bin/env bash
# check_sources.sh SRC_DIR - source rules of the lock checks (CTest source_rules).
#  1. Every allocation and free goes through src/common/mem.h (acl_malloc,
#     acl_free, ...), where debug builds check that no spinlock is held.
#  2. Every *_locked function opens with PLAT_ASSERT_HELD(...) or
#     admin_assert_held() / capture_assert_held(), its first statement.
set -u
src=${1:?usage: check_sources.sh SRC_DIR}
status=0
allocators="malloc|calloc|realloc|aligned_alloc|strdup|strndup|posix_memalign|free"

raw=$(grep -rnE --include='*.c' --include='*.h' "(^|[^A-Za-z0-9_.>])($allocators)\\(" "$src" |
  grep -v "^$src/common/mem.h:")
if [ -n "$raw" ]; then
  echo "raw allocator calls outside src/common/mem.h (use acl_malloc, acl_free, ...):"
  echo "$raw"
  status=1
fi

# A definition: a line at column 0 naming a *_locked function, not ending in
# ';'. Its body's first line (after the line holding '{') must assert.
unchecked=$(for f in $(grep -rlE --include='*.c' --include='*.h' '_locked\(' "$src"); do
  awk -v file="$f" '
    function report() { print file ":" def }
    function one_line(s) { return s ~ /\{[^}]*\}/ }
    want_brace && /\{/ { want_brace = 0; if (one_line($0)) report(); else want_assert = 1; next }
    want_assert {
      if ($0 !~ /PLAT_ASSERT_HELD\(|(admin|capture)_assert_held\(\)/) report()
      want_assert = 0
    }
    /^[a-z].*_locked\(/ && !/;[ \t]*$/ {
      def = FNR ": " $0
      if (one_line($0)) report(); else if ($0 ~ /\{[ \t]*$/) want_assert = 1; else want_brace = 1
    }
  ' "$f"
done)
if [ -n "$unchecked" ]; then
  echo "*_locked functions that do not assert their lock first (PLAT_ASSERT_HELD):"
  echo "$unchecked"
  status=1
fi
[ $status -eq 0 ] && echo "source rules: ok"
exit $status
