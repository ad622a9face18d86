// The kernel and the host function that launches it; the request that
// differentiates that function is in another file (launcher-main.cpp).
__global__ void square(double *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] = X[I] * X[I];
}

void step(double *X, int N) { square<<<(N + 31) / 32, 32>>>(X, N); }

#ifdef NAME_LAUNCHER
void *__enzyme_differentiable_launcher_step = (void *)step;
#endif
