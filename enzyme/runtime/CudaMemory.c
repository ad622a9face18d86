/*===- CudaMemory.c - Derivatives of the CUDA runtime's memory calls ------===*
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
 *   (and their 2D forms)            of the bytes it overwrote;
 *   cudaMemcpy, cudaMemcpyAsync     the reverse pass adds the adjoints of
 *                                   the destination to the source's and
 *                                   clears them (through host memory, so
 *                                   that any pair of host and device
 *                                   memory works), for the element type the
 *                                   engine found at the call;
 *   cudaMemcpyPeer,                 the same as cudaMemcpy (the shadows
 *   cudaMemcpyPeerAsync             are on the devices of their primals);
 *   cudaMemcpy2D, cudaMemcpy2DAsync the same as cudaMemcpy, row by row;
 *   cudaMemcpy3D, cudaMemcpy3DAsync the same, box by box, in linear
 *                                   memory (cudaMalloc3D, cudaMemset3D);
 *   cudaMemcpy{To,From}Symbol       the same, where the shadow of the
 *   (and their Async forms)         __device__ variable is the one the
 *                                   program declared (enzyme_shadow), whose
 *                                   host handle the engine passes.
 *
 * The copies of each element type are functions of their own, which the
 * engine calls in place of cudaMemcpy; a copy of values of several kinds
 * (a struct of device pointers and doubles) is told the layout of its
 * records, and the bytes of a copy that nothing types must carry no
 * derivative (their shadows zero), or the program stops. These functions
 * are differentiated only through their registrations, never looked into.
 *
 * Forward mode (__enzyme_register_derivative's ABI, each call's `_forward`
 * function, which returns the call's result): an allocation gets a zeroed
 * shadow of the same kind and size, a free frees the shadow too, a memset
 * clears the shadow's bytes, and a copy copies the shadow's bytes (the
 * tangents, or the shadows of pointers) or, from memory without a shadow,
 * clears the destination's.
 *
 *===----------------------------------------------------------------------===*/

#include "CudaApi.h"

__attribute__((noreturn, cold)) static void
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
/* The reverse kernels before may run on a stream that does not wait for
 * the legacy default stream's copies (cudaStreamNonBlocking): wait for
 * every stream first. */
