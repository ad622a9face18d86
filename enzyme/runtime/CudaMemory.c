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
 *   cudaMalloc, cudaMallocManaged  the shadow is a zeroed block of the
 *                                   same kind and size;
 *   cudaFree                        the blocks are freed by the reverse
 *                                   of their allocation, after the reverse
 *                                   of their uses;
 *   cudaMemset, cudaMemsetAsync     the reverse pass clears the adjoints
 *                                   of the bytes it overwrote;
 *   cudaMemcpy, cudaMemcpyAsync     the reverse pass adds the adjoints of
 *                                   the destination to the source's and
 *                                   clears them (through host memory, so
 *                                   that any pair of host and device
 *                                   memory works), for the element type the
 *                                   engine found at the call;
 *   cudaMemcpy2D                    the same, row by row;
 *   cudaMemcpy{To,From}Symbol       the same, where the shadow of the
 *   (and their Async forms)         __device__ variable is the one the
 *                                   program declared (enzyme_shadow), whose
 *                                   host handle the engine passes.
 *
 * The copies of each element type are functions of their own, which the
 * engine calls in place of cudaMemcpy. These functions are differentiated
 * only through their registrations, never looked into.
 *
 *===----------------------------------------------------------------------===*/

#include "CudaApi.h"

__attribute__((noreturn, cold)) static void fail(const char *what, int error) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: in the derivative of ");
  append(&m, what);
  append_cuda_error(&m, error);
  append(&m, "\n");
  write_and_abort(&m);
}

/* cudaMalloc, cudaMallocManaged, cudaFree. The reverse pass runs the
 * reverse of a block's uses after the reverse of its free and before the
 * reverse of its allocation: the blocks live until then. An allocation's
 * record (its tape) says whether the program freed the block; the reverse
 * of the allocation frees the shadow, and the block if the program did. A
 * block allocated outside the differentiated code is freed as the program
 * says (its shadow is the caller's). */

