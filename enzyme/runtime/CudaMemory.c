/*===- CudaMemory.c - Derivatives of CUDA's allocations and memsets -----===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * Host code that the engine differentiates may allocate, copy, clear and
 * free device memory with the CUDA runtime (Plugin/CudaRuntimeCalls.cpp).
 * Each call gets a custom gradient written here, in the ABI of
 * __enzyme_register_gradient (each pointer followed by its shadow, null
 * where the call carries no derivative through it):
 *
 *   cudaMalloc, cudaMallocManaged,  the shadow is a zeroed block of the
 *   cudaMallocAsync, cudaMallocHost same kind and size;
 *   cudaHostAlloc
 *   cudaMallocPitch, cudaMalloc3D   the same, with the primal's pitch;
 *   cudaFree, cudaFreeHost,         the blocks are freed by the reverse
 *   cudaFreeAsync                   of their allocation, after the reverse
 *                                   of their uses;
 *   cudaGetSymbolAddress            the address of the variable's shadow;
 *   cudaMemset, cudaMemsetAsync     the reverse pass clears the adjoints
 *   (their 2D and 3D forms too)     of the bytes it overwrote.
 *
 * The copies are CudaCopies.c's. These functions are differentiated only
 * through their registrations, never looked into.
 *
 * Forward mode (__enzyme_register_derivative's ABI, each call's `_forward`
 * function, which returns the call's result): an allocation gets a zeroed
 * shadow of the same kind and size, a free frees the shadow too, and a
 * memset clears the shadow's bytes.
 *
 *===----------------------------------------------------------------------===*/

#include "CudaFailures.h"

/* The allocations (cudaMalloc, cudaMallocManaged, cudaMallocPitch,
 * cudaMallocAsync; pinned host memory: cudaMallocHost, cudaHostAlloc) and
 * their frees. The reverse pass runs the reverse of a block's uses after
 * the reverse of its free and before the reverse of its allocation: the
 * blocks live until then. An allocation's record (its tape) says whether
 * the program freed the block; the reverse of the allocation frees the
 * shadow, and the block if the program did. A block allocated outside the
 * differentiated code is freed as the program says (its shadow is the
 * caller's). */

/* How a block and its shadow are allocated: device memory, managed or
 * pinned host memory with FLAGS, or device memory ordered on STREAM. */
enum allocator { device_memory, managed_memory, host_memory, stream_memory };
struct allocation_kind {
  enum allocator allocator;
  unsigned flags;
  void *stream;
};
static const struct allocation_kind on_device = {device_memory, 0, 0};

static int allocate(struct allocation_kind kind, void **p, size_t bytes) {
  switch (kind.allocator) {
  case managed_memory:
    return cudaMallocManaged(p, bytes, kind.flags);
  case host_memory:
    return cudaHostAlloc(p, bytes, kind.flags);
  case stream_memory:
    return cudaMallocAsync(p, bytes, kind.stream);
  default:
    return cudaMalloc(p, bytes);
  }
}
static int clear(struct allocation_kind kind, void *p, size_t bytes) {
  if (kind.allocator == host_memory) {
    for (size_t i = 0; i < bytes; ++i)
      ((char *)p)[i] = 0;
    return 0;
  }
  return kind.allocator == stream_memory
             ? cudaMemsetAsync(p, 0, bytes, kind.stream)
             : cudaMemset(p, 0, bytes);
}
static int release_memory(int host, void *p) {
  return host ? cudaFreeHost(p) : cudaFree(p);
}

struct block {
  void *primal, *shadow;
  int freed, host;
  struct block *next;
};

/* The blocks allocated by differentiated code, not yet reversed. Not
 * static: the engine links each rule on its own, and each link would bring
 * a list of its own (external names are kept once). */
struct block *__enzyme_rt_cuda_blocks;
int __enzyme_rt_cuda_blocks_lock;

static void lock(void) {
  while (
      __atomic_exchange_n(&__enzyme_rt_cuda_blocks_lock, 1, __ATOMIC_ACQUIRE))
    ;
}
static void unlock(void) {
  __atomic_store_n(&__enzyme_rt_cuda_blocks_lock, 0, __ATOMIC_RELEASE);
}

struct allocation {
  struct block *tape;
  int result;
};

