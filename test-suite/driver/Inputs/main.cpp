#include <cstdio>
extern "C" double square(double);
int main() {
  std::printf("%.1f\n", square(3.0));
  return 0;
}
