#!/usr/bin/env bash
# timeline.sh ACLCPU FIXTURES OUTDIR - draws a fixture's timeline with
# `aclcpu timeline`, opens it in headless Chromium, and checks that the
# picture was drawn: the DOM after layout reports 2 stream lanes, 6 kernels,
# 2 event edges and 4 Overlap Analysis lanes with non-empty boxes (the
# page's own script counts them), and the screenshot is a PNG of the window's
# size holding far more than a blank page of the same size.
# Leaves OUTDIR/timeline.html and OUTDIR/timeline.png (docs/timeline.png is
# such a screenshot). CTest runs it (test "cli_timeline").
# Exit 0 pass, 1 fail, 77 skip (no Chromium: apt-get install chromium).
set -u

aclcpu=${1:?usage: timeline.sh ACLCPU FIXTURES OUTDIR}
fx=${2:?usage: timeline.sh ACLCPU FIXTURES OUTDIR}
out=${3:?usage: timeline.sh ACLCPU FIXTURES OUTDIR}
width=1440
height=400

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

"$aclcpu" timeline "$fx/fake_parallel" -o "$page" || fail "aclcpu timeline exited $?"

headless --dump-dom "file://$page" >"$tmp/dom.html" || fail "$browser --dump-dom exited $? ($(tail -n 3 "$tmp/browser.log"))"
body=$(grep -o '<body[^>]*>' "$tmp/dom.html" | head -n 1)
echo "laid out: $body"
for want in 'data-lanes="2"' 'data-kernels="6"' 'data-edges="2"' 'data-overlap-lanes="4"'; do
    case "$body" in *"$want"*) ;; *) fail "the drawn page lacks $want" ;; esac
done

headless --screenshot="$png" "file://$page" >/dev/null || fail "$browser --screenshot exited $?"
printf '<!DOCTYPE html><html><body style="background:#fff"></body></html>\n' >"$tmp/blank.html"
headless --screenshot="$tmp/blank.png" "file://$tmp/blank.html" >/dev/null || fail "blank screenshot failed"
[ "$(png_size "$png")" = "${width}x${height}" ] || fail "screenshot is '$(png_size "$png")', not a ${width}x${height} PNG"
drawn=$(wc -c <"$png")
blank=$(wc -c <"$tmp/blank.png")
echo "screenshot: $png, $drawn bytes (a blank page: $blank bytes)"
[ "$drawn" -ge $((blank * 3)) ] && [ "$drawn" -ge 10000 ] || fail "the screenshot looks empty ($drawn bytes vs $blank blank)"
echo "cli_timeline: passed"