static struct allocation record(void *primal, void *shadow, int host,
                                int result) {
  struct allocation a = {0, result};
  if (result)
    return a;
  a.tape = malloc(sizeof *a.tape);
  if (!a.tape)
    fail_in("cudaMalloc", "out of host memory", 0);
  a.tape->primal = primal;
  a.tape->shadow = shadow;
  a.tape->freed = 0;
  a.tape->host = host;
  lock();
  a.tape->next = __enzyme_rt_cuda_blocks;
  __enzyme_rt_cuda_blocks = a.tape;
  unlock();
  return a;
}

static void release(struct block *b) {
  if (!b)
    return;
  lock();
  for (struct block **at = &__enzyme_rt_cuda_blocks; *at; at = &(*at)->next)
    if (*at == b) {
      *at = b->next;
      break;
    }
  unlock();
  if (b->shadow)
    release_memory(b->host, b->shadow);
  if (b->freed)
    release_memory(b->host, b->primal);
  free(b);
}

/* After an allocation by CALL that returned ERROR: a zeroed shadow of
 * BYTES bytes of KIND in *DP, where the call has one. */
static void with_shadow_only(const char *call, int error, void **dp,
                             size_t bytes, struct allocation_kind kind) {
  if (!error && dp &&
      ((error = allocate(kind, dp, bytes)) ||
       (error = clear(kind, *dp, bytes))))
    fail_in(call, "cannot allocate the shadow", error);
}

/* The same after the program's allocation of *P, and the record of both. */
static struct allocation with_shadow(const char *call, int error, void **p,
                                     void **dp, size_t bytes,
                                     struct allocation_kind kind) {
  with_shadow_only(call, error, dp, bytes, kind);
  return record(error ? 0 : *p, !error && dp ? *dp : 0,
                kind.allocator == host_memory, error);
}

/* The program's allocation of N bytes of KIND by CALL, with the shadow's
 * (forward mode: the shadow lives as long as the block, which the program
 * frees; the free's forward frees both). */
static struct allocation allocate_both(const char *call, void **p, void **dp,
                                       size_t n, struct allocation_kind kind) {
  return with_shadow(call, allocate(kind, p, n), p, dp, n, kind);
}
static int allocate_both_forward(const char *call, void **p, void **dp,
                                 size_t n, struct allocation_kind kind) {
  int error = allocate(kind, p, n);
  with_shadow_only(call, error, dp, n, kind);
  return error;
}

struct allocation __enzyme_rt_cuda_malloc_augment(void **p, void **dp,
                                                  size_t n) {
  return allocate_both("cudaMalloc", p, dp, n, on_device);
}
void __enzyme_rt_cuda_malloc_reverse(void **p, void **dp, size_t n,
                                     struct block *tape) {
  (void)p, (void)dp, (void)n;
  release(tape);
}
int __enzyme_rt_cuda_malloc_forward(void **p, void **dp, size_t n) {
  return allocate_both_forward("cudaMalloc", p, dp, n, on_device);
}

static struct allocation_kind managed(unsigned flags) {
  struct allocation_kind kind = {managed_memory, flags, 0};
  return kind;
}
struct allocation __enzyme_rt_cuda_malloc_managed_augment(void **p, void **dp,
                                                          size_t n,
                                                          unsigned flags) {
  return allocate_both("cudaMallocManaged", p, dp, n, managed(flags));
}
void __enzyme_rt_cuda_malloc_managed_reverse(void **p, void **dp, size_t n,
                                             unsigned flags,
                                             struct block *tape) {
  (void)p, (void)dp, (void)n, (void)flags;
  release(tape);
}
int __enzyme_rt_cuda_malloc_managed_forward(void **p, void **dp, size_t n,
                                            unsigned flags) {
  return allocate_both_forward("cudaMallocManaged", p, dp, n, managed(flags));
}

/* cudaMallocHost and cudaHostAlloc: pinned host memory, the shadow too
 * (with the program's flags: a mapped block's shadow is mapped). */
