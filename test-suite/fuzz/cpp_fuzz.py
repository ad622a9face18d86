"""The C++ program fuzzer (kind cpp): generate (cpp_program), build with
enzyme-clang++ -std=c++17, judge with the C fuzzer's oracle (c_oracle) and
classify as the C fuzzer does (c_fuzz).

The generated function keeps the C fuzzer's interface (double scalars,
enzyme_out or enzyme_const; double arrays, enzyme_dup, enzyme_dupnoneed or
enzyme_const; double or void result), so c_oracle.harness writes its oracle
unchanged: the same three checks (gradient and tangents along a random
direction against finite differences, and the dot-product test between the
modes), compiled as C++ in the same translation unit. Only the body is C++
(see cpp_program).

  run_case(seed, opt, workdir, tools) -> Result    one program, one file pair
  run_batch(seeds, opt, workdir, tools) -> [Result] several programs in one
                                                   translation unit
  minimise(result, tools) -> None                  not automated yet (cvise
                                                   by hand; c_reduce is for C)

A case lives in its own folder: fz<S>.cpp (the generated program),
fz<S>_main.cpp (the oracle, which #includes it) and the binary.
"""

import pathlib
import shlex
import time

import c_fuzz
import c_oracle
import cpp_program
from common import CRASH, MISMATCH, PASSED, UNRELIABLE, Result, Tools, run

KIND = "cpp"
COMPILE_TIMEOUT = 180
RUN_TIMEOUT = 10


def build_command(tools, opt, source, exe, flags=()):
    """The command that builds an oracle program (C++17) at -`opt`, linked
    with the libm probe. The oracle's prelude is C that is also C++; its
    `#define _GNU_SOURCE` repeats what clang++ predefines."""
    return [str(tools.clangxx), "-fenzyme", "-" + opt, "-std=c++17", "-Wno-macro-redefined",
            *(["-isystem", cpp_program.EIGEN_INCLUDE] if cpp_program.EIGEN else []),
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
    case = folder / ("%s.cpp" % program.name)
    main = folder / ("%s_main.cpp" % program.name)
    case.write_text(program.code)
    main.write_text(c_oracle.standalone_main(program, case.name))
    return case, main


def run_case(seed, opt, workdir, tools):
    """Generates program `seed`, builds it at -`opt` and judges it."""
    workdir = pathlib.Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    program = cpp_program.generate(seed)
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
    if rc != 0 or not c_oracle.complete(verdicts.get(seed)):
        where = "in the %s stage" % stage[1] if stage else "before the oracle ran"
        result.outcome = CRASH
        result.detail = "program %s %s" % (c_fuzz.describe_exit(rc), where)
        result.log = out
        return result
    return c_fuzz.judged(result, verdicts[seed], out)


def run_batch(seeds, opt, workdir, tools):
    """Several programs in one translation unit (the headers are parsed once);
    a failure is re-run on its own (workdir/<seed>/) to name the seed."""
    workdir = pathlib.Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    programs = [cpp_program.generate(s) for s in seeds]
    if len(programs) == 1:
        return [run_case(seeds[0], opt, workdir / str(seeds[0]), tools)]
    return _batch(programs, opt, workdir, tools)


def _batch(programs, opt, workdir, tools):
    first = programs[0].seed
    source = workdir / ("batch%d.cpp" % first)
    source.write_text(c_oracle.batch_source(programs))
    exe = workdir / ("batch%d" % first)
    rc, out = build(tools, opt, source, exe, timeout=COMPILE_TIMEOUT * 2)
    if c_fuzz.classify_compile(rc, out):
        return [run_case(p.seed, opt, workdir / str(p.seed), tools) for p in programs]

    rc, out = run([exe], timeout=RUN_TIMEOUT * 2, cwd=workdir)
    verdicts, _ = c_oracle.parse(out)
    results = []
    for i, p in enumerate(programs):
        if not c_oracle.complete(verdicts.get(p.seed)):
            results.append(run_case(p.seed, opt, workdir / str(p.seed), tools))
            rest = programs[i + 1:]
            if len(rest) > 1:
                results += _batch(rest, opt, workdir, tools)
            else:
                results += [run_case(q.seed, opt, workdir / str(q.seed), tools) for q in rest]
            return results
        base = Result(PASSED, p.seed, opt, KIND)
        c_fuzz.judged(base, verdicts[p.seed], "")
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
    """Not automated for C++ yet: the kept folder has fz<S>.cpp and
    fz<S>_main.cpp; reduce fz<S>.cpp by hand or with cvise."""
    return None


def rerun_command(result):
    if result.source is None:
        return None
    case = pathlib.Path(result.source)
    main = case.with_name(case.stem + "_main.cpp")
    if not main.exists():
        main, exe = case, "batch"
    else:
        exe = case.stem
    build = shlex.join(build_command(Tools.find(), result.opt, main.name, exe))
    return "cd %s && %s && ./%s" % (case.parent, build, exe)