static void wait_for_device(const char *call) {
  int error = cudaDeviceSynchronize();
  if (error)
    fail_in(call, "a kernel before it failed", error);
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

static int clear_shadow(const char *call, int error, int shadow_error) {
  if (!error && shadow_error)
    fail_in(call, "cannot clear the shadow", shadow_error);
  return error;
}
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

/* The copies, by what the bytes hold. */

enum contents { floats, doubles, integers, pointers, untyped };

/* Where a copy's bytes (or their adjoints) are: WIDTH bytes at ADDRESS
 * (in memory; on DEVICE for a peer copy, where PEER says so); HEIGHT rows
 * of WIDTH bytes, PITCH bytes apart (in rows);
 * DEPTH slices of HEIGHT rows of WIDTH bytes, starting X bytes, Y rows and
 * Z slices into an allocation of SLICE_ROWS rows per slice (in boxes); or
 * WIDTH bytes at OFFSET in the __device__ variable whose host handle is
 * ADDRESS. A null ADDRESS: no shadow. */
enum region_kind { in_memory, in_rows, in_boxes, in_variable };
struct region {
  enum region_kind kind;
  void *address;
  size_t width, height, depth, pitch, offset;
  size_t slice_rows, x, y, z;
  int peer, device;
};

static struct region linear_region(const void *address, size_t n) {
  struct region r = {.kind = in_memory,
                     .address = (void *)address,
                     .width = n,
                     .height = 1,
                     .depth = 1,
                     .pitch = n};
  return r;
}
/* N bytes at ADDRESS on DEVICE, which a peer copy names. Unified
 * addressing lets the adjoints' copies through the host find the device
 * from the address alone. */
static struct region peer_region(const void *address, size_t n, int device) {
  struct region r = linear_region(address, n);
  r.peer = 1;
  r.device = device;
  return r;
}
static struct region pitched_region(const void *address, size_t pitch,
                                    size_t width, size_t height) {
  struct region r = {.kind = in_rows,
                     .address = (void *)address,
                     .width = width,
                     .height = height,
                     .depth = 1,
                     .pitch = pitch};
  return r;
}
/* The box that a 3D call names by pitched pointer, position and extent; a
 * CUDA array (which has no shadow) is a box without an address. */
static struct region box_region(const struct cuda_pitched_ptr *at,
                                const struct cuda_pos *pos,
                                const struct cuda_extent *extent) {
  struct region r = {.kind = in_boxes,
                     .address = at->ptr,
                     .width = extent->width,
                     .height = extent->height,
                     .depth = extent->depth,
                     .pitch = at->pitch,
                     .slice_rows = at->ysize,
                     .x = pos->x,
                     .y = pos->y,
                     .z = pos->z};
  return r;
}
static struct region symbol_region(const void *symbol, size_t n,
                                   size_t offset) {
  struct region r = {.kind = in_variable,
                     .address = (void *)symbol,
                     .width = n,
                     .height = 1,
                     .depth = 1,
                     .pitch = n,
                     .offset = offset};
  return r;
}
/* R with another address (its shadow's). */
static struct region at(struct region r, const void *address) {
  r.address = (void *)address;
  return r;
}
static size_t region_bytes(struct region r) {
  return r.width * r.height * r.depth;
}

/* The pitched pointer and position of R, a box, for cudaMemcpy3D. */
static struct cuda_pitched_ptr box_pointer(struct region r) {
  struct cuda_pitched_ptr p = {r.address, r.pitch, r.pitch, r.slice_rows};
  return p;
}
static struct cuda_pos box_position(struct region r) {
  struct cuda_pos p = {r.x, r.y, r.z};
  return p;
}

/* Copies SRC to DST (a variable from or to memory, boxes to boxes, rows to
 * rows, or memory to memory), on STREAM where ASYNC says so. */
static int copy_region(struct region dst, struct region src, int kind,
                       int async, void *stream) {
  size_t n = region_bytes(dst);
  if (dst.kind == in_variable)
    return async ? cudaMemcpyToSymbolAsync(dst.address, src.address, n,
                                           dst.offset, kind, stream)
                 : cudaMemcpyToSymbol(dst.address, src.address, n, dst.offset,
                                      kind);
  if (src.kind == in_variable)
    return async ? cudaMemcpyFromSymbolAsync(dst.address, src.address, n,
                                             src.offset, kind, stream)
                 : cudaMemcpyFromSymbol(dst.address, src.address, n, src.offset,
                                        kind);
  if (dst.kind == in_boxes || src.kind == in_boxes) {
    struct cuda_memcpy_3d_parms p = {0};
    p.src_ptr = box_pointer(src);
    p.src_pos = box_position(src);
    p.dst_ptr = box_pointer(dst);
    p.dst_pos = box_position(dst);
    p.extent.width = dst.width;
    p.extent.height = dst.height;
    p.extent.depth = dst.depth;
    p.kind = kind;
    return async ? cudaMemcpy3DAsync(&p, stream) : cudaMemcpy3D(&p);
  }
  if (dst.kind == in_rows || src.kind == in_rows)
    return async ? cudaMemcpy2DAsync(dst.address, dst.pitch, src.address,
                                     src.pitch, dst.width, dst.height, kind,
                                     stream)
                 : cudaMemcpy2D(dst.address, dst.pitch, src.address, src.pitch,
                                dst.width, dst.height, kind);
  if (dst.peer && src.peer)
    return async ? cudaMemcpyPeerAsync(dst.address, dst.device, src.address,
                                       src.device, n, stream)
                 : cudaMemcpyPeer(dst.address, dst.device, src.address,
                                  src.device, n);
  return async ? cudaMemcpyAsync(dst.address, src.address, n, kind, stream)
               : cudaMemcpy(dst.address, src.address, n, kind);
}

/* The host buffer that holds R's bytes, rows (and slices) packed. */
static struct region host_region(void *buffer, struct region r) {
  if (r.kind == in_boxes) {
    struct region packed = {.kind = in_boxes,
                            .address = buffer,
                            .width = r.width,
                            .height = r.height,
                            .depth = r.depth,
                            .pitch = r.width,
                            .slice_rows = r.height};
    return packed;
  }
  return r.kind == in_rows ? pitched_region(buffer, r.width, r.width, r.height)
                           : linear_region(buffer, region_bytes(r));
}

/* R's adjoints, read into host memory. */
static char *read_adjoints(const char *call, struct region r) {
  size_t n = region_bytes(r);
  char *buffer = malloc(n ? n : 1);
  if (!buffer)
    fail_in(call, "out of host memory", 0);
  int kind =
      r.kind == in_variable ? cuda_memcpy_device_to_host : cuda_memcpy_default;
  int error = copy_region(host_region(buffer, r), r, kind, 0, 0);
  if (error)
    fail_in(call, "cannot read adjoints", error);
  return buffer;
}

/* The kind of a copy from host memory into R (the runtime tells host from
 * device memory, but a __device__ variable is named by its host handle). */
static int kind_from_host(struct region r) {
  return r.kind == in_variable ? cuda_memcpy_host_to_device
                               : cuda_memcpy_default;
}

static void write_adjoints(const char *call, struct region r, char *buffer) {
  int error = copy_region(r, host_region(buffer, r), kind_from_host(r), 0, 0);
  if (error)
    fail_in(call, "cannot write adjoints", error);
}

/* INTO[i] += MOVED[i] for the N bytes of WHAT. */
static void add_adjoints(enum contents what, void *into, const void *moved,
                         size_t n) {
  if (what == floats)
    for (size_t i = 0; i < n / sizeof(float); ++i)
      ((float *)into)[i] += ((const float *)moved)[i];
  else
    for (size_t i = 0; i < n / sizeof(double); ++i)
      ((double *)into)[i] += ((const double *)moved)[i];
}

/* Where the copy whose reverse runs now is ("file:line:column"), or null:
 * the engine sets it around the reverse of each copy that nothing types. */
__thread const char *__enzyme_rt_cuda_copy_at;

void __enzyme_rt_cuda_copy_site(const char *where) {
  __enzyme_rt_cuda_copy_at = where;
}

static void fail_untyped(const char *call) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: in the derivative of ");
  append(&m, call);
  if (__enzyme_rt_cuda_copy_at) {
    append(&m, " at ");
    append(&m, __enzyme_rt_cuda_copy_at);
  }
  append(&m, ": nothing in the program says whether the memory it copies "
             "holds float, double, integer or pointer values, so the "
             "adjoints cannot be moved back; access the memory with its "
             "type in the differentiated code, or copy through a typed "
             "pointer (see docs/cuda.md)\n");
  write_and_abort(&m);
}

