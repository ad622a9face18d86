"""IR-level fuzzing: llvm-stress modules made into differentiation requests.

llvm-stress writes one function `void @autogen_SD<seed>(ptr, ptr, ptr, i32,
i64, i8)` of random straight-line and branching code: loads and stores of
random types through the three pointers, scalar and vector arithmetic,
casts, selects, shuffles. Its float computations start from constants and
from loads, so as written little of it is active. Each case rewrites it:

- adds 0..3 active scalar parameters (mostly `float`/`double`, also
  `half`, `bfloat`, `x86_fp80`, `fp128`, converted at the top) and
  sometimes a vector one, and replaces a random share of the scalar
  (vector) floating-point constants with them, so arithmetic, selects,
  stores and casts see active values;
- usually makes it return a floating-point value (mostly `double`): the sum
  of some floating-point values of the entry and the returning block (and
  maybe a load through %0);
- mostly repairs the undefined behaviour that would let -O2 (and the
  engine's own clean-up) fold everything away: constant branch conditions
  (flipped by a bit of the i64 argument, so loops get unknown trip counts),
  constant zero divisors, wide stores into narrow allocas;
- sometimes calls it from a wrapper (the engine then differentiates a call);
- adds a caller holding a well-formed `__enzyme_autodiff` request:
  enzyme_dup/enzyme_dupnoneed/enzyme_const (or no marker) for the pointers
  (shadow buffers from the caller's arguments, sometimes the same buffer
  for two of them), enzyme_const or no marker
  for the integers, enzyme_out/enzyme_const/no marker for the floats, and
  the declared return type the active parameters call for.

A few modules (SCALABLE_SHARE) use llvm-stress's scalable vectors
(`<vscale x 4 x float>`), which the engine refuses: the refusal must stay
clean (LLVM's own simplifycfg aborts on some of them).

At "O0" the engine (`opt -passes=enzyme,verify`) sees the module as
generated, at "O2" after `opt -O2`. The engine must produce a module the
verifier accepts (PASSED) or refuse with a clean error (DIAGNOSED: exit 1,
"error:", no crash marker); anything else, a timeout included, is a CRASH.
minimise() reduces a crash with llvm-reduce.

    python3 ir_stress.py --seed 1 --count 200 [--opt O0 O2] [--minimise]
"""

import pathlib
import random
import re
import shlex
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import casetools  # noqa: E402
import common  # noqa: E402

KIND = "ir"
TIMEOUT = 60  # seconds for one opt run; a case takes well under one
DATALAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
TRIPLE = "x86_64-pc-linux-gnu"

FP_CONST = r"(?:0x[0-9A-Fa-f]+|[-+]?\d+\.\d+(?:e[-+]?\d+)?)"
# A scalar constant with its type: "float 0x4582EBA6C0000000", "double 1.0e+00".
TYPED_CONST = re.compile(r"\b(float|double) (" + FP_CONST + r")\b")
# A vector literal "<float 1.0e+00, float 0x...>" (not a type like <4 x float>).
VECTOR_LITERAL = re.compile(r"<\s*(?:float|double) [^<>]*>")
# A floating-point vector constant with its type (fixed or scalable).
TYPED_VECTOR = re.compile(r"(<(?:vscale x )?\d+ x (?:float|double)>) "
                          r"(<\s*(?:float|double) [^<>]*>|zeroinitializer|undef)")
# Binary operations print the type once: the second operand has none.
FP_BINARY = re.compile(r"^(\s*%[\w.]+ = (?:fadd|fsub|fmul|fdiv|frem|fcmp \w+)(?: \w+)*? )"
                       r"(float|double) ([^,]+), (\S+)$")
