// Shared harness of the GPU benchmarks: timing with CUDA events (best of a
// few runs), a checked CUDA call, the result line, and the comparison of a
// gradient with central differences of the primal kernel's sum.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define GPU_CHECK(call)                                                        \
  do {                                                                         \
    cudaError_t Error = (call);                                                \
    if (Error != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(Error));      \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

extern __device__ double __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const, enzyme_out;

/// Milliseconds of the fastest of \p Runs launches of \p Launch.
template <typename F> double timeKernel(F Launch, int Runs) {
  cudaEvent_t Start, Stop;
  GPU_CHECK(cudaEventCreate(&Start));
  GPU_CHECK(cudaEventCreate(&Stop));
  double Best = 1e30;
  for (int R = 0; R < Runs; ++R) {
    GPU_CHECK(cudaEventRecord(Start));
    Launch();
    GPU_CHECK(cudaEventRecord(Stop));
    GPU_CHECK(cudaEventSynchronize(Stop));
    GPU_CHECK(cudaGetLastError());
    float Ms = 0;
    GPU_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
    Best = std::min(Best, double(Ms));
  }
  GPU_CHECK(cudaEventDestroy(Start));
  GPU_CHECK(cudaEventDestroy(Stop));
  return Best;
}

/// `--quick`: small sizes and one timed run (the tests under emulation).
inline bool quickRun(int Argc, char **Argv) {
  for (int I = 1; I < Argc; ++I)
    if (!std::strcmp(Argv[I], "--quick"))
      return true;
  return false;
}

/// Compares \p Gradient[i] for the sampled \p Indices with central
/// differences of \p Objective (the primal's sum) in \p Input; prints the
/// worst relative error and returns whether it is below \p Tolerance.
template <typename F>
bool checkGradient(const char *Name, double *Input, const double *Gradient,
                   const std::vector<size_t> &Indices, F Objective,
                   double Tolerance) {
  double Worst = 0;
  for (size_t I : Indices) {
    double Saved = Input[I];
    double H = 1e-5 * std::max(1.0, std::fabs(Saved));
    Input[I] = Saved + H;
    long double Plus = Objective();
    Input[I] = Saved - H;
    long double Minus = Objective();
    Input[I] = Saved;
    double Expected = double((Plus - Minus) / (2 * H));
    double Error =
        std::fabs(Gradient[I] - Expected) / std::max(1e-3, std::fabs(Expected));
    // A NaN error is the worst (std::max would drop it).
    if (!(Error <= Worst))
      Worst = Error;
  }
  bool Ok = Worst <= Tolerance;
  std::printf("CHECK %s worst relative error %.2e %s\n", Name, Worst,
              Ok ? "ok" : "WRONG");
  return Ok;
}

/// The objective of the finite differences: \p Data uploaded to \p Device,
/// the primal kernel run, and the sum of its \p Count outputs at \p Outputs
/// (in extended precision: the differences are tiny next to the sum).
template <typename F>
long double sumAfterUpload(const std::vector<double> &Data, double *Device,
                           F RunPrimal, const double *Outputs, size_t Count) {
  GPU_CHECK(cudaMemcpy(Device, Data.data(), Data.size() * sizeof(double),
                       cudaMemcpyHostToDevice));
  RunPrimal();
  std::vector<double> Out(Count);
  GPU_CHECK(cudaMemcpy(Out.data(), Outputs, Count * sizeof(double),
                       cudaMemcpyDeviceToHost));
  long double Sum = 0;
  for (double V : Out)
    Sum += V;
  return Sum;
}

/// Forward mode's line beside RESULT: tangent time / primal time.
inline void printTangentResult(const char *Name, double PrimalMs,
                               double TangentMs, bool Ok) {
  std::printf("TANGENT %s primal %.4f ms tangent %.4f ms ratio %.2f %s\n", Name,
              PrimalMs, TangentMs, TangentMs / PrimalMs, Ok ? "ok" : "WRONG");
}

inline void printResult(const char *Name, double PrimalMs, double GradientMs,
                        bool Ok) {
  std::printf("RESULT %s primal %.4f ms gradient %.4f ms ratio %.2f %s\n", Name,
              PrimalMs, GradientMs, GradientMs / PrimalMs, Ok ? "ok" : "WRONG");
}