/* The layout of the copy whose augment or reverse runs now, where the
 * engine found one for a copy of values of several kinds (a struct of
 * device pointers and scalars): each row of the copy holds records of
 * __enzyme_rt_cuda_copy_stride bytes, each record the fields listed. Bytes
 * that no field covers, and every byte of a copy without a layout, are of
 * no kind the engine knows: their shadows must be zero, or the program
 * stops (fail_untyped). The engine sets it around the run-time's augment
 * and reverse of each such copy. */
struct copy_field {
  size_t offset, size, contents;
};
__thread const struct copy_field *__enzyme_rt_cuda_copy_fields;
__thread size_t __enzyme_rt_cuda_copy_field_count;
__thread size_t __enzyme_rt_cuda_copy_stride;

void __enzyme_rt_cuda_copy_record(const struct copy_field *fields, size_t count,
                                  size_t stride) {
  __enzyme_rt_cuda_copy_fields = fields;
  __enzyme_rt_cuda_copy_field_count = count;
  __enzyme_rt_cuda_copy_stride = stride;
}

/* A field's first byte is marked so, beside its contents. */
enum { field_start = 0x80 };

/* The contents of each of the bytes of R (rows, slices packed), as the
 * layout says; untyped where it says nothing. */
static unsigned char *byte_contents(const char *call, struct region r) {
  size_t n = region_bytes(r), rows = r.height * r.depth;
  unsigned char *kinds = malloc(n ? n : 1);
  if (!kinds)
    fail_in(call, "out of host memory", 0);
  for (size_t i = 0; i < n; ++i)
    kinds[i] = untyped;
  size_t stride = __enzyme_rt_cuda_copy_stride;
  if (!__enzyme_rt_cuda_copy_fields || !stride)
    return kinds;
  for (size_t row = 0; row < rows; ++row)
    for (size_t record = 0; record + stride <= r.width; record += stride)
      for (size_t f = 0; f < __enzyme_rt_cuda_copy_field_count; ++f) {
        const struct copy_field *field = &__enzyme_rt_cuda_copy_fields[f];
        if (field->offset + field->size > stride || !field->size)
          continue;
        unsigned char *at = kinds + row * r.width + record + field->offset;
        for (size_t i = 0; i < field->size; ++i)
          at[i] = (unsigned char)field->contents;
        at[0] |= field_start;
      }
  return kinds;
}

/* *INTO += *MOVED for one field of WHAT, at any alignment (the rows of a
 * 2D copy pack records of any size). */
static void add_field(enum contents what, char *into, const char *moved) {
  if (what == floats) {
    float a, b;
    __builtin_memcpy(&a, into, sizeof a);
    __builtin_memcpy(&b, moved, sizeof b);
    a += b;
    __builtin_memcpy(into, &a, sizeof a);
    return;
  }
  double a, b;
  __builtin_memcpy(&a, into, sizeof a);
  __builtin_memcpy(&b, moved, sizeof b);
  a += b;
  __builtin_memcpy(into, &a, sizeof a);
}

/* The layout has fields of floating-point values. */
static int record_moves_adjoints(void) {
  for (size_t f = 0;
       __enzyme_rt_cuda_copy_fields && f < __enzyme_rt_cuda_copy_field_count;
       ++f)
    if (__enzyme_rt_cuda_copy_fields[f].contents == floats ||
        __enzyme_rt_cuda_copy_fields[f].contents == doubles)
      return 1;
  return 0;
}

/* Values that carry derivatives, copied by CALL into a __device__ variable
 * DST without a shadow, would lose them: the program stops. */
static void check_destination_shadow(const char *call, enum contents what,
                                     struct region dst, const void *ddst,
                                     const void *dsrc) {
  if (!dsrc || ddst || what == integers || what == pointers)
    return;
  if (dst.kind == in_variable)
    fail_in(call,
            "the values it copies carry derivatives, but the __device__ "
            "variable it copies them into has no shadow; declare one with "
            "__attribute__((enzyme_shadow(name))) (see docs/cuda.md)",
            0);
  /* Their derivatives would be lost where the program reads them back. */
  fail_in(call,
          "the values it copies carry derivatives, but the memory it copies "
          "them into has none (a global or static array, or memory passed "
          "with enzyme_const); copy them into memory with derivatives (a "
          "local array, or memory passed with enzyme_dup)",
          0);
}

/* After the forward copy of CALL from SRC to DST of values of several
 * kinds (or of none the engine knows): the shadows of the pointers go
 * along (null ones where the source has no shadow); the shadows of bytes
 * of unknown kind must be zero at both ends. */
static void augment_record(const char *call, struct region dst,
                           const void *ddst, struct region src,
                           const void *dsrc) {
  if (record_moves_adjoints())
    check_destination_shadow(call, doubles, dst, ddst, dsrc);
  if (!ddst && !dsrc)
    return;
  wait_for_device(call);
  size_t n = region_bytes(dst);
  unsigned char *kinds = byte_contents(call, dst);
  char *to = ddst ? read_adjoints(call, at(dst, ddst)) : 0;
  char *from = dsrc ? read_adjoints(call, at(src, dsrc)) : 0;
  int changed = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned contents = kinds[i] & ~field_start;
    if (contents == untyped && ((to && to[i]) || (from && from[i])))
      fail_untyped(call);
    if (contents == pointers && to) {
      char shadow = from ? from[i] : 0;
      changed |= to[i] != shadow;
      to[i] = shadow;
    }
  }
  if (changed)
    write_adjoints(call, at(dst, ddst), to);
  free(kinds);
  free(to);
  free(from);
}