struct block {
  void *primal, *shadow;
  int freed;
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

static struct allocation record(void *primal, void *shadow, int result) {
  struct allocation a = {0, result};
  if (result)
    return a;
  a.tape = malloc(sizeof *a.tape);
  if (!a.tape)
    fail("cudaMalloc: out of host memory", 0);
  a.tape->primal = primal;
  a.tape->shadow = shadow;
  a.tape->freed = 0;
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
    cudaFree(b->shadow);
  if (b->freed)
    cudaFree(b->primal);
  free(b);
}

struct allocation __enzyme_rt_cuda_malloc_augment(void **p, void **dp,
                                                  size_t n) {
  int error = cudaMalloc(p, n);
  if (!error && dp &&
      ((error = cudaMalloc(dp, n)) || (error = cudaMemset(*dp, 0, n))))
    fail("cudaMalloc: cannot allocate the shadow in device memory", error);
  return record(error ? 0 : *p, !error && dp ? *dp : 0, error);
}
void __enzyme_rt_cuda_malloc_reverse(void **p, void **dp, size_t n,
                                     struct block *tape) {
  (void)p, (void)dp, (void)n;
  release(tape);
}

struct allocation __enzyme_rt_cuda_malloc_managed_augment(void **p, void **dp,
                                                          size_t n,
                                                          unsigned flags) {
  int error = cudaMallocManaged(p, n, flags);
  if (!error && dp &&
      ((error = cudaMallocManaged(dp, n, flags)) ||
       (error = cudaMemset(*dp, 0, n))))
    fail("cudaMallocManaged: cannot allocate the shadow", error);
  return record(error ? 0 : *p, !error && dp ? *dp : 0, error);
}
void __enzyme_rt_cuda_malloc_managed_reverse(void **p, void **dp, size_t n,
                                             unsigned flags,
                                             struct block *tape) {
  (void)p, (void)dp, (void)n, (void)flags;
  release(tape);
}

int __enzyme_rt_cuda_free_augment(void *p, void *dp) {
  (void)dp;
  if (!p)
    return 0;
  lock();
  struct block *b = __enzyme_rt_cuda_blocks;
  while (b && b->primal != p)
    b = b->next;
  if (b)
    b->freed = 1;
  unlock();
  return b ? 0 : cudaFree(p);
}
void __enzyme_rt_cuda_free_reverse(void *p, void *dp) { (void)p, (void)dp; }

/* cudaMemset: the bytes it wrote take no derivative from before. */

int __enzyme_rt_cuda_memset_augment(void *p, void *dp, int value, size_t n) {
  (void)dp;
  return cudaMemset(p, value, n);
}
/* The reverse kernels before may run on a stream that does not wait for
 * the legacy default stream's copies (cudaStreamNonBlocking): wait for
 * every stream first. */
static void wait_for_device(const char *what) {
  int error = cudaDeviceSynchronize();
  if (error)
    fail(what, error);
}

void __enzyme_rt_cuda_memset_reverse(void *p, void *dp, int value, size_t n) {
  (void)p, (void)value;
  int error;
  if (!dp)
    return;
  wait_for_device("cudaMemset: a kernel before it failed");
  if ((error = cudaMemset(dp, 0, n)))
    fail("cudaMemset: cannot clear the adjoints it overwrote", error);
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

/* cudaMemcpy and cudaMemcpyAsync, by what the bytes hold. */

enum contents { floats, doubles, integers, pointers, untyped };

static void *host_copy(const void *from, size_t n) {
  void *buffer = malloc(n ? n : 1);
  if (!buffer)
    fail("cudaMemcpy: out of host memory", 0);
  int error = cudaMemcpy(buffer, from, n, cuda_memcpy_default);
  if (error)
    fail("cudaMemcpy: cannot read adjoints", error);
  return buffer;
}

static void write_back(void *to, const void *buffer, size_t n) {
  int error = cudaMemcpy(to, buffer, n, cuda_memcpy_default);
  if (error)
    fail("cudaMemcpy: cannot write adjoints", error);
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

static void fail_untyped(const char *call) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: in the derivative of ");
  append(&m, call);
  append(&m, ": nothing in the program says whether the memory it copies "
             "holds float, double, integer or pointer values, so the "
             "adjoints cannot be moved back; access the memory with its "
             "type in the differentiated code, or copy through a typed "
             "pointer (see docs/cuda.md)\n");
  write_and_abort(&m);
}

/* The forward copy; shadow memory mirrors the pointers it holds, so a copy
 * of pointers copies their shadows too. */
static int augment_copy(enum contents what, void *dst, void *ddst,
                        const void *src, const void *dsrc, size_t n, int kind,
                        int async, void *stream) {
  int error = async ? cudaMemcpyAsync(dst, src, n, kind, stream)
                    : cudaMemcpy(dst, src, n, kind);
  if (error || what != pointers || !ddst || !dsrc)
    return error;
  if ((error = async ? cudaMemcpyAsync(ddst, dsrc, n, kind, stream)
                     : cudaMemcpy(ddst, dsrc, n, kind)))
    fail("cudaMemcpy: cannot copy the shadows of the pointers it copies",
         error);
  return 0;
}

/* The reverse: the destination's adjoints are added to the source's and
 * cleared (integers and pointers carry none). */
static void reverse_copy(enum contents what, void *ddst, void *dsrc, size_t n) {
  if (what == integers || what == pointers)
    return;
  if (what == untyped) {
    if (ddst || dsrc)
      fail_untyped("cudaMemcpy");
    return;
  }
  if (!ddst)
    return;
  wait_for_device("cudaMemcpy: a kernel before it failed");
  char *moved = host_copy(ddst, n);
  if (dsrc) {
    char *into = host_copy(dsrc, n);
    add_adjoints(what, into, moved, n);
    write_back(dsrc, into, n);
    free(into);
  }
  for (size_t i = 0; i < n; ++i)
    moved[i] = 0;
  write_back(ddst, moved, n);
  free(moved);
}

#define CUDA_MEMCPY_OF(NAME)                                                   \
  int __enzyme_rt_cuda_memcpy_##NAME(void *dst, const void *src, size_t n,     \
                                     int kind) {                               \
    return cudaMemcpy(dst, src, n, kind);                                      \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_##NAME##_augment(void *dst, void *ddst,          \
                                               const void *src, void *dsrc,    \
                                               size_t n, int kind) {           \
    return augment_copy(NAME, dst, ddst, src, dsrc, n, kind, 0, 0);            \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_##NAME##_reverse(void *dst, void *ddst,         \
                                                const void *src, void *dsrc,   \
                                                size_t n, int kind) {          \
    (void)dst, (void)src, (void)kind;                                          \
    reverse_copy(NAME, ddst, dsrc, n);                                         \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_async_##NAME(void *dst, const void *src,         \
                                           size_t n, int kind, void *stream) { \
    return cudaMemcpyAsync(dst, src, n, kind, stream);                         \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_async_##NAME##_augment(                          \
      void *dst, void *ddst, const void *src, void *dsrc, size_t n, int kind,  \
      void *stream, void *dstream) {                                           \
    (void)dstream;                                                             \
    return augment_copy(NAME, dst, ddst, src, dsrc, n, kind, 1, stream);       \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_async_##NAME##_reverse(                         \
      void *dst, void *ddst, const void *src, void *dsrc, size_t n, int kind,  \
      void *stream, void *dstream) {                                           \
    (void)dst, (void)src, (void)kind, (void)stream, (void)dstream;             \
    reverse_copy(NAME, ddst, dsrc, n);                                         \
  }

/* cudaMemcpy2D: HEIGHT rows of WIDTH bytes, PITCH bytes apart. */

static void *host_copy_2d(const void *from, size_t pitch, size_t width,
                          size_t height) {
  void *buffer = malloc(width * height ? width * height : 1);
  if (!buffer)
    fail("cudaMemcpy2D: out of host memory", 0);
  int error = cudaMemcpy2D(buffer, width, from, pitch, width, height,
                           cuda_memcpy_default);
  if (error)
    fail("cudaMemcpy2D: cannot read adjoints", error);
  return buffer;
}

static void write_back_2d(void *to, size_t pitch, const void *buffer,
                          size_t width, size_t height) {
  int error = cudaMemcpy2D(to, pitch, buffer, width, width, height,
                           cuda_memcpy_default);
  if (error)
    fail("cudaMemcpy2D: cannot write adjoints", error);
}

static int augment_copy_2d(enum contents what, void *dst, void *ddst,
                           size_t dpitch, const void *src, const void *dsrc,
                           size_t spitch, size_t width, size_t height,
                           int kind) {
  int error = cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
  if (error || what != pointers || !ddst || !dsrc)
    return error;
  if ((error = cudaMemcpy2D(ddst, dpitch, dsrc, spitch, width, height, kind)))
    fail("cudaMemcpy2D: cannot copy the shadows of the pointers it copies",
         error);
  return 0;
}

static void reverse_copy_2d(enum contents what, void *ddst, size_t dpitch,
                            void *dsrc, size_t spitch, size_t width,
                            size_t height) {
  if (what == integers || what == pointers)
    return;
  if (what == untyped) {
    if (ddst || dsrc)
      fail_untyped("cudaMemcpy2D");
    return;
  }
  if (!ddst)
    return;
  wait_for_device("cudaMemcpy2D: a kernel before it failed");
  size_t n = width * height;
  char *moved = host_copy_2d(ddst, dpitch, width, height);
  if (dsrc) {
    char *into = host_copy_2d(dsrc, spitch, width, height);
    add_adjoints(what, into, moved, n);
    write_back_2d(dsrc, spitch, into, width, height);
    free(into);
  }
  for (size_t i = 0; i < n; ++i)
    moved[i] = 0;
  write_back_2d(ddst, dpitch, moved, width, height);
  free(moved);
}

/* cudaMemcpyToSymbol and cudaMemcpyFromSymbol: N bytes at OFFSET in the
 * __device__ variable whose host handle is SYMBOL (its shadow's: DSYMBOL). */

static void *symbol_copy(const void *symbol, size_t n, size_t offset) {
  void *buffer = malloc(n ? n : 1);
  if (!buffer)
    fail("cudaMemcpyToSymbol: out of host memory", 0);
  int error = cudaMemcpyFromSymbol(buffer, symbol, n, offset,
                                   cuda_memcpy_device_to_host);
  if (error)
    fail("cudaMemcpyToSymbol: cannot read the adjoints of the variable", error);
  return buffer;
}

static void symbol_write_back(const void *symbol, const void *buffer, size_t n,
                              size_t offset) {
  int error =
      cudaMemcpyToSymbol(symbol, buffer, n, offset, cuda_memcpy_host_to_device);
  if (error)
    fail("cudaMemcpyToSymbol: cannot write the adjoints of the variable",
         error);
}

/* The forward copies run on STREAM where ASYNC says so. */
static int to_symbol(const void *symbol, const void *src, size_t n,
                     size_t offset, int kind, int async, void *stream) {
  return async ? cudaMemcpyToSymbolAsync(symbol, src, n, offset, kind, stream)
               : cudaMemcpyToSymbol(symbol, src, n, offset, kind);
}

static int from_symbol(void *dst, const void *symbol, size_t n, size_t offset,
                       int kind, int async, void *stream) {
  return async ? cudaMemcpyFromSymbolAsync(dst, symbol, n, offset, kind, stream)
               : cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);
}

