#!/usr/bin/env bash
# timeline.sh ACLCPU FIXTURES OUTDIR BIGPROFILE - draws timelines with
# `aclcpu timeline`, opens them in headless Chromium, and checks what the
# page's own script reports in data- attributes of <body> after its first
# frame, and what its self test (the URL hash #test: synthetic wheel, drag,
# key and button events, and the step selector) did:
#  - the fake_parallel fixture: 2 stream lanes, 6 kernels, 2 event edges,
#    4 Overlap Analysis lanes, a cube and a vector cores lane with their
#    capacities (24, 48), 1 fork/join episode; the wheel narrows the visible
#    range (and fewer kernels are drawn), a drag moves it, the 0 key and
#    the buttons reset it, the clock toggle shows the measured clock's 6
#    kernels and back, hovering shows a kernel's facts and the cores in
#    use; the screenshot is a PNG of the window's size holding far more
#    than a blank page of the same size;
#  - the oversubscribed fixture: its contention span on the cores lane;
#  - a 200,000-kernel profile written by BIGPROFILE (1,250 steps, 22
#    streams): the page is under 10 MB, every lane and kernel is drawn, the
#    step selector shows exactly the 160 kernels of one step, and the first
#    frame is drawn in under 2 s (performance.now() when the drawing ends,
#    which the page records). The time is always printed; over 2 s fails
#    the test only when ACLCPU_TIMELINE_SANITIZED is not 1 (sanitizer or
#    valgrind builds are slower by design);
#  - a profile of 1,002 streams: 1,002 lanes drawn, none left out.
# Leaves OUTDIR/timeline.html and OUTDIR/timeline.png (docs/timeline.png is
# such a screenshot). CTest runs it (test "cli_timeline").
# Exit 0 pass, 1 fail, 77 skip (no Chromium: apt-get install chromium).
set -u

aclcpu=${1:?usage: timeline.sh ACLCPU FIXTURES OUTDIR BIGPROFILE}
fx=${2:?usage: timeline.sh ACLCPU FIXTURES OUTDIR BIGPROFILE}
out=${3:?usage: timeline.sh ACLCPU FIXTURES OUTDIR BIGPROFILE}
bigprofile=${4:?usage: timeline.sh ACLCPU FIXTURES OUTDIR BIGPROFILE}
width=1440
height=560
big_kernels=200000
max_bytes=10000000
max_ms=2000

browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        browser=$b
        break
    fi
done
if [ -z "$browser" ]; then
    echo "SKIP: no Chromium (apt-get install chromium)"
    exit 77
fi

mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aclcpu-timeline.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
page=$(cd "$out" && pwd)/timeline.html
png=$(cd "$out" && pwd)/timeline.png

fail() {
    echo "FAIL: $*"
    exit 1
}

# headless ARGS...: Chromium without a sandbox (CI runs as root), a GPU, or
# the user's profile; bounded in time.
headless() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$tmp/profile" --window-size="$width,$height" "$@" 2>"$tmp/browser.log"
}

# png_size FILE: "WIDTHxHEIGHT" from the IHDR chunk, or nothing if not a PNG.
png_size() {
    local sig
    sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
    [ "$sig" = 89504e470d0a1a0a ] || return 0
    od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}

# body_of PAGE [HASH]: the <body> tag of the page after its script ran.
body_of() {
    headless --dump-dom "file://$1$2" >"$tmp/dom.html" || fail "$browser --dump-dom exited $? ($(tail -n 3 "$tmp/browser.log"))"
    grep -o '<body[^>]*>' "$tmp/dom.html" | head -n 1
}

# expect BODY WANT...: each WANT (an attribute as written) is in BODY.
expect() {
    local body=$1 want
    shift
    for want in "$@"; do
        case "$body" in *"$want"*) ;; *) fail "the drawn page lacks $want" ;; esac
    done
}

# attr BODY NAME: the value of data-NAME.
attr() {
    printf '%s\n' "$1" | sed -n "s/.* data-$2=\"\([^\"]*\)\".*/\1/p"
}

"$aclcpu" timeline "$fx/fake_parallel" -o "$page" || fail "aclcpu timeline exited $?"

