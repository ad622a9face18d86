// XSBench-style Monte Carlo cross-section lookups (the memory-bound kernel
// of the SC'21 GPU AD results): each thread binary-searches an energy grid,
// interpolates the five cross sections of each nuclide of its material and
// sums them weighted by concentration. The gradient (device-side
// __enzyme_autodiff, one per thread) is taken with respect to the nuclide
// tables and the concentrations, which all threads read: its adjoints are
// scattered with atomic additions. Prints gradient time / primal time.
#include "gpu_bench.cuh"

constexpr int XsTypes = 5, NucsPerMat = 8, Materials = 12;

__device__ double lookup(const double *XS, const double *Conc,
                         const double *Grid, const int *Mats, int G, double E,
                         int M) {
  int Lo = 0, Hi = G - 1;
  while (Hi - Lo > 1) {
    int Mid = (Lo + Hi) / 2;
    if (Grid[Mid] > E)
      Hi = Mid;
    else
      Lo = Mid;
  }
  double F = (E - Grid[Lo]) / (Grid[Lo + 1] - Grid[Lo]);
  double Macro[XsTypes] = {0, 0, 0, 0, 0};
  for (int K = 0; K < NucsPerMat; ++K) {
    int Nuc = Mats[M * NucsPerMat + K];
    const double *Row = XS + ((size_t)Nuc * G + Lo) * XsTypes;
    double C = Conc[M * NucsPerMat + K];
    for (int X = 0; X < XsTypes; ++X)
      Macro[X] += C * (Row[X] + F * (Row[XsTypes + X] - Row[X]));
  }
  return Macro[0] + 0.5 * Macro[1] + 0.25 * Macro[2] + 0.125 * Macro[3] +
         0.0625 * Macro[4];
}

__device__ void sample(int T, double &E, int &M) {
  unsigned H = 2654435761u * unsigned(T + 1);
  H ^= H >> 13;
  H *= 0x5bd1e995u;
  H ^= H >> 15;
  E = (H % 1000003u) / 1000003.0;
  M = (H >> 7) % Materials;
}

__global__ void primal(const double *XS, const double *Conc, const double *Grid,
                       const int *Mats, int G, int Lookups, double *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= Lookups)
    return;
  double E;
  int M;
  sample(T, E, M);
  Out[T] = lookup(XS, Conc, Grid, Mats, G, E, M);
}

__global__ void gradient(const double *XS, double *DXS, const double *Conc,
                         double *DConc, const double *Grid, const int *Mats,
                         int G, int Lookups) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= Lookups)
    return;
  double E;
  int M;
  sample(T, E, M);
  __enzyme_autodiff((void *)lookup, enzyme_dup, XS, DXS, enzyme_dup, Conc,
                    DConc, enzyme_const, Grid, enzyme_const, Mats, enzyme_const,
                    G, enzyme_const, E, enzyme_const, M);
}

int main(int Argc, char **Argv) {
  bool Quick = quickRun(Argc, Argv);
  int G = Quick ? 256 : 8192, Nuclides = Quick ? 16 : 128;
  int Lookups = Quick ? 4096 : 1 << 21, Runs = Quick ? 1 : 10;
  size_t TableSize = size_t(Nuclides) * G * XsTypes;
  std::vector<double> XS(TableSize), Grid(G), Conc(Materials * NucsPerMat);
  std::vector<int> Mats(Materials * NucsPerMat);
  for (int I = 0; I < G; ++I)
    Grid[I] = double(I) / (G - 1);
  for (size_t I = 0; I < TableSize; ++I)
    XS[I] = 1 + 0.5 * std::sin(0.001 * I) + 0.25 * std::cos(0.37 * I);
  for (int I = 0; I < Materials * NucsPerMat; ++I) {
    Mats[I] = (I * 7919) % Nuclides;
    Conc[I] = 0.1 + 0.01 * (I % 13);
  }
  double *DevXS, *DevDXS, *DevConc, *DevDConc, *DevGrid, *DevOut;
  int *DevMats;
  GPU_CHECK(cudaMalloc(&DevXS, TableSize * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevDXS, TableSize * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevConc, Conc.size() * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevDConc, Conc.size() * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevGrid, G * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevMats, Mats.size() * sizeof(int)));
  GPU_CHECK(cudaMalloc(&DevOut, Lookups * sizeof(double)));
  GPU_CHECK(cudaMemcpy(DevXS, XS.data(), TableSize * sizeof(double),
                       cudaMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpy(DevConc, Conc.data(), Conc.size() * sizeof(double),
                       cudaMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpy(DevGrid, Grid.data(), G * sizeof(double),
                       cudaMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpy(DevMats, Mats.data(), Mats.size() * sizeof(int),
                       cudaMemcpyHostToDevice));
  int Threads = 256, Blocks = (Lookups + Threads - 1) / Threads;
  auto RunPrimal = [&] {
    primal<<<Blocks, Threads>>>(DevXS, DevConc, DevGrid, DevMats, G, Lookups,
                                DevOut);
  };
  auto RunGradient = [&] {
    gradient<<<Blocks, Threads>>>(DevXS, DevDXS, DevConc, DevDConc, DevGrid,
                                  DevMats, G, Lookups);
  };
  RunPrimal();
  RunGradient();
  double PrimalMs = timeKernel(RunPrimal, Runs);
  double GradientMs = timeKernel(RunGradient, Runs);

  // One clean gradient for the check.
  GPU_CHECK(cudaMemset(DevDXS, 0, TableSize * sizeof(double)));
  GPU_CHECK(cudaMemset(DevDConc, 0, Conc.size() * sizeof(double)));
  RunGradient();
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<double> DXS(TableSize), DConc(Conc.size());
  GPU_CHECK(cudaMemcpy(DXS.data(), DevDXS, TableSize * sizeof(double),
                       cudaMemcpyDeviceToHost));
  GPU_CHECK(cudaMemcpy(DConc.data(), DevDConc, Conc.size() * sizeof(double),
                       cudaMemcpyDeviceToHost));
  auto Objective = [&](const std::vector<double> &Table, double *Device) {
    return sumAfterUpload(Table, Device, RunPrimal, DevOut, Lookups);
  };
  std::vector<size_t> TableSamples, ConcSamples;
  for (int I = 0; I < 6; ++I) {
    // Entries some lookup reads: a material's nuclide near a sampled cell.
    TableSamples.push_back(
        (size_t(Mats[I * 5 % Mats.size()]) * G + G / 3 + I * 11) * XsTypes +
        I % XsTypes);
    ConcSamples.push_back((I * 13) % Conc.size());
  }
  bool Ok = checkGradient(
      "d/dtables", XS.data(), DXS.data(), TableSamples,
      [&] { return Objective(XS, DevXS); }, 1e-5);
  Objective(XS, DevXS);
  Ok &= checkGradient(
      "d/dconcentrations", Conc.data(), DConc.data(), ConcSamples,
      [&] { return Objective(Conc, DevConc); }, 1e-5);
  printResult("xs-lookup", PrimalMs, GradientMs, Ok);
  return Ok ? 0 : 1;
}