/* The reverse of a copy of values of several kinds: the adjoints of the
 * floating-point fields of DDST are added to DSRC's and cleared; the
 * shadows of bytes of unknown kind must be zero. */
static void reverse_record(const char *call, struct region ddst,
                           struct region dsrc) {
  if (!ddst.address)
    return;
  wait_for_device(call);
  size_t n = region_bytes(ddst);
  unsigned char *kinds = byte_contents(call, ddst);
  char *moved = read_adjoints(call, ddst);
  for (size_t i = 0; i < n; ++i)
    if (kinds[i] == untyped && moved[i])
      fail_untyped(call);
  if (record_moves_adjoints()) {
    char *into = dsrc.address ? read_adjoints(call, dsrc) : 0;
    for (size_t i = 0; i < n; ++i) {
      enum contents what = (enum contents)(kinds[i] & ~field_start);
      if (!(kinds[i] & field_start) || (what != floats && what != doubles))
        continue;
      size_t size = what == floats ? sizeof(float) : sizeof(double);
      if (into)
        add_field(what, into + i, moved + i);
      for (size_t k = 0; k < size; ++k)
        moved[i + k] = 0;
    }
    if (into) {
      write_adjoints(call, dsrc, into);
      free(into);
    }
    write_adjoints(call, ddst, moved);
  }
  free(kinds);
  free(moved);
}

/* After the forward copy of CALL from SRC to DST: shadow memory mirrors
 * the pointers it holds, so a copy of pointers copies their shadows (DSRC
 * to DDST, the same regions at the shadows' addresses) too. */
static void augment_shadows(const char *call, enum contents what,
                            struct region dst, const void *ddst,
                            struct region src, const void *dsrc, int kind,
                            int async, void *stream) {
  int error;
  if (what == untyped) {
    augment_record(call, dst, ddst, src, dsrc);
    return;
  }
  check_destination_shadow(call, what, dst, ddst, dsrc);
  if (what == pointers && ddst && dsrc &&
      (error = copy_region(at(dst, ddst), at(src, dsrc), kind, async, stream)))
    fail_in(call, "cannot copy the shadows of the pointers it copies", error);
}

/* The forward copy of CALL from SRC to DST, and the shadows'. */
static int augment_copy(const char *call, enum contents what, struct region dst,
                        const void *ddst, struct region src, const void *dsrc,
                        int kind, int async, void *stream) {
  int error = copy_region(dst, src, kind, async, stream);
  if (!error)
    augment_shadows(call, what, dst, ddst, src, dsrc, kind, async, stream);
  return error;
}

/* The reverse: the adjoints of the destination's shadow DDST are added to
 * the source's, DSRC, and cleared (integers and pointers carry none). */
static void reverse_copy(const char *call, enum contents what,
                         struct region ddst, struct region dsrc) {
  if (what == integers || what == pointers)
    return;
  if (what == untyped) {
    reverse_record(call, ddst, dsrc);
    return;
  }
  if (!ddst.address)
    return;
  wait_for_device(call);
  size_t n = region_bytes(ddst);
  char *moved = read_adjoints(call, ddst);
  if (dsrc.address) {
    char *into = read_adjoints(call, dsrc);
    add_adjoints(what, into, moved, n);
    write_adjoints(call, dsrc, into);
    free(into);
  }
  for (size_t i = 0; i < n; ++i)
    moved[i] = 0;
  write_adjoints(call, ddst, moved);
  free(moved);
}

/* Forward mode, after the copy of CALL from SRC to DST: that of the shadow
 * bytes (tangents, or the shadows of pointers) from DSRC to DDST; a
 * destination with a shadow and a source without one gets zero tangents. */
static void forward_shadows(const char *call, enum contents what,
                            struct region dst, const void *ddst,
                            struct region src, const void *dsrc, int kind,
                            int async, void *stream) {
  int error;
  check_destination_shadow(call, what, dst, ddst, dsrc);
  if (!ddst)
    return;
  if (dsrc) {
    if ((error =
             copy_region(at(dst, ddst), at(src, dsrc), kind, async, stream)))
      fail_in(call, "cannot copy the shadow of what it copies", error);
    return;
  }
  size_t n = region_bytes(dst);
  char *zeros = malloc(n ? n : 1);
  if (!zeros)
    fail_in(call, "out of host memory", 0);
  for (size_t i = 0; i < n; ++i)
    zeros[i] = 0;
  if ((error = copy_region(at(dst, ddst), host_region(zeros, dst),
                           kind_from_host(dst), async, stream)) ||
      (async && (error = cudaStreamSynchronize(stream))))
    fail_in(call, "cannot clear the tangents of what it overwrote", error);
  free(zeros);
}

/* Forward mode: the copy of CALL from SRC to DST, and the shadows'. */
static int forward_copy(const char *call, enum contents what, struct region dst,
                        const void *ddst, struct region src, const void *dsrc,
                        int kind, int async, void *stream) {
  int error = copy_region(dst, src, kind, async, stream);
  if (!error)
    forward_shadows(call, what, dst, ddst, src, dsrc, kind, async, stream);
  return error;
}

