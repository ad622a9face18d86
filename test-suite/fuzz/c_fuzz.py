"""The C program fuzzer: generate (c_program), build with enzyme-clang, run the
built-in oracle (c_oracle) and classify.

Each program is checked five ways in one run (c_oracle.CHECKS): its
gradient (reverse mode) and its tangents along a random direction (forward
mode) against finite differences, the two modes against each other (the
dot-product test), and each lane of a width-2 request in reverse and in
forward mode against the scalar request with the same seeds or direction
(vrev, vfwd). A case is one program at one level; its outcome is
the worst of its checks (mismatch, then unreliable, then pass), its detail
names the check ("fwd: comp=3 ..."), and Result.checks holds each check's
verdict and why ("pass agrees", "unreliable noisy", ...).

  run_case(seed, opt, workdir, tools) -> Result    one program, one file pair
  run_batch(seeds, opt, workdir, tools) -> [Result] several programs in one
                                                   translation unit
  minimise(result, tools) -> Path | None           see c_reduce

A case lives in its own folder: fz<S>.c (the generated program),
fz<S>_main.c (the oracle, which #includes it) and the binary.
"""

import pathlib
import re
import shlex
import signal
import time

import c_oracle
import c_program
from common import (CRASH, DIAGNOSED, MISMATCH, PASSED, UNRELIABLE, Result, Tools, crashed,
                    crash_signature, run)

KIND = "c"
COMPILE_TIMEOUT = 180
RUN_TIMEOUT = 10   # a program runs in milliseconds; longer is a hang

# The plugin is being rebuilt: wait, do not count.
PLUGIN_LOAD_ERRORS = ("unable to load plugin", "Could not load library", "cannot open shared object")
# Words in an error that the AD engine or the link (not clang's front end)
# reported; any other error means the generator wrote bad C.
ENGINE_ERROR_WORDS = ("__enzyme_autodiff", "differentiate", "enzyme", "shadow", "undefined symbol")


def build(tools, opt, source, exe, timeout=COMPILE_TIMEOUT, flags=()):
    """Compiles and links; a plugin that cannot be loaded (the build is being
    redone) is waited for rather than counted."""
    for _ in range(6):
        rc, out = run(c_oracle.build_command(tools, opt, source.name, exe.name, flags),
                      timeout=timeout, cwd=source.parent)
        if not any(m in out for m in PLUGIN_LOAD_ERRORS):
            break
        time.sleep(20)
    return rc, out


# A fatal error of LLVM's code generator ("fatal error: error in backend:
# Do not know how to promote this operator!"): IR that the backend cannot
# lower, which a clean diagnostic never is.
BACKEND_ERROR = re.compile(r"error in backend: (.*)")


def classify_compile(rc, out):
    """(outcome, detail) of a failed compilation, or None when it succeeded."""
    if rc == 0 and not crashed(rc, out):
        return None
    if crashed(rc, out):
        if rc == -9:
            return CRASH, "compiler timed out"
        return CRASH, "compiler crashed: " + crash_signature(out)
    backend = BACKEND_ERROR.search(out)
    if backend:
        return CRASH, "compiler crashed: error in backend: " + backend.group(1).strip()
    errors = [l for l in out.splitlines() if "error:" in l]
    first = errors[0] if errors else out.strip().splitlines()[-1] if out.strip() else "exit %d" % rc
    message = first.split("error:", 1)[1].strip() if "error:" in first else first
    if not any(w in first for w in ENGINE_ERROR_WORDS):
        message = "[not an AD error: generator bug?] " + message
    return DIAGNOSED, message


def run_time_report(out):
    """The message with which generated code stopped the program on purpose
    (the run-time's reports: a copy whose contents nothing types run with
    derivatives to move, an exception thrown through a derivative, no
    address space for a scratch shadow), or None. Such a stop is a clean diagnosis, not a crash."""
    for line in out.splitlines():
        if line.startswith("enzyme: "):
            return line
    return None


def stopped_by_report(result, rc, out):
    """Classifies a program that the run-time stopped with a report as
    diagnosed; True if it did."""
    report = run_time_report(out) if rc != 0 else None
    if not report:
        return False
    result.outcome = DIAGNOSED
    result.detail = "stopped at run time: " + report[:300]
    result.log = out
    return True


