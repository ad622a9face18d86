// std::sort of active values inside the differentiated function: a
// std::vector<std::pair<int, double>> sorted by its integer key with a
// lambda, and a std::vector<double> sorted by value (the permutation is
// inactive, the values carry their derivatives to where they land), then
// std::transform, std::accumulate and std::inner_product with lambdas.
// Reverse mode against analytic values and central differences, forward
// mode against reverse.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_dup, enzyme_const;

/* More than 16 elements, so std::sort partitions (introsort) before its
 * final insertion sort. */
static const int N = 40;

/* key(i) = (3 i) mod N is a permutation (3 and N coprime): the pairs sorted by key hold
 * x[inv(k)] at position k; d is x sorted; s = sum (k + 1) v[k] d[k]. */
static int key(int i) { return (3 * i) % N; }

double sorted(const double *x, int n) {
  std::vector<std::pair<int, double>> v;
  for (int i = 0; i < n; ++i)
    v.push_back({key(i), x[i]});
  std::sort(v.begin(), v.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<double> d(x, x + n);
  std::sort(d.begin(), d.end());
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += (k + 1) * v[k].second * d[k];
  return s;
}

/* w = x^2 elementwise; acc = sum 2 w + 0.5; s = acc + <x, w> = sum (2 x^2 +
 * x^3) + 0.5: ds/dx_i = 4 x_i + 3 x_i^2. */
double numeric(const double *x, int n) {
  std::vector<double> v(x, x + n), w(n);
  std::transform(v.begin(), v.end(), w.begin(),
                 [](double a) { return a * a; });
  double acc = std::accumulate(w.begin(), w.end(), 0.5,
                               [](double a, double b) { return a + 2 * b; });
  return acc + std::inner_product(v.begin(), v.end(), w.begin(), 0.0);
}

static double sortedV(const double *x, void *) { return sorted(x, N); }
static double numericV(const double *x, void *) { return numeric(x, N); }

int main() {
  /* Distinct values (no ties), away from each other by more than a step. */
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 2 * sin(1.3 * i + 0.2) + 0.01 * i;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < i; ++j)
      if (fabs(x[i] - x[j]) < 1e-4)
        return fprintf(stderr, "test values too close\n"), 1;
  /* Analytic gradient of sorted(): position of each x in both orders. */
  int posKey[N], posVal[N];
  for (int i = 0; i < N; ++i) {
    posKey[i] = key(i);
    posVal[i] = 0;
    for (int j = 0; j < N; ++j)
      posVal[i] += x[j] < x[i];
  }
  double byKey[N], byVal[N];
  for (int i = 0; i < N; ++i) {
    byKey[posKey[i]] = x[i];
    byVal[posVal[i]] = x[i];
  }
  char name[64];
  double dx[N] = {0}, dy[N] = {0};
  __enzyme_autodiff<void>(sorted, enzyme_dup, x, dx, enzyme_const, N);
  __enzyme_autodiff<void>(numeric, enzyme_dup, x, dy, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    /* x_i sits at posKey[i] in v and at posVal[i] in d. */
    double expect = (posKey[i] + 1) * byVal[posKey[i]] +
                    (posVal[i] + 1) * byKey[posVal[i]];
    snprintf(name, sizeof name, "sort rev d/dx%d", i);
    check_grad(name, dx[i], expect, fd_partial(sortedV, x, N, i, nullptr));
    snprintf(name, sizeof name, "numeric rev d/dx%d", i);
    check_grad(name, dy[i], 4 * x[i] + 3 * x[i] * x[i],
               fd_partial(numericV, x, N, i, nullptr));

    double t[N] = {0};
    t[i] = 1;
    snprintf(name, sizeof name, "sort fwd d/dx%d", i);
    check_close(name,
                __enzyme_fwddiff<double>(sorted, enzyme_dup, x, t,
                                         enzyme_const, N),
                dx[i], 1e-12, 1e-13);
    snprintf(name, sizeof name, "numeric fwd d/dx%d", i);
    check_close(name,
                __enzyme_fwddiff<double>(numeric, enzyme_dup, x, t,
                                         enzyme_const, N),
                dy[i], 1e-12, 1e-13);
  }
  return check_done();
}