static int augment_to_symbol(enum contents what, const void *symbol,
                             const void *dsymbol, const void *src,
                             const void *dsrc, size_t n, size_t offset,
                             int kind, int async, void *stream) {
  int error = to_symbol(symbol, src, n, offset, kind, async, stream);
  if (error)
    return error;
  // Values that carry derivatives would lose them in a variable without a
  // shadow.
  if (dsrc && !dsymbol && what != integers && what != pointers)
    fail("cudaMemcpyToSymbol: the values it copies carry derivatives, but "
         "the __device__ variable it copies them into has no shadow; "
         "declare one with __attribute__((enzyme_shadow(name))) (see "
         "docs/cuda.md)",
         0);
  if (what == pointers && dsymbol && dsrc &&
      (error = to_symbol(dsymbol, dsrc, n, offset, kind, async, stream)))
    fail("cudaMemcpyToSymbol: cannot copy the shadows of the pointers it "
         "copies",
         error);
  return 0;
}

static void reverse_to_symbol(enum contents what, const void *dsymbol,
                              void *dsrc, size_t n, size_t offset) {
  if (what == integers || what == pointers)
    return;
  if (what == untyped) {
    if (dsymbol || dsrc)
      fail_untyped("cudaMemcpyToSymbol");
    return;
  }
  if (!dsymbol)
    return;
  wait_for_device("cudaMemcpyToSymbol: a kernel before it failed");
  char *moved = symbol_copy(dsymbol, n, offset);
  if (dsrc) {
    char *into = host_copy(dsrc, n);
    add_adjoints(what, into, moved, n);
    write_back(dsrc, into, n);
    free(into);
  }
  for (size_t i = 0; i < n; ++i)
    moved[i] = 0;
  symbol_write_back(dsymbol, moved, n, offset);
  free(moved);
}

