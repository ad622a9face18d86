// The check shared by the seed's heterogeneous example with the hand-written
// pair (seed-heterogeneous.cu) and without it (launch-seed-iter.cu).
#include "../../Inputs/check.h"

static double f(double X) { return X * X - 3 * X; }
static double df(double X) { return 2 * X - 3; }

int main() {
  const int N = 100;
  float Src[N], Dst[N], DSrc[N], DDst[N];
  for (int I = 0; I < N; ++I) {
    Src[I] = 0.02f * I - 1;
    Dst[I] = 0.5f - 0.01f * I;
    DSrc[I] = 0;
    DDst[I] = 1;
  }
  float *S, *D, *DS, *DD;
  CUDA_CHECK(cudaMalloc(&S, sizeof Src));
  CUDA_CHECK(cudaMalloc(&D, sizeof Dst));
  CUDA_CHECK(cudaMalloc(&DS, sizeof DSrc));
  CUDA_CHECK(cudaMalloc(&DD, sizeof DDst));
  CUDA_CHECK(cudaMemcpy(S, Src, sizeof Src, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(D, Dst, sizeof Dst, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(DS, DSrc, sizeof DSrc, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(DD, DDst, sizeof DDst, cudaMemcpyHostToDevice));
  // Four time steps: two trips of the loop, four launches forward and four
  // in reverse, each with its own tape.
  grad_iter(4, S, DS, D, DD);
  CUDA_CHECK(cudaDeviceSynchronize());
  float GotSrc[N], GotDst[N], OutSrc[N], OutDst[N];
  CUDA_CHECK(cudaMemcpy(GotSrc, DS, sizeof GotSrc, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(GotDst, DD, sizeof GotDst, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(OutSrc, S, sizeof OutSrc, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(OutDst, D, sizeof OutDst, cudaMemcpyDeviceToHost));

  bool PrimalOk = true, AdjointOk = true;
  for (int I = 0; I < N; ++I) {
    // The primal: s, d go through d += f(s); s += f(d), twice.
    double S0 = Src[I], D0 = Dst[I];
    double D1 = D0 + f(S0), S1 = S0 + f(D1);
    double D2 = D1 + f(S1), S2 = S1 + f(D2);
    PrimalOk &= std::fabs(OutSrc[I] - S2) <= 1e-4 * (1 + std::fabs(S2)) &&
                std::fabs(OutDst[I] - D2) <= 1e-4 * (1 + std::fabs(D2));
    // The adjoint, launch by launch backwards from (dS2, dD2) = (0, 1).
    double AS = 0, AD = 1;
    AD += AS * df(D2); // s += f(d)
    AS += AD * df(S1); // d += f(s)
    AD += AS * df(D1);
    AS += AD * df(S0);
    AdjointOk &= std::fabs(GotSrc[I] - AS) <= 1e-3 * (1 + std::fabs(AS)) &&
                 std::fabs(GotDst[I] - AD) <= 1e-3 * (1 + std::fabs(AD));
    if (I == 37)
      std::printf("element 37: d src %g (expected %g), d dst %g (expected "
                  "%g)\n",
                  GotSrc[I], AS, GotDst[I], AD);
  }
  check("primal after the gradient", PrimalOk);
  check("adjoints of src and dst", AdjointOk);
  return finish();
}
