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
  /* A cudaLaunchKernelEx launch's attributes (malloc'd), or none. */
  struct cuda_launch_attribute *attrs;
  unsigned num_attrs;
  /* The device the launch ran on, current when it was made. */
  int device;
};

/* The attributes of a cudaLaunchKernelEx launch, from the moment
 * __enzyme_rt_cuda_push_launch pushes its configuration to the moment the
 * kernel's stub (or its derivative) launches: the stub pops the
 * configuration, which has no room for them. One at a time per thread, as
 * a stub pops the configuration it is called with at once. */
struct pending_attributes {
  struct cuda_launch_attribute *attrs;
  unsigned count;
};
__thread struct pending_attributes __enzyme_rt_cuda_pending_attributes;

static struct cuda_launch_attribute *take_attributes(unsigned *count) {
  struct cuda_launch_attribute *attrs =
      __enzyme_rt_cuda_pending_attributes.attrs;
  *count = __enzyme_rt_cuda_pending_attributes.count;
  __enzyme_rt_cuda_pending_attributes.attrs = 0;
  __enzyme_rt_cuda_pending_attributes.count = 0;
  return attrs;
}

/* cudaLaunchKernelEx(CONFIG, kernel, ...) in differentiated host code
 * (Plugin/LaunchGradients.cpp): pushes the configuration as `<<<...>>>`
 * does, and keeps its attributes for the launch of the stub that follows.
 * A configuration that cudaLaunchKernelExC would reject (null, or
 * attributes without an array) pushes an empty grid, which the launch
 * rejects. */
void __enzyme_rt_cuda_push_launch(const struct cuda_launch_config *config) {
  unsigned count;
  free(take_attributes(&count));
  if (!config || (config->num_attrs && !config->attrs)) {
    struct cuda_dim3 none = {0, 0, 0};
    __cudaPushCallConfiguration(none, none, 0, 0);
    return;
  }
  __cudaPushCallConfiguration(config->grid, config->block, config->shared_bytes,
                              config->stream);
  if (!config->num_attrs)
    return;
  size_t bytes = config->num_attrs * sizeof *config->attrs;
  __enzyme_rt_cuda_pending_attributes.attrs = malloc(bytes);
  if (!__enzyme_rt_cuda_pending_attributes.attrs) {
    struct message m;
    m.length = 0;
    append(&m, "enzyme: out of host memory for the attributes of a "
               "cudaLaunchKernelEx launch\n");
    write_and_abort(&m);
  }
  __builtin_memcpy(__enzyme_rt_cuda_pending_attributes.attrs, config->attrs,
                   bytes);
  __enzyme_rt_cuda_pending_attributes.count = config->num_attrs;
}

/* cudaLaunchCooperativeKernel(kernel, GRID, BLOCK, args, SHARED, STREAM)
 * in differentiated host code: the push of a cudaLaunchKernelEx launch
 * with the cooperative attribute. */
void __enzyme_rt_cuda_push_cooperative_launch(struct cuda_dim3 grid,
                                              struct cuda_dim3 block,
                                              size_t shared, void *stream) {
  struct cuda_launch_attribute cooperative = {0};
  cooperative.id = 2; /* cudaLaunchAttributeCooperative */
  int one = 1;
  __builtin_memcpy(cooperative.value, &one, sizeof one);
  struct cuda_launch_config config = {grid,   block,        shared,
                                      stream, &cooperative, 1};
  __enzyme_rt_cuda_push_launch(&config);
}

/* cudaLaunchKernel, or cudaLaunchKernelExC where the launch has
 * attributes. */
static int launch_kernel(const void *kernel, struct cuda_dim3 grid,
                         struct cuda_dim3 block, void **args, size_t shared,
                         void *stream,
                         const struct cuda_launch_attribute *attrs,
                         unsigned count) {
  if (!count)
    return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
  struct cuda_launch_config config = {
      grid, block, shared, stream, (struct cuda_launch_attribute *)attrs,
      count};
  return cudaLaunchKernelExC(&config, kernel, args);
}

/* The launch in the stub of a kernel that differentiated host code
 * launches with cudaLaunchKernelEx: with the attributes of that launch,
 * if it is one. */
