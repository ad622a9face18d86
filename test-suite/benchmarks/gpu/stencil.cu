// A shared-memory stencil: each block loads a tile of the input with its
// halo into a __shared__ array, waits at __syncthreads, and applies a
// five-point stencil; the output is squared so the gradient depends on the
// values. The gradient (device-side __enzyme_autodiff of the whole block's
// function) needs the shared array's shadow, the mirrored barrier and
// atomic adjoint updates (halo elements are read by two blocks, the
// coefficients by every thread). Prints gradient time / primal time.
#include "gpu_bench.cuh"

constexpr int Tile = 256, Radius = 2;

__device__ void stencil(const double *In, double *Out, const double *Coef,
                        int N) {
  __shared__ double S[Tile + 2 * Radius];
  int T = threadIdx.x, G = blockIdx.x * Tile + T;
  S[T + Radius] = G < N ? In[G] : 0;
  if (T < Radius) {
    S[T] = G - Radius >= 0 ? In[G - Radius] : 0;
    S[Tile + Radius + T] = G + Tile < N ? In[G + Tile] : 0;
  }
  __syncthreads();
  const double *C = S + T + Radius;
  double V =
      Coef[0] * C[0] + Coef[1] * (C[-1] + C[1]) + Coef[2] * (C[-2] + C[2]);
  if (G < N)
    Out[G] = V * V;
}

__global__ void primal(const double *In, double *Out, const double *Coef,
                       int N) {
  stencil(In, Out, Coef, N);
}

__global__ void gradient(const double *In, double *DIn, double *Out,
                         double *DOut, const double *Coef, double *DCoef,
                         int N) {
  __enzyme_autodiff((void *)stencil, enzyme_dup, In, DIn, enzyme_dup, Out, DOut,
                    enzyme_dup, Coef, DCoef, enzyme_const, N);
}

int main(int Argc, char **Argv) {
  bool Quick = quickRun(Argc, Argv);
  int N = Quick ? 4 * Tile : 1 << 24, Runs = Quick ? 1 : 10;
  std::vector<double> In(N), Coef = {0.5, 0.2, 0.05};
  for (int I = 0; I < N; ++I)
    In[I] = std::sin(0.001 * I) + 0.1 * std::cos(0.37 * I);
  double *DevIn, *DevDIn, *DevOut, *DevDOut, *DevCoef, *DevDCoef;
  GPU_CHECK(cudaMalloc(&DevIn, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevDIn, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevOut, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevDOut, N * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevCoef, 3 * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevDCoef, 3 * sizeof(double)));
  GPU_CHECK(
      cudaMemcpy(DevIn, In.data(), N * sizeof(double), cudaMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpy(DevCoef, Coef.data(), 3 * sizeof(double),
                       cudaMemcpyHostToDevice));
  int Blocks = (N + Tile - 1) / Tile;
  // The seed of every output is 1 (the reverse pass consumes it).
  std::vector<double> Ones(N, 1.0);
  auto Seed = [&] {
    GPU_CHECK(cudaMemcpy(DevDOut, Ones.data(), N * sizeof(double),
                         cudaMemcpyHostToDevice));
  };
  auto RunPrimal = [&] { primal<<<Blocks, Tile>>>(DevIn, DevOut, DevCoef, N); };
  auto RunGradient = [&] {
    gradient<<<Blocks, Tile>>>(DevIn, DevDIn, DevOut, DevDOut, DevCoef,
                               DevDCoef, N);
  };
  RunPrimal();
  RunGradient();
  double PrimalMs = timeKernel(RunPrimal, Runs);
  double GradientMs = timeKernel(RunGradient, Runs);

  Seed();
  GPU_CHECK(cudaMemset(DevDIn, 0, N * sizeof(double)));
  GPU_CHECK(cudaMemset(DevDCoef, 0, 3 * sizeof(double)));
  RunGradient();
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<double> DIn(N), DCoef(3);
  GPU_CHECK(cudaMemcpy(DIn.data(), DevDIn, N * sizeof(double),
                       cudaMemcpyDeviceToHost));
  GPU_CHECK(cudaMemcpy(DCoef.data(), DevDCoef, 3 * sizeof(double),
                       cudaMemcpyDeviceToHost));
  auto Objective = [&](const std::vector<double> &Data, double *Device) {
    return sumAfterUpload(Data, Device, RunPrimal, DevOut, N);
  };
  // Samples inside tiles and on their edges (halo elements).
  std::vector<size_t> InSamples = {0,
                                   1,
                                   Tile - 1,
                                   Tile,
                                   Tile + 1,
                                   2 * Tile - 2,
                                   size_t(N) - 1,
                                   size_t(N) / 2 + 3};
  bool Ok = checkGradient(
      "d/dinput", In.data(), DIn.data(), InSamples,
      [&] { return Objective(In, DevIn); }, 1e-5);
  Objective(In, DevIn);
  Ok &= checkGradient(
      "d/dcoefficients", Coef.data(), DCoef.data(), {0, 1, 2},
      [&] { return Objective(Coef, DevCoef); }, 1e-5);
  printResult("stencil", PrimalMs, GradientMs, Ok);
  return Ok ? 0 : 1;
}
