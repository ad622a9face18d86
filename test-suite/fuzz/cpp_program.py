"""Random differentiable C++17 programs for the differential fuzzer (kind cpp).

generate(seed) returns a c_program.Program: the C++ text of one function
`fz<seed>` over double scalars and double arrays (so the C oracle,
c_oracle.harness, can call it, perturb its inputs and read its outputs),
whose body uses C++: its types and helpers live in a namespace of their own,
fz<seed>_n, so several programs fit in one translation unit. The same seed
gives the same program (for this version of the generator).

What a body combines, each part chosen at random per program and per block:

- a value class `Vec3 { double x, y, z; }` with overloaded `+ - *` (also
  `double * Vec3`, `+=`) and member functions (`dot`, `soft_norm`, `scaled`),
  built from expressions, accumulated in loops;
- `std::vector<double>` built with `push_back`/`emplace_back` inside the
  function (sometimes after `reserve`), or copied from an input range,
  indexed, `resize`d (grown with a value or shrunk), an element erased or
  inserted in the middle (the rest shifted by a memmove), written to;
- `std::array<double, N>` filled by a loop or an initialiser list;
- function templates: `lerp<T>` (with double and with Vec3), a template over
  a callable (`sum_map<F>`), over a container (`sum_sq<C>`, range-for) and
  with a non-type parameter (`tanh_series<K>`);
- lambdas capturing by reference or by value, generic lambdas, called
  directly, passed to the templates, to std::accumulate, std::transform and
  std::inner_product;
- inheritance: an abstract base with a virtual method and a non-virtual
  member calling it, two derived classes with active fields, called through
  a base reference chosen by a data-dependent branch, through an array of
  base pointers in a loop, or through a noinline helper taking the base;
- loops (also range-for) and branches on data and on indices, in-place
  updates of the input arrays;
- math from <cmath> in safe domains (std::sin, exp, log(1 + x*x), sqrt of
  positive values, pow with a positive base, tanh, atan2, hypot, cbrt, ...).

Eigen 3.4 blocks (fixed-size Vector3d / Matrix3d / Matrix2d, Map over the
arrays in scope, dynamic MatrixXd, noalias products, array expressions) are
on where /usr/include/eigen3 exists (scripts/setup installs it);
FUZZ_CPP_EIGEN=0 switches them off. Changing the switch changes the
programs of every seed.

Programs are free of undefined behaviour: indices are in bounds by
construction, math arguments are in their domains, every variable is
initialised.
"""

import os
import random

from c_program import GeneratorBase, Param, Program, Writer

EIGEN = os.environ.get("FUZZ_CPP_EIGEN", "1") == "1" and os.path.isdir("/usr/include/eigen3")
EIGEN_INCLUDE = "/usr/include/eigen3"

HEADERS = ["<algorithm>", "<array>", "<cmath>", "<numeric>", "<vector>"]

# Templates over sub-expressions {a} {b}, {k} an exponent: defined and smooth
# almost everywhere for any finite arguments.
MATH = [
    "std::sin({a})", "std::cos({a})", "std::tanh({a})", "std::atan({a})",
    "std::exp(0.5 * std::sin({a}))", "std::exp(-0.5 * {a} * {a})",
    "std::log(1.0 + {a} * {a})", "std::log(2.0 + std::cos({a}))", "std::log1p({a} * {a})",
    "std::sqrt(1.0 + {a} * {a})", "std::sqrt(2.0 + std::sin({a}))",
    "std::pow(1.0 + {a} * {a}, {k})", "std::pow(1.5 + std::sin({a}), std::tanh({b}))",
    "std::hypot({a}, 1.0 + {b} * {b})", "std::cbrt(1.0 + {a} * {a})", "std::erf({a})",
    "std::atan2({a}, 1.25 + {b} * {b})", "std::sinh(std::atan({a}))",
    "std::expm1(std::atan({a}))", "std::fmax({a}, {b})", "std::fabs({a})",
    "std::cosh(0.5 * std::atan({a}))",
]
BINARY = [
    "({a} + {b})", "({a} - {b})", "({a} * {b})", "({a} / (1.0 + {b} * {b}))",
    "({a} / (2.0 + std::sin({b})))", "(-{a})", "(0.5 * {a} + 0.25 * {b} * {a})",
]

