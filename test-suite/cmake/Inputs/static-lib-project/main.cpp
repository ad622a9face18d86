#include "poly.h"

#include <cstdio>

#ifdef POLY_DIFFERENTIATE
#include <enzyme/enzyme.h>
extern "C" double __enzyme_autodiff(void *, ...);
#endif

int main() {
  volatile double x = 2.0;
  std::printf("poly(%g) = %g\n", (double)x, poly(x));
#ifdef POLY_DIFFERENTIATE
  // poly lives in the static library: the request is completed at the link.
  std::printf("poly'(%g) = %g\n", (double)x, __enzyme_autodiff((void *)poly, (double)x));
#endif
  return 0;
}
