/*===- ShadowRelease.h - Freeing a shadow as its primal is freed ----------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * The engine allocates a shadow block the way the program allocated its
 * primal (Core/ShadowMemory.h): with operator new when the program used
 * operator new, so that a library handed the shadow of an object it owns
 * (a Kokkos allocation record) deletes it correctly, and AddressSanitizer
 * sees matching pairs. The run-time frees such shadows the same way. The
 * family numbers are the engine's AllocatorFamily: 0 free, 1 operator
 * delete, 2 operator delete[]; a nonzero alignment picks the aligned form.
 *
 * operator delete is declared weak: a C program that never calls operator
 * new links the run-time without the C++ library.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ENZYME_RUNTIME_SHADOWRELEASE_H
#define ENZYME_RUNTIME_SHADOWRELEASE_H

typedef __SIZE_TYPE__ size_t;

void free(void *);
__attribute__((weak)) void _ZdlPv(void *);
__attribute__((weak)) void _ZdaPv(void *);
__attribute__((weak)) void _ZdlPvSt11align_val_t(void *, size_t);
__attribute__((weak)) void _ZdaPvSt11align_val_t(void *, size_t);

enum { shadow_by_malloc = 0, shadow_by_new = 1, shadow_by_new_array = 2 };

static inline void release_shadow(void *shadow, int family, size_t align) {
  if (family == shadow_by_new && align)
    _ZdlPvSt11align_val_t(shadow, align);
  else if (family == shadow_by_new)
    _ZdlPv(shadow);
  else if (family == shadow_by_new_array && align)
    _ZdaPvSt11align_val_t(shadow, align);
  else if (family == shadow_by_new_array)
    _ZdaPv(shadow);
  else
    free(shadow);
}

#endif /* ENZYME_RUNTIME_SHADOWRELEASE_H */
