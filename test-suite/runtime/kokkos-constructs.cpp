// Kokkos constructs on Debian's Kokkos (a shared library without bitcode,
// Serial backend): parallel_reduce with the default sum (functor and
// lambda), with the Sum, Max and Min reducers, with a functor's own
// init and join and with a reducer class of one's own; parallel_for over a RangePolicy and an
// MDRangePolicy<Rank<2>> writing Views that the differentiated function
// allocates (reads at each point, and reads that run past a row);
// deep_copy (View to View, and a scalar fill); subview; Kokkos'
// math wrappers; an explicit time-stepping kernel over 60 steps, the new
// state copied back or the Views swapped. Every gradient is checked against
// central finite differences, the reverse against forward mode, at -O0 and
// -O2, and once
// under AddressSanitizer with leak checks (shadow Views are freed after the
// reverse pass) and its allocator checks: the library deletes shadow
// records, which the engine allocates with the program's operator new.
// REQUIRES: kokkos
// RUN: %clangxx_enzyme -fenzyme -O0 -g %s -o %t %kokkos_flags
// RUN: %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t2 %kokkos_flags
// RUN: %t2
// RUN: %clangxx_enzyme -fenzyme -O2 -g -fsanitize=address %s -o %t3 %kokkos_flags
// RUN: %t3
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>

#if KOKKOS_VERSION >= 40000
#define KMATH Kokkos
#else
#define KMATH Kokkos::Experimental
#endif

using Vector = Kokkos::View<double *>;
using Matrix = Kokkos::View<double **>;

template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);
template <typename RT, typename... Args> RT __enzyme_fwddiff(void *, Args...);
int enzyme_dup, enzyme_const, enzyme_out;

struct SquareSum {
  Vector v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, double &sum) const {
    sum += v(i) * v(i);
  }
};

// The seed's 2-norm: a functor and the default sum.
double nrm2(const Vector &v) {
  double sum = 0;
  Kokkos::parallel_reduce(v.extent(0), SquareSum{v}, sum);
  return KMATH::sqrt(sum);
}

// A lambda, Kokkos' math wrappers.
double wave(const Vector &v) {
  double sum = 0;
  Kokkos::parallel_reduce(
      "wave", v.extent(0),
      KOKKOS_LAMBDA(int i, double &s) {
        s += KMATH::sin(v(i)) * KMATH::exp(0.3 * v(i)) + KMATH::pow(v(i), 2.0);
      },
      sum);
  return sum;
}

// The Sum, Max and Min reducers: the adjoint of a max or a min goes to the
// element that held it.
double reducers(const Vector &v) {
  double s = 0, hi = 0, lo = 0;
  int n = v.extent(0);
  Kokkos::parallel_reduce(
      n, KOKKOS_LAMBDA(int i, double &a) { a += v(i) * (i + 1); },
      Kokkos::Sum<double>(s));
  Kokkos::parallel_reduce(
      n,
      KOKKOS_LAMBDA(int i, double &a) {
        double x = v(i) * v(i) - i;
        if (x > a)
          a = x;
      },
      Kokkos::Max<double>(hi));
  Kokkos::parallel_reduce(
      n,
      KOKKOS_LAMBDA(int i, double &a) {
        double x = KMATH::cos(v(i)) + 0.1 * i;
        if (x < a)
          a = x;
      },
      Kokkos::Min<double>(lo));
  return s + 2 * hi + 3 * lo;
}

// A reduction functor with its own init and join (a maximum): the join is
// differentiated as code, so the adjoint goes to the element that won.
struct ShiftedMax {
  using value_type = double;
  Vector v;
  KOKKOS_INLINE_FUNCTION void operator()(int i, double &m) const {
    double a = v(i) * v(i) - 0.1 * i;
    if (a > m)
      m = a;
  }
  KOKKOS_INLINE_FUNCTION void join(double &dst, const double &src) const {
    if (src > dst)
      dst = src;
  }
  KOKKOS_INLINE_FUNCTION void init(double &m) const { m = -1e300; }
};

double custom_join(const Vector &v) {
  double m = 0;
  Kokkos::parallel_reduce(v.extent(0), ShiftedMax{v}, m);
  return m * m + m;
}

