// An n-body potential as CUDA samples write it: positions in the program's
// own struct of three floats, copied to the device with cudaMemcpy, tiles
// of them in shared memory, rsqrtf, and a rotation by sincosf before the
// energy. Before, the reverse stopped at run time at the host-to-device
// copy ("nothing in the program says whether the memory it copies holds
// float, double, integer or pointer values": the host code only copies the
// positions, and their struct was not one of CUDA's vector types), and
// sincosf was an error of the device compilation (no rule for
// __nv_sincosf). Now a copy is typed by the program's struct of floats
// that a parameter declares, and sincos is restated as its sine and
// cosine. Central differences, -O0 and -O2; forward against reverse.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

constexpr int Tile = 32;
struct Body {
  float x, y, z;
};
__device__ Body operator-(Body A, Body B) {
  return {A.x - B.x, A.y - B.y, A.z - B.z};
}
__device__ float dot(Body A, Body B) { return A.x * B.x + A.y * B.y + A.z * B.z; }

// Each body turned about the z axis by its angle theta_i.
__global__ void rotate(Body *P, const float *Theta, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    float S, C;
    sincosf(Theta[I], &S, &C);
    Body B = P[I];
    P[I] = {C * B.x - S * B.y, S * B.x + C * B.y, B.z};
  }
}

// E_i = -1/2 m_i sum_j m_j / sqrt(|p_j - p_i|^2 + eps).
__global__ void potential(const Body *P, const float *M, float *E, int N) {
  __shared__ Body Tiles[Tile];
  __shared__ float Masses[Tile];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Body Me = I < N ? P[I] : Body{0, 0, 0};
  float Sum = 0;
  for (int Base = 0; Base < N; Base += Tile) {
    int J = Base + threadIdx.x;
    Tiles[threadIdx.x] = J < N ? P[J] : Body{1e3f, 1e3f, 1e3f};
    Masses[threadIdx.x] = J < N ? M[J] : 0.0f;
    __syncthreads();
#pragma unroll 4
    for (int K = 0; K < Tile; ++K) {
      Body D = Tiles[K] - Me;
      Sum += Masses[K] * rsqrtf(dot(D, D) + 0.01f);
    }
    __syncthreads();
  }
  if (I < N)
    E[I] = -0.5f * M[I] * Sum;
}

__global__ void total(const float *E, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(Out, (double)E[I]);
}

double energy(const Body *P, const float *M, const float *Theta, int N) {
  Body *DP;
  float *DM, *DTheta, *DE;
  double *DOut;
  CUDA_CHECK(cudaMalloc(&DP, N * sizeof(Body)));
  CUDA_CHECK(cudaMalloc(&DM, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DTheta, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DE, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DOut, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(DP, P, N * sizeof(Body), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(DM, M, N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(
      cudaMemcpy(DTheta, Theta, N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(DOut, 0, sizeof(double)));
  rotate<<<(N + 31) / 32, 32>>>(DP, DTheta, N);
  potential<<<(N + Tile - 1) / Tile, Tile>>>(DP, DM, DE, N);
  total<<<(N + 63) / 64, 64>>>(DE, DOut, N);
  double R;
  CUDA_CHECK(cudaMemcpy(&R, DOut, sizeof R, cudaMemcpyDeviceToHost));
  cudaFree(DP), cudaFree(DM), cudaFree(DTheta), cudaFree(DE), cudaFree(DOut);
  return R;
}

static double energyHost(const Body *P, const float *M, const float *Theta,
                         int N) {
  auto At = [&](int I, double *Q) {
    double S = std::sin(Theta[I]), C = std::cos(Theta[I]);
    Q[0] = C * P[I].x - S * P[I].y, Q[1] = S * P[I].x + C * P[I].y,
    Q[2] = P[I].z;
  };
  double E = 0;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J) {
      double A[3], B[3];
      At(I, A), At(J, B);
      double D2 = 0.01;
      for (int K = 0; K < 3; ++K)
        D2 += (B[K] - A[K]) * (B[K] - A[K]);
      E += -0.5 * M[I] * M[J] / std::sqrt(D2);
    }
  return E;
}

int main() {
  constexpr int N = 45;
  static Body P[N], GP[N], TP[N];
  static float M[N], GM[N], Theta[N], GTheta[N];
  for (int I = 0; I < N; ++I) {
    P[I] = {std::sin(1.1f * I), std::cos(0.7f * I), 0.1f * (I % 7)};
    M[I] = 1 + 0.01f * I;
    Theta[I] = 0.05f * I - 1;
    TP[I] = {std::cos(3.f * I), 0.5f, -std::sin(2.f * I)};
  }
  __enzyme_autodiff((void *)energy, enzyme_dup, P, GP, enzyme_dup, M, GM,
                    enzyme_dup, Theta, GTheta, enzyme_const, N);
  bool Ok = true;
  double Dot = 0;
  // Central differences of the model in double, each input in turn.
  auto Expect = [&](float &In, float Got, const char *What, int I) {
    float Save = In;
    double H = 1e-3;
    In = Save + H;
    double Up = energyHost(P, M, Theta, N);
    In = Save - H;
    double Down = energyHost(P, M, Theta, N);
    In = Save;
    double Want = (Up - Down) / (2 * H);
    if (std::fabs(Got - Want) > 2e-3 * (1 + std::fabs(Want))) {
      std::printf("FAIL %s %d: got %g, expected %g\n", What, I, Got, Want);
      Ok = false;
    }
  };
  for (int I = 0; I < N; ++I) {
    Expect(P[I].x, GP[I].x, "d/dx", I);
    Expect(P[I].y, GP[I].y, "d/dy", I);
    Expect(P[I].z, GP[I].z, "d/dz", I);
    Expect(M[I], GM[I], "d/dm", I);
    Expect(Theta[I], GTheta[I], "d/dtheta", I);
    Dot += GP[I].x * TP[I].x + GP[I].y * TP[I].y + GP[I].z * TP[I].z;
  }
  check("gradient of the energy", Ok);
  checkClose("tangent",
             __enzyme_fwddiff((void *)energy, enzyme_dup, P, TP, enzyme_const,
                              M, enzyme_const, Theta, enzyme_const, N),
             Dot, 1e-4);
  return finish();
}
