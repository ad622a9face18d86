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

import re

import c_fuzz
import c_oracle
import cuda_program
import oracle_kinds
from common import CRASH

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


def culprit(programs, failed, out):
    """The seed of the program whose kernel or function (fz<S>_n::k3,
    'fz<S>') the error of a batch that does not compile names, or None (a
    compiler crash, or no program named)."""
    if failed[0] == CRASH:
        return None
    named = re.search(r"error: .*?\bfz(\d+)(?:_n::|')", out)
    seeds = {p.seed for p in programs}
    return int(named.group(1)) if named and int(named.group(1)) in seeds else None


# Cases, batches (the headers parsed and the file scanned for launches once)
# and reruns as the cpp kind's (oracle_kinds); a batch's time limit grows
# with its programs, each of which runs for about a second.
ORACLE = oracle_kinds.OracleKind(KIND, cuda_program.generate, ".cu", build_command,
                                 COMPILE_TIMEOUT, RUN_TIMEOUT, CHECKS,
                                 batch_run_timeout=lambda count: RUN_TIMEOUT * count,
                                 culprit=culprit)
run_case, run_batch, rerun_command = ORACLE.run_case, ORACLE.run_batch, ORACLE.rerun_command


def failure_signature(result):
    return c_fuzz.failure_signature(result)


def minimise(result, tools):
    """Not automated for CUDA: the kept folder has fz<S>.cu and
    fz<S>_main.cu; reduce fz<S>.cu by hand or with cvise."""
    return None

