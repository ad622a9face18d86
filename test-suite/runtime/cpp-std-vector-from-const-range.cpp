// A std::vector<double> constructed from a range of constant memory
// (enzyme_const) inside the differentiated function, at -O0; and the same
// bug without the standard library (copy_in below). Found by the C++ fuzzer
// (scripts/fuzz --kind cpp: seeds 108, 177, 190, 203, 260 at -O0, each with
// `std::vector<double> v(x, x + k)` over an enzyme_const array; -O2 passes),
// reduced by hand.
//
// At -O0 the gradient program used to die with a segmentation fault in
// enzyme.memcpy.adjoint[double], in the reverse of the memmove that copies the
// constant range (for the vector: std::__copy_move<...>::__copy_m, reached
// from vector(first, last) -> _M_range_initialize -> __uninitialized_copy_a).
// The adjoint added the destination's shadow into the source's shadow, which
// is null: the source is constant memory and has none. What made the engine
// think the source had a shadow: at -O0 the callee spills its pointer
// argument `first` to a local, and that local's address escapes to a call
// (libstdc++'s std::__iterator_category(first) takes it by reference;
// peek() below), so the local is not promoted and keeps a shadow; the
// pointer reloaded from it was then given the shadow stored in the local's
// shadow, which only ever holds null. The activity analysis now knows that a
// pointer read from a local whose stores all put pointers without a shadow
// there, and that no call can write, has none (the callee's body is read:
// peek and __iterator_category only read the reference). -O2 always passed
// (the locals are promoted). C shows it too (the same copy_in with
// `peek(&first)`; activity-const-pointer-escaped-slot.c). With `v[0] = a`
// the element the gradient needs is overwritten, so the gradient is 2 a
// whatever the constants.
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"
#include <cstring>
#include <vector>

extern int enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

static double with_vector(const double *c, double a) {
  std::vector<double> v(c, c + 2);
  v[0] = a;
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

static int peek(const double *const &p) { return p != nullptr; }
static void copy_in(double *dst, const double *first, const double *last) {
  peek(first); // the local holding `first` escapes by reference
  memmove(dst, first, (last - first) * sizeof(double));
}
static double with_copy_in(const double *c, double a) {
  double *v = static_cast<double *>(malloc(2 * sizeof(double)));
  copy_in(v, c, c + 2);
  v[0] = a;
  double s = v[0] * v[0] + v[1] * v[1];
  free(v);
  return s;
}

static const double C[2] = {1.5, -0.5};
static double vector_of_a(double a) { return with_vector(C, a); }
static double copy_in_of_a(double a) { return with_copy_in(C, a); }

int main() {
  double a = 0.75;
  double g = __enzyme_autodiff((void *)with_copy_in, enzyme_const, C, a);
  check_grad("copy_in d/da", g, 2 * a, fd_diff1(copy_in_of_a, a));
  g = __enzyme_autodiff((void *)with_vector, enzyme_const, C, a);
  check_grad("vector d/da", g, 2 * a, fd_diff1(vector_of_a, a));
  return check_done();
}
