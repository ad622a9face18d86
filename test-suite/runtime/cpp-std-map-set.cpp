// std::map, std::set and std::multimap holding active values: libstdc++
// links and walks their red-black trees in the shared library
// (_Rb_tree_insert_and_rebalance, _Rb_tree_rebalance_for_erase,
// _Rb_tree_increment/decrement), which had no definition for the engine.
// It now calls restatements (runtime/RbTree.c) that it differentiates, so
// the shadow tree is linked as the tree is. Many inserts and erases (so
// rotations and the erase rebalancing run), forward and reverse iteration,
// find and lower_bound, overwriting values through operator[], and a set
// ordered by active keys. Reverse mode against central finite differences
// and a hand-written gradient of the map part; forward mode against
// reverse. -O0 and -O2.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined \
// RUN:   -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

#include <cmath>
#include <map>
#include <set>

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

enum { N = 40, Keys = 23 };

static int keyOf(int I) { return (I * 7) % Keys; }

// sum over the surviving keys, last to first, of value * rank, plus the
// square of the value at key 5. Keys divisible by 3 are erased.
static double mapPart(const double *X) {
  std::map<int, double> M;
  for (int I = 0; I < N; ++I)
    M[keyOf(I)] = X[I] * (1 + 0.1 * I); // later writes overwrite
  for (int K = 0; K < Keys; K += 3)
    M.erase(K);
  double S = 0;
  int Rank = 1;
  for (auto It = M.rbegin(); It != M.rend(); ++It)
    S += It->second * Rank++;
  auto Five = M.find(5);
  if (Five != M.end())
    S += Five->second * Five->second;
  auto Low = M.lower_bound(10);
  if (Low != M.end())
    S += 0.5 * Low->second;
  return S;
}

// The values in increasing order, weighted by their rank, and pairs of a
// multimap in key order.
static double setPart(const double *X) {
  std::set<double> Sorted;
  std::multimap<int, double> Groups;
  for (int I = 0; I < N; ++I) {
    Sorted.insert(std::sin(X[I]) + 0.01 * I);
    Groups.emplace(I % 5, X[I] * X[I]);
  }
  double T = 0;
  int Rank = 1;
  for (double V : Sorted)
    T += V * Rank++;
  Groups.erase(Groups.find(2));
  for (auto &[Key, V] : Groups)
    T += 0.1 * (Key + 1) * V;
  return T;
}

static double both(const double *X) { return mapPart(X) + setPart(X); }

// d mapPart / dX by hand: the last write to each surviving key counts.
static void mapGradient(double *G) {
  int LastWriter[Keys];
  for (int K = 0; K < Keys; ++K)
    LastWriter[K] = -1;
  for (int I = 0; I < N; ++I)
    LastWriter[keyOf(I)] = I;
  for (int I = 0; I < N; ++I)
    G[I] = 0;
  // Surviving keys in decreasing order get ranks 1, 2, ...
  int Rank = 1;
  for (int K = Keys - 1; K >= 0; --K)
    if (K % 3 != 0 && LastWriter[K] >= 0)
      G[LastWriter[K]] += (1 + 0.1 * LastWriter[K]) * Rank++;
}

int main() {
  double X[N];
  for (int I = 0; I < N; ++I)
    X[I] = 0.3 + 0.05 * I + 0.2 * std::sin(1.7 * I);

  double D[N] = {0};
  __enzyme_autodiff((void *)mapPart, enzyme_dup, X, D);
  double Expect[N];
  mapGradient(Expect);
  // The square at key 5, and half the value at the first key >= 10 (10
  // itself, which is not a multiple of 3).
  int Writer5 = -1, Writer10 = -1;
  for (int I = 0; I < N; ++I) {
    if (keyOf(I) == 5)
      Writer5 = I;
    if (keyOf(I) == 10)
      Writer10 = I;
  }
  double Scale5 = 1 + 0.1 * Writer5, Scale10 = 1 + 0.1 * Writer10;
  Expect[Writer5] += 2 * X[Writer5] * Scale5 * Scale5;
  Expect[Writer10] += 0.5 * Scale10;
  for (int I = 0; I < N; ++I)
    check_grad("mapPart gradient", D[I], Expect[I],
               fd_partial([](const double *P, void *) { return mapPart(P); },
                          X, N, I, nullptr));

  double G[N] = {0};
  __enzyme_autodiff((void *)both, enzyme_dup, X, G);
  for (int I = 0; I < N; I += 3) {
    double Fd = fd_partial(
        [](const double *P, void *) { return both(P); }, X, N, I, nullptr);
    check_fd("both vs finite differences", G[I], Fd);
    double Dir[N] = {0};
    Dir[I] = 1;
    double XT[N];
    for (int J = 0; J < N; ++J)
      XT[J] = X[J];
    double T = __enzyme_fwddiff((void *)both, enzyme_dup, XT, Dir);
    check_close("both forward vs reverse", T, G[I], 1e-12, 1e-12);
  }
  return check_done();
}
