//===- no_ad_call.cpp - A program without any derivative request ----------===//
//
// scripts/bench compiles this with and without -fenzyme: the difference is
// what a user pays just for turning the flag on. It is the GMM benchmark's
// objective, evaluated and printed.
//
//===----------------------------------------------------------------------===//

#include "../gmm/gmm.hpp"

#include <cstdio>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s gmm-input\n", argv[0]);
    return 2;
  }
  gmm::Input In = gmm::read(argv[1]);
  std::printf("%.17g\n",
              gmm::objective<double>(In.D, In.K, In.N, In.Alphas.data(),
                                     In.Means.data(), In.Icf.data(),
                                     In.X.data(), In.Gamma, In.M));
  return 0;
}