#define CUDA_MEMCPY_OF(NAME)                                                   \
  int __enzyme_rt_cuda_memcpy_##NAME(void *dst, const void *src, size_t n,     \
                                     int kind) {                               \
    return cudaMemcpy(dst, src, n, kind);                                      \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_##NAME##_augment(void *dst, void *ddst,          \
                                               const void *src, void *dsrc,    \
                                               size_t n, int kind) {           \
    return augment_copy("cudaMemcpy", NAME, linear_region(dst, n), ddst,       \
                        linear_region(src, n), dsrc, kind, 0, 0);              \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_##NAME##_reverse(void *dst, void *ddst,         \
                                                const void *src, void *dsrc,   \
                                                size_t n, int kind) {          \
    (void)dst, (void)src, (void)kind;                                          \
    reverse_copy("cudaMemcpy", NAME, linear_region(ddst, n),                   \
                 linear_region(dsrc, n));                                      \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_##NAME##_forward(void *dst, void *ddst,          \
                                               const void *src, void *dsrc,    \
                                               size_t n, int kind) {           \
    return forward_copy("cudaMemcpy", NAME, linear_region(dst, n), ddst,       \
                        linear_region(src, n), dsrc, kind, 0, 0);              \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_async_##NAME(void *dst, const void *src,         \
                                           size_t n, int kind, void *stream) { \
    return cudaMemcpyAsync(dst, src, n, kind, stream);                         \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_async_##NAME##_augment(                          \
      void *dst, void *ddst, const void *src, void *dsrc, size_t n, int kind,  \
      void *stream, void *dstream) {                                           \
    (void)dstream;                                                             \
    return augment_copy("cudaMemcpyAsync", NAME, linear_region(dst, n), ddst,  \
                        linear_region(src, n), dsrc, kind, 1, stream);         \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_async_##NAME##_reverse(                         \
      void *dst, void *ddst, const void *src, void *dsrc, size_t n, int kind,  \
      void *stream, void *dstream) {                                           \
    (void)dst, (void)src, (void)kind, (void)stream, (void)dstream;             \
    reverse_copy("cudaMemcpyAsync", NAME, linear_region(ddst, n),              \
                 linear_region(dsrc, n));                                      \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_async_##NAME##_forward(                          \
      void *dst, void *ddst, const void *src, void *dsrc, size_t n, int kind,  \
      void *stream, void *dstream) {                                           \
    (void)dstream;                                                             \
    return forward_copy("cudaMemcpyAsync", NAME, linear_region(dst, n), ddst,  \
                        linear_region(src, n), dsrc, kind, 1, stream);         \
  }