static struct allocation_kind pinned(unsigned flags) {
  struct allocation_kind kind = {host_memory, flags, 0};
  return kind;
}
struct allocation __enzyme_rt_cuda_malloc_host_augment(void **p, void **dp,
                                                       size_t n) {
  return allocate_both("cudaMallocHost", p, dp, n, pinned(0));
}
void __enzyme_rt_cuda_malloc_host_reverse(void **p, void **dp, size_t n,
                                          struct block *tape) {
  (void)p, (void)dp, (void)n;
  release(tape);
}
int __enzyme_rt_cuda_malloc_host_forward(void **p, void **dp, size_t n) {
  return allocate_both_forward("cudaMallocHost", p, dp, n, pinned(0));
}
struct allocation __enzyme_rt_cuda_host_alloc_augment(void **p, void **dp,
                                                      size_t n,
                                                      unsigned flags) {
  return allocate_both("cudaHostAlloc", p, dp, n, pinned(flags));
}
void __enzyme_rt_cuda_host_alloc_reverse(void **p, void **dp, size_t n,
                                         unsigned flags, struct block *tape) {
  (void)p, (void)dp, (void)n, (void)flags;
  release(tape);
}
int __enzyme_rt_cuda_host_alloc_forward(void **p, void **dp, size_t n,
                                        unsigned flags) {
  return allocate_both_forward("cudaHostAlloc", p, dp, n, pinned(flags));
}

/* cudaMallocAsync: the shadow is allocated and cleared on the program's
 * stream (a pointer: the ABI gives it a shadow, null). */
static struct allocation_kind ordered_on(void *stream) {
  struct allocation_kind kind = {stream_memory, 0, stream};
  return kind;
}
struct allocation __enzyme_rt_cuda_malloc_async_augment(void **p, void **dp,
                                                        size_t n, void *stream,
                                                        void *dstream) {
  (void)dstream;
  return allocate_both("cudaMallocAsync", p, dp, n, ordered_on(stream));
}
void __enzyme_rt_cuda_malloc_async_reverse(void **p, void **dp, size_t n,
                                           void *stream, void *dstream,
                                           struct block *tape) {
  (void)p, (void)dp, (void)n, (void)stream, (void)dstream;
  release(tape);
}
int __enzyme_rt_cuda_malloc_async_forward(void **p, void **dp, size_t n,
                                          void *stream, void *dstream) {
  (void)dstream;
  return allocate_both_forward("cudaMallocAsync", p, dp, n, ordered_on(stream));
}

/* cudaMallocPitch: the shadow has the primal's pitch, so that one pitch
 * serves both in every 2D copy. The pitch is an integer: its shadow (the
 * ABI gives the pointer one) is null or unused. */
struct allocation __enzyme_rt_cuda_malloc_pitch_augment(void **p, void **dp,
                                                        size_t *pitch,
                                                        size_t *dpitch,
                                                        size_t width,
                                                        size_t height) {
  (void)dpitch;
  int error = cudaMallocPitch(p, pitch, width, height);
  return with_shadow("cudaMallocPitch", error, p, dp,
                     error ? 0 : *pitch * height, on_device);
}
void __enzyme_rt_cuda_malloc_pitch_reverse(void **p, void **dp, size_t *pitch,
                                           size_t *dpitch, size_t width,
                                           size_t height, struct block *tape) {
  (void)p, (void)dp, (void)pitch, (void)dpitch, (void)width, (void)height;
  release(tape);
}
int __enzyme_rt_cuda_malloc_pitch_forward(void **p, void **dp, size_t *pitch,
                                          size_t *dpitch, size_t width,
                                          size_t height) {
  (void)dpitch;
  int error = cudaMallocPitch(p, pitch, width, height);
  with_shadow_only("cudaMallocPitch", error, dp, error ? 0 : *pitch * height,
                   on_device);
  return error;
}

/* The frees: a block that differentiated code allocated is only marked
 * freed (its allocation's reverse frees it); any other is freed now. */
static int mark_freed(void *p) {
  lock();
  struct block *b = __enzyme_rt_cuda_blocks;
  while (b && b->primal != p)
    b = b->next;
  if (b)
    b->freed = 1;
  unlock();
  return b != 0;
}

int __enzyme_rt_cuda_free_augment(void *p, void *dp) {
  (void)dp;
  return !p || mark_freed(p) ? 0 : cudaFree(p);
}
void __enzyme_rt_cuda_free_reverse(void *p, void *dp) { (void)p, (void)dp; }
int __enzyme_rt_cuda_free_forward(void *p, void *dp) {
  if (dp && dp != p)
    cudaFree(dp);
  return cudaFree(p);
}

