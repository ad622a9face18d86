"""Shared vocabulary of the fuzzers: outcomes, tools, and how a compiler run is
classified.

Every fuzzer module (C programs, llvm-stress modules, malformed requests)
exposes

    run_case(seed: int, opt: str, workdir: pathlib.Path, tools: Tools) -> Result
    minimise(result: Result, tools: Tools) -> pathlib.Path | None

and scripts/fuzz counts the results. A seed regenerates the same case.

- opt is an optimisation level without the dash: "O0", "O2".
- workdir is an empty folder of the case's own (the driver deletes it after
  a pass). Everything needed to reproduce a case lives in
  result.source.parent: on a failure the driver copies that folder to
  KEEP/<kind>-<opt>-<seed>/, points result.source at the copy, and then
  calls minimise, which writes next to result.source and returns the
  reduced reproducer (a file or a folder), or None.
- Optional, used when present:
    run_batch(seeds, opt, workdir, tools) -> [Result]   several seeds at once
    rerun_command(result) -> str    shell commands that rerun a kept case
    failure_signature(result) -> str | None   equal signatures: the same
                                    bug (minimised once); None: always
                                    minimise
"""

import dataclasses
import os
import pathlib
import re
import shutil
import subprocess

# What one case ended in. Only CRASH and MISMATCH are failures.
PASSED = "passed"          # compiled and (where there is an oracle) agreed
DIAGNOSED = "diagnosed"    # the compiler refused it with a clean error
UNRELIABLE = "unreliable"  # the oracle cannot judge (FD unstable, overflow)
MISMATCH = "mismatch"      # a derivative disagrees with the oracle
CRASH = "crash"            # compiler/opt crashed, asserted, broke the verifier,
                           # or the compiled program crashed
OUTCOMES = [PASSED, DIAGNOSED, UNRELIABLE, MISMATCH, CRASH]
FAILURES = {MISMATCH, CRASH}

# Text that means the compiler itself failed, whatever its exit status (a
# crashing cc1 can leave the driver's status at 1, like a clean error).
CRASH_MARKERS = ["Stack dump", "PLEASE submit", "LLVM ERROR", "Assertion",
                 "UNREACHABLE", "Broken module", "Broken function",
                 "Instruction does not dominate", "Segmentation fault"]


@dataclasses.dataclass
class Result:
    outcome: str
    seed: int
    opt: str
    kind: str                      # which fuzzer: "c", "ir", "request"
    detail: str = ""               # one line: why (first error, worst component)
    source: pathlib.Path | None = None   # the generated input, kept for failures
    log: str = ""                  # compiler/program output, for reports
    checks: dict = dataclasses.field(default_factory=dict)  # several checks of
                                   # one case (C: "rev", "fwd", "dot"): each
                                   # one's "verdict why", e.g. "pass agrees"


@dataclasses.dataclass
class Tools:
    build: pathlib.Path            # the build directory (bin/, lib/)
    llvm_bin: pathlib.Path         # /usr/lib/llvm-19/bin
    jobs: int = 2                  # processes a minimiser may use
    minimise_seconds: float = 900  # time limit of one minimisation

    @property
    def clang(self):
        return self.build / "bin" / "enzyme-clang"

    @property
    def clangxx(self):
        return self.build / "bin" / "enzyme-clang++"

    @property
    def plugin(self):
        return self.build / "lib" / "LLVMEnzyme-19.so"

    def llvm(self, name):
        return self.llvm_bin / name

    @staticmethod
    def find(build=None):
        root = pathlib.Path(__file__).resolve().parents[2]
        build = pathlib.Path(build or os.environ.get("BUILD_DIR") or root / "build").resolve()
        return Tools(build=build, llvm_bin=pathlib.Path("/usr/lib/llvm-19/bin"))

    def have(self, program):
        return shutil.which(program) is not None


def crashed(returncode, output):
    """True when a compiler/opt run crashed rather than finished or refused."""
    if returncode not in (0, 1):
        return True
    return any(marker in output for marker in CRASH_MARKERS)


def crash_signature(output):
    """A short description of how a run crashed that survives reduction of
    the input (an assertion's text, an LLVM ERROR, the verifier's complaint,
    the engine function on top of the stack), so a minimiser can insist on
    the same crash and a report can group equal ones."""
    lines = output.splitlines()
    for line in lines:
        m = re.search(r"Assertion `(.*)' failed", line)
        if m:
            return "Assertion `%s' failed" % m.group(1)
    for i, line in enumerate(lines):
        if "Broken module" in line or "Broken function" in line:
            # The verifier's message is the first line of its report.
            for prev in lines[:i]:
                if prev.strip() and not prev.startswith((" ", "\t", "%", "ptr ", "label")) \
                        and "error:" not in prev and "warning:" not in prev:
                    return "verifier: " + _normalise(prev)
            return "verifier: broken module"
    for line in lines:
        if "LLVM ERROR:" in line:
            return "LLVM ERROR: " + _normalise(line.split("LLVM ERROR:", 1)[1])
        if "UNREACHABLE executed" in line:
            return "UNREACHABLE: " + _normalise(line.split("UNREACHABLE", 1)[0])
    frames = [l for l in lines if re.match(r"\s*#\d+ 0x", l)]
    for frame in frames:
        if "Enzyme" in frame or "enzyme::" in frame:
            m = re.search(r"0x[0-9a-f]+ (?:in )?(.*?)(?:\(|$)", frame)
            name = m.group(1).strip() if m else frame.strip()
            return "crash in " + _normalise(name or frame)
    if frames or "Stack dump" in output:
        return "crash (stack dump, no engine frame)"
    return "crash"


def _normalise(text):
    """Drops what changes between inputs: addresses, value names, numbers."""
    text = re.sub(r"0x[0-9a-fA-F]+", "0x", text)
    text = re.sub(r"%[\w.]+", "%v", text)
    text = re.sub(r"\b\d+\b", "N", text)
    return text.strip()


def run(cmd, timeout=120, **kw):
    """Runs cmd; returns (returncode, combined output). A timeout is -9."""
    try:
        p = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=timeout, **kw)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return -9, out + "\n[timed out after %ss]" % timeout
