// The gradient of a squared 2-norm computed with an OpenMP reduction:
// d/dx_i sum x^2 = 2 x_i, with whatever team OMP_NUM_THREADS gives.
#include <cstdio>
#include <omp.h>
#include <vector>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double squared_norm(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

int main() {
  const int n = 1000;
  std::vector<double> x(n), dx(n, 0.0);
  for (int i = 0; i < n; i++)
    x[i] = 0.001 * i;
  __enzyme_autodiff((void *)squared_norm, enzyme_dup, x.data(), dx.data(),
                    enzyme_const, n);
  int wrong = 0;
  for (int i = 0; i < n; i++)
    wrong += dx[i] != 2 * x[i];
  std::printf("threads %d wrong %d dx[500] %g\n", omp_get_max_threads(), wrong,
              dx[500]);
  return wrong != 0;
}
