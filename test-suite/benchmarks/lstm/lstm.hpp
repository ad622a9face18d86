//===- lstm.hpp - LSTM sequence loss (ADBench) ----------------------------===//
//
// The loss of a stacked LSTM over a character sequence, from the definition
// in shared/adbench/README.md. A template over the number type so that the
// Enzyme-ABI build (double) and the ADOL-C build (adouble) run the very same
// code.
//
// Layouts (b = hidden size, l = layers):
//   main  : 2l·4b, per layer 4b weights then 4b biases, each block of 4b
//           holding the forget, input, output and change gate parts;
//   extra : 3b, input weights, output weights, output biases;
//   state : 2l·b, per layer hidden b then cell b;
//   seq   : c·b.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_LSTM_HPP
#define ENZYME_BENCH_LSTM_HPP

#include "../common/bench.hpp"
#include "../common/logsumexp.hpp"

#include <cmath>
#include <vector>

namespace lstm {

struct Input {
  int L = 0, C = 0, B = 0;
  std::vector<double> Main, Extra, State, Seq;
};

inline Input read(const std::string &Path) {
  bench::NumberReader R(Path);
  Input In;
  In.L = R.integer();
  In.C = R.integer();
  In.B = R.integer();
  In.Main.resize((size_t)2 * In.L * 4 * In.B);
  In.Extra.resize((size_t)3 * In.B);
  In.State.resize((size_t)2 * In.L * In.B);
  In.Seq.resize((size_t)In.C * In.B);
  R.reals(In.Main.data(), In.Main.size());
  R.reals(In.Extra.data(), In.Extra.size());
  R.reals(In.State.data(), In.State.size());
  R.reals(In.Seq.data(), In.Seq.size());
  return In;
}

template <class T> T sigmoid(const T &X) { return 1.0 / (1.0 + exp(-X)); }

// One layer step: updates hidden H and cell S in place from input X. Every
// operation is elementwise, so H[j] and S[j] can be overwritten as soon as
// they are read.
template <class T>
void layer_step(int B, const T *Weight, const T *Bias, const T *X, T *H, T *S) {
  for (int J = 0; J < B; ++J) {
    T Forget = sigmoid(X[J] * Weight[J] + Bias[J]);
    T Ingate = sigmoid(H[J] * Weight[B + J] + Bias[B + J]);
    T Outgate = sigmoid(X[J] * Weight[2 * B + J] + Bias[2 * B + J]);
    T Change = tanh(H[J] * Weight[3 * B + J] + Bias[3 * B + J]);
    S[J] = S[J] * Forget + Ingate * Change;
    H[J] = Outgate * tanh(S[J]);
  }
}

// One prediction from input X (b values); updates State, writes YPred (b
// values). Scratch holds b values.
template <class T>
void predict(int L, int B, const T *Main, const T *Extra, T *State,
             const double *X, T *Scratch, T *YPred) {
  for (int J = 0; J < B; ++J)
    Scratch[J] = X[J] * Extra[J];
  const T *Input = Scratch;
  for (int I = 0; I < L; ++I) {
    const T *Weight = Main + (size_t)I * 8 * B;
    T *H = State + (size_t)I * 2 * B;
    layer_step(B, Weight, Weight + 4 * B, Input, H, H + B);
    Input = H;
  }
  for (int J = 0; J < B; ++J)
    YPred[J] = Input[J] * Extra[B + J] + Extra[2 * B + J];
}

// The loss; State (the initial state) is copied, the copy is updated in
// place across the sequence.
template <class T>
T objective(int L, int C, int B, const T *Main, const T *Extra,
            const double *State, const double *Seq) {
  T *St = new T[(size_t)2 * L * B];
  T *Scratch = new T[B];
  T *YPred = new T[B];
  for (size_t I = 0; I < (size_t)2 * L * B; ++I)
    St[I] = State[I];

  T Total = 0.0;
  for (int T0 = 0; T0 + 1 < C; ++T0) {
    predict(L, B, Main, Extra, St, Seq + (size_t)T0 * B, Scratch, YPred);
    T Lse = bench::logsumexp(YPred, B);
    const double *Target = Seq + (size_t)(T0 + 1) * B;
    for (int J = 0; J < B; ++J)
      Total += Target[J] * (YPred[J] - Lse);
  }

  delete[] St;
  delete[] Scratch;
  delete[] YPred;
  return -Total / (double)((C - 1) * B);
}

} // namespace lstm

#endif // ENZYME_BENCH_LSTM_HPP