def describe_exit(rc):
    if rc == -9:
        return "timed out"
    if rc < 0:
        try:
            return "killed by " + signal.Signals(-rc).name
        except ValueError:
            return "killed by signal %d" % -rc
    return "exit status %d" % rc


def write_case(program, folder):
    case = folder / ("%s.c" % program.name)
    main = folder / ("%s_main.c" % program.name)
    case.write_text(program.code)
    main.write_text(c_oracle.standalone_main(program, case.name))
    return case, main


def run_case(seed, opt, workdir, tools):
    """Generates program `seed`, builds it at -`opt` (e.g. "O2") and judges it."""
    workdir = pathlib.Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    program = c_program.generate(seed)
    case, main = write_case(program, workdir)
    exe = workdir / program.name
    result = Result(PASSED, seed, opt, KIND, source=case)

    rc, out = build(tools, opt, main, exe)
    failed = classify_compile(rc, out)
    if failed:
        result.outcome, result.detail = failed
        result.log = out
        if result.outcome == CRASH:
            scalar_checks(result, tools, main, exe)
        return result

    rc, out = run([exe], timeout=RUN_TIMEOUT, cwd=workdir)
    verdicts, stage = c_oracle.parse(out)
    if stopped_by_report(result, rc, out):
        return result
    if rc != 0 or not c_oracle.complete(verdicts.get(seed)):
        where = "in the %s stage" % stage[1] if stage else "before the oracle ran"
        result.outcome = CRASH
        result.detail = "program %s %s" % (describe_exit(rc), where)
        result.log = out
        # The scalar checks come first: what they said still counts.
        checks = verdicts.get(seed)
        if c_oracle.complete(checks, c_oracle.SCALAR_CHECKS):
            for check in c_oracle.SCALAR_CHECKS:
                word, rest = checks[check]
                why = re.search(r"why=(\S+)", rest)
                result.checks[check] = "%s %s" % (word, why.group(1) if why else "?")
        return result
    return judged(result, verdicts[seed], out)


def scalar_checks(result, tools, main, exe):
    """After a compiler crash: the program again without its vector requests
    (-DFZ_NO_VECTOR), so a crash of vector mode does not hide what the
    scalar checks (rev, fwd, dot) say. The case stays a crash (whatever they
    say, unless one is a mismatch, which is added to the detail); its checks
    get their verdicts, and vrev and vfwd "crash compile"; a program whose
    crash does not go away is left as it is."""
    rc, out = build(tools, result.opt, main, exe, flags=("-DFZ_NO_VECTOR",))
    if classify_compile(rc, out):
        return
    rc, out = run([exe], timeout=RUN_TIMEOUT, cwd=main.parent)
    verdicts, _ = c_oracle.parse(out)
    checks = verdicts.get(result.seed)
    if rc != 0 or not c_oracle.complete(checks, c_oracle.SCALAR_CHECKS):
        return
    result.detail += " (in the vector requests; without them: %s)" % ", ".join(
        "%s %s" % (c, checks[c][0]) for c in c_oracle.SCALAR_CHECKS)
    for check in c_oracle.SCALAR_CHECKS:
        word, rest = checks[check]
        why = re.search(r"why=(\S+)", rest)
        result.checks[check] = "%s %s" % (word, why.group(1) if why else "?")
        if word == "mismatch":
            result.detail += "; %s: %s" % (check, rest)
            result.log += "\n" + out
    for check in c_oracle.CHECKS[len(c_oracle.SCALAR_CHECKS):]:
        result.checks[check] = "crash compile"


OUTCOME = {"pass": PASSED, "unreliable": UNRELIABLE, "mismatch": MISMATCH}
SEVERITY = {"pass": 0, "unreliable": 1, "mismatch": 2}


