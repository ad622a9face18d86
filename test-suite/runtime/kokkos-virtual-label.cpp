// A View constructed with a label calls the record's virtual get_label();
// an unrelated class whose virtual method has the same IR type
// (void(ptr, ptr)) and calls a library function without bitcode (as
// Teuchos' TimeMonitorSurrogateImpl::summarize, which Sacado.hpp pulls in)
// made the gradient fail at the link: the engine took it for a possible
// target of that call. Kokkos' label functions now stay calls, which the
// engine knows carry no derivative.
// REQUIRES: kokkos
// RUN: %clangxx_host -O2 -c %S/Inputs/kokkos-elsewhere.cpp -o %t-elsewhere.o
// RUN: %clangxx_enzyme -fenzyme -O2 %s %t-elsewhere.o -o %t %kokkos_flags
// RUN: %t | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -O0 %s %t-elsewhere.o -o %t0 %kokkos_flags
// RUN: %t0 | FileCheck %s
// CHECK: 2 4 6 8
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <iosfwd>

void summarize_elsewhere(std::ostream &); // in a library, no bitcode

struct Reporter {
  virtual ~Reporter() {}
  virtual void summarize(std::ostream &os) { summarize_elsewhere(os); }
};
Reporter *volatile reporter = new Reporter; // keeps the vtable alive

template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);
int enzyme_dup;

// A View allocated inside the differentiated function.
double sumsq(const Kokkos::View<double *> &v) {
  int n = v.extent(0);
  Kokkos::View<double *> w("w", n);
  Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) { w(i) = v(i) * v(i); });
  double s = 0;
  Kokkos::parallel_reduce(
      n, KOKKOS_LAMBDA(int i, double &a) { a += w(i); }, s);
  return s;
}

int main(int argc, char **argv) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> v("v", 4), dv("dv", 4);
    for (int i = 0; i < 4; ++i)
      v(i) = i + 1;
    __enzyme_autodiff<void>((void *)sumsq, enzyme_dup, v, dv);
    std::printf("%g %g %g %g\n", dv(0), dv(1), dv(2), dv(3));
  }
  Kokkos::finalize();
}
