//===- lse.hpp - Stable log-sum-exp with a cross-entropy term ------------===//
//
//   f(x) = log(sum_i exp(x_i)) - sum_i p_i x_i
//
// the cross-entropy of softmax(x) against a fixed target distribution p.
// The log-sum-exp is the stable one: a first pass finds the maximum (a
// branch on values), a second sums exp(x_i - max). The target term keeps
// the gradient, softmax(x) - p, from summing to one trivially.
//
// Stresses: long reductions over a large array, a value-dependent branch
// whose result feeds the rest of the computation, exp over every element.
//
// No input file: --input is a size spec "n<count>", e.g. n1000000. The data
// come from a fixed linear congruential generator.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_LSE_HPP
#define ENZYME_BENCH_LSE_HPP

#include "../common/bench.hpp"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lse {

// Reads a size spec "a<int>_b<int>..." into Values, one per letter of Keys
// (each required, each positive, no other letter allowed).
inline void parse_spec(const std::string &Spec, const char *Keys,
                       long *Values) {
  size_t NKeys = std::strlen(Keys);
  std::vector<bool> Seen(NKeys, false);
  size_t Pos = 0;
  while (Pos < Spec.size()) {
    const char *Key = Spec[Pos] ? std::strchr(Keys, Spec[Pos]) : nullptr;
    size_t End = Pos + 1;
    while (End < Spec.size() && std::isdigit((unsigned char)Spec[End]))
      ++End;
    bool Ok =
        Key && !Seen[Key - Keys] && End > Pos + 1 && End - Pos <= 10 &&
        (End == Spec.size() || (Spec[End] == '_' && End + 1 < Spec.size()));
    long V = Ok ? std::stol(Spec.substr(Pos + 1, End - Pos - 1)) : 0;
    if (V <= 0) {
      std::fprintf(stderr, "bench: bad size spec '%s' (keys '%s')\n",
                   Spec.c_str(), Keys);
      std::exit(2);
    }
    Seen[Key - Keys] = true;
    Values[Key - Keys] = V;
    Pos = End + 1;
  }
  for (size_t I = 0; I < NKeys; ++I)
    if (!Seen[I]) {
      std::fprintf(stderr, "bench: size spec '%s' lacks '%c'\n", Spec.c_str(),
                   Keys[I]);
      std::exit(2);
    }
}

// A fixed 64-bit LCG (Knuth's MMIX constants); uniform() is in [0, 1).
struct Lcg {
  uint64_t State;
  explicit Lcg(uint64_t Seed) : State(Seed) {}
  double uniform() {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(State >> 11) * (1.0 / 9007199254740992.0);
  }
};

struct Input {
  int N = 0;
  std::vector<double> X; // the logits (active)
  std::vector<double> P; // the target distribution (constant)
};

inline Input make(const std::string &Spec) {
  long N;
  parse_spec(Spec, "n", &N);
  Input In;
  In.N = (int)N;
  In.X.resize(N);
  In.P.resize(N);
  Lcg R(0x5eed1u);
  double Sum = 0;
  for (long I = 0; I < N; ++I) {
    In.X[I] = 8 * R.uniform() - 4;
    In.P[I] = R.uniform();
    Sum += In.P[I];
  }
  for (long I = 0; I < N; ++I)
    In.P[I] /= Sum;
  return In;
}

template <class T> T objective(int N, const T *X, const double *P) {
  T Max = X[0];
  for (int I = 1; I < N; ++I)
    if (X[I] > Max)
      Max = X[I];
  T Sum = 0.0;
  for (int I = 0; I < N; ++I)
    Sum += exp(X[I] - Max);
  T Cross = 0.0;
  for (int I = 0; I < N; ++I)
    Cross += P[I] * X[I];
  return log(Sum) + Max - Cross;
}

} // namespace lse

#endif // ENZYME_BENCH_LSE_HPP
