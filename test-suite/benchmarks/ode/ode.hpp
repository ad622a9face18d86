//===- ode.hpp - RK4 integration of a chain of coupled pendulums ---------===//
//
// M damped pendulums, each coupled to its neighbours by springs:
//
//   theta_j' = omega_j
//   omega_j' = -g_j sin(theta_j) - c omega_j
//              + k (theta_{j-1} - theta_j) + k (theta_{j+1} - theta_j)
//
// (missing neighbours at the ends of the chain are left out), integrated by
// the classical explicit Runge-Kutta method with a fixed step. The loss is
//
//   L = sum_j (theta_j(T) - target_j)^2 + 1/2 sum_j omega_j(T)^2,
//
// differentiated with respect to the initial state (theta, omega) and the
// parameters (g_0 .. g_{M-1}, c, k).
//
// Stresses: a long sequential loop of small dense updates (every step
// overwrites the state in place, on the heap), so the reverse sweep has to
// keep or recompute 10^4 states; sin in the inner loop.
//
// No input file: --input is a size spec "m<pendulums>_t<steps>", e.g.
// m32_t10000. The data come from a fixed linear congruential generator.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_ODE_HPP
#define ENZYME_BENCH_ODE_HPP

#include "../common/bench.hpp"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ode {

struct Input {
  int M = 0, Steps = 0;
  double Dt = 1e-3;
  std::vector<double> Y0;     // theta_0 .. theta_{M-1}, omega_0 .. (active)
  std::vector<double> Params; // g_0 .. g_{M-1}, c, k (active)
  std::vector<double> Target; // target angles (constant)
};

inline Input make(const std::string &Spec) {
  long V[2];
  bench::parse_spec(Spec, "mt", V);
  Input In;
  In.M = (int)V[0];
  In.Steps = (int)V[1];
  In.Y0.resize(2 * In.M);
  In.Params.resize(In.M + 2);
  In.Target.resize(In.M);
  bench::Lcg R(0x0de5eedu);
  for (int J = 0; J < In.M; ++J) {
    In.Y0[J] = 0.6 * R.uniform() - 0.3;
    In.Y0[In.M + J] = 0.4 * R.uniform() - 0.2;
    In.Params[J] = 4 + 6 * R.uniform();
    In.Target[J] = 0.2 * R.uniform() - 0.1;
  }
  In.Params[In.M] = 0.05;    // damping
  In.Params[In.M + 1] = 1.5; // coupling
  return In;
}

// Out = f(Y), the right-hand side of the system.
template <class T> void rhs(int M, const T *P, const T *Y, T *Out) {
  const T *Theta = Y, *Omega = Y + M;
  const T &Damping = P[M], &Coupling = P[M + 1];
  for (int J = 0; J < M; ++J) {
    T Acc = -P[J] * sin(Theta[J]) - Damping * Omega[J];
    if (J > 0)
      Acc += Coupling * (Theta[J - 1] - Theta[J]);
    if (J + 1 < M)
      Acc += Coupling * (Theta[J + 1] - Theta[J]);
    Out[J] = Omega[J];
    Out[M + J] = Acc;
  }
}

template <class T>
T objective(int M, int Steps, double Dt, const T *Y0, const T *P,
            const double *Target) {
  const int S = 2 * M;
  T *Y = new T[S];
  T *K1 = new T[S];
  T *K2 = new T[S];
  T *K3 = new T[S];
  T *K4 = new T[S];
  T *Tmp = new T[S];
  for (int I = 0; I < S; ++I)
    Y[I] = Y0[I];

  for (int Step = 0; Step < Steps; ++Step) {
    rhs(M, P, Y, K1);
    for (int I = 0; I < S; ++I)
      Tmp[I] = Y[I] + 0.5 * Dt * K1[I];
    rhs(M, P, Tmp, K2);
    for (int I = 0; I < S; ++I)
      Tmp[I] = Y[I] + 0.5 * Dt * K2[I];
    rhs(M, P, Tmp, K3);
    for (int I = 0; I < S; ++I)
      Tmp[I] = Y[I] + Dt * K3[I];
    rhs(M, P, Tmp, K4);
    for (int I = 0; I < S; ++I)
      Y[I] += Dt / 6 * (K1[I] + 2.0 * K2[I] + 2.0 * K3[I] + K4[I]);
  }

  T Loss = 0.0;
  for (int J = 0; J < M; ++J) {
    T E = Y[J] - Target[J];
    Loss += E * E + 0.5 * Y[M + J] * Y[M + J];
  }

  delete[] Y;
  delete[] K1;
  delete[] K2;
  delete[] K3;
  delete[] K4;
  delete[] Tmp;
  return Loss;
}

} // namespace ode

#endif // ENZYME_BENCH_ODE_HPP
