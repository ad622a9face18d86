/*===- enzyme/enzyme.h - C declarations of the Enzyme ABI -----------------===*\
|*                                                                            *|
|* Part of the Enzyme toolchain.                                              *|
|*                                                                            *|
|* Declares the calls and activity markers that code compiled with            *|
|* `enzyme-clang -fenzyme` uses to ask for derivatives. The names and their   *|
|* meaning follow Enzyme's published ABI, so existing sources work unchanged. *|
|* The functions have no definition: the compiler replaces every call.        *|
\*===----------------------------------------------------------------------===*/

#ifndef ENZYME_ENZYME_H
#define ENZYME_ENZYME_H

/* Activity markers: pass one before an argument to say how it is treated.
 * Declared without extern "C" in C++ so that a file may also declare them
 * itself (`int enzyme_dup;`, as Enzyme's examples do): a variable at global
 * scope has the same symbol either way. */
extern int enzyme_dup;       /* pointer, then its shadow pointer */
extern int enzyme_dupnoneed; /* like enzyme_dup; the primal result is unused */
extern int enzyme_const;     /* not differentiated */
extern int enzyme_out;       /* active scalar by value; gradient returned */
extern int enzyme_width;     /* vector mode: followed by the width N */
extern int enzyme_dupv; /* vector mode: byte stride, pointer, shadow block */
extern int
    enzyme_dupnoneedv;       /* like enzyme_dupv; the primal result is unused */
extern int enzyme_allocated; /* split mode: followed by the tape size */
extern int enzyme_tape;      /* split mode: followed by the tape */
extern int enzyme_primal_return; /* also return the primal result */
extern int enzyme_const_return;  /* reverse/split: do not seed the result */
extern int enzyme_active_return; /* reverse/split: seed a float result */
extern int enzyme_context;       /* followed by a context: shadows of globals */
extern int enzyme_nocache;  /* split mode, before a pointer's marker: its memory
                               is not changed between the two halves */
extern int enzyme_vector;   /* __enzyme_batch: one value per lane follows */
extern int enzyme_scalar;   /* __enzyme_batch: one value for all lanes follows */

/* The calls themselves take the function to differentiate, then the
 * arguments with their markers. Declare them with the return type you need,
 * since it depends on the function:
 *
 *   double __enzyme_autodiff(void *, ...);            one active scalar
 *   struct grads { double dx, dy; };
 *   struct grads __enzyme_autodiff(void *, ...);      several (in order)
 *   void __enzyme_autodiff(void *, ...);              only enzyme_dup
 *
 * (in C++, inside extern "C", or as a variadic template). The compiler
 * replaces every call; there is no definition to link. */

/* Contexts (docs/globals.md): shadows for mutable globals that have no
 * declared shadow (enzyme_shadow). A request given `enzyme_context, ctx`
 * keeps them in ctx; the compiler implements these functions. */
#ifdef __cplusplus
extern "C" {
#endif
void *__enzyme_context(void);          /* a new, empty context */
void __enzyme_free_context(void *ctx); /* frees it and its shadows */
void __enzyme_zero_shadows(void *ctx); /* zeroes every shadow in it */
/* The shadow in ctx of the global at `global` (an address within a global,
 * known at compile time), created zeroed if absent. flags: 0, or
 * ENZYME_SHADOW_ZERO to zero the global's shadow first. */
void *__enzyme_shadow(void *ctx, void *global, int flags);
#ifdef __cplusplus
}
#endif
#define ENZYME_SHADOW_ZERO 1

/* What memory holds, for the type analysis (docs/reverse-mode.md, "Memory
 * copied without a type"): the `bytes` bytes at `ptr` hold doubles (floats,
 * integers, pointers). Call them where nothing in the program says so, such
 * as on a byte buffer that a derivative copies with memcpy. The compiler
 * removes every call. */
#ifdef __cplusplus
extern "C" {
#endif
void __enzyme_double(void *ptr, unsigned long bytes);
void __enzyme_float(void *ptr, unsigned long bytes);
void __enzyme_integer(void *ptr, unsigned long bytes);
void __enzyme_pointer(void *ptr, unsigned long bytes);
#ifdef __cplusplus
}
#endif

#endif /* ENZYME_ENZYME_H */
