// Device code whose derivative needs assembly the engine does not read.
extern __device__ double __enzyme_autodiff(void *, ...);
__device__ double square(double x) {
  double r;
  asm("copysign.f64 %0, %1, %1;" : "=d"(r) : "d"(x));
  return r * x;
}
__global__ void gradient(const double *x, double *d) {
  d[0] = __enzyme_autodiff((void *)square, x[0]);
}
