// Host code of launch-rdc.test: the kernel is defined in another CUDA file.
extern __global__ void square(double *X, int N);
extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;

double loss(double *X, int N) {
  square<<<1, 32>>>(X, N);
  cudaDeviceSynchronize();
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += X[I];
  return S;
}

double gradient(double *X, double *DX, int N) {
  return __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, enzyme_const, N);
}
