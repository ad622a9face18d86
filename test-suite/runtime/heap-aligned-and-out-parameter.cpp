// Aligned and out-parameter allocations inside differentiated code:
// posix_memalign, aligned_alloc, aligned operator new/delete (plain, array,
// sized), new[]/delete[], and a chain of realloc in a loop; reverse and
// forward mode against analytic derivatives and central differences.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -march=native %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

#include <new>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);

/* posix_memalign: the block comes back through the out-parameter.
 * s = sum_i (x (i + 1))^2 = x^2 sum (i+1)^2. */
__attribute__((noinline)) double viaPosixMemalign(double x, int n) {
  void *p = nullptr;
  if (posix_memalign(&p, 64, n * sizeof(double)) != 0)
    return 0;
  double *a = static_cast<double *>(p);
  for (int i = 0; i < n; ++i)
    a[i] = x * (i + 1);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i];
  free(p);
  return s;
}

/* aligned_alloc: s = sum_i sin(x + i) * x. */
double viaAlignedAlloc(double x, int n) {
  double *a = static_cast<double *>(aligned_alloc(32, 8 * sizeof(double)));
  for (int i = 0; i < n; ++i)
    a[i] = sin(x + i);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * x;
  free(a);
  return s;
}

struct alignas(64) Cell {
  double v[4];
};

/* Aligned new/delete (single object, array), new[]/delete[]:
 * s = x^3 + sum_i (x + i)^2 + sum_j x * j. */
double viaAlignedNew(double x, int n) {
  Cell *c = new Cell;
  c->v[0] = x * x;
  c->v[1] = x;
  double s = c->v[0] * c->v[1];
  delete c;
  Cell *cs = new Cell[n];
  for (int i = 0; i < n; ++i)
    cs[i].v[2] = x + i;
  for (int i = 0; i < n; ++i)
    s += cs[i].v[2] * cs[i].v[2];
  delete[] cs;
  double *d = new double[n];
  for (int j = 0; j < n; ++j)
    d[j] = x * j;
  for (int j = 0; j < n; ++j)
    s += d[j];
  delete[] d;
  return s;
}

/* Explicit aligned and sized operator new/delete forms. s = 2 x^2 + 3 x. */
double viaOperatorForms(double x) {
  std::align_val_t al{64};
  double *a = static_cast<double *>(::operator new(4 * sizeof(double), al));
  a[0] = x * x;
  a[1] = x;
  double s = 2 * a[0];
  ::operator delete(a, 4 * sizeof(double), al);
  double *b = static_cast<double *>(::operator new[](2 * sizeof(double), al));
  b[0] = 3 * x;
  s += b[0];
  ::operator delete[](b, al);
  double *c = static_cast<double *>(::operator new(sizeof(double)));
  *c = s;
  s = *c;
  ::operator delete(c, sizeof(double));
  return s;
}

/* realloc of realloc of malloc, growing in a loop: element k = x^(k+1).
 * s = sum_{k<n} x^(k+1). */
double viaReallocChain(double x, int n) {
  double *a = static_cast<double *>(malloc(sizeof(double)));
  a[0] = x;
  for (int k = 1; k < n; ++k) {
    a = static_cast<double *>(realloc(a, (k + 1) * sizeof(double)));
    a[k] = a[k - 1] * x;
  }
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += a[k];
  free(a);
  return s;
}

static double sumSquares(int n) {
  double t = 0;
  for (int i = 1; i <= n; ++i)
    t += i * i;
  return t;
}

int main() {
  const int n = 6;
  double x = 0.7;
  {
    double expect = 2 * x * sumSquares(n);
    auto f = [](double v) { return viaPosixMemalign(v, 6); };
    check_grad("posix_memalign rev", __enzyme_autodiff<double>(viaPosixMemalign, x, n), expect, fd_diff1(f, x));
    check_grad("posix_memalign fwd", __enzyme_fwddiff<double>(viaPosixMemalign, x, 1.0, n), expect, fd_diff1(f, x));
  }
  {
    double expect = 0;
    for (int i = 0; i < n; ++i)
      expect += cos(x + i) * x + sin(x + i);
    auto f = [](double v) { return viaAlignedAlloc(v, 6); };
    check_grad("aligned_alloc rev", __enzyme_autodiff<double>(viaAlignedAlloc, x, n), expect, fd_diff1(f, x));
    check_grad("aligned_alloc fwd", __enzyme_fwddiff<double>(viaAlignedAlloc, x, 1.0, n), expect, fd_diff1(f, x));
  }
  {
    double expect = 3 * x * x;
    for (int i = 0; i < n; ++i)
      expect += 2 * (x + i) + i;
    auto f = [](double v) { return viaAlignedNew(v, 6); };
    check_grad("aligned new rev", __enzyme_autodiff<double>(viaAlignedNew, x, n), expect, fd_diff1(f, x));
    check_grad("aligned new fwd", __enzyme_fwddiff<double>(viaAlignedNew, x, 1.0, n), expect, fd_diff1(f, x));
  }
  {
    double expect = 4 * x + 3;
    auto f = [](double v) { return viaOperatorForms(v); };
    check_grad("operator forms rev", __enzyme_autodiff<double>(viaOperatorForms, x), expect, fd_diff1(f, x));
    check_grad("operator forms fwd", __enzyme_fwddiff<double>(viaOperatorForms, x, 1.0), expect, fd_diff1(f, x));
  }
  {
    double expect = 0;
    for (int k = 0; k < n; ++k)
      expect += (k + 1) * pow(x, k);
    auto f = [](double v) { return viaReallocChain(v, 6); };
    check_grad("realloc chain rev", __enzyme_autodiff<double>(viaReallocChain, x, n), expect, fd_diff1(f, x));
    check_grad("realloc chain fwd", __enzyme_fwddiff<double>(viaReallocChain, x, 1.0, n), expect, fd_diff1(f, x));
  }
  return check_done();
}