#define CUDA_OTHER_COPIES_OF(NAME)                                             \
  int __enzyme_rt_cuda_memcpy_2d_##NAME(                                       \
      void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,  \
      size_t height, int kind) {                                               \
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);        \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_2d_##NAME##_augment(                             \
      void *dst, void *ddst, size_t dpitch, const void *src, void *dsrc,       \
      size_t spitch, size_t width, size_t height, int kind) {                  \
    return augment_copy(                                                       \
        "cudaMemcpy2D", NAME, pitched_region(dst, dpitch, width, height),      \
        ddst, pitched_region(src, spitch, width, height), dsrc, kind, 0, 0);   \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_2d_##NAME##_reverse(                            \
      void *dst, void *ddst, size_t dpitch, const void *src, void *dsrc,       \
      size_t spitch, size_t width, size_t height, int kind) {                  \
    (void)dst, (void)src, (void)kind;                                          \
    reverse_copy("cudaMemcpy2D", NAME,                                         \
                 pitched_region(ddst, dpitch, width, height),                  \
                 pitched_region(dsrc, spitch, width, height));                 \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_2d_##NAME##_forward(                             \
      void *dst, void *ddst, size_t dpitch, const void *src, void *dsrc,       \
      size_t spitch, size_t width, size_t height, int kind) {                  \
    return forward_copy(                                                       \
        "cudaMemcpy2D", NAME, pitched_region(dst, dpitch, width, height),      \
        ddst, pitched_region(src, spitch, width, height), dsrc, kind, 0, 0);   \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_2d_async_##NAME(                                 \
      void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,  \
      size_t height, int kind, void *stream) {                                 \
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,    \
                             stream);                                          \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_2d_async_##NAME##_augment(                       \
      void *dst, void *ddst, size_t dpitch, const void *src, void *dsrc,       \
      size_t spitch, size_t width, size_t height, int kind, void *stream,      \
      void *dstream) {                                                         \
    (void)dstream;                                                             \
    return augment_copy("cudaMemcpy2DAsync", NAME,                             \
                        pitched_region(dst, dpitch, width, height), ddst,      \
                        pitched_region(src, spitch, width, height), dsrc,      \
                        kind, 1, stream);                                      \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_2d_async_##NAME##_reverse(                      \
      void *dst, void *ddst, size_t dpitch, const void *src, void *dsrc,       \
      size_t spitch, size_t width, size_t height, int kind, void *stream,      \
      void *dstream) {                                                         \
    (void)dst, (void)src, (void)kind, (void)stream, (void)dstream;             \
    reverse_copy("cudaMemcpy2DAsync", NAME,                                    \
                 pitched_region(ddst, dpitch, width, height),                  \
                 pitched_region(dsrc, spitch, width, height));                 \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_2d_async_##NAME##_forward(                       \
      void *dst, void *ddst, size_t dpitch, const void *src, void *dsrc,       \
      size_t spitch, size_t width, size_t height, int kind, void *stream,      \
      void *dstream) {                                                         \
    (void)dstream;                                                             \
    return forward_copy("cudaMemcpy2DAsync", NAME,                             \
                        pitched_region(dst, dpitch, width, height), ddst,      \
                        pitched_region(src, spitch, width, height), dsrc,      \
                        kind, 1, stream);                                      \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_to_symbol_##NAME(const void *symbol,             \
                                               const void *src, size_t n,      \
                                               size_t offset, int kind) {      \
    return cudaMemcpyToSymbol(symbol, src, n, offset, kind);                   \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_to_symbol_##NAME##_augment(                      \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind) {                                     \
    return augment_copy("cudaMemcpyToSymbol", NAME,                            \
                        symbol_region(symbol, n, offset), dsymbol,             \
                        linear_region(src, n), dsrc, kind, 0, 0);              \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_to_symbol_##NAME##_reverse(                     \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind) {                                     \
    (void)symbol, (void)src, (void)kind;                                       \
    reverse_copy("cudaMemcpyToSymbol", NAME,                                   \
                 symbol_region(dsymbol, n, offset), linear_region(dsrc, n));   \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_to_symbol_##NAME##_forward(                      \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind) {                                     \
    return forward_copy("cudaMemcpyToSymbol", NAME,                            \
                        symbol_region(symbol, n, offset), dsymbol,             \
                        linear_region(src, n), dsrc, kind, 0, 0);              \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_from_symbol_##NAME(                              \
      void *dst, const void *symbol, size_t n, size_t offset, int kind) {      \
    return cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);                 \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_from_symbol_##NAME##_augment(                    \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind) {                                     \
    return augment_copy("cudaMemcpyFromSymbol", NAME, linear_region(dst, n),   \
                        ddst, symbol_region(symbol, n, offset), dsymbol, kind, \
                        0, 0);                                                 \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_from_symbol_##NAME##_reverse(                   \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind) {                                     \
    (void)dst, (void)symbol, (void)kind;                                       \
    reverse_copy("cudaMemcpyFromSymbol", NAME, linear_region(ddst, n),         \
                 symbol_region(dsymbol, n, offset));                           \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_from_symbol_##NAME##_forward(                    \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind) {                                     \
    return forward_copy("cudaMemcpyFromSymbol", NAME, linear_region(dst, n),   \
                        ddst, symbol_region(symbol, n, offset), dsymbol, kind, \
                        0, 0);                                                 \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_to_symbol_async_##NAME(                          \
      const void *symbol, const void *src, size_t n, size_t offset, int kind,  \
      void *stream) {                                                          \
    return cudaMemcpyToSymbolAsync(symbol, src, n, offset, kind, stream);      \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_to_symbol_async_##NAME##_augment(                \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind, void *stream, void *dstream) {        \
    (void)dstream;                                                             \
    return augment_copy("cudaMemcpyToSymbolAsync", NAME,                       \
                        symbol_region(symbol, n, offset), dsymbol,             \
                        linear_region(src, n), dsrc, kind, 1, stream);         \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_to_symbol_async_##NAME##_reverse(               \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind, void *stream, void *dstream) {        \
    (void)symbol, (void)src, (void)kind, (void)stream, (void)dstream;          \
    reverse_copy("cudaMemcpyToSymbol", NAME,                                   \
                 symbol_region(dsymbol, n, offset), linear_region(dsrc, n));   \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_to_symbol_async_##NAME##_forward(                \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind, void *stream, void *dstream) {        \
    (void)dstream;                                                             \
    return forward_copy("cudaMemcpyToSymbolAsync", NAME,                       \
                        symbol_region(symbol, n, offset), dsymbol,             \
                        linear_region(src, n), dsrc, kind, 1, stream);         \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_from_symbol_async_##NAME(                        \
      void *dst, const void *symbol, size_t n, size_t offset, int kind,        \
      void *stream) {                                                          \
    return cudaMemcpyFromSymbolAsync(dst, symbol, n, offset, kind, stream);    \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_from_symbol_async_##NAME##_augment(              \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind, void *stream, void *dstream) {        \
    (void)dstream;                                                             \
    return augment_copy(                                                       \
        "cudaMemcpyFromSymbolAsync", NAME, linear_region(dst, n), ddst,        \
        symbol_region(symbol, n, offset), dsymbol, kind, 1, stream);           \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_from_symbol_async_##NAME##_reverse(             \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind, void *stream, void *dstream) {        \
    (void)dst, (void)symbol, (void)kind, (void)stream, (void)dstream;          \
    reverse_copy("cudaMemcpyFromSymbol", NAME, linear_region(ddst, n),         \
                 symbol_region(dsymbol, n, offset));                           \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_from_symbol_async_##NAME##_forward(              \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind, void *stream, void *dstream) {        \
    (void)dstream;                                                             \
    return forward_copy(                                                       \
        "cudaMemcpyFromSymbolAsync", NAME, linear_region(dst, n), ddst,        \
        symbol_region(symbol, n, offset), dsymbol, kind, 1, stream);           \
  }

CUDA_OTHER_COPIES_OF(floats)
CUDA_OTHER_COPIES_OF(doubles)
CUDA_OTHER_COPIES_OF(integers)
CUDA_OTHER_COPIES_OF(pointers)
CUDA_OTHER_COPIES_OF(untyped)

