"""Random differentiable C programs for the differential fuzzer.

generate(seed) returns a Program: the C text of one function `fz<seed>`
(with its helpers and types, all named fz<seed>_...) over double scalars,
double arrays and a struct, plus what the oracle needs to call it: the
parameters, their activities, input values and output seeds. The same seed
gives the same program (for this version of the generator), so a seed is a
reproducer.

What a program can contain: expression trees over the engine's whole math
rule set (enzyme/lib/Rules/MathRules.cpp, also in their `l` and `f` forms),
loops with constant, runtime and data-dependent bounds, nested and
triangular loops, break/continue, branches and switches on data and on
indices, early returns, local, variable-length and heap arrays (malloc,
calloc, realloc), memcpy/memset, pointer arithmetic, in-place updates of the
inputs, local structs, helpers (static, inline, noinline, external,
recursive, taking pointers, returning structs) and a struct parameter with
mixed fields. Expressions stay in safe domains (log(1 + x*x), pow with a
positive base, ...) so most programs have a well-defined gradient; a few
programs ("edgy") also use the raw domains (log(x), x / y, ...) and some use
a feature the engine documents as unsupported, which should give a clean
error.
"""

import dataclasses
import random
import re

# Math functions whose names get an `l`/`f` suffix in the long double and
# float forms of an expression.
MATH_NAMES = ("sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp exp2 "
              "exp10 expm1 log log2 log10 log1p pow sqrt cbrt hypot fabs fmin fmax fma "
              "copysign fmod erf erfc lgamma tgamma ldexp floor ceil round roundeven trunc "
              "rint nearbyint").split()
_MATH_CALL = re.compile(r"\b(%s)\(" % "|".join(MATH_NAMES))

# Templates over sub-expressions {a} {b} {c}, {k} an exponent, {i} an int.
# Safe: defined and smooth almost everywhere for any finite arguments (kinks
# and jumps only on sets of measure zero, which finite differences detect).
SAFE = [
    "sin({a})", "cos({a})", "tan(0.5 * atan({a}))", "asin(0.9 * tanh({a}))",
    "acos(0.9 * sin({a}))", "atan({a})", "atan2({a}, 1.25 + {b} * {b})",
    "sinh(atan({a}))", "cosh(0.5 * atan({a}))", "tanh({a})", "asinh({a})",
    "acosh(1.5 + {a} * {a})", "atanh(0.8 * tanh({a}))",
    "exp(sin({a}))", "exp(-0.5 * {a} * {a})", "exp2(tanh({a}))", "exp10(0.5 * cos({a}))",
    "expm1(atan({a}))", "log(1.0 + {a} * {a})", "log2(2.5 + sin({a}))",
    "log10(1.5 + {a} * {a})", "log1p({a} * {a})",
    "pow(1.0 + {a} * {a}, {k})", "pow(1.5 + sin({a}), tanh({b}))",
    "__builtin_powi(tanh({a}), {p})", "__builtin_powi({a}, 2)",
    "sqrt(1.0 + {a} * {a})", "sqrt(2.0 + cos({a}))", "cbrt(1.0 + {a} * {a})",
    "hypot({a}, 1.0 + {b} * {b})", "fabs({a})", "fmax({a}, {b})", "fmin({a}, {b})",
    "fma({a}, {b}, {c})", "copysign({a}, {b})", "fmod({a}, 1.75)",
    "erf({a})", "erfc({a})", "lgamma(1.5 + {a} * {a})", "tgamma(1.25 + 0.5 * sin({a}))",
    "ldexp({a}, {i})",
]
# Piecewise constant (derivative zero, jumps): used sparingly, or most
# gradients would be zero.
ROUNDING = [
    "floor({a})", "ceil({a})", "round({a})", "roundeven({a})", "trunc({a})", "rint({a})",
    "nearbyint({a})", "{a} * floor({b})", "{a} * (1.0 + 0.1 * round({b}))",
]
# Raw domains: NaN, infinities, poles and branch cuts are possible.
EDGY = [
    "log({a})", "sqrt({a})", "pow({a}, {b})", "({a} / {b})", "asin({a})", "acos({a})",
    "acosh({a})", "atanh({a})", "tan({a})", "lgamma({a})", "tgamma({a})", "cbrt({a})",
    "exp({a})", "log1p({a})", "atan2({a}, {b})", "pow({a}, 0.5)", "fmod({a}, {b})",
    "hypot({a}, {b})", "sqrt({a} * {a})", "log2(fabs({a}))", "__builtin_powi({a}, -2)",
]
BINARY = [
    "({a} + {b})", "({a} - {b})", "({a} * {b})", "({a} / (1.0 + {b} * {b}))",
    "({a} / (2.0 + sin({b})))", "(-{a})", "({a} > {b} ? {c} : {b})",
    "(0.5 * {a} + 0.25 * {b} * {c})",
]

LINKAGES = ["static", "static inline", "__attribute__((noinline)) static", "", "__attribute__((noinline))"]


