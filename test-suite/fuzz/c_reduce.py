"""Minimising a failing C program with cvise, keeping the same failure.

minimise(result, tools) works in <case folder>/reduced/:

 1. observe the original: what exactly went wrong (the compiler's crash
    signature, the program's exit signal and the oracle stage it died in,
    or a mismatch with reliable finite differences, or of the dot-product
    test or of a vector-mode lane, in one check: the gradient, forward
    mode, the dot product, vrev, vfwd);
 2. cvise reduces fz<S>.c (the generated program) while fz<S>_main.c (the
    oracle, which #includes it) stays fixed, so a reduced candidate is
    judged by the same oracle; a candidate is interesting when it shows the
    same observation and, for failures seen at run time, its primal is free
    of undefined behaviour (clean under ASan+UBSan and MSan, built with a
    plain clang and -DFZ_PRIMAL_ONLY), so a reduction cannot "find" a
    mismatch that only undefined behaviour explains;
 3. the result is merged into one file, repro.c; for a compiler crash cvise
    then reduces repro.c as a whole (the oracle is not needed to see it);
 4. rerun.sh rebuilds and reruns repro.c.

Run as a script (python3 c_reduce.py EXPECT.json) it is the interestingness
test: exit 0 when the candidate in the current folder is interesting.
"""

import json
import os
import re
import pathlib
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True   # run by cvise from the source tree
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from common import CRASH, FAILURES, Tools, crash_signature, crashed, run  # noqa: E402
import c_oracle  # noqa: E402

# Warnings that mean a candidate is no longer a meaningful C program.
WERROR = ["-Werror=uninitialized", "-Werror=sometimes-uninitialized", "-Werror=return-type",
          "-Werror=implicit-function-declaration", "-Werror=implicit-int",
          "-Werror=int-conversion", "-Werror=incompatible-pointer-types",
          "-Werror=array-bounds", "-Werror=division-by-zero"]
SANITIZERS = [["-fsanitize=address,undefined", "-fno-sanitize-recover=all"],
              ["-fsanitize=memory"]]


def observe(folder, main, opt, build):
    """What building and running `main` in `folder` shows: a short, stable
    description (equal descriptions = the same failure)."""
    tools = Tools.find(build)
    exe = folder / "candidate"
    rc, out = run(c_oracle.build_command(tools, opt, main, exe, WERROR), timeout=120, cwd=folder)
    if rc == -9:
        return {"what": "compiler-timeout"}
    if crashed(rc, out):
        return {"what": "compiler-crash", "signature": crash_signature(out)}
    backend = re.search(r"error in backend: (.*)", out)   # as c_fuzz.classify_compile
    if backend:
        return {"what": "compiler-crash", "signature": "error in backend: " + backend.group(1).strip()}
    if rc != 0:
        return {"what": "compile-error"}
    rc, out = run([exe], timeout=30, cwd=folder)
    verdicts, stage = c_oracle.parse(out)
    if rc != 0 or not verdicts or not all(map(c_oracle.complete, verdicts.values())):
        return {"what": "program-crash", "status": rc, "stage": stage[1] if stage else None}
    # Each check that mismatches (gradient, forward mode, dot product, vector
    # mode's lanes) with its bad components, the worst first, as it failed
    # (with "!": not finite); the first such check is the one a reduction
    # keeps.
    found = {}
    for v in verdicts.values():
        for check in c_oracle.CHECKS:
            word, rest = v[check]
            if word != "mismatch" or check in found:
                continue
            worst = re.search(r"comp=(\d+)", rest).group(1)
            bad = re.search(r"bad=(\S+)", rest).group(1).split(",")
            first = [b for b in bad if b.rstrip("!") == worst]
            found[check] = first + [b for b in bad if b not in first]
    if not found:
        return {"what": "ok"}
    check = [c for c in c_oracle.CHECKS if c in found][0]
    return {"what": "mismatch", "check": check, "bad": found[check], "mismatches": found}


def same_failure(expected, seen):
    """Equal crashes; or a mismatch of the same check in the component that
    was worst, failing the same way (a finite or a non-finite derivative)."""
    if expected["what"] == "mismatch" and seen["what"] == "mismatch":
        bad = seen["mismatches"].get(expected["check"], [])
        return expected["bad"][0] in bad
    return expected == seen


def primal_is_clean(folder, main, build):
    """The primal and its finite differences run without undefined behaviour."""
    tools = Tools.find(build)
    clang = tools.llvm("clang")
    for flags in SANITIZERS:
        exe = folder / "sanitized"
        rc, _ = run([clang, "-O1", "-w", "-DFZ_PRIMAL_ONLY", *flags, main, "-o", exe, "-lm"],
                    timeout=120, cwd=folder)
        if rc != 0:
            return False
        rc, _ = run([exe], timeout=60, cwd=folder)
        if rc != 0:
            return False
    return True


