// RSBench-style multipole cross-section lookups (the compute-bound kernel of
// the SC'21 GPU AD results): each thread evaluates, for the nuclides of its
// material, every pole's complex resonance term with sqrt, exp, sin and cos.
// The gradient (device-side __enzyme_autodiff, one per thread) is taken with
// respect to the pole data and the concentrations. Prints gradient time /
// primal time.
#include "gpu_bench.cuh"

constexpr int NucsPerMat = 6, Materials = 8, PolesPerNuc = 24, PoleFields = 4;

__device__ double resonances(const double *Poles, const double *Conc,
                             const int *Mats, double E, int M) {
  double SqrtE = sqrt(E), SigT = 0, SigA = 0;
  for (int K = 0; K < NucsPerMat; ++K) {
    int Nuc = Mats[M * NucsPerMat + K];
    double C = Conc[M * NucsPerMat + K];
    const double *P = Poles + size_t(Nuc) * PolesPerNuc * PoleFields;
    for (int I = 0; I < PolesPerNuc; ++I, P += PoleFields) {
      // 1 / (sqrt(E) - pole), pole = P[0] + i P[1].
      double Re = SqrtE - P[0], Im = -P[1];
      double Denominator = Re * Re + Im * Im;
      double InvRe = Re / Denominator, InvIm = -Im / Denominator;
      double Phase = E * P[0];
      SigT += C * P[2] * (InvRe * cos(Phase) - InvIm * sin(Phase));
      SigA += C * P[3] * InvIm * exp(-E * fabs(P[1]));
    }
  }
  return SigT + SigA;
}

__device__ void sample(int T, double &E, int &M) {
  unsigned H = 2654435761u * unsigned(T + 1);
  H ^= H >> 13;
  H *= 0x5bd1e995u;
  H ^= H >> 15;
  E = 0.05 + (H % 1000003u) / 1000003.0;
  M = (H >> 7) % Materials;
}

__global__ void primal(const double *Poles, const double *Conc, const int *Mats,
                       int Lookups, double *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= Lookups)
    return;
  double E;
  int M;
  sample(T, E, M);
  Out[T] = resonances(Poles, Conc, Mats, E, M);
}

__global__ void gradient(const double *Poles, double *DPoles,
                         const double *Conc, double *DConc, const int *Mats,
                         int Lookups) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= Lookups)
    return;
  double E;
  int M;
  sample(T, E, M);
  __enzyme_autodiff((void *)resonances, enzyme_dup, Poles, DPoles, enzyme_dup,
                    Conc, DConc, enzyme_const, Mats, enzyme_const, E,
                    enzyme_const, M);
}

int main(int Argc, char **Argv) {
  bool Quick = quickRun(Argc, Argv);
  int Nuclides = Quick ? 8 : 64, Lookups = Quick ? 2048 : 1 << 19;
  int Runs = Quick ? 1 : 10;
  size_t PoleCount = size_t(Nuclides) * PolesPerNuc * PoleFields;
  std::vector<double> Poles(PoleCount), Conc(Materials * NucsPerMat);
  std::vector<int> Mats(Materials * NucsPerMat);
  for (size_t I = 0; I < PoleCount; ++I)
    Poles[I] = I % PoleFields == 0   ? 0.3 + 0.9 * std::fabs(std::sin(0.7 * I))
               : I % PoleFields == 1 ? 0.05 + 0.1 * std::fabs(std::cos(I))
                                     : 0.5 + 0.3 * std::sin(0.11 * I);
  for (int I = 0; I < Materials * NucsPerMat; ++I) {
    Mats[I] = (I * 31) % Nuclides;
    Conc[I] = 0.2 + 0.02 * (I % 7);
  }
  // The gradient records each pole's terms for the reverse pass: more than
  // a thread's local tape holds, so the rest goes to the device heap (8 MB
  // by default).
  GPU_CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize,
                               size_t(Lookups) * 16384 + (64 << 20)));
  double *DevPoles, *DevDPoles, *DevConc, *DevDConc, *DevOut;
  int *DevMats;
  GPU_CHECK(cudaMalloc(&DevPoles, PoleCount * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevDPoles, PoleCount * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevConc, Conc.size() * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevDConc, Conc.size() * sizeof(double)));
  GPU_CHECK(cudaMalloc(&DevMats, Mats.size() * sizeof(int)));
  GPU_CHECK(cudaMalloc(&DevOut, Lookups * sizeof(double)));
  GPU_CHECK(cudaMemcpy(DevPoles, Poles.data(), PoleCount * sizeof(double),
                       cudaMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpy(DevConc, Conc.data(), Conc.size() * sizeof(double),
                       cudaMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpy(DevMats, Mats.data(), Mats.size() * sizeof(int),
                       cudaMemcpyHostToDevice));
  int Threads = 128, Blocks = (Lookups + Threads - 1) / Threads;
  auto RunPrimal = [&] {
    primal<<<Blocks, Threads>>>(DevPoles, DevConc, DevMats, Lookups, DevOut);
  };
  auto RunGradient = [&] {
    gradient<<<Blocks, Threads>>>(DevPoles, DevDPoles, DevConc, DevDConc,
                                  DevMats, Lookups);
  };
  RunPrimal();
  RunGradient();
  double PrimalMs = timeKernel(RunPrimal, Runs);
  double GradientMs = timeKernel(RunGradient, Runs);

  GPU_CHECK(cudaMemset(DevDPoles, 0, PoleCount * sizeof(double)));
  GPU_CHECK(cudaMemset(DevDConc, 0, Conc.size() * sizeof(double)));
  RunGradient();
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<double> DPoles(PoleCount), DConc(Conc.size());
  GPU_CHECK(cudaMemcpy(DPoles.data(), DevDPoles, PoleCount * sizeof(double),
                       cudaMemcpyDeviceToHost));
  GPU_CHECK(cudaMemcpy(DConc.data(), DevDConc, Conc.size() * sizeof(double),
                       cudaMemcpyDeviceToHost));
  auto Objective = [&](const std::vector<double> &Data, double *Device) {
    return sumAfterUpload(Data, Device, RunPrimal, DevOut, Lookups);
  };
  std::vector<size_t> PoleSamples, ConcSamples;
  for (int I = 0; I < 8; ++I) {
    PoleSamples.push_back(
        (size_t(Mats[(I * 5) % Mats.size()]) * PolesPerNuc + I * 3) *
            PoleFields +
        I % PoleFields);
    ConcSamples.push_back((I * 7) % Conc.size());
  }
  bool Ok = checkGradient(
      "d/dpoles", Poles.data(), DPoles.data(), PoleSamples,
      [&] { return Objective(Poles, DevPoles); }, 1e-5);
  Objective(Poles, DevPoles);
  Ok &= checkGradient(
      "d/dconcentrations", Conc.data(), DConc.data(), ConcSamples,
      [&] { return Objective(Conc, DevConc); }, 1e-5);
  printResult("rs-poles", PrimalMs, GradientMs, Ok);
  return Ok ? 0 : 1;
}