int __enzyme_rt_cuda_free_host_augment(void *p, void *dp) {
  (void)dp;
  return !p || mark_freed(p) ? 0 : cudaFreeHost(p);
}
void __enzyme_rt_cuda_free_host_reverse(void *p, void *dp) {
  (void)p, (void)dp;
}
int __enzyme_rt_cuda_free_host_forward(void *p, void *dp) {
  if (dp && dp != p)
    cudaFreeHost(dp);
  return cudaFreeHost(p);
}

int __enzyme_rt_cuda_free_async_augment(void *p, void *dp, void *stream,
                                        void *dstream) {
  (void)dp, (void)dstream;
  return !p || mark_freed(p) ? 0 : cudaFreeAsync(p, stream);
}
void __enzyme_rt_cuda_free_async_reverse(void *p, void *dp, void *stream,
                                         void *dstream) {
  (void)p, (void)dp, (void)stream, (void)dstream;
}
int __enzyme_rt_cuda_free_async_forward(void *p, void *dp, void *stream,
                                        void *dstream) {
  (void)dstream;
  if (dp && dp != p)
    cudaFreeAsync(dp, stream);
  return cudaFreeAsync(p, stream);
}

/* cudaGetSymbolAddress: the device address of a __device__ variable's
 * shadow (the one the program declares, whose host handle the engine
 * passes) is the address's shadow. */
static int symbol_address(void **p, void **dp, const void *symbol,
                          const void *dsymbol) {
  int error = cudaGetSymbolAddress(p, symbol);
  if (!error && dp) {
    int shadow_error = dsymbol ? cudaGetSymbolAddress(dp, dsymbol) : 0;
    if (shadow_error)
      fail_in("cudaGetSymbolAddress",
              "cannot find the device address of the variable's shadow",
              shadow_error);
    if (!dsymbol)
      *dp = 0;
  }
  return error;
}
int __enzyme_rt_cuda_get_symbol_address_augment(void **p, void **dp,
                                                const void *symbol,
                                                const void *dsymbol) {
  return symbol_address(p, dp, symbol, dsymbol);
}
void __enzyme_rt_cuda_get_symbol_address_reverse(void **p, void **dp,
                                                 const void *symbol,
                                                 const void *dsymbol) {
  (void)p, (void)dp, (void)symbol, (void)dsymbol;
}
int __enzyme_rt_cuda_get_symbol_address_forward(void **p, void **dp,
                                                const void *symbol,
                                                const void *dsymbol) {
  return symbol_address(p, dp, symbol, dsymbol);
}

/* cudaMemset: the bytes it wrote take no derivative from before. */

int __enzyme_rt_cuda_memset_augment(void *p, void *dp, int value, size_t n) {
  (void)dp;
  return cudaMemset(p, value, n);
}

void __enzyme_rt_cuda_memset_reverse(void *p, void *dp, int value, size_t n) {
  (void)p, (void)value;
  int error;
  if (!dp)
    return;
  wait_for_device("cudaMemset");
  if ((error = cudaMemset(dp, 0, n)))
    fail_in("cudaMemset", "cannot clear the adjoints it overwrote", error);
}

/* cudaMemsetAsync: the same, the forward copy on the program's stream. */

/* The stream is a pointer: the ABI gives it a shadow too (null). */
int __enzyme_rt_cuda_memset_async_augment(void *p, void *dp, int value,
                                          size_t n, void *stream,
                                          void *dstream) {
  (void)dp, (void)dstream;
  return cudaMemsetAsync(p, value, n, stream);
}
void __enzyme_rt_cuda_memset_async_reverse(void *p, void *dp, int value,
                                           size_t n, void *stream,
                                           void *dstream) {
  (void)stream, (void)dstream;
  __enzyme_rt_cuda_memset_reverse(p, dp, value, n);
}

/* cudaMemset2D and cudaMemset2DAsync: HEIGHT rows of WIDTH bytes, PITCH
 * bytes apart; the reverse clears the same rows of the shadow. */

int __enzyme_rt_cuda_memset_2d_augment(void *p, void *dp, size_t pitch,
                                       int value, size_t width, size_t height) {
  (void)dp;
  return cudaMemset2D(p, pitch, value, width, height);
}
void __enzyme_rt_cuda_memset_2d_reverse(void *p, void *dp, size_t pitch,
                                        int value, size_t width,
                                        size_t height) {
  (void)p, (void)value;
  int error;
  if (!dp)
    return;
  wait_for_device("cudaMemset2D");
  if ((error = cudaMemset2D(dp, pitch, 0, width, height)))
    fail_in("cudaMemset2D", "cannot clear the adjoints it overwrote", error);
}

