// Kokkos::parallel_scan (its running sum lives in the library's scratch
// memory, which has no derivatives) stops with an error at the request that
// names the scan, instead of a gradient without its contributions.
// Debian's Kokkos (Serial) at -O0 and -O2; kokkos/source-built.test
// checks the same on Kokkos built with the toolchain (OpenMP).
// REQUIRES: kokkos
// RUN: not %clangxx_enzyme -fenzyme -O2 -g %s -o %t %kokkos_flags 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clangxx_enzyme -fenzyme -O0 -g %s -o %t %kokkos_flags 2>&1 | FileCheck %s %{no-crash}
// CHECK: error: {{.*}}cannot differentiate 'prefix_loss(Kokkos::View<double*> const&)': cannot differentiate Kokkos::parallel_scan ('Kokkos::Impl::ParallelScan<{{.*}}::execute'): scans are not supported
#include <Kokkos_Core.hpp>

using Vector = Kokkos::View<double *>;
template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);
int enzyme_dup;

// Prefix sums of squares, weighted.
double prefix_loss(const Vector &v) {
  int n = v.extent(0);
  Vector y("y", n);
  Kokkos::parallel_scan(
      n, KOKKOS_LAMBDA(int i, double &partial, bool final) {
        partial += v(i) * v(i);
        if (final)
          y(i) = partial;
      });
  double total = 0;
  Kokkos::parallel_reduce(
      n, KOKKOS_LAMBDA(int i, double &acc) { acc += (i + 1) * y(i); }, total);
  return total;
}

int main(int argc, char **argv) {
  Kokkos::initialize(argc, argv);
  {
    Vector v("v", 6), dv("dv", 6);
    __enzyme_autodiff<void>((void *)prefix_loss, enzyme_dup, v, dv);
  }
  Kokkos::finalize();
}
