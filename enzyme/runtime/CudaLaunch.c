/*===- CudaLaunch.c - Launching the derivative kernels of a launch --------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * The custom gradient of a kernel's host stub (Plugin/LaunchGradients.cpp)
 * launches the kernel's derivative kernels (Core/KernelLaunches.h) with the
 * functions below: the augmented kernel with the launch's own configuration
 * and a tape buffer of one slot per thread, and later the reverse kernel
 * with the same configuration, which sums the adjoints of by-value
 * parameters into a small buffer copied back to the host. In forward mode,
 * the custom derivative of the stub launches the tangent kernel in the
 * kernel's place. Tapes come from
 * the launch's stream (cudaMallocAsync); the reverse kernels run in order
 * on the default stream, and the host waits only for the adjoints of
 * by-value parameters.
 *
 *===----------------------------------------------------------------------===*/

#include "CudaApi.h"

/* What the device compilation wrote about a kernel's derivative
 * (_enzyme_kernel_info_K), read from the device once. */
struct kernel_info {
  unsigned long long slot_bytes;
  /* Bit I: the derivative uses the shadow of parameter I. */
  unsigned long long used_shadows;
  /* The adjoints of floating-point values that the reverse kernel sums. */
  unsigned long long scalar_adjoints;
  /* The derivative keeps shadows in dynamic shared memory, after the
   * launch's own data. */
  unsigned long long dynamic_shadows;
  int loaded;
};

/* A launch between its two halves. */
struct launch {
  void *tapes;
  struct cuda_dim3 grid, block;
  /* The dynamic shared memory of the derivative kernels, and where in it
   * the shadows start. */
  size_t shared_bytes;
  int shadow_offset;
  void *stream;
  /* The tapes came from cudaMalloc: the device has no stream-ordered
   * allocator. */
  int synchronous_tapes;
};

/* Device memory in the order of STREAM's work (no synchronisation, and
 * pooled), or from cudaMalloc where the device has no memory pools. */
static int device_alloc(void **p, size_t n, void *stream, int *synchronous) {
  *synchronous = 0;
  if (!cudaMallocAsync(p, n, stream))
    return 0;
  cudaGetLastError();
  *synchronous = 1;
  return cudaMalloc(p, n);
}

static void device_free(void *p, void *stream, int synchronous) {
  if (p)
    synchronous ? cudaFree(p) : cudaFreeAsync(p, stream);
}

__attribute__((noreturn, cold)) static void fail(const char *kernel,
                                                 const char *what, int error) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: the derivative of the launch of kernel '");
  append(&m, kernel);
  append(&m, "': ");
  append(&m, what);
  append_cuda_error(&m, error);
  append(&m, "\n");
  write_and_abort(&m);
}

static void check(int error, const char *kernel, const char *what) {
  if (error)
    fail(kernel, what, error);
}

/* Lets KERNEL, a derivative kernel, launch with BYTES of dynamic shared
 * memory: beyond the 48 KiB any kernel may have, a kernel must opt in (as
 * the program did for its own kernel, or the shadows doubled it). */
static void allow_shared_bytes(const void *kernel, size_t bytes,
                               const char *name) {
  /* cudaFuncAttributeMaxDynamicSharedMemorySize */
  if (bytes > 48 * 1024)
    check(cudaFuncSetAttribute(kernel, 8, (int)bytes), name,
          "cannot give its derivative kernels the dynamic shared memory they "
          "need (the launch's, doubled for the shadows of extern __shared__ "
          "arrays)");
}

/* The dynamic shared memory a derivative kernel of a launch with SHARED
 * bytes runs with, and (in *OFFSET) where its shadows start: after the
 * launch's data, rounded up to 16, as much again. */
static size_t derivative_shared_bytes(const char *name,
                                      const struct kernel_info *info,
                                      size_t shared, int *offset) {
  *offset = 0;
  if (!info->dynamic_shadows)
    return shared;
  size_t rounded = (shared + 15) & ~(size_t)15;
  if (rounded > 0x3fffffff)
    fail(name, "its dynamic shared memory is too large", 0);
  *offset = (int)rounded;
  return 2 * rounded;
}

