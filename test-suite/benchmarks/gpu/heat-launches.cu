// Host code that launches kernels, differentiated with nothing but a
// host-side __enzyme_autodiff (docs/cuda.md, "Host code that launches
// kernels"): an explicit reaction-diffusion time loop that launches one
// stencil kernel per step and swaps its two buffers, as the seed's `iter`
// does. The gradient launches the derivative kernels the toolchain made
// (per-thread tapes in device memory, the adjoint of the scalar parameter
// summed over all threads) and returns d/dC. Prints gradient time / primal
// time of the whole host function, and the same for forward mode
// (__enzyme_fwddiff, the tangent kernels), whose tangent is checked against
// the gradient's projection on its direction.
#include "gpu_bench.cuh"

__global__ void step(const double *U, double *V, double C, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  double M = U[I];
  double L = I > 0 ? U[I - 1] : 0, R = I + 1 < N ? U[I + 1] : 0;
  V[I] = M + C * (L - 2 * M + R) - 0.1 * M * M * M;
}

/// Steps is even: the final state is back in U.
void simulate(double *U, double *V, double C, int N, int Steps) {
  for (int S = 0; S < Steps; ++S) {
    step<<<(N + 255) / 256, 256>>>(U, V, C, N);
    double *T = U;
    U = V;
    V = T;
  }
}

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

int main(int Argc, char **Argv) {
  bool Quick = quickRun(Argc, Argv);
  int N = Quick ? 4096 : 1 << 22, Steps = Quick ? 4 : 20, Runs = Quick ? 1 : 10;
  const double C = 0.2;
  std::vector<double> Init(N);
  for (int I = 0; I < N; ++I)
    Init[I] = std::sin(0.001 * I) + 0.1 * std::cos(0.37 * I);
  double *U, *V, *DU, *DV, *TU, *TV;
  GPU_CHECK(cudaMalloc(&U, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&V, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DU, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DV, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&TU, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&TV, N * sizeof(double)));
  auto Reset = [&](const std::vector<double> &From) {
    GPU_CHECK(
        cudaMemcpy(U, From.data(), N * sizeof(double), cudaMemcpyHostToDevice));
  };
  // The seed of every final value is 1; nothing flows into V's start.
  std::vector<double> Ones(N, 1.0);
  double DC = 0;
  auto RunPrimal = [&] { simulate(U, V, C, N, Steps); };
  auto RunGradient = [&] {
    GPU_CHECK(cudaMemcpy(DU, Ones.data(), N * sizeof(double),
                         cudaMemcpyHostToDevice));
    GPU_CHECK(cudaMemset(DV, 0, N * sizeof(double)));
    DC = __enzyme_autodiff((void *)simulate, enzyme_dup, U, DU, enzyme_dup, V,
                           DV, enzyme_out, C, N, Steps);
  };
  // Forward mode along (Direction, TC).
  std::vector<double> Direction(N);
  for (int I = 0; I < N; ++I)
    Direction[I] = std::cos(0.01 * I);
  const double TC = 0.5;
  auto RunTangent = [&] {
    GPU_CHECK(cudaMemcpy(TU, Direction.data(), N * sizeof(double),
                         cudaMemcpyHostToDevice));
    GPU_CHECK(cudaMemset(TV, 0, N * sizeof(double)));
    __enzyme_fwddiff((void *)simulate, enzyme_dup, U, TU, enzyme_dup, V, TV,
                     enzyme_dup, C, TC, N, Steps);
  };
  Reset(Init);
  RunPrimal();
  RunGradient();
  RunTangent();
  double PrimalMs = timeKernel(RunPrimal, Runs);
  double GradientMs = timeKernel(RunGradient, Runs);
  double TangentMs = timeKernel(RunTangent, Runs);

  Reset(Init);
  RunGradient();
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<double> DInit(N);
  GPU_CHECK(
      cudaMemcpy(DInit.data(), DU, N * sizeof(double), cudaMemcpyDeviceToHost));
  double Coef = C;
  auto Objective = [&](const std::vector<double> &Start, double StepC) {
    Reset(Start);
    simulate(U, V, StepC, N, Steps);
    std::vector<double> Out(N);
    GPU_CHECK(
        cudaMemcpy(Out.data(), U, N * sizeof(double), cudaMemcpyDeviceToHost));
    long double Sum = 0;
    for (double X : Out)
      Sum += X;
    return Sum;
  };
  bool Ok = checkGradient(
      "d/dinitial", Init.data(), DInit.data(),
      {0, 1, 255, 256, size_t(N) / 2, size_t(N) - 1},
      [&] { return Objective(Init, C); }, 1e-5);
  Ok &= checkGradient(
      "d/dC", &Coef, &DC, {0}, [&] { return Objective(Init, Coef); }, 1e-5);
  // The tangent of the final values' sum is the gradient's projection.
  Reset(Init);
  RunTangent();
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<double> Tangents(N);
  GPU_CHECK(cudaMemcpy(Tangents.data(), TU, N * sizeof(double),
                       cudaMemcpyDeviceToHost));
  long double Got = 0, Projection = (long double)DC * TC;
  for (int I = 0; I < N; ++I) {
    Got += Tangents[I];
    Projection += (long double)DInit[I] * Direction[I];
  }
  double TangentError = double(std::fabs(Got - Projection) /
                               std::max(1.0L, std::fabs(Projection)));
  bool TangentOk = TangentError <= 1e-9;
  std::printf("CHECK tangent against the gradient relative error %.2e %s\n",
              TangentError, TangentOk ? "ok" : "WRONG");
  printTangentResult("heat-launches", PrimalMs, TangentMs, TangentOk);
  printResult("heat-launches", PrimalMs, GradientMs, Ok && TangentOk);
  return Ok && TangentOk ? 0 : 1;
}
