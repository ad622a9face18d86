"""The CUDA program fuzzer (kind cuda): generate (cuda_program), build with
enzyme-clang++ -fcuda-emulate (the kernels run on the CPU, no GPU needed),
judge with the C fuzzer's oracle (c_oracle) and classify as the C fuzzer does
(c_fuzz).

The function under test is host code that launches kernels; it keeps the C
fuzzer's interface (double scalars, enzyme_out or enzyme_const; double arrays
of one length, enzyme_dup, enzyme_dupnoneed or enzyme_const; that length as
an int; double or void result), so c_oracle.harness writes its oracle
unchanged, compiled as CUDA host code in the same translation unit. The
checks are the scalar ones (c_oracle.SCALAR_CHECKS): the gradient and the
tangents along a random direction against finite differences, and the
dot-product test between the modes. Vector mode is left out
(-DFZ_NO_VECTOR): vector forward mode of host code that launches kernels
is an error that says so (docs/cuda.md), and the harness has the two
vector checks under one switch.

  run_case(seed, opt, workdir, tools) -> Result    one program, one file pair
  run_batch(seeds, opt, workdir, tools) -> [Result] several programs in one
                                                   translation unit
  minimise(result, tools) -> None                  not automated (cvise by
                                                   hand; c_reduce is for C)

A case lives in its own folder: fz<S>.cu (the generated program),
fz<S>_main.cu (the oracle, which #includes it) and the binary.

Every emulated CUDA thread is a host thread, and the oracle calls the
function some 30 times per input and per output for its finite differences,
so a case runs for about a second where a C case runs for milliseconds: the
run's time limit is larger than the C fuzzer's.
"""

import pathlib
import re
import shlex
import time

import c_fuzz
import c_oracle
import cuda_program
from common import CRASH, MISMATCH, PASSED, UNRELIABLE, Result, Tools, run

KIND = "cuda"
COMPILE_TIMEOUT = 300
RUN_TIMEOUT = 120
CHECKS = c_oracle.SCALAR_CHECKS   # rev, fwd, dot: no vector mode (see above)
FLAGS = ("-fcuda-emulate", "-DFZ_NO_VECTOR")


def build_command(tools, opt, source, exe, flags=()):
    """The command that builds an oracle program (CUDA, emulated) at -`opt`,
    linked with the libm probe. The oracle's prelude is C that is also C++;
    its `#define _GNU_SOURCE` repeats what clang++ predefines."""
    return [str(tools.clangxx), "-fenzyme", "-" + opt, *FLAGS, "-Wno-macro-redefined",
            *flags, str(source), str(c_oracle.libm_probe(tools)), "-o", str(exe), "-lm"]


def build(tools, opt, source, exe, timeout=COMPILE_TIMEOUT):
    for _ in range(6):
        rc, out = run(build_command(tools, opt, source.name, exe.name), timeout=timeout,
                      cwd=source.parent)
        if not any(m in out for m in c_fuzz.PLUGIN_LOAD_ERRORS):
            break
        time.sleep(20)
    return rc, out


def write_case(program, folder):
    case = folder / ("%s.cu" % program.name)
    main = folder / ("%s_main.cu" % program.name)
    case.write_text(program.code)
    main.write_text(c_oracle.standalone_main(program, case.name))
    return case, main


def judged(result, checks, log):
    return c_fuzz.judged(result, checks, log, CHECKS)


def complete(checks):
    return c_oracle.complete(checks, CHECKS)


def run_case(seed, opt, workdir, tools):
    """Generates program `seed`, builds it at -`opt` and judges it."""
    workdir = pathlib.Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    program = cuda_program.generate(seed)
    case, main = write_case(program, workdir)
    exe = workdir / program.name
    result = Result(PASSED, seed, opt, KIND, source=case)

    rc, out = build(tools, opt, main, exe)
    failed = c_fuzz.classify_compile(rc, out)
    if failed:
        result.outcome, result.detail = failed
        result.log = out
        return result

    rc, out = run([exe], timeout=RUN_TIMEOUT, cwd=workdir)
    verdicts, stage = c_oracle.parse(out)
    if c_fuzz.stopped_by_report(result, rc, out):
        return result
    if rc != 0 or not complete(verdicts.get(seed)):
        where = "in the %s stage" % stage[1] if stage else "before the oracle ran"
        result.outcome = CRASH
        result.detail = "program %s %s" % (c_fuzz.describe_exit(rc), where)
        result.log = out
        return result
    return judged(result, verdicts[seed], out)


def run_batch(seeds, opt, workdir, tools):
    """Several programs in one translation unit (the headers are parsed and
    the file scanned for launches once); a failure is re-run on its own
    (workdir/<seed>/) to name the seed."""
    workdir = pathlib.Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    programs = [cuda_program.generate(s) for s in seeds]
    if len(programs) == 1:
        return [run_case(seeds[0], opt, workdir / str(seeds[0]), tools)]
    return _batch(programs, opt, workdir, tools)


def _batch(programs, opt, workdir, tools):
    first = programs[0].seed
    source = workdir / ("batch%d.cu" % first)
    source.write_text(c_oracle.batch_source(programs))
    exe = workdir / ("batch%d" % first)
    rc, out = build(tools, opt, source, exe, timeout=COMPILE_TIMEOUT * 2)
    failed = c_fuzz.classify_compile(rc, out)
    if failed:
        # An error that names one program's kernel or function (fz<S>_n::k3,
        # 'fz<S>'): that one alone, the rest as a new batch; else each alone.
        culprit = None
        if failed[0] != CRASH:
            named = re.search(r"error: .*?\bfz(\d+)(?:_n::|')", out)
            seeds = {p.seed for p in programs}
            culprit = int(named.group(1)) if named and int(named.group(1)) in seeds else None
        if culprit is None:
            return [run_case(p.seed, opt, workdir / str(p.seed), tools) for p in programs]
        results = {culprit: run_case(culprit, opt, workdir / str(culprit), tools)}
        rest = [p for p in programs if p.seed != culprit]
        for r in (_batch(rest, opt, workdir, tools) if len(rest) > 1 else
                  [run_case(q.seed, opt, workdir / str(q.seed), tools) for q in rest]):
            results[r.seed] = r
        return [results[p.seed] for p in programs]

    rc, out = run([exe], timeout=RUN_TIMEOUT * len(programs), cwd=workdir)
    verdicts, _ = c_oracle.parse(out)
    results = []
    for i, p in enumerate(programs):
        if not complete(verdicts.get(p.seed)):
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
            if alone.outcome in (PASSED, UNRELIABLE):
                base.detail += " (in batch %s only; alone: %s)" % (source.name, alone.outcome)
                base.source, base.log = source, out
            else:
                base = alone
        results.append(base)
    return results


def failure_signature(result):
    return c_fuzz.failure_signature(result)


def minimise(result, tools):
    """Not automated for CUDA: the kept folder has fz<S>.cu and
    fz<S>_main.cu; reduce fz<S>.cu by hand or with cvise."""
    return None


def rerun_command(result):
    if result.source is None:
        return None
    case = pathlib.Path(result.source)
    main = case.with_name(case.stem + "_main.cu")
    if not main.exists():
        main, exe = case, "batch"
    else:
        exe = case.stem
    build = shlex.join(build_command(Tools.find(), result.opt, main.name, exe))
    return "cd %s && %s && ./%s" % (case.parent, build, exe)
