// Helpers for the CUDA emulation tests: every check prints PASS or FAIL,
// and the tests' FileCheck lines reject any FAIL.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t Error = (call);                                                \
    if (Error != cudaSuccess) {                                                \
      std::printf("FAIL %s: %s\n", #call, cudaGetErrorString(Error));          \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static int Failures = 0;

static void check(const char *Name, bool Ok) {
  std::printf("%s %s\n", Ok ? "PASS" : "FAIL", Name);
  Failures += !Ok;
}

static void checkClose(const char *Name, double Got, double Expected,
                       double Tolerance) {
  bool Ok = std::fabs(Got - Expected) <= Tolerance * (1 + std::fabs(Expected));
  if (!Ok)
    std::printf("FAIL %s: got %.17g, expected %.17g\n", Name, Got, Expected);
  else
    std::printf("PASS %s\n", Name);
  Failures += !Ok;
}

static int finish() {
  std::printf("%s\n", Failures ? "some checks failed" : "all checks passed");
  return Failures != 0;
}
