#include <enzyme/enzyme.h>

#include <cstdio>

double square(double x) { return x * x; }

int main() {
  volatile double x = 3.0;
  std::printf("square(%g) = %g\n", (double)x, square(x));
  return 0;
}