# Instructions whose result is a scalar float/double (candidates for the return).
FP_RESULT = [
    re.compile(r"^\s*(%[\w.]+) = load (float|double), "),
    re.compile(r"^\s*(%[\w.]+) = (?:fadd|fsub|fmul|fdiv|frem|fneg)(?: \w+)*? (float|double) "),
    re.compile(r"^\s*(%[\w.]+) = select i1 [^,]+, (float|double) "),
    re.compile(r"^\s*(%[\w.]+) = (?:sitofp|uitofp|fpext|fptrunc|bitcast) .* to (float|double)$"),
    re.compile(r"^\s*(%[\w.]+) = extractelement <\d+ x (float|double)> "),
]
DEFINE = re.compile(r"^define void @(autogen_SD\d+)\((.*)\) \{$")
# Floating-point types by width: conversions between them are fpext or fptrunc.
FP_RANK = {"half": 0, "bfloat": 0, "float": 1, "double": 2, "x86_fp80": 3, "fp128": 3}
# Types of the active scalar parameters; float and double are llvm-stress's own.
SCALAR_TYPES = ["float", "double"] * 4 + ["half", "bfloat", "x86_fp80", "fp128"]
RETURN_TYPES = ["double"] * 5 + ["float", "x86_fp80", "half"]
SCALABLE_SHARE = 0.05


def convert(value, src, dst, name, code):
    """Appends the conversion of value from src to dst to code (as %name);
    returns the converted value."""
    if src == dst:
        return value
    op = "fpext" if FP_RANK[src] < FP_RANK[dst] else "fptrunc"
    code.append(f"  {name} = {op} {src} {value} to {dst}")
    return name


UNSERVED = "request neither served nor diagnosed"
UNSERVED_CALL = re.compile(r"\bcall .*@__enzyme_autodiff\(")


class GeneratorError(Exception):
    pass


def _llvm_stress(seed, size, scalable, tools):
    cmd = [tools.llvm("llvm-stress"), f"-seed={seed}", f"-size={size}", "-o", "-"]
    if scalable:
        cmd.append("--enable-scalable-vectors")
    rc, out = common.run(cmd, timeout=TIMEOUT)
    if rc != 0:
        raise GeneratorError(f"llvm-stress -seed={seed} -size={size} failed: {out[:200]}")
    return out


