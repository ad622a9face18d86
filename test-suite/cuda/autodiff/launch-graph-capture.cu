// A CUDA graph in differentiated host code: the kernels that stream
// capture records run when the graph is launched, not where the capture
// launches them. Before, the error was the generic one for a call without
// a definition, whose advice (mark cudaStreamBeginCapture inactive) would
// have made the derivative wrong without a word; now it says what cannot
// be followed and what to do, in reverse and forward mode.
// REQUIRES: cuda-emulation
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t 2>&1 | FileCheck %s
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DFORWARD %s -o %t 2>&1 | FileCheck %s
// CHECK: error: {{.*}}cannot differentiate the call of 'cudaStreamBeginCapture': the kernels a CUDA graph captures run when the graph is launched, which the derivative cannot follow; launch the kernels directly in the differentiated code, or capture and launch the graph outside it (the operation is at {{.*}}launch-graph-capture.cu:[[@LINE+14]]:3)
// CHECK-NOT: mark it inactive
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

__global__ void square(const double *X, double *Y) {
  Y[threadIdx.x] = X[threadIdx.x] * X[threadIdx.x];
}

double sum(const double *X, int N) {
  double *DX, *DY, Y[32], S = 0;
  cudaStream_t Stream;
  cudaStreamCreate(&Stream);
  cudaStreamBeginCapture(Stream, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(DX, X, N * sizeof(double), cudaMemcpyHostToDevice, Stream);
  square<<<1, N, 0, Stream>>>(DX, DY);
  cudaGraph_t Graph;
  cudaStreamEndCapture(Stream, &Graph);
  cudaGraphExec_t Exec;
  cudaGraphInstantiate(&Exec, Graph, 0);
  cudaGraphLaunch(Exec, Stream);
  cudaMemcpyAsync(Y, DY, N * sizeof(double), cudaMemcpyDeviceToHost, Stream);
  cudaStreamSynchronize(Stream);
  for (int I = 0; I < N; ++I)
    S += Y[I];
  return S;
}

int main() {
  double X[4] = {1, 2, 3, 4}, D[4] = {};
#ifdef FORWARD
  return __enzyme_fwddiff((void *)sum, enzyme_dup, X, D, enzyme_const, 4) > 0;
#else
  __enzyme_autodiff((void *)sum, enzyme_dup, X, D, enzyme_const, 4);
  return D[0] > 0;
#endif
}