body=$(body_of "$page" "#test")
echo "laid out: $body"
expect "$body" 'data-lanes="2"' 'data-kernels="6"' 'data-edges="2"' 'data-overlap-lanes="4"' \
    'data-core-lanes="2"' 'data-capacity="cube:24 vector:48"' 'data-episodes="1"' \
    'data-test-wheel="ok ' 'kernels 6 -&gt; 3"' 'data-test-drag="ok ' 'data-test-key0="ok ' 'data-test-buttons="ok ' \
    'data-test-clock="ok measured clock: 6 kernels drawn of 6' 'data-test-clock-back="ok ' \
    'data-test-hover="ok rms_norm | Block Num 24 · Mix Block Num 0"' \
    'data-test-hover-cores="ok vector cores at ' ' us: 24 blocks running of 48"' 'data-test="pass"'

# Contention shows on the cores lane: the oversubscribed fixture's span of 64 vector blocks
# asked of 48 cores (summary.json's), one span.
"$aclcpu" timeline "$fx/oversubscribed" -o "$tmp/over.html" >/dev/null || fail "aclcpu timeline (oversubscribed) exited $?"
body=$(body_of "$tmp/over.html" "#test")
echo "laid out: $body"
expect "$body" 'data-contention="1"' 'data-core-lanes="2"' 'data-test="pass"'

headless --screenshot="$png" "file://$page" >/dev/null || fail "$browser --screenshot exited $?"
printf '<!DOCTYPE html><html><body style="background:#fff"></body></html>\n' >"$tmp/blank.html"
headless --screenshot="$tmp/blank.png" "file://$tmp/blank.html" >/dev/null || fail "blank screenshot failed"
[ "$(png_size "$png")" = "${width}x${height}" ] || fail "screenshot is '$(png_size "$png")', not a ${width}x${height} PNG"
drawn=$(wc -c <"$png")
blank=$(wc -c <"$tmp/blank.png")
echo "screenshot: $png, $drawn bytes (a blank page: $blank bytes)"
[ "$drawn" -ge $((blank * 3)) ] && [ "$drawn" -ge 10000 ] || fail "the screenshot looks empty ($drawn bytes vs $blank blank)"

# The large profile: size, every lane and kernel, one step, time to drawn.
mkdir -p "$tmp/big"
"$bigprofile" "$tmp/big" "$big_kernels" || fail "bigprofile exited $?"
"$aclcpu" timeline "$tmp/big" -o "$tmp/big.html" >/dev/null || fail "aclcpu timeline (big) exited $?"
bytes=$(wc -c <"$tmp/big.html")
echo "page of $big_kernels kernels: $bytes bytes (limit $max_bytes)"
[ "$bytes" -lt "$max_bytes" ] || fail "the page of $big_kernels kernels is $bytes bytes, not under $max_bytes"
body=$(body_of "$tmp/big.html" "#test")
echo "laid out: $body"
expect "$body" 'data-lanes="22"' "data-kernels=\"$big_kernels\"" 'data-edges="2500"' 'data-episodes="1250"' \
    'data-core-lanes="2"' 'data-overlap-lanes="4"' 'data-step-kernels="160"' 'data-test-step="ok ' \
    'data-test-all-steps="ok ' 'data-test="pass"'
ms=$(attr "$body" drawn-ms)
[ -n "$ms" ] || fail "the page did not record when its first frame was drawn"
echo "time to drawn, $big_kernels kernels: $ms ms (limit $max_ms ms)"
if [ "${ACLCPU_TIMELINE_SANITIZED:-0}" != 1 ] && [ "$ms" -ge "$max_ms" ]; then
    fail "the first frame of $big_kernels kernels took $ms ms, not under $max_ms"
fi
# Every stream has its lane, however many: 1,002 streams, two steps.
mkdir -p "$tmp/wide"
"$bigprofile" "$tmp/wide" 2280 1000 || fail "bigprofile (1,000 more streams) exited $?"
"$aclcpu" timeline "$tmp/wide" -o "$tmp/wide.html" >/dev/null || fail "aclcpu timeline (1,002 streams) exited $?"
body=$(body_of "$tmp/wide.html" "#test")
echo "laid out: $body"
expect "$body" 'data-lanes="1002"' 'data-kernels="2280"' 'data-step-kernels="1140"' 'data-test="pass"'
echo "cli_timeline: passed"
