"""What the kinds whose programs the C fuzzer's oracle judges in another
language (cpp, cuda) share: how a case is written, built, run and judged,
how several programs are judged in one translation unit, and the command
that reruns a kept case. A kind says what differs (OracleKind's
arguments): its generator, its files' suffix, its build command, its time
limits, the checks its oracle runs and how a batch that does not compile
names the program at fault.

The C kind (c_fuzz) has its own: it reruns a compiler crash without the
vector requests and keeps programs that use a documented limit out of its
batches.
"""

import pathlib
import shlex
import time

import c_fuzz
import c_oracle
from common import CRASH, MISMATCH, PASSED, UNRELIABLE, Result, Tools, run


class OracleKind:
    """The run_case, run_batch and rerun_command of kind `kind` (common):
    program `generate(seed)` in fz<S>`suffix`, its oracle in
    fz<S>_main`suffix`, built by `build_command(tools, opt, source, exe)`
    within `compile_timeout` seconds and run within `run_timeout`, judged on
    the checks `checks`.

    A batch of n programs runs within `batch_run_timeout(n)` seconds (by
    default twice a case's limit). A batch that does not compile is rerun
    program by program, unless `culprit(programs, failed, out)` (`failed`
    as c_fuzz.classify_compile says, `out` the compiler's output) names the
    seed at fault: that one alone, the rest as a new batch."""

    def __init__(self, kind, generate, suffix, build_command, compile_timeout, run_timeout,
                 checks=c_oracle.CHECKS, batch_run_timeout=None, culprit=None):
        self.kind, self.generate, self.suffix = kind, generate, suffix
        self.build_command = build_command
        self.compile_timeout, self.run_timeout, self.checks = compile_timeout, run_timeout, checks
        self.batch_run_timeout = batch_run_timeout or (lambda count: run_timeout * 2)
        self.culprit = culprit or (lambda programs, failed, out: None)

    def build(self, tools, opt, source, exe, timeout):
        """Compiles and links; a plugin that cannot be loaded (the build is
        being redone) is waited for rather than counted."""
        for _ in range(6):
            rc, out = run(self.build_command(tools, opt, source.name, exe.name), timeout=timeout,
                          cwd=source.parent)
            if not any(m in out for m in c_fuzz.PLUGIN_LOAD_ERRORS):
                break
            time.sleep(20)
        return rc, out

    def write_case(self, program, folder):
        case = folder / (program.name + self.suffix)
        main = folder / (program.name + "_main" + self.suffix)
        case.write_text(program.code)
        main.write_text(c_oracle.standalone_main(program, case.name))
        return case, main

    def run_case(self, seed, opt, workdir, tools):
        """Generates program `seed`, builds it at -`opt` and judges it."""
        workdir = pathlib.Path(workdir).resolve()
        workdir.mkdir(parents=True, exist_ok=True)
        program = self.generate(seed)
        case, main = self.write_case(program, workdir)
        exe = workdir / program.name
        result = Result(PASSED, seed, opt, self.kind, source=case)

        rc, out = self.build(tools, opt, main, exe, self.compile_timeout)
        failed = c_fuzz.classify_compile(rc, out)
        if failed:
            result.outcome, result.detail = failed
            result.log = out
            return result

        rc, out = run([exe], timeout=self.run_timeout, cwd=workdir)
        verdicts, stage = c_oracle.parse(out)
        if c_fuzz.stopped_by_report(result, rc, out):
            return result
        if rc != 0 or not c_oracle.complete(verdicts.get(seed), self.checks):
            where = "in the %s stage" % stage[1] if stage else "before the oracle ran"
            result.outcome = CRASH
            result.detail = "program %s %s" % (c_fuzz.describe_exit(rc), where)
            result.log = out
            return result
        return c_fuzz.judged(result, verdicts[seed], out, self.checks)

    def run_batch(self, seeds, opt, workdir, tools):
        """Several programs in one translation unit (the headers are parsed
        once); a failure is re-run on its own (workdir/<seed>/) to name the
        seed."""
        workdir = pathlib.Path(workdir).resolve()
        workdir.mkdir(parents=True, exist_ok=True)
        programs = [self.generate(s) for s in seeds]
        if len(programs) == 1:
            return [self.run_case(seeds[0], opt, workdir / str(seeds[0]), tools)]
        return self._batch(programs, opt, workdir, tools)

    def _batch(self, programs, opt, workdir, tools):
        first = programs[0].seed
        source = workdir / ("batch%d%s" % (first, self.suffix))
        source.write_text(c_oracle.batch_source(programs))
        exe = workdir / ("batch%d" % first)
        rc, out = self.build(tools, opt, source, exe, self.compile_timeout * 2)
        failed = c_fuzz.classify_compile(rc, out)
        if failed:
            culprit = self.culprit(programs, failed, out)
            if culprit is None:
                return [self._alone(p.seed, opt, workdir, tools) for p in programs]
            results = {culprit: self._alone(culprit, opt, workdir, tools)}
            for r in self._rest([p for p in programs if p.seed != culprit], opt, workdir, tools):
                results[r.seed] = r
            return [results[p.seed] for p in programs]

        rc, out = run([exe], timeout=self.batch_run_timeout(len(programs)), cwd=workdir)
        verdicts, _ = c_oracle.parse(out)
        results = []
        for i, p in enumerate(programs):
            if not c_oracle.complete(verdicts.get(p.seed), self.checks):
                # The batch stopped here (crash or hang): this one alone, the
                # rest as a new batch.
                results.append(self._alone(p.seed, opt, workdir, tools))
                return results + self._rest(programs[i + 1:], opt, workdir, tools)
            base = Result(PASSED, p.seed, opt, self.kind)
            c_fuzz.judged(base, verdicts[p.seed], "", self.checks)
            if base.outcome == MISMATCH:
                alone = self._alone(p.seed, opt, workdir, tools)
                if alone.outcome in (PASSED, UNRELIABLE):
                    # Only in the batch: keep the batch as the reproducer.
                    base.detail += " (in batch %s only; alone: %s)" % (source.name, alone.outcome)
                    base.source, base.log = source, out
                else:
                    base = alone
            results.append(base)
        return results

    def _alone(self, seed, opt, workdir, tools):
        return self.run_case(seed, opt, workdir / str(seed), tools)

    def _rest(self, programs, opt, workdir, tools):
        """The programs of a batch left to judge after it failed: a new
        batch, or one program alone."""
        if len(programs) > 1:
            return self._batch(programs, opt, workdir, tools)
        return [self._alone(p.seed, opt, workdir, tools) for p in programs]

    def rerun_command(self, result):
        """Shell commands that rebuild and rerun a kept case in its folder."""
        if result.source is None:
            return None
        case = pathlib.Path(result.source)
        main = case.with_name(case.stem + "_main" + self.suffix)
        if not main.exists():   # a batch-only failure: the batch file is the case
            main, exe = case, "batch"
        else:
            exe = case.stem
        build = shlex.join(self.build_command(Tools.find(), result.opt, main.name, exe))
        return "cd %s && %s && ./%s" % (case.parent, build, exe)