class _Rewriter:
    """Makes one llvm-stress function differentiable (see the module doc)."""

    def __init__(self, rng, text):
        self.rng = rng
        self.lines = text.splitlines()
        self.def_index = next((i for i, l in enumerate(self.lines) if DEFINE.match(l)), None)
        if self.def_index is None:
            raise GeneratorError("no llvm-stress function in the module")
        m = DEFINE.match(self.lines[self.def_index])
        self.name, self.params = m.group(1), m.group(2)
        self.end_index = self.lines.index("}", self.def_index)

    def rewrite(self):
        rng = self.rng
        # Active parameters: (name, type).
        self.scalars = [(f"%fz.x{k}", rng.choice(SCALAR_TYPES))
                        for k in range(rng.choice([0, 1, 1, 2, 2, 3]))]
        vector_types = sorted({m.group(1) for l in self.lines for m in TYPED_VECTOR.finditer(l)})
        self.vector = None
        if vector_types and rng.random() < 0.3:
            self.vector = ("%fz.v", rng.choice(vector_types))
        self.replace_p = rng.uniform(0.3, 0.9)
        self.ret = rng.choice(RETURN_TYPES) if rng.random() < 0.75 else "void"

        body = self.lines[self.def_index + 1:self.end_index]
        body = [self._rewrite_line(l) for l in body]
        # Each undefined-behaviour repair is left out now and then, so the
        # engine also sees llvm-stress's code as it is.
        if rng.random() < 0.85:
            body = self._unknown_branches(body)
        if rng.random() < 0.85:
            body = self._nonzero_divisors(body)
        if rng.random() < 0.85:
            # llvm-stress stores wide vectors into narrow allocas: undefined
            # behaviour that -O2 turns into `unreachable`. Room for 128
            # elements keeps such code alive for the engine.
            body = [re.sub(r"^(\s*%[\w.]+ = alloca [^,]+), align", r"\1, i32 128, align", l)
                    for l in body]
        body = self._add_conversions(body)
        if self.ret != "void":
            body = self._add_return(body)
        params = self.params + "".join(f", {t} {n}" for n, t in self.all_params())
        define = f"define {self.ret} @{self.name}({params}) {{"
        return self.lines[:self.def_index] + [define] + body + self.lines[self.end_index:]

    def all_params(self):
        return self.scalars + ([self.vector] if self.vector else [])

    def _scalar_for(self, ty):
        # Every scalar parameter has a float and a double value (see
        # _add_conversions).
        if not self.scalars or self.rng.random() >= self.replace_p:
            return None
        name, t = self.rng.choice(self.scalars)
        return name if t == ty else f"{name}.{ty}"

    def _rewrite_line(self, line):
        if self.vector:
            vname, vtype = self.vector
            line = TYPED_VECTOR.sub(
                lambda m: f"{m.group(1)} {vname}"
                if m.group(1) == vtype and self.rng.random() < self.replace_p else m.group(0), line)
        m = FP_BINARY.match(line)
        if m:
            head, ty, a, b = m.groups()
            ops = [self._scalar_for(ty) if re.fullmatch(FP_CONST, op) else None for op in (a, b)]
            return f"{head}{ty} {ops[0] or a}, {ops[1] or b}"
        if "(" in line:
            # A constant expression (scalable splats): its operands must stay
            # constants.
            return line
        # Outside vector literals, every "float C"/"double C" operand.
        parts = re.split(r"(" + VECTOR_LITERAL.pattern + r")", line)
        for i in range(0, len(parts), 2):
            parts[i] = TYPED_CONST.sub(
                lambda c: f"{c.group(1)} {self._scalar_for(c.group(1)) or c.group(2)}", parts[i])
        return "".join(parts)

    def _unknown_branches(self, body):
        # llvm-stress's branch conditions are mostly constants: loops that
        # never end, blocks that never run, which the engine (and -O2) folds
        # away. Flipping them with a bit of the i64 argument makes loops
        # with unknown trip counts and live branches. An unconditional
        # self-loop gets an exit to the next block: llvm-stress's blocks
        # form a chain (each branches to itself, an earlier block or the
        # next one), so every block still dominates the ones after it.
        labels = [(i, m.group(1)) for i, l in enumerate(body) if (m := re.match(r"^([\w.]+):", l))]
        out = []
        for k, line in enumerate(body):
            block = next((name for i, name in reversed(labels) if i < k), None)
            following = next((name for i, name in labels if i > k), None)
            m = re.match(r"^(\s*)br i1 (%[\w.]+|true|false), (.*)$", line)
            loop = re.match(r"^(\s*)br label %([\w.]+)$", line)
            if loop and loop.group(2) == block and following:
                m = re.match(r"^(\s*)br i1 (%[\w.]+|true|false), (.*)$",
                             f"{loop.group(1)}br i1 true, label %{block}, label %{following}")
            if m:
                indent, cond, targets = m.groups()
                bit = self.rng.randrange(64)
                # Frozen: a condition from an out-of-range extractelement is
                # poison, and branching on it undefined behaviour.
                out += [f"{indent}%fz.sh{k} = lshr i64 %4, {bit}",
                        f"{indent}%fz.bit{k} = trunc i64 %fz.sh{k} to i1",
                        f"{indent}%fz.fr{k} = freeze i1 {cond}",
                        f"{indent}%fz.br{k} = xor i1 %fz.fr{k}, %fz.bit{k}",
                        f"{indent}br i1 %fz.br{k}, {targets}"]
            else:
                out.append(line)
        return out

    def _nonzero_divisors(self, body):
        # Integer division by a constant zero (often a zeroinitializer
        # vector) is undefined behaviour, which -O2 turns into `unreachable`.
        out = []
        for k, line in enumerate(body):
            m = re.match(r"^(\s*%[\w.]+ = [su](?:div|rem)(?: exact)? )"
                         r"(<(?:vscale x )?\d+ x (i\d+)>|i\d+) ([^,]+), (\S+)$", line)
            if m:
                head, ty, elem, a, b = m.groups()
                one = f"splat ({elem} 1)" if elem else "1"
                out += [f"  %fz.nz{k} = or {ty} {b}, {one}", f"{head}{ty} {a}, %fz.nz{k}"]
            else:
                out.append(line)
        return out

    def _add_conversions(self, body):
        # Each scalar parameter as a float and as a double too, at the top
        # of the entry block, so any float or double constant can become
        # active.
        conv = []
        for name, t in self.scalars:
            for ty in ("float", "double"):
                convert(name, t, ty, f"{name}.{ty}", conv)
        return body[:1] + conv + body[1:]

    def _add_return(self, body):
        ret = next(i for i, l in enumerate(body) if l.strip() == "ret void")
        # Values of the entry block dominate the return; so do those before
        # it in its own block.
        entry_end = next(i for i, l in enumerate(body) if l.strip().startswith(("br ", "ret ")))
        block_start = max((i for i in range(ret) if re.match(r"^[\w.]+:", body[i])), default=0)
        candidates = []
        for i in list(range(entry_end)) + list(range(block_start, ret)):
            for pattern in FP_RESULT:
                m = pattern.match(body[i])
                if m:
                    candidates.append(m.groups())
                    break
        candidates += self.scalars
        rng = self.rng
        picked = rng.sample(candidates, min(len(candidates), rng.randint(1, 3)))
        code = []
        if not picked or rng.random() < 0.3:
            code.append("  %fz.mem = load double, ptr %0, align 8")
            picked.append(("%fz.mem", "double"))
        total = None
        for k, (name, ty) in enumerate(picked):
            name = convert(name, ty, "double", f"%fz.e{k}", code)
            if total is None:
                total = name
            else:
                op = rng.choice(["fadd", "fmul", "fsub"])
                code.append(f"  %fz.s{k} = {op} double {total}, {name}")
                total = f"%fz.s{k}"
        total = convert(total, "double", self.ret, "%fz.ret", code)
        code.append(f"  ret {self.ret} {total}")
        return body[:ret] + code + body[ret + 1:]


