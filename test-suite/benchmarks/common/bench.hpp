//===- bench.hpp - Timing, finite-difference checks and result lines ------===//
//
// Shared by every benchmark program, whatever computes its derivative (our
// compiler, another Enzyme-ABI compiler, ADOL-C). Plain C++17, no project
// headers, so that any compiler builds it.
//
// A benchmark program:
//   - parses its options with BenchOptions (--tool NAME --input PATH
//     --label NAME --quick --min-time S),
//   - checks the derivative against central finite differences on a few
//     components (FdCheck), and
//   - times primal and derivative with time_median, then prints one result
//     line (print_result) that scripts/bench reads:
//       RESULT <bench> <input> <tool> <primal s> <derivative s> <sweeps>
//              <fd ok|FAIL> <max fd error>
//   - with forward mode (__enzyme_fwddiff), also the Jacobian-vector
//     product along a random direction (random_direction), checked against
//     central differences along that direction (FdCheck::directional) and,
//     for a scalar objective, against the gradient (<gradient, v>,
//     FdCheck::agree), then, before the RESULT line:
//       FORWARD <bench> <input> <tool> <primal s> <jvp s> <ok|FAIL> <max error>
//               <width-8 jvp s|->
//     (the width-8 call's eight tangents checked against the gradient or
//     the reverse-mode Jacobian, lane by lane)
//
// The process exits non-zero when a derivative disagrees with finite
// differences (or the two modes with each other), so a wrong derivative can
// never produce a timing that looks good.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_HPP
#define ENZYME_BENCH_HPP

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace bench {

struct Options {
  std::string Tool = "enzyme";
  std::string Input;
  std::string Label;    // how the input is named in the table
  bool Quick = false;   // one repetition: smoke tests
  double MinTime = 0.5; // seconds spent timing each side
  int MinReps = 5;
};

inline Options parse_options(int argc, char **argv) {
  Options O;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    auto Next = [&]() -> std::string {
      if (I + 1 >= argc) {
        std::fprintf(stderr, "bench: %s needs a value\n", A.c_str());
        std::exit(2);
      }
      return argv[++I];
    };
    if (A == "--tool")
      O.Tool = Next();
    else if (A == "--input")
      O.Input = Next();
    else if (A == "--label")
      O.Label = Next();
    else if (A == "--quick")
      O.Quick = true;
    else if (A == "--min-time")
      O.MinTime = std::atof(Next().c_str());
    else {
      std::fprintf(stderr, "bench: unknown option %s\n", A.c_str());
      std::exit(2);
    }
  }
  if (O.Quick) {
    O.MinTime = 0;
    O.MinReps = 1;
  }
  if (O.Label.empty()) {
    std::string Base = O.Input.substr(O.Input.find_last_of('/') + 1);
    O.Label = Base.substr(0, Base.find_last_of('.'));
  }
  return O;
}

// Keeps results alive so that the optimiser cannot drop a timed call.
inline volatile double Sink;

// Runs F once to warm caches, then repeatedly until both MinReps runs and
// MinTime seconds are done (at most 1000 runs); returns the median.
template <class F> double time_median(const Options &O, F &&Fn) {
  using Clock = std::chrono::steady_clock;
  Fn();
  std::vector<double> Times;
  double Total = 0;
  while ((int)Times.size() < O.MinReps ||
         (Total < O.MinTime && Times.size() < 1000)) {
    auto Start = Clock::now();
    Fn();
    double T = std::chrono::duration<double>(Clock::now() - Start).count();
    Times.push_back(T);
    Total += T;
  }
  std::sort(Times.begin(), Times.end());
  size_t N = Times.size();
  return N % 2 ? Times[N / 2] : 0.5 * (Times[N / 2 - 1] + Times[N / 2]);
}

// Central finite differences on chosen components of a derivative.
// Step h = 1e-5 max(1, |x|) balances truncation (h^2) and rounding
// (eps |f| / h); the tolerance covers both with a wide margin, so a failure
// means a wrong derivative, not noise.
class FdCheck {
public:
  explicit FdCheck(const char *Bench) : Bench(Bench) {}

