// The check of forward mode of the seed's `iter` (launch-seed-iter.cu):
// the tangents of src and dst along a direction, propagated launch by
// launch.
#include "../../Inputs/check.h"

static double f(double X) { return X * X - 3 * X; }
static double df(double X) { return 2 * X - 3; }

int main() {
  const int N = 100;
  float Src[N], Dst[N], DSrc[N], DDst[N];
  for (int I = 0; I < N; ++I) {
    Src[I] = 0.02f * I - 1;
    Dst[I] = 0.5f - 0.01f * I;
    DSrc[I] = 1;
    DDst[I] = 0.5f - 0.005f * I;
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
  // Four time steps: four launches of the tangent kernel.
  tangent_iter(4, S, DS, D, DD);
  CUDA_CHECK(cudaDeviceSynchronize());
  float GotSrc[N], GotDst[N], OutSrc[N], OutDst[N];
  CUDA_CHECK(cudaMemcpy(GotSrc, DS, sizeof GotSrc, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(GotDst, DD, sizeof GotDst, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(OutSrc, S, sizeof OutSrc, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(OutDst, D, sizeof OutDst, cudaMemcpyDeviceToHost));

  bool PrimalOk = true, TangentOk = true;
  for (int I = 0; I < N; ++I) {
    // d += f(s); s += f(d), twice, with the tangents alongside.
    double S0 = Src[I], D0 = Dst[I], TS = DSrc[I], TD = DDst[I];
    double D1 = D0 + f(S0);
    TD += df(S0) * TS;
    double S1 = S0 + f(D1);
    TS += df(D1) * TD;
    double D2 = D1 + f(S1);
    TD += df(S1) * TS;
    double S2 = S1 + f(D2);
    TS += df(D2) * TD;
    PrimalOk &= std::fabs(OutSrc[I] - S2) <= 1e-4 * (1 + std::fabs(S2)) &&
                std::fabs(OutDst[I] - D2) <= 1e-4 * (1 + std::fabs(D2));
    TangentOk &= std::fabs(GotSrc[I] - TS) <= 1e-3 * (1 + std::fabs(TS)) &&
                 std::fabs(GotDst[I] - TD) <= 1e-3 * (1 + std::fabs(TD));
    if (I == 37)
      std::printf("element 37: tangent of src %g (expected %g), of dst %g "
                  "(expected %g)\n",
                  GotSrc[I], TS, GotDst[I], TD);
  }
  check("primal with the tangents", PrimalOk);
  check("tangents of src and dst", TangentOk);
  return finish();
}