int __enzyme_rt_cuda_memset_2d_async_augment(void *p, void *dp, size_t pitch,
                                             int value, size_t width,
                                             size_t height, void *stream,
                                             void *dstream) {
  (void)dp, (void)dstream;
  return cudaMemset2DAsync(p, pitch, value, width, height, stream);
}
void __enzyme_rt_cuda_memset_2d_async_reverse(void *p, void *dp, size_t pitch,
                                              int value, size_t width,
                                              size_t height, void *stream,
                                              void *dstream) {
  (void)stream, (void)dstream;
  __enzyme_rt_cuda_memset_2d_reverse(p, dp, pitch, value, width, height);
}

/* Forward mode: the bytes a memset writes have no tangent. */

int __enzyme_rt_cuda_memset_forward(void *p, void *dp, int value, size_t n) {
  int error = cudaMemset(p, value, n);
  return clear_shadow("cudaMemset", error,
                      !error && dp ? cudaMemset(dp, 0, n) : 0);
}
int __enzyme_rt_cuda_memset_async_forward(void *p, void *dp, int value,
                                          size_t n, void *stream,
                                          void *dstream) {
  (void)dstream;
  int error = cudaMemsetAsync(p, value, n, stream);
  return clear_shadow("cudaMemsetAsync", error,
                      !error && dp ? cudaMemsetAsync(dp, 0, n, stream) : 0);
}
int __enzyme_rt_cuda_memset_2d_forward(void *p, void *dp, size_t pitch,
                                       int value, size_t width, size_t height) {
  int error = cudaMemset2D(p, pitch, value, width, height);
  return clear_shadow("cudaMemset2D", error,
                      !error && dp ? cudaMemset2D(dp, pitch, 0, width, height)
                                   : 0);
}
int __enzyme_rt_cuda_memset_2d_async_forward(void *p, void *dp, size_t pitch,
                                             int value, size_t width,
                                             size_t height, void *stream,
                                             void *dstream) {
  (void)dstream;
  int error = cudaMemset2DAsync(p, pitch, value, width, height, stream);
  return clear_shadow(
      "cudaMemset2DAsync", error,
      !error && dp ? cudaMemset2DAsync(dp, pitch, 0, width, height, stream)
                   : 0);
}

/* The 3D calls, on linear (pitched) memory. The engine calls each through
 * a function of its own here, whose parameters are scalars and the
 * pointers that carry shadows (cudaMalloc3D and cudaMemset3D take their
 * structs by value, which the custom-gradient ABI cannot pair with
 * shadows). */

/* cudaMalloc3D: the shadow is a zeroed block of the primal's bytes, and
 * its pitched pointer has the primal's pitch and sizes. */
int __enzyme_rt_cuda_malloc_3d(struct cuda_pitched_ptr *p, size_t width,
                               size_t height, size_t depth) {
  struct cuda_extent extent = {width, height, depth};
  return cudaMalloc3D(p, extent);
}
static size_t malloc_3d_bytes(int error, const struct cuda_pitched_ptr *p,
                              struct cuda_pitched_ptr *dp, size_t depth) {
  if (error)
    return 0;
  if (dp)
    *dp = *p;
  return p->pitch * p->ysize * depth;
}
struct allocation
__enzyme_rt_cuda_malloc_3d_augment(struct cuda_pitched_ptr *p,
                                   struct cuda_pitched_ptr *dp, size_t width,
                                   size_t height, size_t depth) {
  int error = __enzyme_rt_cuda_malloc_3d(p, width, height, depth);
  size_t bytes = malloc_3d_bytes(error, p, dp, depth);
  return with_shadow("cudaMalloc3D", error, &p->ptr, dp ? &dp->ptr : 0, bytes,
                     on_device);
}
void __enzyme_rt_cuda_malloc_3d_reverse(struct cuda_pitched_ptr *p,
                                        struct cuda_pitched_ptr *dp,
                                        size_t width, size_t height,
                                        size_t depth, struct block *tape) {
  (void)p, (void)dp, (void)width, (void)height, (void)depth;
  release(tape);
}
int __enzyme_rt_cuda_malloc_3d_forward(struct cuda_pitched_ptr *p,
                                       struct cuda_pitched_ptr *dp,
                                       size_t width, size_t height,
                                       size_t depth) {
  int error = __enzyme_rt_cuda_malloc_3d(p, width, height, depth);
  size_t bytes = malloc_3d_bytes(error, p, dp, depth);
  with_shadow_only("cudaMalloc3D", error, dp ? &dp->ptr : 0, bytes, on_device);
  return error;
}