  // Eval() returns the function at the current value of *X.
  template <class F>
  void component(const char *Name, double *X, double Derivative, F &&Eval) {
    double Saved = *X;
    double H = 1e-5 * std::max(1.0, std::fabs(Saved));
    *X = Saved + H;
    double Fp = Eval();
    *X = Saved - H;
    double Fm = Eval();
    *X = Saved;
    double F0 = Eval();
    record(Name, Derivative, (Fp - Fm) / (2 * H),
           1e3 * 2.2e-16 * (1 + std::fabs(F0)) / H);
  }

  // Checks N components spread evenly over Derivative[0..Size).
  template <class F>
  void spread(const char *Group, double *X, const double *Derivative,
              size_t Size, int N, F &&Eval) {
    if (Size == 0)
      return;
    int Count = std::min<size_t>(N, Size);
    for (int I = 0; I < Count; ++I) {
      size_t Index = Count == 1 ? 0 : I * (Size - 1) / (Count - 1);
      char Name[128];
      std::snprintf(Name, sizeof Name, "%s[%zu]", Group, Index);
      component(Name, X + Index, Derivative[Index], Eval);
    }
  }

  // One array of a directional check: X[0..N) moves along V[0..N).
  struct Along {
    double *X;
    const double *V;
    size_t N;
  };

  // Checks a directional derivative (a Jacobian-vector product, or one
  // component of it) of Eval at the current inputs along the arrays of
  // Dirs: central differences of t -> Eval(X + t V), with the step, the
  // rounding allowance and the tolerance of component() (entries of V are
  // at most 1 in magnitude, so the step is 1e-5).
  template <class F>
  void directional(const char *Name, std::initializer_list<Along> Dirs,
                   double Derivative, F &&Eval) {
    std::vector<std::vector<double>> Saved;
    for (const Along &D : Dirs)
      Saved.emplace_back(D.X, D.X + D.N);
    auto MoveTo = [&](double T) {
      size_t K = 0;
      for (const Along &D : Dirs) {
        for (size_t I = 0; I < D.N; ++I)
          D.X[I] = Saved[K][I] + T * D.V[I];
        ++K;
      }
    };
    const double H = 1e-5;
    MoveTo(H);
    double Fp = Eval();
    MoveTo(-H);
    double Fm = Eval();
    MoveTo(0);
    double F0 = Eval();
    record(Name, Derivative, (Fp - Fm) / (2 * H),
           1e3 * 2.2e-16 * (1 + std::fabs(F0)) / H);
  }

  // Checks forward mode against reverse mode: Forward = <w, J v> and
  // Reverse = <J^T w, v> (for a scalar objective, the tangent and
  // <gradient, v>) are the same sum of partial products in other orders;
  // Scale = the sum of the magnitudes of its terms. They must agree to
  // 1e-8 Scale (rounding of up to 10^6 terms, with a wide margin).
  void agree(const char *Name, double Forward, double Reverse, double Scale) {
    double Err = std::fabs(Forward - Reverse);
    double Tol = 1e-8 * Scale + 1e-300;
    MaxErr = std::max(MaxErr, Err / std::max(1e-300, Scale));
    ++Checked;
    if (!(Err <= Tol)) {
      ++Failed;
      std::fprintf(stderr,
                   "%s: forward mode %s = %.17g, reverse mode %.17g "
                   "(tolerance %.3g)\n",
                   Bench, Name, Forward, Reverse, Tol);
    }
  }

  bool ok() const { return Failed == 0 && Checked > 0; }
  double max_error() const { return MaxErr; }

private:
  // Compares a derivative with its difference quotient Fd, whose rounding
  // error is about Rounding.
  void record(const char *Name, double Derivative, double Fd, double Rounding) {
    double Tol =
        1e-5 * std::max(std::fabs(Fd), std::fabs(Derivative)) + Rounding + 1e-9;
    double Err = std::fabs(Derivative - Fd);
    double Rel = Err / std::max(1e-300, std::fabs(Fd) + Rounding + 1e-9);
    MaxErr = std::max(MaxErr, Rel);
    ++Checked;
    if (!(Err <= Tol)) {
      ++Failed;
      std::fprintf(stderr,
                   "%s: derivative %s = %.12g, finite differences %.12g "
                   "(tolerance %.3g)\n",
                   Bench, Name, Derivative, Fd, Tol);
    }
  }

