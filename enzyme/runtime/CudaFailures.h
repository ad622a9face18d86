/*===- CudaFailures.h - How the CUDA runtime's derivatives stop -*- C -*-===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * What CudaMemory.c and CudaCopies.c share: stopping the program with the
 * CUDA runtime's error where a derivative cannot go on, and waiting for the
 * kernels before a reverse step. Each file keeps its own copies (the
 * run-time is linked function by function).
 *
 *===----------------------------------------------------------------------===*/

#ifndef ENZYME_RUNTIME_CUDAFAILURES_H
#define ENZYME_RUNTIME_CUDAFAILURES_H

#include "CudaApi.h"

/* Stops the program: CALL's derivative could not do WHAT (the runtime's
 * ERROR, if any). */
__attribute__((noreturn, cold)) static inline void
fail_in(const char *call, const char *what, int error) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: in the derivative of ");
  append(&m, call);
  append(&m, ": ");
  append(&m, what);
  append_cuda_error(&m, error);
  append(&m, "\n");
  write_and_abort(&m);
}

/* The reverse kernels before may run on a stream that does not wait for
 * the legacy default stream's copies (cudaStreamNonBlocking): wait for
 * every stream first. */
static inline void wait_for_device(const char *call) {
  int error = cudaDeviceSynchronize();
  if (error)
    fail_in(call, "a kernel before it failed", error);
}

/* Forward mode: the result of CALL (ERROR), after clearing its shadow
 * returned SHADOW_ERROR. */
static inline int clear_shadow(const char *call, int error, int shadow_error) {
  if (!error && shadow_error)
    fail_in(call, "cannot clear the shadow", shadow_error);
  return error;
}

#endif /* ENZYME_RUNTIME_CUDAFAILURES_H */
