#!/usr/bin/env python3
"""Checks that the emulation runtime's libdevice list, its definitions and
clang's libdevice declarations agree.

Usage: check-libdevice-list.py EMULATION_DIR [--header PATH]

EMULATION_DIR is toolchain/cuda/emulation: its LibdeviceFunctions.def and
runtime/Libdevice*.cpp are read. Every function clang declares in
__clang_cuda_libdevice_declares.h must be in the list, every listed function
must be defined exactly once, and every defined `__nv_*` function must be
listed. Prints one line per problem and exits 1, or prints a summary.
"""

import argparse
import glob
import os
import re
import sys

DEFAULT_HEADER = ("/usr/lib/llvm-19/lib/clang/19/include/"
                  "__clang_cuda_libdevice_declares.h")

# A declaration or a call names the function right before its '('.
NAME = re.compile(r"\b(__nv_\w+)\s*\(")
LISTED = re.compile(r"^ENZYME_LIBDEVICE_FUNCTION\((\w+)\)\s*$")
# A definition: the name, a parameter list without parentheses, braces or
# semicolons (no libdevice parameter needs them), then the body's brace.
DEFINED = re.compile(r"\b(__nv_\w+)\s*\(([^(){};]*)\)\s*\{")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("emulation_dir")
    parser.add_argument("--header", default=DEFAULT_HEADER)
    args = parser.parse_args()

    with open(args.header) as f:
        declared = set(NAME.findall(strip_comments(f.read())))

    listed = []
    def_path = os.path.join(args.emulation_dir, "LibdeviceFunctions.def")
    with open(def_path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("//"):
                continue
            match = LISTED.match(line.strip())
            if not match:
                print("error: %s:%d: not an ENZYME_LIBDEVICE_FUNCTION line: %s"
                      % (def_path, number, line.strip()))
                return 1
            listed.append(match.group(1))

    sources = sorted(glob.glob(os.path.join(args.emulation_dir, "runtime",
                                            "Libdevice*.cpp")))
    defined = {}
    for path in sources:
        with open(path) as f:
            for name, _ in DEFINED.findall(strip_comments(f.read())):
                defined.setdefault(name, []).append(os.path.basename(path))

    problems = []
    if not declared:
        problems.append("no __nv_ declaration found in " + args.header)
    if not sources:
        problems.append("no runtime/Libdevice*.cpp in " + args.emulation_dir)
    seen = set()
    for name in listed:
        if name in seen:
            problems.append("listed twice: " + name)
        seen.add(name)
    for name in sorted(declared - seen):
        problems.append("declared by clang but not listed: " + name)
    for name in listed:
        if name not in defined:
            problems.append("listed but not defined: " + name)
    for name, files in sorted(defined.items()):
        if name not in seen:
            problems.append("defined but not listed: %s (%s)"
                            % (name, ", ".join(files)))
        if len(files) > 1:
            problems.append("defined %d times: %s (%s)"
                            % (len(files), name, ", ".join(files)))

    for problem in problems:
        print("error: " + problem)
    if problems:
        return 1
    print("libdevice list OK: %d functions listed, %d declared by clang, "
          "%d defined in %d files" % (len(listed), len(declared), len(defined),
                                      len(sources)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
