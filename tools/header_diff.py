#!/usr/bin/env python3
"""header_diff.py - compares aclcpu's public headers with the reference runtime's.

    tools/header_diff.py <reference include dir> <aclcpu include dir> [--cxx clang++]

<reference include dir> holds acl/acl.h and friends (the reference repository's
include/external). Both sets of headers are parsed by clang (C++17, the JSON AST
dump) through the same translation unit: acl/acl.h, acl_prof.h, acl_rt_allocator.h,
acl_rt_memory_soma.h and acl_base_rt.h. Compared, for every name starting with
acl/ACL:

  - functions: the full type (return and parameter types, const-ness, integer
    widths) and which parameters have a default argument in C++;
  - typedefs: the type named; records (structs, unions): fields, their names and
    types, size, alignment and field offsets;
  - enumerators: the value; static const variables: the type and value;
  - macros defined by the reference headers: present, and the same tokens.

Values and layouts are read by compiling and running a small program against
each header set. A declaration the reference has and aclcpu lacks is listed as
"missing" (information: some API families may not be there yet); a declaration
both have that differs is a "DIFFERS" line, and the exit status is 1.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HEADERS = ["acl/acl.h", "acl/acl_prof.h", "acl/acl_rt_allocator.h", "acl/acl_rt_memory_soma.h",
           "acl/acl_base_rt.h"]
MACRO_FILES = ["acl/acl.h", "acl/acl_base.h", "acl/acl_base_rt.h", "acl/acl_rt.h", "acl/acl_mdl.h",
               "acl/acl_prof.h", "acl/acl_rt_allocator.h", "acl/acl_rt_memory_soma.h",
               "acl/error_codes/rt_error_codes.h", "acl/error_codes/ge_error_codes.h"]


def ours(name):
    return name.lower().startswith("acl")


def parse(cxx, inc, tu):
    out = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-Xclang", "-ast-dump=json", "-I" + inc, tu],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("cannot parse the headers in %s:\n%s" % (inc, out.stderr[:3000]))
    ast = json.loads(out.stdout)
    decl = {"func": {}, "enum": {}, "typedef": {}, "record": {}, "var": {}}

    def walk(node):
        for n in node.get("inner", []):
            kind, name = n.get("kind"), n.get("name", "")
            if kind == "LinkageSpecDecl":
                walk(n)
                continue
            if n.get("isImplicit"):
                continue
            if kind == "FunctionDecl" and ours(name):
                params = [(p["type"]["qualType"], "init" in p) for p in n.get("inner", [])
                          if p.get("kind") == "ParmVarDecl"]
                decl["func"][name] = (n["type"]["qualType"], [d for _, d in params])
            elif kind == "EnumDecl":
                for e in n.get("inner", []):
                    if e.get("kind") == "EnumConstantDecl":
                        decl["enum"][e["name"]] = True
            elif kind == "TypedefDecl" and ours(name):
                decl["typedef"][name] = n["type"]["qualType"]
            elif kind in ("CXXRecordDecl", "RecordDecl") and name and n.get("completeDefinition"):
                decl["record"][name] = [(f.get("name", ""), f["type"]["qualType"]) for f in n.get("inner", [])
                                        if f.get("kind") == "FieldDecl"]
            elif kind == "VarDecl" and ours(name):
                decl["var"][name] = n["type"]["qualType"]
    walk(ast)
    return decl


def norm(t):
    return re.sub(r"\s+", " ", re.sub(r"\((unnamed|anonymous) [^)]*\)", "(unnamed)", t)).strip()


def values(cxx, inc, tu, src, work, tag):
    exe = os.path.join(work, "values_" + tag)
    prog = os.path.join(work, "values.cpp")
    with open(prog, "w") as f:
        f.write(src)
    out = subprocess.run([cxx, "-std=c++17", "-w", "-I" + inc, "-I" + work, prog, "-o", exe],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("cannot build the value probe against %s:\n%s" % (inc, out.stderr[:3000]))
    run = subprocess.run([exe], capture_output=True, text=True, check=True)
    result = {}
    for line in run.stdout.splitlines():
        what, name, value = line.split(" ", 2)
        result[what + " " + name] = value
    return result


def macros(cxx, inc, tu):
    out = subprocess.run([cxx, "-std=c++17", "-dM", "-E", "-I" + inc, tu], capture_output=True, text=True,
                         check=True).stdout
    defs = {}
    for line in out.splitlines():
        m = re.match(r"#define (\w+)(\([^)]*\))?\s*(.*)", line)
        if m:
            defs[m.group(1)] = re.sub(r"\s+", " ", (m.group(2) or "") + " " + m.group(3)).strip()
    return defs


def reference_macro_names(inc):
    names = set()
    for rel in MACRO_FILES:
        path = os.path.join(inc, rel)
        if os.path.exists(path):
            for line in open(path, errors="replace"):
                m = re.match(r"\s*#\s*define\s+(\w+)", line)
                if m and not m.group(1).startswith(("INC_", "__INC")):
                    names.add(m.group(1))
    return names


def main():
    args = sys.argv[1:]
    cxx = "clang++"
    if "--cxx" in args:
        i = args.index("--cxx")
        cxx = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    ref_inc, our_inc = args
    work = tempfile.mkdtemp()
    tu = os.path.join(work, "tu.cpp")
    with open(tu, "w") as f:
        f.write("".join('#include "%s"\n' % h for h in HEADERS))
    ref, our = parse(cxx, ref_inc, tu), parse(cxx, our_inc, tu)
    differs, missing = [], []

    for kind in ("func", "typedef", "record", "enum", "var"):
        for name in sorted(set(ref[kind]) - set(our[kind])):
            missing.append("%s %s" % (kind, name))
    for name in sorted(set(ref["func"]) & set(our["func"])):
        (rt, rd), (ot, od) = ref["func"][name], our["func"][name]
        if norm(rt) != norm(ot):
            differs.append("function %s: reference %s, aclcpu %s" % (name, rt, ot))
        if rd != od:
            differs.append("function %s: default arguments: reference %s, aclcpu %s" % (name, rd, od))
    for name in sorted(set(ref["typedef"]) & set(our["typedef"])):
        if norm(ref["typedef"][name]) != norm(our["typedef"][name]):
            differs.append("typedef %s: reference %s, aclcpu %s" % (name, ref["typedef"][name], our["typedef"][name]))
    for name in sorted(set(ref["record"]) & set(our["record"])):
        r = [(f, norm(t)) for f, t in ref["record"][name]]
        o = [(f, norm(t)) for f, t in our["record"][name]]
        if r != o:
            differs.append("record %s: fields: reference %s, aclcpu %s" % (name, r, o))
    for name in sorted(set(ref["var"]) & set(our["var"])):
        if norm(ref["var"][name]) != norm(our["var"][name]):
            differs.append("static const %s: reference %s, aclcpu %s" % (name, ref["var"][name], our["var"][name]))

    # Values and layouts, by running a probe built against each header set.
    lines = ['#include "tu.cpp"', "#include <cstdio>", "#include <cstddef>", "int main() {"]
    for name in sorted(set(ref["enum"]) & set(our["enum"])):
        lines.append('  printf("enum %s %%lld\\n", (long long)%s);' % (name, name))
    for name in sorted(set(ref["var"]) & set(our["var"])):
        lines.append('  printf("const %s %%lld\\n", (long long)%s);' % (name, name))
    for name in sorted(set(ref["record"]) & set(our["record"])):
        t = name if name in ref["typedef"] else "struct " + name
        lines.append('  printf("sizeof %s %%zu %%zu\\n", sizeof(%s), alignof(%s));' % (name, t, t))
        for field, _ in ref["record"][name]:
            if field:
                lines.append('  printf("offsetof %s.%s %%zu\\n", offsetof(%s, %s));' % (name, field, t, field))
    lines.append("  return 0;\n}\n")
    src = "\n".join(lines)
    rv = values(cxx, ref_inc, tu, src, work, "ref")
    ov = values(cxx, our_inc, tu, src, work, "ours")
    for key in sorted(rv):
        if rv[key] != ov.get(key):
            differs.append("%s: reference %s, aclcpu %s" % (key, rv[key], ov.get(key)))

    rm, om = macros(cxx, ref_inc, tu), macros(cxx, our_inc, tu)
    for name in sorted(reference_macro_names(ref_inc)):
        if name not in rm:
            continue  # defined only under a condition this compiler does not meet
        if name not in om:
            missing.append("macro %s" % name)
        elif rm[name] != om[name] and not name.endswith("_VISIBILITY"):
            differs.append("macro %s: reference '%s', aclcpu '%s'" % (name, rm[name], om[name]))

    compared = sum(len(set(ref[k]) & set(our[k])) for k in ref)
    for line in missing:
        print("missing  " + line)
    for line in differs:
        print("DIFFERS  " + line)
    print("%d declarations compared, %d values; %d missing in aclcpu, %d differ"
          % (compared, len(rv), len(missing), len(differs)))
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
