// Thrust, CUB and cooperative groups live in include/cccl from CUDA 13 on.
#include <cooperative_groups.h>
#include <cstdio>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

namespace cg = cooperative_groups;

__global__ void twice(float *P) {
  cg::thread_block Block = cg::this_thread_block();
  P[Block.thread_rank()] *= 2;
  Block.sync();
}

int main() {
  thrust::device_vector<float> V(256, 1.0f);
  twice<<<1, 256>>>(thrust::raw_pointer_cast(V.data()));
  std::printf("sum: %f\n", thrust::reduce(V.begin(), V.end()));
}