VEC3 = """struct Vec3 {
  double x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  double soft_norm() const { return std::sqrt(1.0 + dot(*this)); }
  Vec3 scaled(double s) const { return *this * (s / soft_norm()); }
};
inline Vec3 operator*(double s, const Vec3 &v) { return v * s; }"""

SHAPES = """struct Shape {
  virtual ~Shape() = default;
  virtual double eval(double u) const = 0;
  double twice(double u) const { return 2.0 * eval(u); }
};
struct Wave : Shape {
  double a;
  explicit Wave(double a_) : a(a_) {}
  double eval(double u) const override { return std::sin(a * u) + a; }
};
struct Bump : Shape {
  double c;
  explicit Bump(double c_) : c(0.75 + 0.5 * std::tanh(c_)) {}
  double eval(double u) const override { return std::exp(-c * u * u) * c; }
};
__attribute__((noinline)) double use_shape(const Shape &s, double u) {
  return s.eval(u) * 0.5 + s.twice(0.25 * u);
}"""

TEMPLATES = {
    "lerp": """template <typename T> T lerp(const T &a, const T &b, double s) {
  return a + (b - a) * s;
}""",
    "sum_map": """template <typename F> double sum_map(F f, const double *p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += f(p[i]);
  return s;
}""",
    "sum_sq": """template <typename C> double sum_sq(const C &c) {
  double s = 0.0;
  for (double e : c)
    s += e * e;
  return s;
}""",
    "tanh_series": """template <int K> double tanh_series(double u) {
  double t = std::tanh(u), r = 0.0, p = 1.0;
  for (int k = 1; k <= K; ++k) {
    p *= t;
    r += p / k;
  }
  return r;
}""",
}


class Arr:
    """An array-like the body may index: elements [0, length)."""

    def __init__(self, name, length, writable, kind):
        self.name, self.length, self.writable, self.kind = name, length, writable, kind

    def begin(self):
        return self.name if self.kind == "ptr" else "%s.begin()" % self.name

    def end(self):
        return "%s + %d" % (self.name, self.length) if self.kind == "ptr" else "%s.end()" % self.name

    def data(self):
        return self.name if self.kind == "ptr" else "%s.data()" % self.name


class Scope:
    def __init__(self, parent=None):
        self.vars = list(parent.vars) if parent else []        # double names
        self.locals = list(parent.locals) if parent else []    # assignable locals
        self.arrays = list(parent.arrays) if parent else []
        self.indices = list(parent.indices) if parent else []  # (name, bound)

    def child(self):
        return Scope(self)


