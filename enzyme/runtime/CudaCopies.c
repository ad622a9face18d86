/*===- CudaCopies.c - Derivatives of the CUDA runtime's copies -----------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * The copies of host code that the engine differentiates
 * (Plugin/CudaRuntimeCalls.cpp), in the ABI of __enzyme_register_gradient
 * (each pointer followed by its shadow, null where the call carries no
 * derivative through it); CudaMemory.c has the allocations and memsets.
 *
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
 * function, which returns the call's result): a copy copies the shadow's
 * bytes (the tangents, or the shadows of pointers) or, from memory without
 * a shadow, clears the destination's.
 *
 *===----------------------------------------------------------------------===*/

#include "CudaFailures.h"

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