/* Copies between devices: the kind is always the peer copy's own. */
#define CUDA_PEER_COPIES_OF(NAME)                                              \
  int __enzyme_rt_cuda_memcpy_peer_##NAME(                                     \
      void *dst, int dst_device, const void *src, int src_device, size_t n) {  \
    return cudaMemcpyPeer(dst, dst_device, src, src_device, n);                \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_peer_##NAME##_augment(                           \
      void *dst, void *ddst, int dst_device, const void *src, void *dsrc,      \
      int src_device, size_t n) {                                              \
    return augment_copy(                                                       \
        "cudaMemcpyPeer", NAME, peer_region(dst, n, dst_device), ddst,         \
        peer_region(src, n, src_device), dsrc, cuda_memcpy_default, 0, 0);     \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_peer_##NAME##_reverse(                          \
      void *dst, void *ddst, int dst_device, const void *src, void *dsrc,      \
      int src_device, size_t n) {                                              \
    (void)dst, (void)src;                                                      \
    reverse_copy("cudaMemcpyPeer", NAME, peer_region(ddst, n, dst_device),     \
                 peer_region(dsrc, n, src_device));                            \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_peer_##NAME##_forward(                           \
      void *dst, void *ddst, int dst_device, const void *src, void *dsrc,      \
      int src_device, size_t n) {                                              \
    return forward_copy(                                                       \
        "cudaMemcpyPeer", NAME, peer_region(dst, n, dst_device), ddst,         \
        peer_region(src, n, src_device), dsrc, cuda_memcpy_default, 0, 0);     \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_peer_async_##NAME(                               \
      void *dst, int dst_device, const void *src, int src_device, size_t n,    \
      void *stream) {                                                          \
    return cudaMemcpyPeerAsync(dst, dst_device, src, src_device, n, stream);   \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_peer_async_##NAME##_augment(                     \
      void *dst, void *ddst, int dst_device, const void *src, void *dsrc,      \
      int src_device, size_t n, void *stream, void *dstream) {                 \
    (void)dstream;                                                             \
    return augment_copy("cudaMemcpyPeerAsync", NAME,                           \
                        peer_region(dst, n, dst_device), ddst,                 \
                        peer_region(src, n, src_device), dsrc,                 \
                        cuda_memcpy_default, 1, stream);                       \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_peer_async_##NAME##_reverse(                    \
      void *dst, void *ddst, int dst_device, const void *src, void *dsrc,      \
      int src_device, size_t n, void *stream, void *dstream) {                 \
    (void)dst, (void)src, (void)stream, (void)dstream;                         \
    reverse_copy("cudaMemcpyPeerAsync", NAME,                                  \
                 peer_region(ddst, n, dst_device),                             \
                 peer_region(dsrc, n, src_device));                            \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_peer_async_##NAME##_forward(                     \
      void *dst, void *ddst, int dst_device, const void *src, void *dsrc,      \
      int src_device, size_t n, void *stream, void *dstream) {                 \
    (void)dstream;                                                             \
    return forward_copy("cudaMemcpyPeerAsync", NAME,                           \
                        peer_region(dst, n, dst_device), ddst,                 \
                        peer_region(src, n, src_device), dsrc,                 \
                        cuda_memcpy_default, 1, stream);                       \
  }

CUDA_PEER_COPIES_OF(floats)
CUDA_PEER_COPIES_OF(doubles)
CUDA_PEER_COPIES_OF(integers)
CUDA_PEER_COPIES_OF(pointers)
CUDA_PEER_COPIES_OF(untyped)

/* The untyped ones differentiate cudaMemcpy and cudaMemcpyAsync themselves. */
CUDA_MEMCPY_OF(floats)
CUDA_MEMCPY_OF(doubles)
CUDA_MEMCPY_OF(integers)
CUDA_MEMCPY_OF(pointers)
CUDA_MEMCPY_OF(untyped)

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

/* cudaMemcpy3D and cudaMemcpy3DAsync: the engine passes the parameters'
 * source and destination pointers beside the struct, so that they come
 * with their shadows. The program may change the struct after the call,
 * so the augmented call records a copy of it for the reverse. A CUDA array
 * has no shadow: a copy into one of values that carry derivatives stops
 * the program, and one out of it gives its destination zero derivatives. */

struct copy_3d_record {
  struct cuda_memcpy_3d_parms *tape;
  int result;
};

static void check_copy_3d(const char *call, enum contents what,
                          const struct cuda_memcpy_3d_parms *p, const void *dst,
                          const void *src, const void *dsrc) {
  if ((!p->dst_array && p->dst_ptr.ptr != dst) ||
      (!p->src_array && p->src_ptr.ptr != src))
    fail_in(call,
            "the toolchain's view of cudaMemcpy3DParms does not match the "
            "program's (report this)",
            0);
  if (p->dst_array && dsrc && what != integers && what != pointers)
    fail_in(call,
            "the values it copies into a CUDA array carry derivatives, which "
            "a CUDA array cannot hold; copy them to linear memory "
            "(cudaMalloc3D) instead",
            0);
}

static struct region copy_3d_dst(const struct cuda_memcpy_3d_parms *p) {
  struct region r = box_region(&p->dst_ptr, &p->dst_pos, &p->extent);
  return p->dst_array ? at(r, 0) : r;
}
static struct region copy_3d_src(const struct cuda_memcpy_3d_parms *p) {
  struct region r = box_region(&p->src_ptr, &p->src_pos, &p->extent);
  return p->src_array ? at(r, 0) : r;
}

