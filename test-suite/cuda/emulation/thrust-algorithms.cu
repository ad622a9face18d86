// Thrust's element-wise algorithms (sequence, fill, transform with a binary
// functor, for_each, gather, copies between host and device vectors), its
// reductions (reduce, transform_reduce, max_element, count_if), scans
// (inclusive and exclusive, int and double) and sorts (a radix sort of ints,
// doubles in descending order, sort_by_key) run under emulation. CUB writes
// some of what they do as inline PTX: cache prefetches (`prefetch.global.L2`,
// a hint the emulator drops), warp shuffles (`shfl.sync.down.b32`), loads
// with a cache operator (`ld.global.nc.v2.u64`), the scan step of a sum (a
// block of shuffles and a predicated add), and the relaxed loads and stores
// at GPU scope with which a scan's blocks wait for each other's totals,
// the shifts, bit masks, ballot matches and `exit` of its radix sort, which
// the emulator translates. Before, each was a compile error ("CUDA
// emulation cannot run inline PTX assembly").
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

struct Axpy {
  double A;
  __host__ __device__ double operator()(double X, double Y) const {
    return A * X + Y;
  }
};
struct Twice {
  __host__ __device__ void operator()(double &X) const { X *= 2; }
};
struct Square {
  __host__ __device__ double operator()(double X) const { return X * X; }
};
struct IsOdd {
  __host__ __device__ bool operator()(int X) const { return X & 1; }
};

int main() {
  const int N = 5000;
  thrust::device_vector<double> X(N), Y(N), Z(N);
  thrust::sequence(X.begin(), X.end(), 1.0, 0.25);
  thrust::fill(Y.begin(), Y.end(), 3.0);
  thrust::transform(X.begin(), X.end(), Y.begin(), Z.begin(), Axpy{2.0});
  thrust::for_each(Z.begin(), Z.end(), Twice());
  thrust::device_vector<int> Index(N);
  thrust::sequence(Index.begin(), Index.end(), N - 1, -1);
  thrust::device_vector<double> Reversed(N);
  thrust::gather(Index.begin(), Index.end(), Z.begin(), Reversed.begin());
  thrust::host_vector<double> Host = Reversed;
  bool Ok = true;
  for (int I = 0; I < N; ++I) {
    int J = N - 1 - I;
    Ok &= Host[I] == 2 * (2.0 * (1.0 + 0.25 * J) + 3.0);
  }
  check("sequence, fill, transform, for_each, gather", Ok);

  // Reductions over more elements than one block takes.
  const int M = 20000;
  thrust::device_vector<double> Halves(M);
  thrust::sequence(Halves.begin(), Halves.end(), 0.0, 0.5);
  double Sum = thrust::reduce(Halves.begin(), Halves.end(), 0.0);
  checkClose("reduce", Sum, 0.5 * (M - 1.0) * M / 2, 0);
  double Squares = thrust::transform_reduce(Halves.begin(), Halves.end(),
                                            Square(), 0.0,
                                            thrust::plus<double>());
  checkClose("transform_reduce", Squares,
             0.25 * (M - 1.0) * M * (2 * M - 1.0) / 6, 1e-15);
  thrust::device_vector<int> Count(M);
  thrust::sequence(Count.begin(), Count.end());
  check("max_element", *thrust::max_element(Count.begin(), Count.end()) ==
                           M - 1);
  check("count_if", thrust::count_if(Count.begin(), Count.end(), IsOdd()) ==
                        M / 2);

  // Scans over many blocks, which wait for their predecessors' totals.
  thrust::device_vector<int> Ones(M, 1), Prefix(M);
  thrust::inclusive_scan(Ones.begin(), Ones.end(), Prefix.begin());
  thrust::host_vector<int> HostPrefix = Prefix;
  bool ScanOk = true;
  for (int I = 0; I < M; ++I)
    ScanOk &= HostPrefix[I] == I + 1;
  check("inclusive_scan of ints", ScanOk);
  thrust::device_vector<double> Exclusive(M);
  thrust::exclusive_scan(Halves.begin(), Halves.end(), Exclusive.begin());
  thrust::host_vector<double> HostExclusive = Exclusive;
  bool ExclusiveOk = true;
  for (int I = 0; I < M; I += 997)
    ExclusiveOk &= HostExclusive[I] == 0.25 * I * (I - 1.0);
  check("exclusive_scan of doubles", ExclusiveOk);

  // Sorts: a permutation of 0..S-1, as keys and as doubles.
  const int S = 8000;
  thrust::host_vector<int> Keys(S);
  thrust::host_vector<double> Values(S);
  for (int I = 0; I < S; ++I) {
    Keys[I] = int((I * 104729LL) % S);
    Values[I] = ((I * 7919LL) % S) * 0.25;
  }
  thrust::device_vector<int> SortedKeys = Keys;
  thrust::sort(SortedKeys.begin(), SortedKeys.end());
  thrust::device_vector<double> Descending = Values;
  thrust::sort(Descending.begin(), Descending.end(), thrust::greater<double>());
  thrust::device_vector<int> ByKey = Keys;
  thrust::device_vector<double> Carried = Keys;
  thrust::sort_by_key(ByKey.begin(), ByKey.end(), Carried.begin());
  thrust::host_vector<int> HostKeys = SortedKeys;
  thrust::host_vector<double> HostDescending = Descending,
                              HostCarried = Carried;
  bool SortOk = true, DescendingOk = true, ByKeyOk = true;
  for (int I = 0; I < S; ++I) {
    SortOk &= HostKeys[I] == I;
    DescendingOk &= HostDescending[I] == (S - 1 - I) * 0.25;
    ByKeyOk &= HostCarried[I] == I;
  }
  check("radix sort of ints", SortOk);
  check("sort of doubles, descending", DescendingOk);
  check("sort_by_key", ByKeyOk);
  return finish();
}