@dataclasses.dataclass
class Param:
    """One parameter of the function under test, as the oracle sees it."""
    name: str
    kind: str                  # "scalar", "array", "struct", "int"
    activity: str              # "out", "const", "dup", "dupnoneed"
    marker: bool = True        # False: the request relies on the default activity
    values: list = dataclasses.field(default_factory=list)   # inputs (ints for "int")
    weights: list = dataclasses.field(default_factory=list)  # output seeds (dup kinds)
    struct_k: int = 0          # struct parameter: the value of its int field

    @property
    def active(self):
        return self.activity != "const"


@dataclasses.dataclass
class Program:
    seed: int
    name: str                  # the function under test, fz<seed>
    code: str                  # types, helpers and the function
    params: list
    returns: bool              # returns double (else void)
    struct_name: str | None    # the struct parameter's type, if any
    struct_len: int            # length of its array field
    fd_step: float             # relative base step of the finite differences
    rtol: float                # relative tolerance of the comparison
    expect_diagnostic: str | None  # a documented-unsupported feature it uses
    features: list             # what it contains, for reports


@dataclasses.dataclass
class Arr:
    """An array expression the body may index: elements [0, length)."""
    name: str
    length: int
    len_expr: str              # how the code says its length ("4", "n")
    writable: bool
    field: str = ""            # struct arrays: ".a" after the index
    heap: bool = False
    root: str = ""             # the array a pointer-arithmetic view points into

    def __post_init__(self):
        self.root = self.root or self.name

    def at(self, index):
        return "%s[%s]%s" % (self.name, index, self.field)


@dataclasses.dataclass
class Var:
    name: str
    assignable: bool
    local: bool = False        # a local of the function: the result combines them


class Scope:
    """What a block can use. A child scope sees its parent's names; names it
    declares vanish with it."""

    def __init__(self, parent=None):
        self.vars = list(parent.vars) if parent else []
        self.arrays = list(parent.arrays) if parent else []
        self.indices = list(parent.indices) if parent else []   # (name, bound)
        self.loop = parent.loop if parent else None             # "for" / "while"
        self.depth = parent.depth + 1 if parent else 0
        self.struct_ptr = parent.struct_ptr if parent else None

    def child(self, loop=None):
        c = Scope(self)
        if loop:
            c.loop = loop
        return c


class Writer:
    def __init__(self, level=0):
        self.lines = []
        self.level = level

    def __call__(self, line):
        self.lines.append("  " * self.level + line)

    def open(self, line):
        self(line + " {")
        self.level += 1

    def close(self, tail=""):
        self.level -= 1
        self("}" + tail)

    def text(self):
        return "\n".join(self.lines) + "\n"


class GeneratorBase:
    """What the generators of the C, C++ and CUDA kinds share; a subclass
    sets self.r (its random.Random) and self.counter (0)."""

    def fresh(self, stem):
        self.counter += 1
        return "%s%d" % (stem, self.counter)

    def chance(self, p):
        return self.r.random() < p

    def input(self):
        # Full-precision values: never exactly on a constant of the code.
        return self.r.uniform(-2.0, 2.0)

    def weights(self, length):
        r = self.r.random()
        if r < 0.4:
            return [0.0] * length
        if r < 0.5:
            return [1.0] * length
        return [self.r.uniform(-1.0, 1.0) for _ in range(length)]


