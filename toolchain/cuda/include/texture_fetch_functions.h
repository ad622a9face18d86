/*===- texture_fetch_functions.h - CUDA 13 stand-in for clang 19 ----------===
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===
 *
 * Clang 19's __clang_cuda_runtime_wrapper.h includes this header
 * unconditionally. Up to CUDA 12 it declared the fetch functions of texture
 * *references* (`texture<T, dim, mode>`); CUDA 13 removed texture references
 * and this header with them. Nothing can use them any more, so the stand-in
 * is empty. Texture *objects* (`tex1Dfetch<T>(cudaTextureObject_t, ...)`)
 * come from texture_indirect_functions.h, which CUDA 13 still ships.
 *
 * The driver adds this directory with -idirafter: a toolkit that still has
 * the real header uses it.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ENZYME_CUDA_COMPAT_TEXTURE_FETCH_FUNCTIONS_H
#define ENZYME_CUDA_COMPAT_TEXTURE_FETCH_FUNCTIONS_H
#endif