def _request(rng, fname, fp_params, with_ints):
    """The caller: one __enzyme_autodiff request of @fname(ptr, ptr, ptr,
    [i32, i64, i8,] fp_params...)."""
    lines = []
    args = []
    params = []
    for k in range(3):
        params += [f"ptr %p{k}", f"ptr %d{k}"]
        # Now and then the same buffer (and shadow) as an earlier pointer.
        b = rng.randrange(k + 1) if rng.random() < 0.2 else k
        marker = rng.choice(["enzyme_dup", "enzyme_dup", "enzyme_dupnoneed", "enzyme_const", None])
        if marker == "enzyme_const":
            args += ["i32 %m.enzyme_const", f"ptr %p{b}"]
        elif marker is None:  # an unmarked pointer is duplicated
            args += [f"ptr %p{b}", f"ptr %d{b}"]
        else:
            args += [f"i32 %m.{marker}", f"ptr %p{b}", f"ptr %d{b}"]
    if with_ints:
        for k, ty in [(3, "i32"), (4, "i64"), (5, "i8")]:
            params.append(f"{ty} %i{k}")
            if rng.random() < 0.5:
                args.append("i32 %m.enzyme_const")
            args.append(f"{ty} %i{k}")
    gradients = []
    for k, (_, ty) in enumerate(fp_params):
        params.append(f"{ty} %a{k}")
        marker = rng.choice(["enzyme_out", "enzyme_out", None, "enzyme_const"])
        value = f"{ty} %a{k}"
        if ty in ("float", "half", "bfloat") and rng.random() < 0.4:
            # As C passes a float through "...": promoted to double.
            lines.append(f"  %a{k}.promoted = fpext {ty} %a{k} to double")
            value = f"double %a{k}.promoted"
        if marker:
            args.append(f"i32 %m.{marker}")
        args.append(value)
        if marker != "enzyme_const":
            gradients.append(ty)
    params.append("ptr %result")
    markers = ["enzyme_dup", "enzyme_dupnoneed", "enzyme_const", "enzyme_out"]
    loads = [f"  %m.{m} = load i32, ptr @{m}, align 4" for m in markers]
    if not gradients:
        rtype = "void"
    elif len(gradients) == 1:
        rtype = gradients[0]
    else:
        rtype = "{ " + ", ".join(gradients) + " }"
    call = f"call {rtype} (ptr, ...) @__enzyme_autodiff(ptr @{fname}, {', '.join(args)})"
    if rtype == "void":
        body = [f"  {call}"]
    elif "vscale" in rtype:  # unsized: cannot be stored
        body = [f"  %g = {call}"]
    else:
        body = [f"  %g = {call}", f"  store {rtype} %g, ptr %result, align 8"]
    # Declared with the type of the call: a call through another function
    # type is no request (getCalledFunction() is null).
    return ([f"@{m} = external global i32" for m in markers]
            + [f"declare {rtype} @__enzyme_autodiff(ptr, ...)", "",
               f"define void @fz.caller({', '.join(params)}) {{"]
            + loads + lines + body + ["  ret void", "}"])