static int augment_from_symbol(enum contents what, void *dst, void *ddst,
                               const void *symbol, const void *dsymbol,
                               size_t n, size_t offset, int kind, int async,
                               void *stream) {
  int error = from_symbol(dst, symbol, n, offset, kind, async, stream);
  if (error || what != pointers || !ddst || !dsymbol)
    return error;
  if ((error = from_symbol(ddst, dsymbol, n, offset, kind, async, stream)))
    fail("cudaMemcpyFromSymbol: cannot copy the shadows of the pointers it "
         "copies",
         error);
  return 0;
}

static void reverse_from_symbol(enum contents what, void *ddst,
                                const void *dsymbol, size_t n, size_t offset) {
  if (what == integers || what == pointers)
    return;
  if (what == untyped) {
    if (ddst || dsymbol)
      fail_untyped("cudaMemcpyFromSymbol");
    return;
  }
  if (!ddst)
    return;
  wait_for_device("cudaMemcpyFromSymbol: a kernel before it failed");
  char *moved = host_copy(ddst, n);
  if (dsymbol) {
    char *into = symbol_copy(dsymbol, n, offset);
    add_adjoints(what, into, moved, n);
    symbol_write_back(dsymbol, into, n, offset);
    free(into);
  }
  for (size_t i = 0; i < n; ++i)
    moved[i] = 0;
  write_back(ddst, moved, n);
  free(moved);
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
    return augment_copy_2d(NAME, dst, ddst, dpitch, src, dsrc, spitch, width,  \
                           height, kind);                                      \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_2d_##NAME##_reverse(                            \
      void *dst, void *ddst, size_t dpitch, const void *src, void *dsrc,       \
      size_t spitch, size_t width, size_t height, int kind) {                  \
    (void)dst, (void)src, (void)kind;                                          \
    reverse_copy_2d(NAME, ddst, dpitch, dsrc, spitch, width, height);          \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_to_symbol_##NAME(const void *symbol,             \
                                               const void *src, size_t n,      \
                                               size_t offset, int kind) {      \
    return cudaMemcpyToSymbol(symbol, src, n, offset, kind);                   \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_to_symbol_##NAME##_augment(                      \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind) {                                     \
    return augment_to_symbol(NAME, symbol, dsymbol, src, dsrc, n, offset,      \
                             kind, 0, 0);                                      \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_to_symbol_##NAME##_reverse(                     \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind) {                                     \
    (void)symbol, (void)src, (void)kind;                                       \
    reverse_to_symbol(NAME, dsymbol, dsrc, n, offset);                         \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_from_symbol_##NAME(                              \
      void *dst, const void *symbol, size_t n, size_t offset, int kind) {      \
    return cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);                 \
  }                                                                            \
  int __enzyme_rt_cuda_memcpy_from_symbol_##NAME##_augment(                    \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind) {                                     \
    return augment_from_symbol(NAME, dst, ddst, symbol, dsymbol, n, offset,    \
                               kind, 0, 0);                                    \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_from_symbol_##NAME##_reverse(                   \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind) {                                     \
    (void)dst, (void)symbol, (void)kind;                                       \
    reverse_from_symbol(NAME, ddst, dsymbol, n, offset);                       \
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
    return augment_to_symbol(NAME, symbol, dsymbol, src, dsrc, n, offset,      \
                             kind, 1, stream);                                 \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_to_symbol_async_##NAME##_reverse(               \
      const void *symbol, const void *dsymbol, const void *src, void *dsrc,    \
      size_t n, size_t offset, int kind, void *stream, void *dstream) {        \
    (void)symbol, (void)src, (void)kind, (void)stream, (void)dstream;          \
    reverse_to_symbol(NAME, dsymbol, dsrc, n, offset);                         \
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
    return augment_from_symbol(NAME, dst, ddst, symbol, dsymbol, n, offset,    \
                               kind, 1, stream);                               \
  }                                                                            \
  void __enzyme_rt_cuda_memcpy_from_symbol_async_##NAME##_reverse(             \
      void *dst, void *ddst, const void *symbol, const void *dsymbol,          \
      size_t n, size_t offset, int kind, void *stream, void *dstream) {        \
    (void)dst, (void)symbol, (void)kind, (void)stream, (void)dstream;          \
    reverse_from_symbol(NAME, ddst, dsymbol, n, offset);                       \
  }

CUDA_OTHER_COPIES_OF(floats)
CUDA_OTHER_COPIES_OF(doubles)
CUDA_OTHER_COPIES_OF(integers)
CUDA_OTHER_COPIES_OF(pointers)
CUDA_OTHER_COPIES_OF(untyped)

/* The untyped ones differentiate cudaMemcpy and cudaMemcpyAsync themselves. */
CUDA_MEMCPY_OF(floats)
CUDA_MEMCPY_OF(doubles)
CUDA_MEMCPY_OF(integers)
CUDA_MEMCPY_OF(pointers)
CUDA_MEMCPY_OF(untyped)
