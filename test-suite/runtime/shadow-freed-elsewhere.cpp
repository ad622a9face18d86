// Blocks allocated by one function and freed by another inside the
// differentiated code (std::vector's storage: allocated by one member,
// freed by another as the vector grows and when it dies; a C helper pair
// make/release): their shadows live until the reverse pass has used them
// and are freed when the sweep ends. Checked two ways: the gradients, and
// the heap in use (glibc's mallinfo2) staying flat over many gradients,
// which grew by every shadow before. Also split mode, whose reverse half
// ends the sweep.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"
#include <cstdlib>
#include <malloc.h>
#include <vector>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_augmentfwd(Args...);
template <typename R, typename... Args> R __enzyme_reverse(Args...);
extern int enzyme_dup, enzyme_const;

constexpr int N = 37;

__attribute__((noinline)) double grow(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(x[i] * x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * std::sin(x[i]);
  return s;
}

extern "C" __attribute__((noinline)) double *make(int n) {
  return (double *)std::malloc(n * sizeof(double));
}
extern "C" __attribute__((noinline)) void release(double *p) { std::free(p); }

__attribute__((noinline)) double pair(const double *x, int n) {
  double *t = make(n);
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * x[i];
  release(t);
  return s;
}

static size_t heap_in_use() { return mallinfo2().uordblks; }

int main() {
  double x[N], dx[N], dp[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.05 * i - 0.7;

  auto gradients = [&] {
    for (int i = 0; i < N; ++i)
      dx[i] = dp[i] = 0;
    __enzyme_autodiff<void>((void *)grow, enzyme_dup, x, dx, enzyme_const, N);
    __enzyme_autodiff<void>((void *)pair, enzyme_dup, x, dp, enzyme_const, N);
  };
  gradients();
  for (int i = 0; i < N; ++i) {
    check_close("d grow / dx_i", dx[i],
                2 * x[i] * std::sin(x[i]) + x[i] * x[i] * std::cos(x[i]),
                RTOL_EXACT, ATOL_EXACT);
    check_close("d pair / dx_i", dp[i], 3 * x[i] * x[i], RTOL_EXACT,
                ATOL_EXACT);
  }

  // Split mode: the forward halves of several tapes, then their reverse
  // halves, each of which frees its shadows.
  double ds[3][N] = {};
  void *tapes[3];
  for (int k = 0; k < 3; ++k)
    tapes[k] = __enzyme_augmentfwd<void *>((void *)pair, enzyme_dup, x, ds[k],
                                           enzyme_const, N);
  for (int k = 2; k >= 0; --k)
    __enzyme_reverse<void>((void *)pair, enzyme_dup, x, ds[k], enzyme_const, N,
                           1.0, tapes[k]);
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < N; ++i)
      check_close("split d pair / dx_i", ds[k][i], 3 * x[i] * x[i], RTOL_EXACT,
                  ATOL_EXACT);

  // Every gradient frees what it allocated: the heap stays flat (a few
  // shadows of N doubles per call would add up to hundreds of kilobytes).
  // The first calls grow the buffers the engine keeps for the next ones
  // (tape storage, the record of shadows): warm them up first.
  for (int r = 0; r < 10; ++r)
    gradients();
  size_t before = heap_in_use();
  for (int r = 0; r < 300; ++r)
    gradients();
  size_t after = heap_in_use();
  check_close("heap growth over 300 gradients (bytes)",
              after > before ? double(after - before) : 0.0, 0.0, 0, 4096);
  return check_done();
}