def _wrapper(rng, stress_name, ret, fp_params):
    """A function that calls the llvm-stress one once or twice, with
    constant integers, and returns a double."""
    params = ["ptr %p0", "ptr %p1", "ptr %p2"] + [f"{t} {n}" for n, t in fp_params]
    fp_args = "".join(f", {t} {n}" for n, t in fp_params)
    body = []
    results = []
    for k in range(rng.choice([1, 1, 2])):
        ints = f"i32 {rng.randint(-5, 100)}, i64 {rng.randint(-5, 100)}, i8 {rng.randint(-5, 100)}"
        call = f"call {ret} @{stress_name}(ptr %p0, ptr %p1, ptr %p2, {ints}{fp_args})"
        if ret == "void":
            body.append(f"  {call}")
        else:
            body.append(f"  %w{k} = {call}")
            results.append(convert(f"%w{k}", ret, "double", f"%wd{k}", body))
    if not results:
        body.append("  %wl = load double, ptr %p0, align 8")
        results.append("%wl")
    total = results[0]
    for k, r in enumerate(results[1:]):
        body.append(f"  %ws{k} = fmul double {total}, {r}")
        total = f"%ws{k}"
    return ([f"define double @fz.wrap({', '.join(params)}) {{"] + body
            + [f"  ret double {total}", "}"])


def generate(seed, tools):
    """The module of one case, as text, and a one-line description."""
    rng = random.Random(seed)
    size = rng.randint(10, 150)
    # Scalable vectors (<vscale x 4 x float>) now and then: loaded, stored
    # and computed with like the fixed ones.
    scalable = rng.random() < SCALABLE_SHARE
    stress = _llvm_stress(seed, size, scalable, tools)
    rw = _Rewriter(rng, stress)
    lines = rw.rewrite()
    fp_params = rw.all_params()
    wrapped = rng.random() < 0.3
    if wrapped:
        lines += [""] + _wrapper(rng, rw.name, rw.ret, fp_params)
        lines += [""] + _request(rng, "fz.wrap", fp_params, with_ints=False)
    else:
        lines += [""] + _request(rng, rw.name, fp_params, with_ints=True)
    flags = " --enable-scalable-vectors" if scalable else ""
    what = (f"llvm-stress -seed={seed} -size={size}{flags};"
            f" active {[t for _, t in fp_params]}, returns {rw.ret}"
            f"{', through a wrapper' if wrapped else ''}")
    header = [f"; {what}", f'target datalayout = "{DATALAYOUT}"', f'target triple = "{TRIPLE}"']
    return "\n".join(header + lines) + "\n", what


def engine_command(tools, path, output="-disable-output"):
    out = ["-disable-output"] if output == "-disable-output" else ["-S", "-o", output]
    return [tools.llvm("opt"), f"-load-pass-plugin={tools.plugin}", "-passes=enzyme,verify",
            path] + out