def interesting(expect, folder):
    """The candidate in `folder` shows the expected failure. expect["fixed"]
    names a file that is not being reduced (the oracle), copied in first."""
    if expect.get("fixed"):
        shutil.copy(expect["fixed"], folder / expect["main"])
    main = folder / expect["main"]
    seen = observe(folder, main, expect["opt"], expect["build"])
    if not same_failure(expect["observed"], seen):
        return False
    if seen["what"] in ("mismatch", "program-crash"):
        return primal_is_clean(folder, main, expect["build"])
    return True


def _cvise(script, target, tools, deadline):
    """Runs cvise until it finishes or the deadline passes; the target file
    holds the best reduction so far either way."""
    left = deadline - time.monotonic()
    if left < 10:
        return "no time left"
    cmd = ["cvise", "--n", str(max(1, tools.jobs)), "--timeout", "120", "--tidy",
           "--skip-interestingness-test-check", str(script), target.name]
    proc = subprocess.Popen(cmd, cwd=target.parent, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        proc.communicate(timeout=left)
        return "finished" if proc.returncode == 0 else "cvise exit %d" % proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "stopped at the time limit"


def _tidy(path):
    """Re-indents a reduced file (cvise leaves odd spacing) when clang-format
    is there."""
    fmt = shutil.which("clang-format")
    if not fmt:
        return
    rc, out = run([fmt, "--style={BasedOnStyle: LLVM, ColumnLimit: 100}", path], timeout=60)
    if rc == 0 and out.strip():
        path.write_text(out if out.endswith("\n") else out + "\n")


def _write_test(folder, name, expect):
    spec = folder / (name + ".json")
    spec.write_text(json.dumps(expect, indent=1))
    script = folder / (name + ".sh")
    script.write_text("#!/bin/sh\n# cvise interestingness test: %s still shows %s\n"
                      "exec %s %s %s\n" % (expect["main"], json.dumps(expect["observed"]),
                                           sys.executable, pathlib.Path(__file__).resolve(), spec))
    script.chmod(0o755)
    return script


def minimise(result, tools):
    """Reduces a failing case with cvise; returns the reproducer (repro.c) or
    None when it cannot (no cvise, not a one-program case, not reproducible)."""
    if result.outcome not in FAILURES or result.source is None:
        return None
    case = pathlib.Path(result.source)
    main = case.with_name(case.stem + "_main.c")
    if not main.exists() or not shutil.which("cvise"):
        return None
    deadline = time.monotonic() + tools.minimise_seconds
    folder = case.parent / "reduced"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    shutil.copy(case, folder / case.name)
    shutil.copy(main, folder / main.name)

    observed = observe(folder, folder / main.name, result.opt, str(tools.build))
    if observed["what"] in ("ok", "compile-error"):
        (folder / "NOT-REPRODUCED").write_text(json.dumps(observed) + "\n")
        return None
    expect = {"main": main.name, "fixed": str(folder / main.name), "opt": result.opt,
              "build": str(tools.build), "observed": observed}

    # Pass 1: the program, under the fixed oracle (for a compiler crash,
    # leave time for pass 2).
    compiler_failure = observed["what"] in ("compiler-crash", "compiler-timeout")
    share = 0.6 if compiler_failure else 1.0
    status = _cvise(_write_test(folder, "interesting", expect), folder / case.name, tools,
                    time.monotonic() + share * tools.minimise_seconds)
    merged = (folder / main.name).read_text().replace(
        '#include "%s"\n' % case.name, (folder / case.name).read_text())
    repro = folder / "repro.c"
    repro.write_text(merged)

    # Pass 2 (compiler failures): the whole file, oracle included. Not for
    # failures at run time: without the oracle's primal runs the sanitizers
    # would no longer guard the reduction against undefined behaviour.
    if compiler_failure:
        whole = dict(expect, main=repro.name, fixed=None)
        status2 = _cvise(_write_test(folder, "interesting-whole", whole), repro, tools, deadline)
        if not same_failure(observed, observe(folder, repro, result.opt, str(tools.build))):
            repro.write_text(merged)   # a cut-off cvise left a worse file
        status += "; whole file: " + status2

    reduced = repro.read_text()
    _tidy(repro)
    final = observe(folder, repro, result.opt, str(tools.build))
    if not same_failure(observed, final):   # formatting must not change it
        repro.write_text(reduced)
        final = observe(folder, repro, result.opt, str(tools.build))
    rerun = folder / "rerun.sh"
    rerun.write_text(
        "#!/bin/sh\n# %s %s seed %d -%s: %s\n# minimised with cvise (%s); still shows: %s\n"
        "cd \"$(dirname \"$0\")\"\n%s && ./repro\n"
        % (result.kind, result.outcome, result.seed, result.opt, result.detail, status,
           json.dumps(final),
           shlex.join(c_oracle.build_command(tools, result.opt, "repro.c", "repro"))))
    rerun.chmod(0o755)
    for junk in ("candidate", "sanitized"):
        (folder / junk).unlink(missing_ok=True)
    return repro


if __name__ == "__main__":
    spec = json.loads(pathlib.Path(sys.argv[1]).read_text())
    sys.exit(0 if interesting(spec, pathlib.Path.cwd()) else 1)