class Generator(GeneratorBase):
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random("cpp-%d" % seed)
        self.p = "fz%d" % seed
        self.counter = 0
        self.features = set()
        self.templates = []
        self.use_vec3 = self.r.random() < 0.5
        self.use_shapes = self.r.random() < 0.35

    def const(self):
        v = 0.0
        while v == 0.0:
            v = round(self.r.uniform(-2.0, 2.0), 3)
        return "%.3f" % v if v > 0 else "(%.3f)" % v

    def template(self, name):
        if name not in self.templates:
            self.templates.append(name)
        self.features.add("template")

    # ---- expressions -------------------------------------------------------

    def index(self, sc, arr):
        fitting = [n for n, b in sc.indices if b <= arr.length]
        if fitting and self.chance(0.7):
            name = self.r.choice(fitting)
            if self.chance(0.3) and arr.length > 1:
                return "(%s + %d) %% %d" % (name, self.r.randrange(1, arr.length), arr.length)
            return name
        return str(self.r.randrange(arr.length))

    def element(self, sc, writable=False):
        arrs = [a for a in sc.arrays if a.writable or not writable]
        arr = self.r.choice(arrs)
        return "%s[%s]" % (arr.name, self.index(sc, arr))

    def leaf(self, sc):
        r = self.r.random()
        if r < 0.12 or (not sc.vars and not sc.arrays):
            return self.const()
        if r < 0.17 and sc.indices:
            return "(double)%s" % self.r.choice(sc.indices)[0]
        if sc.arrays and (r < 0.55 or not sc.vars):
            return self.element(sc)
        return self.r.choice(sc.vars)

    def expr(self, sc, depth):
        if depth <= 0 or self.chance(0.2):
            return self.leaf(sc)
        tmpl = self.r.choice(BINARY if self.chance(0.45) else MATH)
        sub = {k: self.expr(sc, depth - 1) for k in "ab" if "{%s}" % k in tmpl}
        sub["k"] = self.r.choice(["0.5", "1.5", "2.0", "(-0.5)", "0.3"])
        return tmpl.format(**sub)

    def cond(self, sc):
        if sc.indices and self.chance(0.3):
            return "%s %% 2 == 0" % self.r.choice(sc.indices)[0]
        return "%s > %s" % (self.expr(sc, 2), self.const())

    def var(self, w, sc, value, stem="t"):
        t = self.fresh(stem)
        w("double %s = %s;" % (t, value))
        sc.vars.append(t)
        sc.locals.append(t)
        return t

    # ---- blocks ------------------------------------------------------------

    def block(self, w, sc):
        choices = [("scalar", 2), ("loop", 4), ("branch", 3), ("vector", 5), ("array", 4),
                   ("lambda", 4), ("algorithm", 4), ("template", 3), ("inplace", 2)]
        if self.use_vec3:
            choices.append(("vec3", 5))
        if self.use_shapes:
            choices.append(("virtual", 5))
        if EIGEN:
            choices.append(("eigen", 4))
        total = sum(wt for _, wt in choices)
        x = self.r.uniform(0, total)
        for name, wt in choices:
            x -= wt
            if x <= 0:
                break
        getattr(self, "b_" + name)(w, sc)

    def b_scalar(self, w, sc):
        self.var(w, sc, self.expr(sc, 3))

    def loop_over(self, sc):
        arrs = [a for a in sc.arrays if a.length > 1] or sc.arrays
        return self.r.choice(arrs).length if arrs and self.chance(0.8) else self.r.randrange(2, 6)

    def accumulate(self, w, sc, t):
        r = self.r.random()
        e = self.expr(sc, 2)
        if r < 0.4:
            w("%s += %s;" % (t, e))
        elif r < 0.7:
            w("%s = 0.5 * %s + %s;" % (t, t, e))
        else:
            w("%s *= 1.0 + 0.25 * std::tanh(%s);" % (t, e))

    def b_loop(self, w, sc):
        self.features.add("loop")
        t = self.var(w, sc, self.expr(sc, 1))
        bound = self.loop_over(sc)
        i = self.fresh("i")
        w.open("for (int %s = 0; %s < %d; ++%s)" % (i, i, bound, i))
        inner = sc.child()
        inner.indices.append((i, bound))
        if self.chance(0.4):
            self.features.add("branch")
            w.open("if (%s)" % self.cond(inner))
            self.accumulate(w, inner, t)
            w.close(" else {")
            w.level += 1
            self.accumulate(w, inner, t)
            w.close()
        else:
            self.accumulate(w, inner, t)
        w.close()

    def b_branch(self, w, sc):
        self.features.add("branch")
        t = self.fresh("t")
        w("double %s;" % t)
        w.open("if (%s)" % self.cond(sc))
        w("%s = %s;" % (t, self.expr(sc, 2)))
        w.close(" else {")
        w.level += 1
        w("%s = %s;" % (t, self.expr(sc, 2)))
        w.close()
        sc.vars.append(t)
        sc.locals.append(t)

    def b_vector(self, w, sc):
        self.features.add("vector")
        v = self.fresh("v")
        srcs = [a for a in sc.arrays if a.kind == "ptr"]
        length = self.r.randrange(1, 6)
        if srcs and self.chance(0.3):
            src = self.r.choice(srcs)
            length = self.r.randrange(1, src.length + 1)
            w("std::vector<double> %s(%s, %s + %d);" % (v, src.name, src.name, length))
        else:
            w("std::vector<double> %s;" % v)
            if self.chance(0.3):
                w("%s.reserve(%d);" % (v, length))
            i = self.fresh("i")
            w.open("for (int %s = 0; %s < %d; ++%s)" % (i, i, length, i))
            inner = sc.child()
            inner.indices.append((i, length))
            method = "emplace_back" if self.chance(0.25) else "push_back"
            w("%s.%s(%s);" % (v, method, self.expr(inner, 2)))
            w.close()
        if self.chance(0.4):
            self.features.add("vector-resize")
            if length > 1 and self.chance(0.4):
                length -= 1
                w("%s.resize(%d);" % (v, length))
            else:
                extra = self.r.randrange(1, 3)
                fill = self.expr(sc, 1) if self.chance(0.5) else self.const()
                w("%s.resize(%d, %s);" % (v, length + extra, fill))
                length += extra
        if self.chance(0.3):
            # Shifts the elements after the place (a memmove of
            # overlapping ranges), down or up.
            self.features.add("vector-erase-insert")
            if length > 1 and self.chance(0.5):
                w("%s.erase(%s.begin() + %d);" % (v, v, self.r.randrange(length)))
                length -= 1
            else:
                w("%s.insert(%s.begin() + %d, %s);" % (v, v, self.r.randrange(length + 1),
                                                       self.expr(sc, 1)))
                length += 1
        arr = Arr(v, length, True, "vector")
        if self.chance(0.5):
            w("%s[%s] = %s;" % (v, self.r.randrange(length), self.expr(sc, 2)))
        sc.arrays.append(arr)
        t = self.fresh("t")
        w("double %s = 0.0;" % t)
        if self.chance(0.4):
            self.features.add("range-for")
            e = self.fresh("e")
            w.open("for (double %s : %s)" % (e, v))
            inner = sc.child()
            inner.vars.append(e)
            w("%s += %s;" % (t, self.r.choice(MATH).format(a=e, b=self.expr(inner, 1), k="1.5")))
            w.close()
        else:
            w.open("for (std::size_t k = 0; k < %s.size(); ++k)" % v)
            w("%s += %s[k] * %s;" % (t, v, self.expr(sc, 1)))
            w.close()
        sc.vars.append(t)
        sc.locals.append(t)

    def b_array(self, w, sc):
        self.features.add("std-array")
        a = self.fresh("arr")
        n = self.r.randrange(2, 6)
        if self.chance(0.4):
            w("std::array<double, %d> %s = {%s};" % (n, a, ", ".join(self.expr(sc, 1) for _ in range(n))))
        else:
            w("std::array<double, %d> %s{};" % (n, a))
            i = self.fresh("i")
            w.open("for (int %s = 0; %s < %d; ++%s)" % (i, i, n, i))
            inner = sc.child()
            inner.indices.append((i, n))
            w("%s[%s] = %s;" % (a, i, self.expr(inner, 2)))
            w.close()
        sc.arrays.append(Arr(a, n, True, "array"))
        if self.chance(0.5):
            self.template("sum_sq")
            self.var(w, sc, "sum_sq(%s)" % a)

    def lambda_text(self, sc, params=1, capture=None, fold=False):
        """A lambda of `params` doubles (u, w) over the scope's variables;
        with `fold`, a binary operation for std::accumulate: u + f(w)."""
        capture = capture or self.r.choice(["&", "=", "&", ""])
        inner = Scope()
        if capture:
            inner.vars = list(sc.vars)
        names = ["u", "w"][:params]
        inner.vars += names * 2   # its parameters are likelier leaves
        body = self.expr(inner, 2)
        if not any(n in body for n in names):
            body = "%s * %s" % (names[-1], body)
        if fold:
            body = "u + %s" % body
        generic = capture != "" and self.chance(0.2)
        ptype = "auto" if generic else "double"
        if generic:
            self.features.add("generic-lambda")
        return "[%s](%s) { return %s; }" % (capture, ", ".join("%s %s" % (ptype, n) for n in names), body)

    def b_lambda(self, w, sc):
        self.features.add("lambda")
        f = self.fresh("f")
        w("auto %s = %s;" % (f, self.lambda_text(sc)))
        if sc.arrays and self.chance(0.5):
            self.template("sum_map")
            arr = self.r.choice(sc.arrays)
            self.var(w, sc, "sum_map(%s, %s, %d)" % (f, arr.data(), arr.length))
        else:
            self.var(w, sc, "%s(%s) + %s(%s)" % (f, self.expr(sc, 2), f, self.expr(sc, 1)))

    def container(self, w, sc):
        if sc.arrays and self.chance(0.8):
            return self.r.choice(sc.arrays)
        self.b_array(w, sc)
        return sc.arrays[-1]

    def b_algorithm(self, w, sc):
        self.features.add("algorithm")
        self.features.add("lambda")
        c = self.container(w, sc)
        r = self.r.random()
        if r < 0.4:
            init = self.expr(sc, 1) if self.chance(0.5) else "0.0"
            self.var(w, sc, "std::accumulate(%s, %s, %s, %s)" % (
                c.begin(), c.end(), init, self.lambda_text(sc, 2, fold=True)))
        elif r < 0.7 and c.writable:
            w("std::transform(%s, %s, %s, %s);" % (c.begin(), c.end(), c.begin(), self.lambda_text(sc)))
            self.var(w, sc, "%s[%d]" % (c.name, self.r.randrange(c.length)))
        else:
            others = [a for a in sc.arrays if a.length >= c.length]
            d = self.r.choice(others)
            self.var(w, sc, "std::inner_product(%s, %s, %s, %s)" % (
                c.begin(), c.end(), d.begin(), self.expr(sc, 1) if self.chance(0.3) else "0.0"))

    def b_template(self, w, sc):
        r = self.r.random()
        if r < 0.5:
            self.template("lerp")
            self.var(w, sc, "lerp(%s, %s, %s)" % (self.expr(sc, 2), self.expr(sc, 1),
                                                 self.r.choice(["0.25", "0.5", self.leaf(sc)])))
        else:
            self.template("tanh_series")
            self.var(w, sc, "tanh_series<%d>(%s)" % (self.r.randrange(1, 5), self.expr(sc, 2)))

    def b_inplace(self, w, sc):
        arrs = [a for a in sc.arrays if a.writable and a.kind == "ptr"]
        if not arrs:
            return self.b_scalar(w, sc)
        self.features.add("in-place")
        arr = self.r.choice(arrs)
        if self.chance(0.5):
            w("%s[%d] = %s;" % (arr.name, self.r.randrange(arr.length), self.expr(sc, 2)))
        else:
            i = self.fresh("i")
            w.open("for (int %s = 0; %s < %d; ++%s)" % (i, i, arr.length, i))
            inner = sc.child()
            inner.indices.append((i, arr.length))
            w("%s[%s] = 0.5 * %s[%s] + %s;" % (arr.name, i, arr.name, i, self.expr(inner, 2)))
            w.close()

    def vec3(self, sc, depth=1):
        return "Vec3{%s, %s, %s}" % tuple(self.expr(sc, depth) for _ in range(3))

    def b_vec3(self, w, sc):
        self.features.add("vec3")
        p, q = self.fresh("p"), self.fresh("q")
        w("Vec3 %s = %s;" % (p, self.vec3(sc, 2)))
        r = self.r.random()
        if r < 0.4:
            self.features.add("loop")
            w("Vec3 %s{0.0, 0.0, 0.0};" % q)
            bound = self.loop_over(sc)
            i = self.fresh("i")
            w.open("for (int %s = 0; %s < %d; ++%s)" % (i, i, bound, i))
            inner = sc.child()
            inner.indices.append((i, bound))
            w("%s += %s * %s;" % (q, self.vec3(inner), self.expr(inner, 1)))
            w.close()
        else:
            w("Vec3 %s = %s;" % (q, self.vec3(sc, 1)))
        s = self.fresh("s")
        r = self.r.random()
        if r < 0.3:
            w("Vec3 %s = %s + %s * %s;" % (s, p, q, self.expr(sc, 1)))
        elif r < 0.5:
            w("Vec3 %s = %s * %s - %s;" % (s, self.expr(sc, 1), p, q))
        elif r < 0.75:
            self.template("lerp")
            w("Vec3 %s = lerp(%s, %s, %s);" % (s, p, q, self.r.choice(["0.3", "0.5", self.leaf(sc)])))
        else:
            w("Vec3 %s = (%s - %s).scaled(%s);" % (s, p, q, self.expr(sc, 1)))
        self.var(w, sc, self.r.choice(["%s.dot(%s)" % (s, p), "%s.soft_norm()" % s,
                                       "%s.x * %s.z - %s.y" % (s, q, s),
                                       "%s.dot(%s) + %s.soft_norm()" % (s, q, p)]))

    def b_virtual(self, w, sc):
        self.features.add("virtual")
        wv, bp = self.fresh("wave"), self.fresh("bump")
        w("Wave %s(%s);" % (wv, self.expr(sc, 1)))
        w("Bump %s(%s);" % (bp, self.expr(sc, 1)))
        r = self.r.random()
        if r < 0.35:
            ref = self.fresh("shape")
            w("const Shape &%s = %s ? static_cast<const Shape &>(%s) : static_cast<const Shape &>(%s);"
              % (ref, "(" + self.cond(sc) + ")", wv, bp))
            self.var(w, sc, "%s.eval(%s) + %s.twice(%s)" % (ref, self.expr(sc, 2), ref, self.expr(sc, 1)))
        elif r < 0.7:
            self.features.add("loop")
            shapes = self.fresh("shapes")
            w("const Shape *%s[2] = {&%s, &%s};" % (shapes, wv, bp))
            t = self.var(w, sc, "0.0")
            bound = self.loop_over(sc)
            i = self.fresh("i")
            w.open("for (int %s = 0; %s < %d; ++%s)" % (i, i, bound, i))
            inner = sc.child()
            inner.indices.append((i, bound))
            w("%s += %s[%s %% 2]->eval(%s);" % (t, shapes, i, self.expr(inner, 1)))
            w.close()
        else:
            self.var(w, sc, "use_shape(%s, %s) + use_shape(%s, %s)" % (
                wv, self.expr(sc, 1), bp, self.expr(sc, 1)))

    def b_eigen(self, w, sc):
        """Eigen 3.4: fixed-size vectors and matrices, Map over the arrays in
        scope (read, and written in place where they are writable), dynamic
        matrices sized by them, noalias products, array (coefficient-wise)
        expressions."""
        self.features.add("eigen")
        r = self.r.random()
        if r < 0.35 or not sc.arrays:
            a, m = self.fresh("ev"), self.fresh("em")
            w("Eigen::Vector3d %s(%s, %s, %s);" % (a, self.expr(sc, 1), self.expr(sc, 1),
                                                   self.expr(sc, 1)))
            w("Eigen::Matrix3d %s;" % m)
            w("%s << %s;" % (m, ", ".join(self.expr(sc, 1) for _ in range(9))))
            if self.chance(0.3):
                p = self.fresh("ep")
                w("Eigen::Vector3d %s;" % p)
                w("%s.noalias() = %s.transpose() * %s;" % (p, m, a))
                self.var(w, sc, "%s.cwiseProduct(%s).sum()" % (p, a))
                return
            self.var(w, sc, self.r.choice(["(%s * %s).squaredNorm()" % (m, a),
                                           "%s.dot(%s.transpose() * %s)" % (a, m, a),
                                           "(%s + %s * 0.5).sum()" % (a, a),
                                           "(%s * %s).trace()" % (m, m)]))
        elif r < 0.5:
            m = self.fresh("em")
            w("Eigen::Matrix2d %s;" % m)
            w("%s << %s;" % (m, ", ".join(self.expr(sc, 1) for _ in range(4))))
            self.var(w, sc, self.r.choice(["(%s * %s.transpose()).trace() + %s.determinant()" % (m, m, m),
                                           "(%s.transpose() * %s).norm()" % (m, m),
                                           "%s.cwiseAbs().maxCoeff()" % m]))
        elif r < 0.8:
            arr = self.r.choice(sc.arrays)
            v = self.fresh("emap")
            w("Eigen::Map<const Eigen::VectorXd> %s(%s, %d);" % (v, arr.data(), arr.length))
            self.var(w, sc, self.r.choice([
                "%s.squaredNorm()" % v,
                "%s.sum() * %s" % (v, self.expr(sc, 1)),
                "%s.dot(%s.reverse())" % (v, v),
                "(%s.array() * %s.array().tanh()).sum()" % (v, v),
                "(%s.array() - %s).square().mean()" % (v, self.expr(sc, 1))]))
            if arr.writable and self.chance(0.4):
                mw = self.fresh("emw")
                w("Eigen::Map<Eigen::VectorXd> %s(%s, %d);" % (mw, arr.data(), arr.length))
                w("%s.array() = 0.5 * %s.array() + %s * %s.array().square();" % (
                    mw, mw, self.const(), mw))
        else:
            arr = self.r.choice(sc.arrays)
            md = self.fresh("emd")
            cols = self.r.randrange(1, 4)
            w("Eigen::MatrixXd %s(%d, %d);" % (md, arr.length, cols))
            i = self.fresh("i")
            w.open("for (int %s = 0; %s < %d; ++%s)" % (i, i, arr.length, i))
            inner = sc.child()
            inner.indices.append((i, arr.length))
            for c in range(cols):
                w("%s(%s, %d) = %s;" % (md, i, c, self.expr(inner, 1)))
            w.close()
            self.var(w, sc, self.r.choice(["(%s.transpose() * %s).sum()" % (md, md),
                                           "%s.colwise().squaredNorm().sum()" % md,
                                           "(%s * %s.transpose()).trace()" % (md, md)]))

    # ---- the whole program ---------------------------------------------------

    def generate(self):
        r = self.r
        params = []
        sc = Scope()
        for k in range(r.randrange(0, 3)):
            act = "const" if r.random() < 0.2 else "out"
            p = Param("a%d" % k, "scalar", act, marker=r.random() < 0.7 or act == "const",
                      values=[self.input()])
            params.append(p)
            sc.vars.append(p.name)
        for k in range(r.randrange(1, 4)):
            act = r.choice(["dup"] * 6 + ["dupnoneed", "const"])
            length = r.randrange(1, 6)
            p = Param("x%d" % k, "array", act, marker=r.random() < 0.7 or act != "dup",
                      values=[self.input() for _ in range(length)])
            if act != "const":
                p.weights = self.weights(length)
            params.append(p)
            sc.arrays.append(Arr(p.name, length, act != "const", "ptr"))
        r.shuffle(params)

        outputs = [p for p in params if p.kind == "array" and p.active]
        returns = not outputs or r.random() < 0.85
        w = Writer(1)
        w("using namespace %s_n;" % self.p)
        for _ in range(r.randrange(2, 6)):
            self.block(w, sc)
        for p in outputs:
            if r.random() < 0.5:
                w("%s[%d] = %s;" % (p.name, r.randrange(len(p.values)), self.expr(sc, 2)))
        if returns:
            terms = sc.locals[-4:] if sc.locals else [self.expr(sc, 2)]
            w("return %s;" % " + ".join(
                t if i == 0 else "%s * %s" % (self.r.choice(["0.5", "0.25", "1.5"]), t)
                for i, t in enumerate(terms)))
        body = w.text()

        signature = ", ".join(("const double *" if p.activity == "const" else "double *") + p.name
                              if p.kind == "array" else "double " + p.name for p in params)
        head = "%s %s(%s) {\n" % ("double" if returns else "void", self.p, signature or "void")
        ns = []
        if self.use_vec3:
            ns.append(VEC3)
        if self.use_shapes:
            ns.append(SHAPES)
        ns += [TEMPLATES[t] for t in sorted(self.templates)]
        includes = list(HEADERS) + (["<Eigen/Dense>"] if "eigen" in self.features else [])
        parts = ["// %s: generated by test-suite/fuzz/cpp_program.py from seed %d" % (self.p, self.seed)]
        parts += ["#include %s" % h for h in includes]
        parts.append("namespace %s_n {\n%s\n} // namespace %s_n" % (self.p, "\n".join(ns), self.p))
        code = "\n".join(parts) + "\n" + head + body + "}\n"
        return Program(self.seed, self.p, code, params, returns, None, 0, 1e-4, 1e-6, None,
                       sorted(self.features))


def generate(seed):
    return Generator(seed).generate()


if __name__ == "__main__":
    import sys
    for s in sys.argv[1:] or ["1"]:
        print(generate(int(s)).code)