  const char *Bench;
  int Checked = 0;
  int Failed = 0;
  double MaxErr = 0;
};

// Prints the result line and returns the process exit status.
inline int print_result(const char *Bench, const Options &O, double Primal,
                        double Derivative, int Sweeps, const FdCheck &Check) {
  std::printf("RESULT %s %s %s %.9g %.9g %d %s %.3g\n", Bench, O.Label.c_str(),
              O.Tool.c_str(), Primal, Derivative, Sweeps,
              Check.ok() ? "ok" : "FAIL", Check.max_error());
  std::fflush(stdout);
  return Check.ok() ? 0 : 1;
}

// The forward-mode result line; returns the process exit status. Printed
// before print_result's line. Jvp8: the time of one width-8 call (eight
// directions), or negative where vector mode is not timed ("-").
inline int print_forward_result(const char *Bench, const Options &O,
                                double Primal, double Jvp, const FdCheck &Check,
                                double Jvp8 = -1) {
  char Width8[32] = "-";
  if (Jvp8 >= 0)
    std::snprintf(Width8, sizeof Width8, "%.9g", Jvp8);
  std::printf("FORWARD %s %s %s %.9g %.9g %s %.3g %s\n", Bench, O.Label.c_str(),
              O.Tool.c_str(), Primal, Jvp, Check.ok() ? "ok" : "FAIL",
              Check.max_error(), Width8);
  std::fflush(stdout);
  return Check.ok() ? 0 : 1;
}

// Whitespace-separated numbers, as the ADBench inputs are written.
class NumberReader {
public:
  explicit NumberReader(const std::string &Path) : Path(Path) {
    File = std::fopen(Path.c_str(), "r");
    if (!File) {
      std::fprintf(stderr, "bench: cannot open %s\n", Path.c_str());
      std::exit(2);
    }
  }
  ~NumberReader() { std::fclose(File); }
  NumberReader(const NumberReader &) = delete;
  NumberReader &operator=(const NumberReader &) = delete;

  double real() {
    double V;
    if (std::fscanf(File, "%lf", &V) != 1) {
      std::fprintf(stderr, "bench: %s: truncated or malformed input\n",
                   Path.c_str());
      std::exit(2);
    }
    return V;
  }
  int integer() { return (int)real(); }
  void reals(double *Out, size_t N) {
    for (size_t I = 0; I < N; ++I)
      Out[I] = real();
  }

private:
  std::string Path;
  FILE *File;
};

// The kernels take no input file: --input is a size spec such as n256_t50.
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

// A direction for a Jacobian-vector product: entries uniform in [-1, 1),
// from a fixed seed.
inline std::vector<double> random_direction(size_t N, uint64_t Seed) {
  Lcg R(Seed);
  std::vector<double> V(N);
  for (double &X : V)
    X = 2 * R.uniform() - 1;
  return V;
}

// Eight directions for vector forward mode (width 8): lane K is
// random_direction(N, Seed + 16 K), so lane 0 is the width-1 direction.
struct Directions8 {
  static constexpr int Width = 8;
  std::vector<double> Lane[Width];
  double *Ptr[Width];
  Directions8(size_t N, uint64_t Seed) {
    for (int K = 0; K < Width; ++K) {
      Lane[K] = random_direction(N, Seed + 16 * K);
      Ptr[K] = Lane[K].data();
    }
  }
};

// <A, B> over N entries, and the sum of the magnitudes of its terms (what
// its rounding is relative to), accumulated over several arrays.
struct Dot {
  double Sum = 0, Scale = 0;
  void add(const double *A, const double *B, size_t N) {
    for (size_t I = 0; I < N; ++I) {
      Sum += A[I] * B[I];
      Scale += std::fabs(A[I] * B[I]);
    }
  }
};

} // namespace bench

#endif // ENZYME_BENCH_HPP