/* Reads what the device compilation wrote about NAME's derivative (through
 * SYMBOL, into INFO) once, and stops the program if it needs the shadow of
 * a parameter for which SHADOWS (NUM_PARAMS, one per parameter) has none. */
static void check_shadows(const char *name, struct kernel_info *info,
                          const void *symbol, void *const *shadows,
                          unsigned num_params) {
  if (!__atomic_load_n(&info->loaded, __ATOMIC_ACQUIRE)) {
    unsigned long long words[4];
    check(cudaMemcpyFromSymbol(words, symbol, sizeof words, 0,
                               cuda_memcpy_device_to_host),
          name, "cannot read what its derivative needs from the device");
    info->slot_bytes = words[0];
    info->used_shadows = words[1];
    info->scalar_adjoints = words[2];
    info->dynamic_shadows = words[3];
    __atomic_store_n(&info->loaded, 1, __ATOMIC_RELEASE);
  }
  for (unsigned i = 0; i < num_params && i < 64; ++i)
    if (!shadows[i] && (info->used_shadows >> i & 1)) {
      struct message m;
      m.length = 0;
      append(&m, "enzyme: the derivative of the launch of kernel '");
      append(&m, name);
      append(&m, "' needs the shadow of its parameter ");
      append_number(&m, i + 1);
      append(&m, ", but the differentiated host code has none for it (a "
                 "constant or inactive pointer); pass it with a shadow "
                 "(enzyme_dup), see docs/cuda.md\n");
      write_and_abort(&m);
    }
}

/* KERNEL: the augmented kernel's host handle; NAME: the kernel as the user
 * wrote it; INFO and SYMBOL: the host's copy of the kernel's info and the
 * handle of its device variable; ARGS: pointers to the kernel's arguments
 * and the shadows of its pointer and struct parameters (NUM_ARGS), then
 * room for the tape buffer and the offset of the shadows in dynamic shared
 * memory; SHADOWS: per parameter, its shadow or null;
 * NUM_ADJOINTS: the sums of floating-point values the host expects from
 * the reverse kernel. Pops the configuration that the launch pushed, as
 * the kernel's stub would. */
void *__enzyme_rt_cuda_augment_launch(const void *kernel, const char *name,
                                      struct kernel_info *info,
                                      const void *symbol, void **args,
                                      unsigned num_args, void *const *shadows,
                                      unsigned num_params,
                                      unsigned num_adjoints) {
  struct launch *l = malloc(sizeof *l);
  if (!l)
    fail(name, "out of host memory", 0);
  check(__cudaPopCallConfiguration(&l->grid, &l->block, &l->shared_bytes,
                                   &l->stream),
        name, "the launch has no configuration");
  check_shadows(name, info, symbol, shadows, num_params);
  /* The host and device compilations laid the kernel's structs out
   * differently: their adjoints would land on the wrong fields. */
  if (info->scalar_adjoints != num_adjoints)
    fail(name,
         "its host and device code disagree on the float and double values "
         "of its parameters (a struct passed by value whose layout differs "
         "between them); pass the struct through a pointer",
         0);
  unsigned long long threads = (unsigned long long)l->grid.x * l->grid.y *
                               l->grid.z * l->block.x * l->block.y * l->block.z;
  l->tapes = 0;
  l->synchronous_tapes = 0;
  l->shared_bytes = derivative_shared_bytes(name, info, l->shared_bytes,
                                            &l->shadow_offset);
  if (info->slot_bytes && threads)
    check(device_alloc(&l->tapes, threads * info->slot_bytes, l->stream,
                       &l->synchronous_tapes),
          name, "cannot allocate the tape in device memory");
  args[num_args] = &l->tapes;
  args[num_args + 1] = &l->shadow_offset;
  allow_shared_bytes(kernel, l->shared_bytes, name);
  check(cudaLaunchKernel(kernel, l->grid, l->block, args, l->shared_bytes,
                         l->stream),
        name, "cannot launch its augmented kernel");
  return l;
}

/* Forward mode: KERNEL is the tangent kernel's host handle, ARGS the
 * kernel's arguments and the tangents of its pointer, floating-point and
 * struct parameters (NUM_ARGS), then room for the offset of the shadows in
 * dynamic shared memory; the rest as for the augmented kernel. The tangent kernel
 * computes the primal too, on the launch's stream, and needs no tape. */
