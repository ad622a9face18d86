/*===- CudaApi.h - The CUDA runtime as the run-time's CUDA support calls it ===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * The CUDA runtime functions that CudaLaunch.c, CudaMemory.c and
 * CudaCopies.c call, declared as the program's CUDA runtime (or the
 * emulator) defines them: the run-time is compiled without the toolkit's
 * headers.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ENZYME_RUNTIME_CUDAAPI_H
#define ENZYME_RUNTIME_CUDAAPI_H

#include "Message.h"

struct cuda_dim3 {
  unsigned x, y, z;
};

enum {
  cuda_memcpy_host_to_device = 1,
  cuda_memcpy_device_to_host = 2,
  /* The runtime tells host from device memory. */
  cuda_memcpy_default = 4
};

/* The 3D calls' structs, laid out as the toolkit's cudaPitchedPtr,
 * cudaExtent, cudaPos and cudaMemcpy3DParms. */
struct cuda_pitched_ptr {
  void *ptr;
  size_t pitch, xsize, ysize;
};
struct cuda_extent {
  size_t width, height, depth;
};
struct cuda_pos {
  size_t x, y, z;
};
struct cuda_memcpy_3d_parms {
  void *src_array;
  struct cuda_pos src_pos;
  struct cuda_pitched_ptr src_ptr;
  void *dst_array;
  struct cuda_pos dst_pos;
  struct cuda_pitched_ptr dst_ptr;
  struct cuda_extent extent;
  int kind;
};

/* A launch attribute and the configuration of cudaLaunchKernelEx, laid
 * out as the toolkit's cudaLaunchAttribute and cudaLaunchConfig_t. */
struct cuda_launch_attribute {
  int id;
  int pad;
  unsigned char value[64];
};
struct cuda_launch_config {
  struct cuda_dim3 grid, block;
  size_t shared_bytes;
  void *stream;
  struct cuda_launch_attribute *attrs;
  unsigned num_attrs;
};

unsigned __cudaPushCallConfiguration(struct cuda_dim3, struct cuda_dim3, size_t,
                                     void *);
int __cudaPopCallConfiguration(struct cuda_dim3 *, struct cuda_dim3 *, size_t *,
                               void *);
int cudaLaunchKernelExC(const struct cuda_launch_config *, const void *,
                        void **);
int cudaFuncSetAttribute(const void *, int, int);
int cudaLaunchKernel(const void *, struct cuda_dim3, struct cuda_dim3, void **,
                     size_t, void *);
int cudaMalloc(void **, size_t);
int cudaMallocAsync(void **, size_t, void *);
int cudaMallocManaged(void **, size_t, unsigned);
int cudaMallocPitch(void **, size_t *, size_t, size_t);
int cudaHostAlloc(void **, size_t, unsigned);
int cudaFree(void *);
int cudaFreeHost(void *);
int cudaFreeAsync(void *, void *);
int cudaMemset(void *, int, size_t);
int cudaMemsetAsync(void *, int, size_t, void *);
int cudaMemset2D(void *, size_t, int, size_t, size_t);
int cudaMemset2DAsync(void *, size_t, int, size_t, size_t, void *);
int cudaMemcpy(void *, const void *, size_t, int);
int cudaMemcpyAsync(void *, const void *, size_t, int, void *);
int cudaMemcpyPeer(void *, int, const void *, int, size_t);
int cudaMemcpyPeerAsync(void *, int, const void *, int, size_t, void *);
int cudaMemcpyFromSymbol(void *, const void *, size_t, size_t, int);
int cudaGetSymbolAddress(void **, const void *);
int cudaMemcpyToSymbol(const void *, const void *, size_t, size_t, int);
int cudaMemcpyToSymbolAsync(const void *, const void *, size_t, size_t, int,
                            void *);
int cudaMemcpyFromSymbolAsync(void *, const void *, size_t, size_t, int,
                              void *);
int cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, int);
int cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t, int,
                      void *);
int cudaMalloc3D(struct cuda_pitched_ptr *, struct cuda_extent);
int cudaMemset3D(struct cuda_pitched_ptr, int, struct cuda_extent);
int cudaMemset3DAsync(struct cuda_pitched_ptr, int, struct cuda_extent, void *);
int cudaMemcpy3D(const struct cuda_memcpy_3d_parms *);
int cudaMemcpy3DAsync(const struct cuda_memcpy_3d_parms *, void *);
int cudaGetDevice(int *);
int cudaSetDevice(int);
int cudaStreamSynchronize(void *);
int cudaDeviceSynchronize(void);
int cudaGetLastError(void);
const char *cudaGetErrorString(int);
void *malloc(size_t);
void free(void *);

/* ": <the runtime's description of ERROR>", unless ERROR is cudaSuccess. */
static inline __attribute__((always_inline)) void
append_cuda_error(struct message *m, int error) {
  if (!error)
    return;
  append(m, ": ");
  append(m, cudaGetErrorString(error));
}

#endif /* ENZYME_RUNTIME_CUDAAPI_H */