// A reducer class of one's own (a product), as Kokkos' reducer concept
// asks: its join and init are differentiated as code.
struct Product {
  using reducer = Product;
  using value_type = double;
  using result_view_type =
      Kokkos::View<double, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  double &result;
  KOKKOS_INLINE_FUNCTION Product(double &r) : result(r) {}
  KOKKOS_INLINE_FUNCTION void join(double &dst, const double &src) const {
    dst *= src;
  }
  KOKKOS_INLINE_FUNCTION void init(double &v) const { v = 1; }
  KOKKOS_INLINE_FUNCTION double &reference() const { return result; }
  KOKKOS_INLINE_FUNCTION result_view_type view() const {
    return result_view_type(&result);
  }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }
};

double reducer_class(const Vector &v) {
  double p = 1;
  Kokkos::parallel_reduce(
      v.extent(0),
      KOKKOS_LAMBDA(int i, double &acc) { acc *= 1 + 0.3 * v(i); },
      Product(p));
  return p;
}

// parallel_for writing a View allocated here, read back by a reduction.
double allocated(const Vector &v) {
  int n = v.extent(0);
  Vector w("w", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<>(0, n),
      KOKKOS_LAMBDA(int i) { w(i) = v(i) * KMATH::exp(v((i + 1) % n)); });
  double sum = 0;
  Kokkos::parallel_reduce(
      n, KOKKOS_LAMBDA(int i, double &s) { s += w(i) * w(i); }, sum);
  return sum;
}

// An MDRangePolicy<Rank<2>> filling a matrix, a subview of one of its
// rows, deep_copy of a View and a scalar fill.
double matrix(const Vector &v) {
  int n = v.extent(0);
  Matrix a("a", n, n);
  Kokkos::parallel_for(
      Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}),
      KOKKOS_LAMBDA(int i, int j) { a(i, j) = v(i) * v(j) + (i == j); });
  auto row = Kokkos::subview(a, 1, Kokkos::ALL());
  Vector copy("copy", n), ones("ones", n);
  Kokkos::deep_copy(copy, row);
  Kokkos::deep_copy(ones, 1.5);
  double sum = 0;
  Kokkos::parallel_reduce(
      n,
      KOKKOS_LAMBDA(int i, double &s) {
        s += copy(i) * copy(i) * ones(i) + a(i, (i + 2) % n);
      },
      sum);
  return sum;
}

// MDRangePolicy kernels that read each matrix element at its own point,
// in both layouts and iteration orders: on the OpenMP backend their
// reverse adds those adjoints without atomics (the points pass the checks).
template <typename Layout, Kokkos::Iterate Order>
double tiles_in(const Vector &v) {
  using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<2, Order, Order>>;
  using Grid = Kokkos::View<double **, Layout>;
  int n = v.extent(0);
  Grid a("a", n, n + 1), b("b", n, n + 1);
  Kokkos::parallel_for(
      Policy({0, 0}, {n, n + 1}), KOKKOS_LAMBDA(int i, int j) {
        a(i, j) = v(i) * (j + 1) + v((i + j) % n);
      });
  Kokkos::parallel_for(
      Policy({0, 0}, {n, n + 1}), KOKKOS_LAMBDA(int i, int j) {
        b(i, j) = a(i, j) * a(i, j) + KMATH::sin(a(i, j));
      });
  double sum = 0;
  Kokkos::parallel_reduce(
      n,
      KOKKOS_LAMBDA(int i, double &s) {
        for (int j = 0; j <= n; ++j)
          s += b(i, j) * (j + 1);
      },
      sum);
  return sum;
}

double tiles(const Vector &v) {
  return tiles_in<Kokkos::LayoutRight, Kokkos::Iterate::Right>(v) +
         tiles_in<Kokkos::LayoutLeft, Kokkos::Iterate::Left>(v);
}

// A kernel whose points run past the end of a row into the next: two
// points read one element, the checks fail, and the reverse adds those
// adjoints atomically.
double overrun(const Vector &v) {
  int n = v.extent(0);
  Matrix a("a", n, n), b("b", n / 2, 2 * n);
  Kokkos::parallel_for(
      Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}),
      KOKKOS_LAMBDA(int i, int j) { a(i, j) = v(i) + 0.5 * v(j) * v(j); });
  Kokkos::parallel_for(
      Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n / 2, 2 * n}),
      KOKKOS_LAMBDA(int i, int j) { b(i, j) = a(i, j) * a(i, j); });
  double sum = 0;
  Kokkos::parallel_reduce(
      n / 2,
      KOKKOS_LAMBDA(int i, double &s) {
        for (int j = 0; j < 2 * n; ++j)
          s += b(i, j) * (i + j + 1);
      },
      sum);
  return sum;
}

