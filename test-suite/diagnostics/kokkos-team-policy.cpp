// A Kokkos TeamPolicy reduction (a team's partial sums live in the team's
// scratch memory, which the library allocates without derivatives) stops
// with an error at the request that names team policies (at the team's
// reduction or barrier) instead of a gradient without the team's
// contributions. Debian's Kokkos (Serial), -O0 and -O2.
// REQUIRES: kokkos
// RUN: not %clangxx_enzyme -fenzyme -O2 -g %s -o %t %kokkos_flags 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clangxx_enzyme -fenzyme -O0 -g %s -o %t %kokkos_flags 2>&1 | FileCheck %s %{no-crash}
// CHECK: error: {{.*}}cannot differentiate 'rowsums(Kokkos::View<double*> const&)': cannot differentiate 'Kokkos::Impl::Host{{.*}}': Kokkos team policies (TeamPolicy, team reductions and barriers) are not supported
#include <Kokkos_Core.hpp>

using Vector = Kokkos::View<double *>;
using Team = Kokkos::TeamPolicy<>::member_type;
template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);
int enzyme_dup;

double rowsums(const Vector &v) {
  int n = v.extent(0);
  double total = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamPolicy<>(4, Kokkos::AUTO),
      KOKKOS_LAMBDA(const Team &t, double &acc) {
        int r = t.league_rank();
        double row = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(t, n),
            [&](int j, double &a) { a += v(j) * v((j + r) % n); }, row);
        Kokkos::single(Kokkos::PerTeam(t), [&]() { acc += row * (r + 1); });
      },
      total);
  return total;
}

int main(int argc, char **argv) {
  Kokkos::initialize(argc, argv);
  {
    Vector v("v", 6), dv("dv", 6);
    __enzyme_autodiff<void>((void *)rowsums, enzyme_dup, v, dv);
  }
  Kokkos::finalize();
}
