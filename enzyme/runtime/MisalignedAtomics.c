/*===- MisalignedAtomics.c - Atomic adjoint additions, any alignment ------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * The reverse pass adds adjoints atomically where threads share memory
 * (Modes/SharedAdjoints.h). Where it cannot prove a float's natural
 * alignment, LLVM would lower the addition to libatomic's generic
 * compare-exchange, which programs do not link. These add with the
 * hardware's compare-exchange at an aligned address, and under one lock at
 * a misaligned one: an address is one or the other, so the two never race
 * on one location.
 *
 *===----------------------------------------------------------------------===*/

typedef unsigned long uintptr_t;
typedef unsigned long uint64_t;
typedef unsigned int uint32_t;

int sched_yield(void);

/* One lock for every misaligned address (they are rare). */
int __enzyme_rt_misaligned_lock;

static void lock(void) {
  while (__atomic_exchange_n(&__enzyme_rt_misaligned_lock, 1, __ATOMIC_ACQUIRE))
    sched_yield();
}

static void unlock(void) {
  __atomic_store_n(&__enzyme_rt_misaligned_lock, 0, __ATOMIC_RELEASE);
}

/* *p += d for a float type T whose bits an unsigned W holds. */
#define DEFINE_ATOMIC_FADD(NAME, T, W)                                         \
  void NAME(T *p, T d) {                                                       \
    if ((uintptr_t)p % sizeof(T) == 0) {                                       \
      W *word = (W *)p;                                                        \
      W old = __atomic_load_n(word, __ATOMIC_RELAXED), sum;                    \
      do {                                                                     \
        T v;                                                                   \
        __builtin_memcpy(&v, &old, sizeof v);                                  \
        v += d;                                                                \
        __builtin_memcpy(&sum, &v, sizeof v);                                  \
      } while (!__atomic_compare_exchange_n(word, &old, sum, 1,                \
                                            __ATOMIC_RELAXED,                  \
                                            __ATOMIC_RELAXED));                \
      return;                                                                  \
    }                                                                          \
    lock();                                                                    \
    T v;                                                                       \
    __builtin_memcpy(&v, p, sizeof v);                                         \
    v += d;                                                                    \
    __builtin_memcpy(p, &v, sizeof v);                                         \
    unlock();                                                                  \
  }

DEFINE_ATOMIC_FADD(__enzyme_rt_atomic_fadd_f64, double, uint64_t)
DEFINE_ATOMIC_FADD(__enzyme_rt_atomic_fadd_f32, float, uint32_t)