/* cudaMemset3D and cudaMemset3DAsync: the pitched pointer and the extent
 * in scalars; the reverse clears the same box of the shadow. */
static int memset_3d(void *p, size_t pitch, size_t xsize, size_t ysize,
                     int value, size_t width, size_t height, size_t depth,
                     int async, void *stream) {
  struct cuda_pitched_ptr at = {p, pitch, xsize, ysize};
  struct cuda_extent extent = {width, height, depth};
  return async ? cudaMemset3DAsync(at, value, extent, stream)
               : cudaMemset3D(at, value, extent);
}
int __enzyme_rt_cuda_memset_3d(void *p, size_t pitch, size_t xsize,
                               size_t ysize, int value, size_t width,
                               size_t height, size_t depth) {
  return memset_3d(p, pitch, xsize, ysize, value, width, height, depth, 0, 0);
}
int __enzyme_rt_cuda_memset_3d_augment(void *p, void *dp, size_t pitch,
                                       size_t xsize, size_t ysize, int value,
                                       size_t width, size_t height,
                                       size_t depth) {
  (void)dp;
  return memset_3d(p, pitch, xsize, ysize, value, width, height, depth, 0, 0);
}
void __enzyme_rt_cuda_memset_3d_reverse(void *p, void *dp, size_t pitch,
                                        size_t xsize, size_t ysize, int value,
                                        size_t width, size_t height,
                                        size_t depth) {
  (void)p, (void)value;
  int error;
  if (!dp)
    return;
  wait_for_device("cudaMemset3D");
  if ((error =
           memset_3d(dp, pitch, xsize, ysize, 0, width, height, depth, 0, 0)))
    fail_in("cudaMemset3D", "cannot clear the adjoints it overwrote", error);
}
int __enzyme_rt_cuda_memset_3d_forward(void *p, void *dp, size_t pitch,
                                       size_t xsize, size_t ysize, int value,
                                       size_t width, size_t height,
                                       size_t depth) {
  int error =
      memset_3d(p, pitch, xsize, ysize, value, width, height, depth, 0, 0);
  return clear_shadow("cudaMemset3D", error,
                      !error && dp ? memset_3d(dp, pitch, xsize, ysize, 0,
                                               width, height, depth, 0, 0)
                                   : 0);
}
int __enzyme_rt_cuda_memset_3d_async(void *p, size_t pitch, size_t xsize,
                                     size_t ysize, int value, size_t width,
                                     size_t height, size_t depth,
                                     void *stream) {
  return memset_3d(p, pitch, xsize, ysize, value, width, height, depth, 1,
                   stream);
}
int __enzyme_rt_cuda_memset_3d_async_augment(void *p, void *dp, size_t pitch,
                                             size_t xsize, size_t ysize,
                                             int value, size_t width,
                                             size_t height, size_t depth,
                                             void *stream, void *dstream) {
  (void)dp, (void)dstream;
  return memset_3d(p, pitch, xsize, ysize, value, width, height, depth, 1,
                   stream);
}
void __enzyme_rt_cuda_memset_3d_async_reverse(void *p, void *dp, size_t pitch,
                                              size_t xsize, size_t ysize,
                                              int value, size_t width,
                                              size_t height, size_t depth,
                                              void *stream, void *dstream) {
  (void)stream, (void)dstream;
  __enzyme_rt_cuda_memset_3d_reverse(p, dp, pitch, xsize, ysize, value, width,
                                     height, depth);
}
int __enzyme_rt_cuda_memset_3d_async_forward(void *p, void *dp, size_t pitch,
                                             size_t xsize, size_t ysize,
                                             int value, size_t width,
                                             size_t height, size_t depth,
                                             void *stream, void *dstream) {
  (void)dstream;
  int error =
      memset_3d(p, pitch, xsize, ysize, value, width, height, depth, 1, stream);
  return clear_shadow("cudaMemset3DAsync", error,
                      !error && dp ? memset_3d(dp, pitch, xsize, ysize, 0,
                                               width, height, depth, 1, stream)
                                   : 0);
}