def run_case(seed, opt, workdir, tools):
    case = pathlib.Path(workdir) / f"ir-{seed}-{opt}"
    case.mkdir(parents=True, exist_ok=True)

    def finish(outcome, detail, source, log):
        r = common.Result(outcome, seed, opt, KIND, detail, source, log)
        if outcome == common.CRASH or casetools.is_generator_bug(r):
            (case / "log").write_text(log)
            (case / "signature").write_text(f"{outcome}\n{detail}\n")
        else:
            shutil.rmtree(case, ignore_errors=True)
            r.source = None
        return r

    try:
        text, what = generate(seed, tools)
    except GeneratorError as e:
        return finish(common.UNRELIABLE, casetools.GENERATOR_BUG + str(e), None, "")
    source = case / "case.ll"
    source.write_text(text)

    engine_input = source
    if opt == "O2":
        engine_input = case / "case.O2.ll"
        rc, log = common.run([tools.llvm("opt"), "-O2", "-S", source, "-o", engine_input],
                             timeout=TIMEOUT)
        if rc != 0:
            # Not the engine: LLVM itself, or a module the generator broke.
            bug = "input module is broken" in log or "error:" in log and not common.crashed(rc, log)
            detail = (casetools.GENERATOR_BUG + casetools.first_error(log) if bug
                      else "opt -O2 (without the engine) failed: "
                      + casetools.crash_detail(rc, log))
            return finish(common.UNRELIABLE, detail, source, log)

    rc, log = casetools.run_tool(engine_command(tools, engine_input, case / "out.ll"), TIMEOUT)
    if rc == 1 and not common.crashed(rc, log) and (
            "input module is broken" in log or f"{engine_input}:" in casetools.first_error(log)):
        # opt could not read the module: the engine never ran.
        return finish(common.UNRELIABLE, casetools.GENERATOR_BUG + casetools.first_error(log),
                      source, log)
    outcome = casetools.outcome_of(rc, log)
    if outcome == common.PASSED and UNSERVED_CALL.search((case / "out.ll").read_text()):
        # opt -passes=enzyme defers nothing: a well-formed request that is
        # neither served nor refused is lost silently.
        outcome, detail = common.CRASH, UNSERVED
    elif outcome == common.PASSED:
        detail = what
    elif outcome == common.DIAGNOSED:
        detail = casetools.first_error(log)
    else:
        detail = casetools.crash_detail(rc, log)
    return finish(outcome, detail, engine_input, log)


INTERESTING = """#!/bin/bash
# Interesting when the engine still fails on "$1" the same way:
#   {signature}
output=$(mktemp) && trap 'rm -f "$output"' EXIT
log=$(timeout {timeout} {command} "$1" -S -o "$output" 2>&1)
rc=$?
{check}
"""


def minimise(result, tools):
    """Reduces a crash's module (the engine's input: after -O2 at "O2") with
    llvm-reduce; writes <case>/reduced.ll, headed by the command that
    reproduces it. Returns its path, or None."""
    if result.outcome != common.CRASH or result.source is None:
        return None
    case = result.source.parent
    sig = (case / "signature").read_text().splitlines()[1]
    command = " ".join(shlex.quote(str(c)) for c in [
        tools.llvm("opt"), f"-load-pass-plugin={tools.plugin}", "-passes=enzyme,verify"])
    if sig == UNSERVED:
        check = f"[ $rc -eq 0 ] && grep -qE {shlex.quote(UNSERVED_CALL.pattern)} \"$output\""
    else:
        check = f"printf '%s' \"$log\" | {casetools.same_crash_command(sig)}"
    test = case / "interesting.sh"
    test.write_text(INTERESTING.format(signature=sig, timeout=min(TIMEOUT, 20),
                                       command=command, check=check))
    test.chmod(0o755)
    reduced = case / "reduced.ll"
    rc, log = common.run([tools.llvm("llvm-reduce"), "-j", "1", f"--test={test}",
                          result.source, "-o", reduced],
                         timeout=getattr(tools, "minimise_seconds", 1800), cwd=case)
    if rc != 0 or not reduced.exists():
        (case / "reduce.log").write_text(log)
        return None
    text = reduced.read_text()
    reduced.write_text(f"; seed {result.seed} at {result.opt}: {sig}\n"
                       f"; reproduce: {command} reduced.ll -S -o -\n" + text)
    return reduced


def rerun_command(result):
    """The command line that runs this case again (scripts/fuzz shows it)."""
    return f"python3 test-suite/fuzz/ir_stress.py --seed {result.seed} --count 1 --opt {result.opt}"


if __name__ == "__main__":
    casetools.seed_range_main(sys.modules[__name__], "ir_stress",
                              "llvm-stress modules through the engine")