def judged(result, checks, log, run_checks=c_oracle.CHECKS):
    """The case's outcome from the verdicts ({check: (word, rest)}) of the
    checks the kind runs (`run_checks`): the worst; the detail lists the
    checks that reached it."""
    result.checks = {}
    for check in run_checks:
        word, rest = checks[check]
        why = re.search(r"why=(\S+)", rest)
        result.checks[check] = "%s %s" % (word, why.group(1) if why else "?")
    # A check left out for a known engine bug (c_oracle.KNOWN_BUGS) judged
    # nothing: it is counted under its check, not in the case's outcome.
    judging = [c for c in run_checks if "why=known-bug" not in checks[c][1]]
    word = max((checks[c][0] for c in judging), key=SEVERITY.get)
    result.outcome = OUTCOME[word]
    result.detail = "" if word == "pass" else "; ".join(
        "%s: %s" % (c, checks[c][1]) for c in judging if checks[c][0] == word)
    if result.outcome == MISMATCH:
        result.log = log
    return result


def run_batch(seeds, opt, workdir, tools):
    """Judges several programs built as one translation unit, so compiling and
    linking cost is shared. A failure is re-run on its own (in
    workdir/<seed>/) to name the seed and leave a one-program reproducer;
    programs that use a documented-unsupported feature run alone from the
    start (their clean error would stop the whole batch)."""
    workdir = pathlib.Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    programs = [c_program.generate(s) for s in seeds]
    alone = [p.seed for p in programs if p.expect_diagnostic]
    together = [p for p in programs if not p.expect_diagnostic]
    results = {s: run_case(s, opt, workdir / str(s), tools) for s in alone}
    if len(together) == 1:
        together_seed = together[0].seed
        results[together_seed] = run_case(together_seed, opt, workdir / str(together_seed), tools)
    elif together:
        for r in _batch(together, opt, workdir, tools):
            results[r.seed] = r
    return [results[s] for s in seeds]


def _batch(programs, opt, workdir, tools):
    first = programs[0].seed
    source = workdir / ("batch%d.c" % first)
    source.write_text(c_oracle.batch_source(programs))
    exe = workdir / ("batch%d" % first)
    rc, out = build(tools, opt, source, exe, timeout=COMPILE_TIMEOUT * 2)
    if classify_compile(rc, out):
        # Which program? Each on its own.
        return [run_case(p.seed, opt, workdir / str(p.seed), tools) for p in programs]

    rc, out = run([exe], timeout=RUN_TIMEOUT * 2, cwd=workdir)
    verdicts, _ = c_oracle.parse(out)
    results = []
    for i, p in enumerate(programs):
        if not c_oracle.complete(verdicts.get(p.seed)):
            # The batch stopped here (crash or hang): this one alone, the rest
            # as a new batch.
            results.append(run_case(p.seed, opt, workdir / str(p.seed), tools))
            rest = programs[i + 1:]
            if len(rest) > 1:
                results += _batch(rest, opt, workdir, tools)
            else:
                results += [run_case(q.seed, opt, workdir / str(q.seed), tools) for q in rest]
            return results
        base = Result(PASSED, p.seed, opt, KIND)
        judged(base, verdicts[p.seed], "")
        if base.outcome == MISMATCH:
            alone = run_case(p.seed, opt, workdir / str(p.seed), tools)
            if alone.outcome == PASSED or alone.outcome == UNRELIABLE:
                # Only in the batch: keep the batch as the reproducer.
                base.detail += " (in batch %s only; alone: %s)" % (source.name, alone.outcome)
                base.source, base.log = source, out
            else:
                base = alone
        results.append(base)
    return results


def failure_signature(result):
    """What identifies a failure across seeds, for not minimising it twice:
    a compiler crash's signature; None (always minimise) for the rest, whose
    details (a signal, a component) do not tell bugs apart."""
    if result.outcome == CRASH and result.detail.startswith("compiler crashed: "):
        return result.detail
    return None


def minimise(result, tools):
    import c_reduce
    return c_reduce.minimise(result, tools)


def rerun_command(result):
    """Shell commands that rebuild and rerun a kept case in its folder."""
    if result.source is None:
        return None
    case = pathlib.Path(result.source)
    main = case.with_name(case.stem + "_main.c")
    if not main.exists():   # a batch-only failure: the batch file is the case
        main, exe = case, "batch"
    else:
        exe = case.stem
    build = shlex.join(c_oracle.build_command(Tools.find(), result.opt, main.name, exe))
    return "cd %s && %s && ./%s" % (case.parent, build, exe)