void __enzyme_rt_cuda_tangent_launch(const void *kernel, const char *name,
                                     struct kernel_info *info,
                                     const void *symbol, void **args,
                                     unsigned num_args, void *const *shadows,
                                     unsigned num_params) {
  struct cuda_dim3 grid, block;
  size_t shared_bytes;
  void *stream;
  check(__cudaPopCallConfiguration(&grid, &block, &shared_bytes, &stream), name,
        "the launch has no configuration");
  check_shadows(name, info, symbol, shadows, num_params);
  /* TangentKernelUnavailable (Core/KernelLaunches.h). */
  if (info->slot_bytes == ~0ull)
    fail(name,
         "forward mode cannot differentiate the kernel (the warning of its "
         "CUDA file's device compilation says why); only reverse mode can "
         "differentiate its launches",
         0);
  int shadow_offset;
  shared_bytes =
      derivative_shared_bytes(name, info, shared_bytes, &shadow_offset);
  args[num_args] = &shadow_offset;
  allow_shared_bytes(kernel, shared_bytes, name);
  check(cudaLaunchKernel(kernel, grid, block, args, shared_bytes, stream), name,
        "cannot launch its tangent kernel");
}

/* KERNEL: the reverse kernel's host handle; ARGS: as for the augmented
 * kernel, with room for three more (the adjoints' buffer, the tapes and the
 * offset of the shadows in dynamic shared memory);
 * ADJOINTS: NUM_ADJOINTS doubles, which receive the adjoints of the
 * kernel's float and double parameters, each summed on the device in
 * REPLICAS slots (Core/KernelLaunches.h). */
void __enzyme_rt_cuda_reverse_launch(const void *kernel, const char *name,
                                     struct launch *l, void **args,
                                     unsigned num_args, double *adjoints,
                                     unsigned num_adjoints, unsigned replicas) {
  double *device_adjoints = 0;
  int synchronous_adjoints = 0;
  size_t slots = (size_t)num_adjoints * replicas;
  size_t adjoint_bytes = slots * sizeof(double);
  if (num_adjoints) {
    check(device_alloc((void **)&device_adjoints, adjoint_bytes, 0,
                       &synchronous_adjoints),
          name, "cannot allocate the adjoints of its parameters");
    check(cudaMemsetAsync(device_adjoints, 0, adjoint_bytes, 0), name,
          "cannot clear the adjoints of its parameters");
  }
  args[num_args] = &device_adjoints;
  args[num_args + 1] = &l->tapes;
  args[num_args + 2] = &l->shadow_offset;
  // The reverse pass runs the reverse kernels one after the other on the
  // default stream: the program's own synchronisation between streams is
  // not mirrored, and its streams may be gone. The augmented kernel ran on
  // the launch's stream, which the default stream may not wait for.
  if (l->stream)
    check(cudaDeviceSynchronize(), name, "its augmented kernel failed");
  allow_shared_bytes(kernel, l->shared_bytes, name);
  check(cudaLaunchKernel(kernel, l->grid, l->block, args, l->shared_bytes, 0),
        name, "cannot launch its reverse kernel");
  // Only the adjoints of by-value parameters make the host wait.
  if (num_adjoints) {
    double *sums = malloc(adjoint_bytes);
    if (!sums)
      fail(name, "out of host memory", 0);
    check(cudaMemcpyAsync(sums, device_adjoints, adjoint_bytes,
                          cuda_memcpy_device_to_host, 0),
          name, "cannot read the adjoints of its parameters");
    check(cudaStreamSynchronize(0), name, "its reverse kernel failed");
    for (unsigned i = 0; i < num_adjoints; ++i) {
      adjoints[i] = 0;
      for (unsigned r = 0; r < replicas; ++r)
        adjoints[i] += sums[(size_t)i * replicas + r];
    }
    free(sums);
    device_free(device_adjoints, 0, synchronous_adjoints);
  }
  device_free(l->tapes, 0, l->synchronous_tapes);
  free(l);
}