class Generator(GeneratorBase):
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.p = "fz%d" % seed
        self.counter = 0
        self.types = []            # struct definitions, in order
        self.decls = []            # file-scope declarations (globals, externs)
        self.helpers = []          # helper definitions, in order
        self.helper_cache = {}     # helper kind -> name, for those reused
        self.features = set()
        self.expect_diagnostic = None
        # Per program switches, so programs differ in character.
        self.edgy = self.r.random() < 0.12
        self.long_double = self.r.random() < 0.12
        self.float_math = self.r.random() < 0.05
        self.unsupported = self.r.random() < 0.03
        self.pair_type = None
        self.heap_live = []        # heap arrays to free before returning
        self.returns = True

    # ---- small helpers ---------------------------------------------------

    def const(self):
        # Three decimals, never 0: inputs are full-precision doubles, so an
        # input never sits exactly on a constant's kink or jump.
        v = 0.0
        while v == 0.0:
            v = round(self.r.uniform(-2.5, 2.5), 3)
        return "%.3f" % v if v > 0 else "(%.3f)" % v

    def pos_const(self, lo=0.1, hi=2.0):
        return "%.3f" % round(self.r.uniform(lo, hi), 3)

    # ---- expressions -----------------------------------------------------

    def leaf(self, sc):
        r = self.r.random()
        if r < 0.15 or (not sc.vars and not sc.arrays):
            return self.const()
        if r < 0.2 and sc.indices:
            return "(double)%s" % self.r.choice(sc.indices)[0]
        if sc.arrays and (r < 0.55 or not sc.vars):
            return self.element(sc)
        return self.r.choice(sc.vars).name

    def index_into(self, sc, arr):
        """An index expression certainly within [0, arr.length)."""
        fitting = [(n, b) for n, b in sc.indices if b <= arr.length]
        r = self.r.random()
        if fitting and r < 0.6:
            name, bound = self.r.choice(fitting)
            if self.chance(0.7) or arr.length == 1:
                return name
            if self.chance(0.5):
                return "(%s + %d) %% %s" % (name, self.r.randrange(1, arr.length + 1), arr.len_expr)
            return "%s - 1 - %s" % (arr.len_expr, name) if bound == arr.length else name
        if r < 0.7 and arr.length > 1 and sc.vars and self.chance(0.3):
            # A data-dependent index: the function is piecewise smooth.
            self.features.add("data-index")
            return "%s(%s, %d)" % (self.index_helper(), self.r.choice(sc.vars).name, arr.length)
        return str(self.r.randrange(arr.length))

    def element(self, sc, writable=False):
        arrs = [a for a in sc.arrays if a.writable or not writable]
        arr = self.r.choice(arrs)
        return arr.at(self.index_into(sc, arr))

    def expr(self, sc, depth):
        if depth <= 0 or self.chance(0.2):
            return self.leaf(sc)
        r = self.r.random()
        if r < 0.4:
            tmpl = self.r.choice(BINARY)
        elif self.edgy and r < 0.55:
            tmpl = self.r.choice(EDGY)
            self.features.add("edgy")
        elif r < 0.45:
            tmpl = self.r.choice(ROUNDING)
            self.features.add("rounding")
        else:
            tmpl = self.r.choice(SAFE)
        sub = {k: self.expr(sc, depth - 1) for k in "abc" if "{%s}" % k in tmpl}
        sub["k"] = self.r.choice(["0.5", "1.5", "2.0", "3.0", "(-0.5)", "0.3", "(-1.25)"])
        sub["p"] = str(self.r.choice([2, 3, 4, 5]))
        sub["i"] = str(self.r.randrange(-2, 4))
        text = tmpl.format(**sub)
        if self.long_double and self.chance(0.25):
            self.features.add("long-double")
            text = self.suffixed(text, "l")
        elif self.float_math and self.chance(0.3):
            self.features.add("float")
            text = "(double)" + self.suffixed(text, "f")
        return text

    def suffixed(self, text, suffix):
        """The same expression with its math calls in their float (`f`) or
        long double (`l`) form, cast to that type (C converts the arguments
        and, where the result meets a double, the result)."""
        text = _MATH_CALL.sub(lambda m: m.group(1) + suffix + "(", text)
        text = text.replace("__builtin_powi(", "__builtin_powi" + suffix + "(")
        cast = "(long double)" if suffix == "l" else "(float)"
        return "(%s(%s))" % (cast, text)

    def cond(self, sc):
        r = self.r.random()
        if sc.indices and r < 0.3:
            name = self.r.choice(sc.indices)[0]
            return "%s %% %d == %d" % (name, self.r.randrange(2, 4), 0)
        return "%s > %s" % (self.expr(sc, 2), self.const())

    # ---- statements ------------------------------------------------------

    def block(self, w, sc, count):
        for _ in range(count):
            self.statement(w, sc)

    def statement(self, w, sc):
        nested = sc.depth >= 3
        kinds = [("assign", 6), ("update", 6), ("store", 5 if any(a.writable for a in sc.arrays) else 0)]
        if not nested:
            kinds += [("for", 5), ("for2", 2), ("while", 2), ("dowhile", 1), ("if", 4),
                      ("switch", 1), ("local_array", 2), ("call", 5), ("struct_local", 1)]
        if sc.depth == 0:
            kinds += [("heap", 2), ("memcpy", 1), ("alias", 1)]
            if self.unsupported and self.expect_diagnostic is None:
                kinds += [("unsupported", 30)]
        if sc.loop == "for":
            kinds += [("break", 1)]
        if sc.depth >= 1:
            kinds += [("return", 1)]
        kind = self.weighted(kinds)
        getattr(self, "st_" + kind)(w, sc)

    def weighted(self, pairs):
        total = sum(weight for _, weight in pairs)
        x = self.r.uniform(0, total)
        for name, weight in pairs:
            x -= weight
            if x <= 0 and weight > 0:
                return name
        return [n for n, wt in pairs if wt > 0][-1]

    def assignable(self, sc):
        return [v for v in sc.vars if v.assignable]

    def st_assign(self, w, sc):
        name = self.fresh("t")
        w("double %s = %s;" % (name, self.expr(sc, self.r.randrange(1, 4))))
        sc.vars.append(Var(name, True, local=True))

    def st_update(self, w, sc):
        targets = self.assignable(sc)
        if not targets:
            return self.st_assign(w, sc)
        t = self.r.choice(targets).name
        e = self.expr(sc, self.r.randrange(1, 4))
        form = self.r.randrange(5)
        if form == 0:
            w("%s += %s;" % (t, e))
        elif form == 1:
            w("%s = 0.5 * %s + %s;" % (t, t, e))
        elif form == 2:
            w("%s *= 1.0 + 0.25 * tanh(%s);" % (t, e))
        elif form == 3:
            w("%s -= %s;" % (t, e))
        else:
            w("%s = %s;" % (t, e))

    def st_store(self, w, sc):
        self.features.add("store")
        target = self.element(sc, writable=True)
        e = self.expr(sc, self.r.randrange(1, 3))
        form = self.r.randrange(4)
        if form == 0:
            w("%s = %s;" % (target, e))
        elif form == 1:
            w("%s += %s;" % (target, e))
        elif form == 2:   # an in-place update reading the old value
            w("%s = %s;" % (target, self.r.choice(SAFE[:20]).format(a=target, b=e, c=e)))
        else:
            w("%s *= 1.0 + 0.5 * sin(%s);" % (target, e))

    def loop_bound(self, sc):
        """(bound expression, bound value, array it runs over or None)."""
        if sc.arrays and self.chance(0.8):
            arr = self.r.choice(sc.arrays)
            return arr.len_expr, arr.length, arr
        if sc.struct_ptr and self.chance(0.5):
            return "%s->k" % sc.struct_ptr[0], sc.struct_ptr[1], None
        n = self.r.randrange(1, 6)
        return str(n), n, None

    def st_for(self, w, sc):
        self.features.add("loop")
        bound, value, _ = self.loop_bound(sc)
        i = self.fresh("i")
        if self.chance(0.2):
            self.features.add("reverse-loop")
            w.open("for (int %s = %s - 1; %s >= 0; %s--)" % (i, bound, i, i))
        else:
            w.open("for (int %s = 0; %s < %s; %s++)" % (i, i, bound, i))
        inner = sc.child("for")
        inner.indices.append((i, value))
        self.block(w, inner, self.r.randrange(1, 4))
        w.close()

    def st_for2(self, w, sc):
        # Nested, sometimes triangular.
        self.features.add("nested-loop")
        bound, value, _ = self.loop_bound(sc)
        i, j = self.fresh("i"), self.fresh("j")
        w.open("for (int %s = 0; %s < %s; %s++)" % (i, i, bound, i))
        inner = sc.child("for")
        inner.indices.append((i, value))
        if self.chance(0.5):
            self.features.add("triangular-loop")
            w.open("for (int %s = 0; %s <= %s; %s++)" % (j, j, i, j))
        else:
            b2, v2, _ = self.loop_bound(sc)
            w.open("for (int %s = 0; %s < %s; %s++)" % (j, j, b2, j))
            value = v2
        inner2 = inner.child("for")
        inner2.indices.append((j, value))
        self.block(w, inner2, self.r.randrange(1, 3))
        w.close()
        w.close()

    def st_while(self, w, sc):
        # Trip count depends on the data; the counter caps it.
        self.features.add("data-dependent-loop")
        acc, it = self.fresh("w"), self.fresh("it")
        w("double %s = %s;" % (acc, self.expr(sc, 2)))
        w("int %s = 0;" % it)
        w.open("while (%s < %s && %s < %d)" % (acc, self.pos_const(1.0, 4.0), it, self.r.randrange(3, 12)))
        inner = sc.child("while")
        inner.vars.append(Var(acc, False))
        w("%s += 0.5 + 0.25 * tanh(%s);" % (acc, self.expr(inner, 2)))
        self.block(w, inner, self.r.randrange(0, 3))
        w("%s++;" % it)
        w.close()
        sc.vars.append(Var(acc, True, local=True))

    def st_dowhile(self, w, sc):
        # A fixed-point iteration run to a tolerance (x = cos-like contraction).
        self.features.add("fixed-point-loop")
        x, prev, it = self.fresh("fp"), self.fresh("prev"), self.fresh("it")
        c = self.expr(sc, 2)
        w("double %s = 0.5, %s;" % (x, prev))
        w("int %s = 0;" % it)
        w.open("do")
        w("%s = %s;" % (prev, x))
        w("%s = 0.5 * cos(%s) + 0.25 * tanh(%s);" % (x, x, c))
        w.close(" while (fabs(%s - %s) > 1e-13 && ++%s < 100);" % (x, prev, it))
        sc.vars.append(Var(x, True, local=True))

    def st_if(self, w, sc):
        self.features.add("branch")
        w.open("if (%s)" % self.cond(sc))
        self.block(w, sc.child(), self.r.randrange(1, 3))
        if self.chance(0.6):
            w.close(" else {")
            w.level += 1
            self.block(w, sc.child(), self.r.randrange(1, 3))
        w.close()

    def st_switch(self, w, sc):
        self.features.add("switch")
        if sc.indices and self.chance(0.5):
            subject = "%s %% 3" % self.r.choice(sc.indices)[0]
        else:
            subject = "%s(%s, 3)" % (self.index_helper(), self.expr(sc, 2))
        w.open("switch (%s)" % subject)
        for case in ["case 0:", "case 1:", "default:"]:
            w.open(case)
            inner = sc.child()
            inner.loop = None if sc.loop == "for" else sc.loop   # `break` leaves the switch
            self.block(w, inner, self.r.randrange(1, 3))
            w("break;")
            w.close()
        w.close()

    def st_break(self, w, sc):
        self.features.add("break-continue")
        w("if (%s) %s;" % (self.cond(sc), self.r.choice(["break", "continue"])))

    def st_return(self, w, sc):
        self.features.add("early-return")
        w.open("if (%s)" % self.cond(sc))
        self.emit_return(w, sc)
        w.close()

    def emit_return(self, w, sc):
        value = None
        if self.returns:
            value = self.result_expr(sc)
            if self.heap_live:   # computed before the heap arrays it may read are freed
                ret = self.fresh("ret")
                w("double %s = %s;" % (ret, value))
                value = ret
        for h in self.heap_live:
            w("free(%s);" % h)
        w("return %s;" % value if value else "return;")

    def result_expr(self, sc):
        terms = [v.name for v in sc.vars if v.local]
        self.r.shuffle(terms)
        parts = terms[:3] + [self.expr(sc, 2)]
        return " + ".join(parts)

    def init_loop(self, w, sc, arr, start=0):
        i = self.fresh("i")
        w.open("for (int %s = %d; %s < %s; %s++)" % (i, start, i, arr.len_expr, i))
        inner = sc.child("for")
        inner.indices.append((i, arr.length))
        w("%s = %s;" % (arr.at(i), self.expr(inner, 2)))
        w.close()

    def st_local_array(self, w, sc):
        self.features.add("local-array")
        name = self.fresh("L")
        n_arrays = [a for a in sc.arrays if a.len_expr == "n"]
        if n_arrays and self.chance(0.3):
            self.features.add("vla")
            length, len_expr = n_arrays[0].length, "n"
        else:
            length = self.r.randrange(1, 7)
            len_expr = str(length)
        w("double %s[%s];" % (name, len_expr))
        arr = Arr(name, length, len_expr, True)
        self.init_loop(w, sc, arr)
        sc.arrays.append(arr)

    def st_struct_local(self, w, sc):
        self.features.add("local-struct")
        pair = self.pair()
        if self.chance(0.5):
            name = self.fresh("ps")
            length = self.r.randrange(1, 4)
            w("struct %s %s[%d];" % (pair, name, length))
            a = Arr(name, length, str(length), True, field=".a")
            b = Arr(name, length, str(length), True, field=".b")
            i = self.fresh("i")
            w.open("for (int %s = 0; %s < %d; %s++)" % (i, i, length, i))
            inner = sc.child("for")
            inner.indices.append((i, length))
            w("%s = %s;" % (a.at(i), self.expr(inner, 2)))
            w("%s = %s;" % (b.at(i), self.expr(inner, 2)))
            w.close()
            sc.arrays += [a, b]
        else:
            name = self.fresh("q")
            w("struct %s %s = {%s, %s};" % (pair, name, self.expr(sc, 2), self.expr(sc, 2)))
            sc.vars += [Var(name + ".a", True, True), Var(name + ".b", True, True)]

    def st_heap(self, w, sc):
        self.features.add("heap")
        name = self.fresh("H")
        length = self.r.randrange(1, 7)
        arr = Arr(name, length, str(length), True, heap=True)
        how = self.r.randrange(3)
        if how == 0:
            w("double *%s = (double *)malloc(%d * sizeof(double));" % (name, length))
            self.init_loop(w, sc, arr)
        elif how == 1:
            self.features.add("calloc")
            w("double *%s = (double *)calloc(%d, sizeof(double));" % (name, length))
            if self.chance(0.5):
                self.init_loop(w, sc, arr)
        else:
            self.features.add("realloc")
            w("double *%s = (double *)malloc(%d * sizeof(double));" % (name, length))
            self.init_loop(w, sc, arr)
            grown = length + self.r.randrange(1, 4)
            w("%s = (double *)realloc(%s, %d * sizeof(double));" % (name, name, grown))
            arr.length, arr.len_expr = grown, str(grown)
            self.init_loop(w, sc, arr, start=length)
        sc.arrays.append(arr)
        self.heap_live.append(name)

    def st_memcpy(self, w, sc):
        dsts = [a for a in sc.arrays if a.writable and not a.field]
        srcs = [a for a in sc.arrays if not a.field]
        if not dsts:
            return self.st_assign(w, sc)
        dst, src = self.r.choice(dsts), self.r.choice(srcs)
        n = min(dst.length, src.length)
        if self.chance(0.25):
            self.features.add("memset")
            w("memset(%s, 0, %d * sizeof(double));" % (dst.name, self.r.randrange(1, dst.length + 1)))
        elif dst.root == src.root:
            if n > 1:
                self.features.add("memmove")
                w("memmove(%s + 1, %s, %d * sizeof(double));" % (dst.name, src.name, n - 1))
        else:
            self.features.add("memcpy")
            w("memcpy(%s, %s, %d * sizeof(double));" % (dst.name, src.name, self.r.randrange(1, n + 1)))

    def st_alias(self, w, sc):
        # Pointer arithmetic: a view of an array from an offset.
        arrs = [a for a in sc.arrays if a.length > 1 and not a.heap and not a.field]
        if not arrs:
            return self.st_assign(w, sc)
        self.features.add("pointer-arithmetic")
        base = self.r.choice(arrs)
        off = self.r.randrange(1, base.length)
        name = self.fresh("p")
        qual = "" if base.writable else "const "
        w("%sdouble *%s = %s + %d;" % (qual, name, base.name, off))
        sc.arrays.append(Arr(name, base.length - off, str(base.length - off), base.writable,
                             root=base.root))

    # ---- helpers ---------------------------------------------------------

    def index_helper(self):
        """int index(v, len): a data-dependent index in [0, len), also for NaN
        (converting NaN to int would be undefined behaviour)."""
        name = "%s_index" % self.p
        if "index" not in self.helper_cache:
            self.helper_cache["index"] = name
            self.helpers.append(
                "static int %s(double v, int len) {\n"
                "  if (!(v == v)) return 0;\n"
                "  return (int)(len * (0.5 + 0.45 * tanh(v)));\n}\n" % name)
        return name

    def pair(self):
        if not self.pair_type:
            self.pair_type = "%s_pair" % self.p
            self.types.append("struct %s { double a, b; };" % self.pair_type)
        return self.pair_type

    def linkage(self):
        return self.r.choice(LINKAGES)

    def helper_body(self, w, sc, statements):
        saved = (self.heap_live, self.returns)
        self.heap_live, self.returns = [], True
        self.block(w, sc, statements)
        self.heap_live, self.returns = saved

    def helper_scalar(self):
        """double h(double a, double b): a small function of two scalars."""
        name = self.fresh(self.p + "_h")
        w = Writer()
        w.open("%s double %s(double a, double b)" % (self.linkage(), name))
        sc = Scope()
        sc.depth = 2   # keep helper bodies small and flat
        sc.vars = [Var("a", True), Var("b", True)]
        if self.chance(0.3) and self.helpers:
            inner = self.helper_cache.get("scalar")
            if inner:
                self.features.add("helper-calls-helper")
                w("a = %s(b, a) + 0.5 * a;" % inner)
        self.helper_body(w, sc, self.r.randrange(0, 3))
        w("return %s;" % self.expr(sc, 3))
        w.close()
        self.helpers.append(w.text())
        return name

    def st_call(self, w, sc):
        self.features.add("call")
        kinds = ["scalar", "accum", "recursive", "pair"]
        if [a for a in sc.arrays if not a.field]:
            kinds += ["reduce", "map"]
        if sc.struct_ptr:
            kinds += ["struct"]
        kind = self.r.choice(kinds)
        getattr(self, "call_" + kind)(w, sc)

    def call_scalar(self, w, sc):
        h = self.helper_scalar()
        self.helper_cache["scalar"] = h
        self.features.add("helper-scalar")
        name = self.fresh("t")
        # Sometimes a constant argument: the same helper called with other activities.
        args = [self.expr(sc, 2), self.const() if self.chance(0.3) else self.expr(sc, 2)]
        self.r.shuffle(args)
        w("double %s = %s(%s, %s);" % (name, h, args[0], args[1]))
        sc.vars.append(Var(name, True, local=True))

    def call_accum(self, w, sc):
        # A helper updating the caller's variable through a pointer.
        self.features.add("helper-pointer")
        name = self.fresh(self.p + "_acc")
        hw = Writer()
        hw.open("%s void %s(double *acc, double v)" % (self.linkage(), name))
        hsc = Scope()
        hsc.depth = 3
        hsc.vars = [Var("v", True), Var("(*acc)", False)]
        hw("*acc += %s;" % self.expr(hsc, 2))
        hw.close()
        self.helpers.append(hw.text())
        targets = self.assignable(sc)
        if targets and self.chance(0.6):
            ptr = "&" + self.r.choice(targets).name
        elif any(a.writable for a in sc.arrays):
            arr = self.r.choice([a for a in sc.arrays if a.writable])
            ptr = "&" + arr.at(self.index_into(sc, arr))
        else:
            t = self.fresh("t")
            w("double %s = %s;" % (t, self.expr(sc, 1)))
            sc.vars.append(Var(t, True, local=True))
            ptr = "&" + t
        w("%s(%s, %s);" % (name, ptr, self.expr(sc, 2)))

    def call_recursive(self, w, sc):
        self.features.add("recursion")
        name = self.fresh(self.p + "_rec")
        hw = Writer()
        hw.open("%s double %s(double x, int d)" % (self.r.choice(["static", ""]), name))
        hsc = Scope()
        hsc.depth = 3
        hsc.vars = [Var("x", True)]
        hw("if (d <= 0) return %s;" % self.expr(hsc, 2))
        hw("double r = %s(%s, d - 1);" % (name, self.expr(hsc, 1)))
        hsc.vars.append(Var("r", True))
        hw("return %s;" % self.expr(hsc, 2))
        hw.close()
        self.helpers.append(hw.text())
        t = self.fresh("t")
        w("double %s = %s(%s, %d);" % (t, name, self.expr(sc, 2), self.r.randrange(0, 5)))
        sc.vars.append(Var(t, True, local=True))

    def call_pair(self, w, sc):
        # A helper returning a struct of doubles by value.
        self.features.add("struct-return")
        pair = self.pair()
        name = self.fresh(self.p + "_mk")
        hw = Writer()
        hw.open("%s struct %s %s(double u, double v)" % (self.linkage(), pair, name))
        hsc = Scope()
        hsc.depth = 3
        hsc.vars = [Var("u", True), Var("v", True)]
        hw("struct %s r;" % pair)
        hw("r.a = %s;" % self.expr(hsc, 2))
        hw("r.b = %s;" % self.expr(hsc, 2))
        hw("return r;")
        hw.close()
        self.helpers.append(hw.text())
        q = self.fresh("q")
        w("struct %s %s = %s(%s, %s);" % (pair, q, name, self.expr(sc, 2), self.expr(sc, 2)))
        sc.vars += [Var(q + ".a", True, True), Var(q + ".b", True, True)]

    def call_reduce(self, w, sc):
        self.features.add("helper-array")
        name = self.fresh(self.p + "_sum")
        hw = Writer()
        hw.open("%s double %s(const double *a, int n)" % (self.linkage(), name))
        hw("double s = %s;" % self.const())
        hw.open("for (int i = 0; i < n; i++)")
        hsc = Scope()
        hsc.depth = 3
        hsc.vars = [Var("s", True)]
        hsc.indices = [("i", 1)]
        hsc.arrays = [Arr("a", 1, "n", False)]   # only a[i] is certainly in range
        hw("s += %s;" % self.expr(hsc, 2))
        hw.close()
        hw("return s;")
        hw.close()
        self.helpers.append(hw.text())
        arr = self.r.choice([a for a in sc.arrays if not a.field])
        t = self.fresh("t")
        n = self.r.randrange(1, arr.length + 1)
        w("double %s = %s(%s, %s);" % (t, name, arr.name, arr.len_expr if n == arr.length else n))
        sc.vars.append(Var(t, True, local=True))

    def call_map(self, w, sc):
        dsts = [a for a in sc.arrays if a.writable and not a.field]
        if not dsts:
            return self.call_reduce(w, sc)
        self.features.add("helper-array-write")
        name = self.fresh(self.p + "_map")
        hw = Writer()
        hw.open("%s void %s(double *dst, const double *src, int n, double c)" % (self.linkage(), name))
        hw.open("for (int i = 0; i < n; i++)")
        hsc = Scope()
        hsc.depth = 3
        hsc.vars = [Var("c", True)]
        hsc.indices = [("i", 1)]
        hsc.arrays = [Arr("src", 1, "n", False), Arr("dst", 1, "n", True)]
        hw("dst[i] = %s;" % self.expr(hsc, 2))
        hw.close()
        hw.close()
        self.helpers.append(hw.text())
        dst = self.r.choice(dsts)
        src = self.r.choice([a for a in sc.arrays if not a.field])
        n = min(dst.length, src.length)
        w("%s(%s, %s, %d, %s);" % (name, dst.name, src.name, self.r.randrange(1, n + 1), self.expr(sc, 1)))

    def call_struct(self, w, sc):
        self.features.add("helper-struct-pointer")
        sname, k, stype = sc.struct_ptr
        name = self.fresh(self.p + "_upd")
        hw = Writer()
        hw.open("%s void %s(struct %s *s, double v)" % (self.linkage(), name, stype))
        hsc = Scope()
        hsc.depth = 3
        hsc.vars = [Var("v", True), Var("s->a", True), Var("s->b", True)]
        hsc.arrays = [Arr("s->v", self.struct_len, str(self.struct_len), True)]
        hw("s->a = %s;" % self.expr(hsc, 2))
        hw.open("for (int i = 0; i < s->k; i++)")
        hsc.indices = [("i", k)]
        hw("s->v[i] += %s;" % self.expr(hsc, 2))
        hw.close()
        hw.close()
        self.helpers.append(hw.text())
        w("%s(%s, %s);" % (name, sname, self.expr(sc, 2)))

    # ---- unsupported features (documented errors) -------------------------

    def st_unsupported(self, w, sc):
        kind = self.r.choice(["global-store", "indirect-call", "variadic", "atomic", "external"])
        self.expect_diagnostic = kind
        self.features.add("unsupported-" + kind)
        t = self.fresh("t")
        e = self.expr(sc, 2)
        if kind == "global-store":
            g = "%s_global" % self.p
            self.decls.append("static double %s;" % g)
            w("%s = %s;" % (g, e))
            w("double %s = %s * %s;" % (t, g, g))
        elif kind == "indirect-call":
            h = self.helper_scalar()
            w("double (*volatile %s_fp)(double, double) = %s;" % (t, h))
            w("double %s = %s_fp(%s, 0.5);" % (t, t, e))
        elif kind == "variadic":
            name = "%s_va" % self.p
            self.helpers.append(
                "static double %s(int count, ...) {\n  va_list ap;\n  va_start(ap, count);\n"
                "  double s = 0;\n  for (int i = 0; i < count; i++) {\n"
                "    double v = va_arg(ap, double);\n    s += v * v;\n  }\n"
                "  va_end(ap);\n  return s;\n}\n" % name)
            # A long double expression passed as is would be read as a
            # double by va_arg: undefined behaviour, which differs between
            # the primal and its derivative.
            w("double %s = %s(2, (double)(%s), (double)(%s));" % (t, name, e, self.expr(sc, 1)))
        elif kind == "atomic":
            w("double %s = %s;" % (t, self.expr(sc, 1)))
            w("__atomic_fetch_add(&%s, %s, __ATOMIC_RELAXED);" % (t, e))
        else:
            ext = "%s_external" % self.p
            self.decls.append("double %s(double);  /* defined nowhere */" % ext)
            w("double %s = %s(%s);" % (t, ext, e))
        sc.vars.append(Var(t, True, local=True))

    # ---- the whole program ------------------------------------------------

    def generate(self):
        r = self.r
        params = []
        n = r.randrange(1, 7)              # length of the main arrays
        has_n = r.random() < 0.5           # length passed at run time
        sc = Scope()

        for k in range(r.randrange(0, 4)):
            act = "const" if r.random() < 0.2 else "out"
            p = Param("a%d" % k, "scalar", act, marker=r.random() < 0.7 or act == "const",
                      values=[self.input()])
            params.append(p)
            sc.vars.append(Var(p.name, True))
        for k in range(r.randrange(0 if params else 1, 4)):
            act = r.choice(["dup"] * 6 + ["dupnoneed", "const"])
            length = n if k == 0 or r.random() < 0.6 else r.randrange(1, 7)
            p = Param("x%d" % k, "array", act, marker=r.random() < 0.7 or act != "dup",
                      values=[self.input() for _ in range(length)])
            if act != "const":
                p.weights = self.weights(length)
            params.append(p)
            len_expr = "n" if has_n and length == n else str(length)
            sc.arrays.append(Arr(p.name, length, len_expr, act != "const"))
        self.struct_len = r.randrange(1, 5)
        struct_name = None
        if r.random() < 0.25:
            self.features.add("struct-param")
            struct_name = "%s_s" % self.p
            self.types.append("struct %s { double a; int k; double v[%d]; double b; };"
                              % (struct_name, self.struct_len))
            p = Param("s", "struct", "dup", values=[self.input() for _ in range(self.struct_len + 2)],
                      weights=self.weights(self.struct_len + 2),
                      struct_k=r.randrange(0, self.struct_len + 1))
            params.append(p)
            sc.struct_ptr = ("s", p.struct_k, struct_name)
            sc.vars += [Var("s->a", True), Var("s->b", True)]
            sc.arrays.append(Arr("s->v", self.struct_len, str(self.struct_len), True))
        if has_n and any(a.len_expr == "n" for a in sc.arrays):
            params.insert(r.randrange(len(params) + 1),
                          Param("n", "int", "const", marker=r.random() < 0.7, values=[n]))
        r.shuffle(params)   # parameter order varies too

        outputs = [p for p in params if p.kind in ("array", "struct") and p.active]
        self.returns = not outputs or r.random() < 0.85
        w = Writer()
        w.level = 1
        self.block(w, sc, r.randrange(2, 8))
        # Make sure outputs depend on the inputs now and then.
        for p in outputs:
            if r.random() < 0.5 and p.kind == "array":
                arr = [a for a in sc.arrays if a.name == p.name][0]
                w("%s = %s;" % (arr.at(self.index_into(sc, arr)), self.expr(sc, 2)))
        self.emit_return(w, sc)
        body = w.text()

        signature = ", ".join(self.c_param(p, struct_name) for p in params) or "void"
        linkage = "static " if r.random() < 0.2 else ""
        rtype = "double" if self.returns else "void"
        head = "%s%s %s(%s) {\n" % (linkage, rtype, self.p, signature)

        parts = ["/* %s: generated by test-suite/fuzz/c_program.py from seed %d */" % (self.p, self.seed)]
        parts += self.types + self.decls + [h.rstrip("\n") for h in self.helpers]
        code = "\n".join(parts) + "\n" + head + body + "}\n"
        # Float math: the primal is rounded to ~6e-8 and the engine computes
        # the derivative in float too, so larger steps and a looser tolerance.
        floats = "float" in self.features
        fd_step, rtol = (1e-2, 1e-3) if floats else (1e-4, 1e-6)
        return Program(self.seed, self.p, code, params, self.returns, struct_name,
                       self.struct_len, fd_step, rtol, self.expect_diagnostic,
                       sorted(self.features))

    def c_param(self, p, struct_name):
        if p.kind == "scalar":
            return "double " + p.name
        if p.kind == "int":
            return "int " + p.name
        if p.kind == "struct":
            return "struct %s *%s" % (struct_name, p.name)
        return ("const double *" if p.activity == "const" else "double *") + p.name


def generate(seed):
    return Generator(seed).generate()


if __name__ == "__main__":
    import sys
    for s in sys.argv[1:] or ["1"]:
        print(generate(int(s)).code)
