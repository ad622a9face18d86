// Warp collectives: every __shfl_sync mode with and without a width, votes,
// match, __syncwarp and a warp reduction, against values computed here.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

constexpr int Threads = 64;
enum { FIdx, FUp, FDown, FXor, FIdx8, FUp8, FDown8, FXor8, FDoubleDown,
       FBallot, FAny, FAll, FMatchAny, FReduce, FLane, Fields };

__device__ double warpSum(double Value) {
  for (int Offset = 16; Offset > 0; Offset /= 2)
    Value += __shfl_down_sync(0xffffffff, Value, Offset);
  return Value;
}

__global__ void collectives(long long *Out) {
  int T = threadIdx.x;
  int Lane = T % 32;
  long long *Mine = Out + T * Fields;
  int V = 100 * T + 7;
  Mine[FIdx] = __shfl_sync(0xffffffff, V, (Lane * 5) % 32);
  Mine[FUp] = __shfl_up_sync(0xffffffff, V, 3);
  Mine[FDown] = __shfl_down_sync(0xffffffff, V, 3);
  Mine[FXor] = __shfl_xor_sync(0xffffffff, V, 5);
  Mine[FIdx8] = __shfl_sync(0xffffffff, V, Lane + 3, 8);
  Mine[FUp8] = __shfl_up_sync(0xffffffff, V, 3, 8);
  Mine[FDown8] = __shfl_down_sync(0xffffffff, V, 3, 8);
  Mine[FXor8] = __shfl_xor_sync(0xffffffff, V, 5, 8);
  Mine[FDoubleDown] =
      (long long)__shfl_down_sync(0xffffffff, T * 1.5 + 1e9, 1);
  Mine[FBallot] = __ballot_sync(0xffffffff, Lane % 3 == 0);
  Mine[FAny] = __any_sync(0xffffffff, T == 40);
  Mine[FAll] = __all_sync(0xffffffff, Lane < 31);
  Mine[FMatchAny] = __match_any_sync(0xffffffff, Lane / 4);
  __syncwarp();
  Mine[FReduce] = (long long)warpSum(T);
  Mine[FLane] = Lane;
}

int main() {
  long long *Out;
  CUDA_CHECK(cudaMallocManaged(&Out, Threads * Fields * sizeof(long long)));
  collectives<<<1, Threads>>>(Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok[Fields] = {};
  for (int F = 0; F < Fields; ++F)
    Ok[F] = true;
  for (int T = 0; T < Threads; ++T) {
    const long long *Got = Out + T * Fields;
    int Lane = T % 32, Warp = T / 32;
    auto Value = [&](int L) { return 100 * (Warp * 32 + L) + 7; };
    int Segment = Lane / 8 * 8, InSegment = Lane % 8;
    Ok[FIdx] &= Got[FIdx] == Value((Lane * 5) % 32);
    Ok[FUp] &= Got[FUp] == Value(Lane >= 3 ? Lane - 3 : Lane);
    Ok[FDown] &= Got[FDown] == Value(Lane + 3 < 32 ? Lane + 3 : Lane);
    Ok[FXor] &= Got[FXor] == Value(Lane ^ 5);
    Ok[FIdx8] &= Got[FIdx8] == Value(Segment + (InSegment + 3) % 8);
    Ok[FUp8] &= Got[FUp8] == Value(InSegment >= 3 ? Lane - 3 : Lane);
    Ok[FDown8] &= Got[FDown8] == Value(InSegment + 3 < 8 ? Lane + 3 : Lane);
    Ok[FXor8] &= Got[FXor8] == Value((InSegment ^ 5) < 8 ? Segment + (InSegment ^ 5) : Lane);
    int Next = Lane < 31 ? T + 1 : T;
    Ok[FDoubleDown] &= Got[FDoubleDown] == (long long)(Next * 1.5 + 1e9);
    unsigned Ballot = 0;
    for (int L = 0; L < 32; L += 3)
      Ballot |= 1u << L;
    Ok[FBallot] &= (unsigned)Got[FBallot] == Ballot;
    Ok[FAny] &= Got[FAny] == (Warp == 1);
    Ok[FAll] &= Got[FAll] == 0;
    Ok[FMatchAny] &= (unsigned)Got[FMatchAny] == 0xfu << (Lane / 4 * 4);
    long long Sum = 0;
    for (int L = 0; L < 32; ++L)
      Sum += Warp * 32 + L;
    if (Lane == 0)
      Ok[FReduce] &= Got[FReduce] == Sum;
    Ok[FLane] &= Got[FLane] == Lane;
  }
  const char *Names[Fields] = {"shfl idx", "shfl up", "shfl down", "shfl xor",
                               "shfl idx width 8", "shfl up width 8",
                               "shfl down width 8", "shfl xor width 8",
                               "shfl of a double", "ballot", "any", "all",
                               "match any", "warp reduction", "lane id"};
  for (int F = 0; F < Fields; ++F)
    check(Names[F], Ok[F]);
  return finish();
}