static struct copy_3d_record
augment_copy_3d(const char *call, enum contents what,
                const struct cuda_memcpy_3d_parms *p, const void *dst,
                void *ddst, const void *src, void *dsrc, int async,
                void *stream) {
  struct copy_3d_record record = {0, 0};
  check_copy_3d(call, what, p, dst, src, dsrc);
  record.result = async ? cudaMemcpy3DAsync(p, stream) : cudaMemcpy3D(p);
  if (record.result)
    return record;
  augment_shadows(call, what, copy_3d_dst(p), p->dst_array ? 0 : ddst,
                  copy_3d_src(p), p->src_array ? 0 : dsrc, p->kind, async,
                  stream);
  if (!(record.tape = malloc(sizeof *record.tape)))
    fail_in(call, "out of host memory", 0);
  *record.tape = *p;
  return record;
}

static void reverse_copy_3d(const char *call, enum contents what, void *ddst,
                            void *dsrc, struct cuda_memcpy_3d_parms *tape) {
  if (!tape)
    return;
  reverse_copy(call, what, at(copy_3d_dst(tape), tape->dst_array ? 0 : ddst),
               at(copy_3d_src(tape), tape->src_array ? 0 : dsrc));
  free(tape);
}

static int forward_copy_3d(const char *call, enum contents what,
                           const struct cuda_memcpy_3d_parms *p,
                           const void *dst, void *ddst, const void *src,
                           void *dsrc, int async, void *stream) {
  check_copy_3d(call, what, p, dst, src, dsrc);
  int error = async ? cudaMemcpy3DAsync(p, stream) : cudaMemcpy3D(p);
  if (!error)
    forward_shadows(call, what, copy_3d_dst(p), p->dst_array ? 0 : ddst,
                    copy_3d_src(p), p->src_array ? 0 : dsrc, p->kind, async,
                    stream);
  return error;
}

#define CUDA_MEMCPY_3D_OF(NAME)                                                \
  int __enzyme_rt_cuda_memcpy_3d_##NAME(                                       \
      void *dst, const void *src, const struct cuda_memcpy_3d_parms *p) {      \
    (void)dst, (void)src;                                                      \
    return cudaMemcpy3D(p);                                                    \
  }                                                                            \
  struct copy_3d_record __enzyme_rt_cuda_memcpy_3d_##NAME##_augment(           \
      void *dst, void *ddst, const void *src, void *dsrc,                      \
      const struct cuda_memcpy_3d_parms *p, void *dp) {                        \
    (void)dp;                                                                  \
    return augment_copy_3d("cudaMemcpy3D", NAME, p, dst, ddst, src, dsrc, 0,   \
                           0);                                                 \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_3d_##NAME##_reverse(                            \
      void *dst, void *ddst, const void *src, void *dsrc,                      \
      const struct cuda_memcpy_3d_parms *p, void *dp,                          \
      struct cuda_memcpy_3d_parms *tape) {                                     \
    (void)dst, (void)src, (void)p, (void)dp;                                   \
    reverse_copy_3d("cudaMemcpy3D", NAME, ddst, dsrc, tape);                   \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_3d_##NAME##_forward(                             \
      void *dst, void *ddst, const void *src, void *dsrc,                      \
      const struct cuda_memcpy_3d_parms *p, void *dp) {                        \
    (void)dp;                                                                  \
    return forward_copy_3d("cudaMemcpy3D", NAME, p, dst, ddst, src, dsrc, 0,   \
                           0);                                                 \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_3d_async_##NAME(                                 \
      void *dst, const void *src, const struct cuda_memcpy_3d_parms *p,        \
      void *stream) {                                                          \
    (void)dst, (void)src;                                                      \
    return cudaMemcpy3DAsync(p, stream);                                       \
  }                                                                            \
  struct copy_3d_record __enzyme_rt_cuda_memcpy_3d_async_##NAME##_augment(     \
      void *dst, void *ddst, const void *src, void *dsrc,                      \
      const struct cuda_memcpy_3d_parms *p, void *dp, void *stream,            \
      void *dstream) {                                                         \
    (void)dp, (void)dstream;                                                   \
    return augment_copy_3d("cudaMemcpy3DAsync", NAME, p, dst, ddst, src, dsrc, \
                           1, stream);                                         \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_3d_async_##NAME##_reverse(                      \
      void *dst, void *ddst, const void *src, void *dsrc,                      \
      const struct cuda_memcpy_3d_parms *p, void *dp, void *stream,            \
      void *dstream, struct cuda_memcpy_3d_parms *tape) {                      \
    (void)dst, (void)src, (void)p, (void)dp, (void)stream, (void)dstream;      \
    reverse_copy_3d("cudaMemcpy3DAsync", NAME, ddst, dsrc, tape);              \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_3d_async_##NAME##_forward(                       \
      void *dst, void *ddst, const void *src, void *dsrc,                      \
      const struct cuda_memcpy_3d_parms *p, void *dp, void *stream,            \
      void *dstream) {                                                         \
    (void)dp, (void)dstream;                                                   \
    return forward_copy_3d("cudaMemcpy3DAsync", NAME, p, dst, ddst, src, dsrc, \
                           1, stream);                                         \
  }

CUDA_MEMCPY_3D_OF(floats)
CUDA_MEMCPY_3D_OF(doubles)
CUDA_MEMCPY_3D_OF(integers)
CUDA_MEMCPY_3D_OF(pointers)
CUDA_MEMCPY_3D_OF(untyped)
