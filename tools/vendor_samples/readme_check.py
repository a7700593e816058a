#!/usr/bin/env python3
"""readme_check.py - does a sample's output show what its README shows?

    readme_check.py <sample name> <README_en.md> <output file>

The README's output lines are those of its fenced blocks that hold program
output. Lines that run.sh or a script prints ("[SUCCESS] ...", "Building...",
"[INFO]: Current compile soc version ...") are not the program's and are left
out. Every other README line must be a line of the output (trailing blanks
ignored; "..." stands for any text, "0x..." for an address); the order is not
checked, because kernel printf text and the lines of two processes interleave
differently from run to run. README lines that the reference source itself
does not print, or that describe another SoC, are listed in KNOWN with the
reason, and reported instead of failing. Exit status 0 if nothing is missing.
"""
import re
import sys

PROGRAM_LINE = re.compile(r"^(\[INFO\]  |\[WARN\]  |\[ERROR\]  |Source data|Destination data|Hello World)")

# README lines that the vendor's unchanged code on aclcpu is not expected to
# print, and why (docs/conformance.md, "Vendor samples: the ported samples'
# host code, unchanged").
KNOWN = {
    "0_runtime_compatibility": [
        (r"version (string|number):", "aclcpu's own package version (differences.md)"),
        (r"ATTR_JIT_COMPILE", "the SoC profile's attribute (differences.md)"),
        (r"Architecture compatibility for Ascend910B3", "the README ran on an Ascend910B3; aclcpu's default is Ascend910B1"),
    ],
    "1_stream_with_failure_mode": [
        (r"after stop\) returned 507000", "the source returns 0 for a DEVICE_USE_ONLY stream (api_error.cc StreamSynchronize)"),
    ],
    "0_custom_allocator": [
        (r"descOut=\.\.\., allocCount", "the source prints no commas"),
    ],
    "0_uvm_allocate": [
        (r"\[SKIP\]", "the output of a SoC without unified memory"),
    ],
}


def readme_lines(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    lines = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if PROGRAM_LINE.match(line):
                lines.append(line.rstrip())
    return lines


def pattern(line):
    p = re.escape(line).replace(re.escape("0x..."), "0x[0-9a-fA-F]+").replace(re.escape("..."), ".*")
    return re.compile("^" + p + "$")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    name, readme, output = sys.argv[1:]
    out = [line.rstrip() for line in open(output, encoding="utf-8", errors="replace").read().splitlines()]
    expected = readme_lines(readme)
    if not expected:
        print("      (the README shows no program output)")
        return 0
    missing = 0
    for line in expected:
        if any(pattern(line).match(o) for o in out):
            continue
        reason = next((why for rx, why in KNOWN.get(name, []) if re.search(rx, line)), None)
        if reason:
            print("      known: %s  -- %s" % (line, reason))
        else:
            print("      missing: %s" % line)
            missing += 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