// One explicit step of a 1-D diffusion with a nonlinear source.
static void diffuse(const Vector &u, const Vector &next) {
  int n = u.extent(0);
  Kokkos::parallel_for(
      n, KOKKOS_LAMBDA(int i) {
        double left = i > 0 ? u(i - 1) : 0.0;
        double right = i < n - 1 ? u(i + 1) : 0.0;
        next(i) = u(i) + 0.2 * (left - 2 * u(i) + right) -
                  0.01 * u(i) * u(i) * u(i);
      });
}

// Explicit time stepping: 60 steps, the new state copied back each step.
double heat(const Vector &u0) {
  int n = u0.extent(0);
  Vector u("u", n), next("next", n);
  Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) { u(i) = u0(i); });
  for (int step = 0; step < 60; ++step) {
    diffuse(u, next);
    Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) { u(i) = next(i); });
  }
  double sum = 0;
  Kokkos::parallel_reduce(
      n, KOKKOS_LAMBDA(int i, double &s) { s += u(i) * u(i) * (i + 1); }, sum);
  return sum;
}

// The same with the Views swapped by assignment each step, as solvers
// write it: the allocation records' counts change hands (tagged pointers
// that unoptimised code moves through integer phis).
double heat_swapped(const Vector &u0) {
  int n = u0.extent(0);
  Vector u("u", n), next("next", n);
  Kokkos::deep_copy(u, u0);
  for (int step = 0; step < 60; ++step) {
    diffuse(u, next);
    Vector t = u;
    u = next;
    next = t;
  }
  double sum = 0;
  Kokkos::parallel_reduce(
      n, KOKKOS_LAMBDA(int i, double &s) { s += u(i) * u(i) * (i + 1); }, sum);
  return sum;
}

static int failures = 0;

static void check(const char *name, int i, double got, double expected,
                  double rtol) {
  double err = std::fabs(got - expected);
  if (err > 1e-9 + rtol * std::fabs(expected)) {
    std::printf("FAIL %s[%d]: got %.15g, expected %.15g\n", name, i, got,
                expected);
    ++failures;
  }
}

using Function = double (*)(const Vector &);

static void test(const char *name, Function f, int n) {
  Vector v("v", n), dv("dv", n), tangent("tangent", n);
  for (int i = 0; i < n; ++i)
    v(i) = 0.3 + 0.17 * i - 0.02 * i * i;
  // Twice: the second gradient adds to the first.
  __enzyme_autodiff<void>((void *)f, enzyme_dup, v, dv);
  __enzyme_autodiff<void>((void *)f, enzyme_dup, v, dv);
  for (int i = 0; i < n; ++i) {
    double x = v(i), h = 1e-6 * std::fmax(1.0, std::fabs(x));
    v(i) = x + h;
    double up = f(v);
    v(i) = x - h;
    double down = f(v);
    v(i) = x;
    check(name, i, dv(i) / 2, (up - down) / (2 * h), 1e-6);
    // Forward mode, one direction per element, against the reverse.
    Kokkos::deep_copy(tangent, 0.0);
    tangent(i) = 1;
    double directional =
        __enzyme_fwddiff<double>((void *)f, enzyme_dup, v, tangent);
    check(name, i, directional, dv(i) / 2, 1e-10);
  }
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    test("nrm2", nrm2, 3);
    test("wave", wave, 9);
    test("reducers", reducers, 7);
    test("custom_join", custom_join, 7);
    test("reducer_class", reducer_class, 6);
    test("allocated", allocated, 8);
    test("matrix", matrix, 5);
    test("tiles", tiles, 7);
    test("overrun", overrun, 9);
    test("heat", heat, 12);
    test("heat_swapped", heat_swapped, 12);
  }
  Kokkos::finalize();
  if (failures)
    return 1;
  std::printf("ok\n");
  return 0;
}
