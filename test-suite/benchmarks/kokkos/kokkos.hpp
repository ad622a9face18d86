//===- kokkos.hpp - A nonlinear diffusion kernel in Kokkos, on any scalar -===//
//
// T explicit steps of a 1-D nonlinear diffusion-reaction equation on N
// cells, with a conductivity field made of P constant segments:
//
//   k_i     = exp(p_s(i))                      s(i) = segment of cell i
//   D_i     = k_i sqrt(1 + u_i^2)              (nonlinear diffusivity)
//   u'_i    = u_i + lambda (F_i+1/2 - F_i-1/2) + rate u_i (1 - u_i)
//   F_i+1/2 = (D_i + D_i+1) / 2 (u_i+1 - u_i)
//
// with one ghost cell held at 0 on each side (Dirichlet). The loss is the
// mean squared misfit of the final state to a target,
//
//   L(p) = 1/N sum_i (u_T,i - target_i)^2,
//
// differentiated with respect to the P log-conductivities: an inverse
// problem's gradient, where forward mode needs P derivative components and
// reverse mode one sweep.
//
// Each step is three Kokkos::parallel_for over Views allocated here:
// diffusivity, update, and a copy of the new state back (our compiler does
// not yet differentiate swapping Views by assignment in the loop). The loss
// is a parallel_reduce. The kernel is written once as a template on
// the scalar type: double for the primal and for our compiler's gradient
// (kokkos.cpp), Sacado's forward-mode Fad types for its comparison
// (kokkos_sacado.cpp, which includes Sacado.hpp before this header).
//
// No input file: --input is a size spec "n<cells>_t<steps>_p<parameters>",
// e.g. n1000_t1000_p16.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_KOKKOS_HPP
#define ENZYME_BENCH_KOKKOS_HPP

#include <Kokkos_Core.hpp>

#include <cmath>
#include <string>
#include <type_traits>

namespace kokkos_bench {

// Kokkos 4 moved the math functions out of Experimental.
#if KOKKOS_VERSION >= 40000
namespace kmath = Kokkos;
#else
namespace kmath = Kokkos::Experimental;
#endif

using Vector = Kokkos::View<double *>;

// lambda and rate keep the explicit scheme stable for |p| <= 0.3 and
// 0 <= u <= 1: lambda max D < 0.5.
constexpr double Lambda = 0.2, Rate = 0.05;

struct Problem {
  int N = 0, Steps = 0, P = 0;
  Vector U0, Target; // N cells each; constants
};

// A smooth bump relaxing towards a smooth target; parameters in [-0.3, 0.3].
inline Problem make(int N, int Steps, int P, Vector &Params) {
  Problem Pb{N, Steps, P, Vector("u0", N), Vector("target", N)};
  for (int I = 0; I < N; ++I) {
    double X = (I + 0.5) / N;
    Pb.U0(I) = 0.1 + 0.8 * std::exp(-40 * (X - 0.35) * (X - 0.35));
    Pb.Target(I) = 0.3 + 0.2 * std::cos(3 * X);
  }
  Params = Vector("p", P);
  for (int J = 0; J < P; ++J)
    Params(J) = 0.3 * std::sin(J + 1.0);
  return Pb;
}

// A work View of N scalars shaped like Like. Sacado's View specialisation
// stores each Fad's derivatives inside the View, so its Views take the
// derivative count + 1 as an extra extent (dimension_scalar, found by ADL).
template <class S>
Kokkos::View<S *> work(const std::string &Label, int N,
                       const Kokkos::View<S *> &Like) {
  if constexpr (std::is_same_v<S, double>)
    return Kokkos::View<double *>(Label, N);
  else
    return Kokkos::View<S *>(Label, N, dimension_scalar(Like));
}

template <class S> S loss(const Problem &Pb, const Kokkos::View<S *> &Params) {
  using kmath::exp;
  using kmath::sqrt;
  const int N = Pb.N, P = Pb.P;
  const Vector U0 = Pb.U0, Target = Pb.Target;
  // Cells 1..N; 0 and N+1 are the ghosts.
  Kokkos::View<S *> K = work("k", N + 2, Params), D = work("d", N + 2, Params),
                    U = work("u", N + 2, Params),
                    Next = work("next", N + 2, Params);
  Kokkos::parallel_for(
      "init", Kokkos::RangePolicy<>(0, N + 2), KOKKOS_LAMBDA(int I) {
        int Cell = I == 0 ? 0 : I > N ? N - 1 : I - 1;
        K(I) = exp(Params((long)Cell * P / N));
        if (I == 0 || I == N + 1)
          U(I) = 0.0;
        else
          U(I) = U0(I - 1);
      });
  for (int T = 0; T < Pb.Steps; ++T) {
    Kokkos::parallel_for(
        "diffusivity", Kokkos::RangePolicy<>(0, N + 2),
        KOKKOS_LAMBDA(int I) { D(I) = K(I) * sqrt(1.0 + U(I) * U(I)); });
    Kokkos::parallel_for(
        "update", Kokkos::RangePolicy<>(1, N + 1), KOKKOS_LAMBDA(int I) {
          const S Right = 0.5 * (D(I) + D(I + 1)) * (U(I + 1) - U(I));
          const S Left = 0.5 * (D(I - 1) + D(I)) * (U(I) - U(I - 1));
          Next(I) = U(I) + Lambda * (Right - Left) + Rate * U(I) * (1.0 - U(I));
        });
    Kokkos::parallel_for(
        "copy", Kokkos::RangePolicy<>(1, N + 1),
        KOKKOS_LAMBDA(int I) { U(I) = Next(I); });
  }
  auto Misfit = KOKKOS_LAMBDA(int I, S &Sum) {
    Sum += (U(I) - Target(I - 1)) * (U(I) - Target(I - 1));
  };
  S Sum = 0.0;
  if constexpr (std::is_same_v<S, double>) {
    Kokkos::parallel_reduce("misfit", Kokkos::RangePolicy<>(1, N + 1), Misfit,
                            Sum);
  } else {
    // Kokkos 3.4 cannot reduce into a Sacado Fad: its Serial reduction
    // writes through the result View's data(), which for Sacado's View
    // specialisation is the array of doubles. The same sum, on the host.
    for (int I = 1; I < N + 1; ++I)
      Misfit(I, Sum);
  }
  return Sum / double(N);
}

// Sacado's gradients and a primal built without -fenzyme
// (kokkos_sacado.cpp). Each writes dL/dp into Grad[0..P).
void sacado_dfad_gradient(const Problem &Pb, const Vector &Params,
                          double *Grad);
// SFad of a fixed width, seeded in chunks of that many parameters: returns
// the number of passes.
int sacado_sfad_gradient(const Problem &Pb, const Vector &Params, double *Grad);
int sacado_sfad_width();
double plain_primal(const Problem &Pb, const Vector &Params);

} // namespace kokkos_bench

#endif // ENZYME_BENCH_KOKKOS_HPP