int __enzyme_rt_cuda_stub_launch(const void *kernel, struct cuda_dim3 grid,
                                 struct cuda_dim3 block, void **args,
                                 size_t shared, void *stream) {
  unsigned count;
  struct cuda_launch_attribute *attrs = take_attributes(&count);
  int error =
      launch_kernel(kernel, grid, block, args, shared, stream, attrs, count);
  free(attrs);
  return error;
}

/* Keeps, of the COUNT attributes ATTRS, those that say how the reverse
 * kernel runs (clusters, priority, cooperative launch, caching), not those
 * that tie the launch to the program's other work on its stream
 * (programmatic dependent launch, events it records), which happened in
 * the forward pass. Returns how many it kept. */
static unsigned reverse_attributes(struct cuda_launch_attribute *attrs,
                                   unsigned count) {
  unsigned kept = 0;
  for (unsigned i = 0; i < count; ++i) {
    /* cudaLaunchAttributeProgrammaticStreamSerialization,
     * ...ProgrammaticEvent, ...LaunchCompletionEvent,
     * ...DeviceUpdatableKernelNode */
    int id = attrs[i].id;
    if (id == 6 || id == 7 || id == 12 || id == 13)
      continue;
    attrs[kept++] = attrs[i];
  }
  return kept;
}

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

/* The device compilation could not make the derivative kernels of MODE
 * (KernelUnavailable, Core/KernelLaunches.h) and warned why. */
static void check_available(const char *name, const struct kernel_info *info,
                            int forward) {
  if (info->slot_bytes != ~0ull)
    return;
  fail(name,
       forward ? "forward mode cannot differentiate the kernel (the warning "
                 "of its CUDA file's device compilation says why)"
               : "reverse mode cannot differentiate the kernel (the warning "
                 "of its CUDA file's device compilation says why)",
       0);
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
  l->attrs = take_attributes(&l->num_attrs);
  check(cudaGetDevice(&l->device), name, "cannot tell the current device");
  check_shadows(name, info, symbol, shadows, num_params);
  check_available(name, info, /*forward=*/0);
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
  l->shared_bytes =
      derivative_shared_bytes(name, info, l->shared_bytes, &l->shadow_offset);
  if (info->slot_bytes && threads)
    check(device_alloc(&l->tapes, threads * info->slot_bytes, l->stream,
                       &l->synchronous_tapes),
          name, "cannot allocate the tape in device memory");
  args[num_args] = &l->tapes;
  args[num_args + 1] = &l->shadow_offset;
  allow_shared_bytes(kernel, l->shared_bytes, name);
  check(launch_kernel(kernel, l->grid, l->block, args, l->shared_bytes,
                      l->stream, l->attrs, l->num_attrs),
        name, "cannot launch its augmented kernel");
  return l;
}

/* Forward mode: KERNEL is the tangent kernel's host handle, ARGS the
 * kernel's arguments and the tangents of its pointer, floating-point and
 * struct parameters (NUM_ARGS), then room for the offset of the shadows in
 * dynamic shared memory; the rest as for the augmented kernel. The tangent
 * kernel computes the primal too, on the launch's stream, and needs no tape. */
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
  unsigned num_attrs;
  struct cuda_launch_attribute *attrs = take_attributes(&num_attrs);
  check_shadows(name, info, symbol, shadows, num_params);
  check_available(name, info, /*forward=*/1);
  int shadow_offset;
  shared_bytes =
      derivative_shared_bytes(name, info, shared_bytes, &shadow_offset);
  args[num_args] = &shadow_offset;
  allow_shared_bytes(kernel, shared_bytes, name);
  check(launch_kernel(kernel, grid, block, args, shared_bytes, stream, attrs,
                      num_attrs),
        name, "cannot launch its tangent kernel");
  free(attrs);
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
  /* The reverse kernel runs where the kernel ran: the program may have
   * made another device current since (one per GPU, cudaSetDevice). */
  int current = l->device;
  check(cudaGetDevice(&current), name, "cannot tell the current device");
  if (current != l->device)
    check(cudaSetDevice(l->device), name,
          "cannot make the device it ran on current again");
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
  check(launch_kernel(kernel, l->grid, l->block, args, l->shared_bytes, 0,
                      l->attrs, reverse_attributes(l->attrs, l->num_attrs)),
        name, "cannot launch its reverse kernel");
  free(l->attrs);
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
  if (current != l->device)
    check(cudaSetDevice(current), name,
          "cannot make the program's current device current again");
  free(l);
}
