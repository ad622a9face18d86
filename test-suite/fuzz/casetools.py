"""Helpers shared by the IR-stress and malformed-request fuzzers: how a run
is classified and a crash told apart from another (for the reducers'
interestingness tests), running a tool while the build may be redone, and
a command line that runs a seed range by hand.
"""

import argparse
import concurrent.futures
import pathlib
import shlex
import sys
import time

import common

TIMED_OUT = "timed out"
NO_ERROR = "exit status 1 without an error message"


def crash_detail(returncode, log):
    """What a failed run was: common.crash_signature (so that equal crashes
    of every fuzzer read the same), TIMED_OUT, or NO_ERROR."""
    if returncode == -9 and "[timed out" in log:
        return TIMED_OUT
    if not common.crashed(returncode, log):
        return NO_ERROR  # outcome_of calls that a crash too
    return common.crash_signature(log)


def same_crash_command(signature):
    """A shell command that exits with 0 when the output on its standard
    input, with the exit status in $rc (124: `timeout` struck), failed the
    same way: the end of a reducer's interestingness test."""
    if signature == TIMED_OUT:
        return "[ $rc -eq 124 ]"
    return (f"{shlex.quote(sys.executable)} {shlex.quote(str(pathlib.Path(__file__).resolve()))}"
            f" same-crash {shlex.quote(signature)} $rc")


def first_error(log):
    """The first "error:" line of a compiler's output, for a one-line detail."""
    for line in log.splitlines():
        if "error:" in line:
            return line.strip()
    return ""


def outcome_of(returncode, log):
    """PASSED, DIAGNOSED or CRASH for one opt/clang run."""
    if common.crashed(returncode, log):
        return common.CRASH
    if returncode == 0:
        return common.PASSED
    # Exit status 1 without an error message is no clean diagnostic.
    return common.DIAGNOSED if "error:" in log else common.CRASH


def seed_range_main(module, name, description, extra_args=None, case_kwargs=None):
    """`python3 MODULE.py --seed S --count N [--opt O0 O2] [--minimise]`:
    runs the seed range, prints one line per failure and the counts, and
    exits with 1 when a case failed. extra_args(parser) adds options;
    case_kwargs(args) gives extra keyword arguments for run_case."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--count", type=int, default=100, help="number of seeds")
    parser.add_argument("--opt", nargs="+", default=["O0", "O2"], choices=["O0", "O2"])
    parser.add_argument("--workdir", type=pathlib.Path,
                        help="where cases are written; failures stay (default: BUILD/fuzz-work)")
    parser.add_argument("--build", help="build directory (default: BUILD_DIR or build/)")
    parser.add_argument("--jobs", type=int, default=2, help="cases at a time")
    parser.add_argument("--minimise", action="store_true", help="reduce each crash")
    parser.add_argument("--quiet", action="store_true", help="print failures and counts only")
    if extra_args:
        extra_args(parser)
    args = parser.parse_args()
    kwargs = case_kwargs(args) if case_kwargs else {}
    tools = common.Tools.find(args.build)
    args.workdir = args.workdir or tools.build / "fuzz-work"
    args.workdir.mkdir(parents=True, exist_ok=True)

    jobs = [(seed, opt) for seed in range(args.seed, args.seed + args.count) for opt in args.opt]
    start = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = list(pool.map(
                lambda job: module.run_case(job[0], job[1], args.workdir, tools, **kwargs), jobs))
    except ToolError as e:
        print(f"{name}: cannot run the tools: {e}")
        sys.exit(2)
    elapsed = time.monotonic() - start

    counts = {opt: {o: 0 for o in common.OUTCOMES} for opt in args.opt}
    bad = 0
    for r in results:
        counts[r.opt][r.outcome] += 1
        failed = r.outcome in common.FAILURES or is_generator_bug(r)
        if failed:
            bad += 1
        if failed or not args.quiet:
            print(f"{r.outcome:10} {r.opt} seed {r.seed}: {r.detail}"
                  + (f"  [{r.source}]" if r.source else ""))
        if failed:
            if r.source and r.source.stat().st_size < 20000:
                print("---- input:\n" + r.source.read_text().rstrip())
            if r.log:
                print("---- output:\n" + "\n".join(r.log.strip().splitlines()[:40]))
    for opt in args.opt:
        print(f"{name} {opt}: " + ", ".join(
            f"{n} {o}" for o, n in counts[opt].items() if n))
    print(f"{len(results)} cases in {elapsed:.1f} s "
          f"({elapsed / max(1, len(results)) * max(1, args.jobs):.3f} s per case per job)")
    if args.minimise:
        seen = set()  # one reduction per distinct crash
        for r in results:
            if r.outcome == common.CRASH and r.detail not in seen:
                seen.add(r.detail)
                reduced = module.minimise(r, tools)
                print(f"reduced seed {r.seed} {r.opt}: {reduced or 'not reduced'}")
    sys.exit(1 if bad else 0)


GENERATOR_BUG = "generator bug: "


class ToolError(Exception):
    """The tools under test cannot run at all (the plugin does not load):
    no case can be judged, so the run stops."""


def _load_failure(log):
    for line in log.splitlines():
        if any(m in line for m in ("Could not load library", "unable to load plugin",
                                   "cannot find the Enzyme plugin",
                                   "error while loading shared libraries")):
            return line.strip()
    return None


def run_tool(cmd, timeout, retries=12, **kw):
    """common.run for a command that loads the plugin. While the build is
    being redone the plugin may be missing or half written: wait and try
    again, then give up with ToolError."""
    for _ in range(retries):
        try:
            rc, log = common.run(cmd, timeout=timeout, **kw)
        except OSError as e:  # the driver itself is being relinked
            rc, log = -1, f"Could not load library: {cmd[0]}: {e}"
        if not _load_failure(log):
            return rc, log
        time.sleep(5)
    raise ToolError(_load_failure(log))


def is_generator_bug(result):
    """A case the generator got wrong (the input was not valid to begin
    with): reported as UNRELIABLE, but a failure of the fuzzer itself."""
    return result.detail.startswith(GENERATOR_BUG)


if __name__ == "__main__":
    # casetools.py same-crash SIGNATURE STATUS < output (see same_crash_command)
    if len(sys.argv) == 4 and sys.argv[1] == "same-crash":
        output, status = sys.stdin.read(), int(sys.argv[3])
        sys.exit(0 if outcome_of(status, output) == common.CRASH
                 and crash_detail(status, output) == sys.argv[2] else 1)
    sys.exit("usage: casetools.py same-crash SIGNATURE STATUS < output")
