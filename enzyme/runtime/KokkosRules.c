/*===- KokkosRules.c - Derivatives of Kokkos' allocation records ----------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * A Kokkos::View owns its memory through an allocation record, which the
 * library counts references to and frees at zero. The shadow of a View
 * holds the shadow's own record (a View the user passed as a shadow, or
 * one the engine made beside a View the differentiated code allocates), so
 * the rules below keep the shadow's count in step with the primal's:
 *
 *   constructor   of a HostSpace record (any of Kokkos' versions): the
 *                 engine runs it on the shadow too (same label, size and
 *                 deallocator); record_made zeroes the shadow's data. In
 *                 reverse mode the shadow holds a count of its own until
 *                 the reverse of its construction, which releases it: the
 *                 shadow is freed there, after every adjoint in it has
 *                 been read;
 *   increment     counts the shadow too, in the forward pass, and the
 *                 reverse of each increment decrements it;
 *   decrement     leaves the shadow alone in the forward pass: the reverse
 *                 pass still needs its adjoints.
 *
 * In forward mode (the _forward rules) the shadow follows the primal call
 * for call. A shadow that is null, the primal itself, or a record pointer
 * with Kokkos' do-not-count flag (an unmanaged View as the shadow) is not
 * counted.
 *
 * The ABI is the library's (Kokkos 3.4 to 4.6 without KOKKOS_ENABLE_DEBUG):
 * a record begins with its vtable pointer, then the address of its
 * 128-byte header, then the size of header and data together.
 *
 *===----------------------------------------------------------------------===*/

typedef __SIZE_TYPE__ size_t;
typedef __UINTPTR_TYPE__ uintptr_t;

void *memset(void *, int, size_t);

struct record_prefix {
  void *vtable;
  char *header;
  size_t header_and_data;
};
enum { header_size = 128, do_not_count = 1 };

#define KOKKOS_RECORD(name) "_ZN6Kokkos4Impl22SharedAllocationRecordIvvE" name

void kokkos_increment(void *record) __asm__(KOKKOS_RECORD("9incrementEPS2_"));
void *kokkos_decrement(void *record) __asm__(KOKKOS_RECORD("9decrementEPS2_"));

/* The shadow is a record of its own that the rules may count: not a
 * scratch shadow (ScratchShadows.c: zeroed memory where the engine could
 * not follow the record's address, which -O0 code moves through integer
 * phis), which has no header. A View copy whose shadow record is uncounted
 * is harmless: the record it copies outlives it, in the forward and in the
 * reverse pass. */
static int counted_shadow(const void *record, const void *shadow) {
  if (!shadow || shadow == record || ((uintptr_t)shadow & do_not_count))
    return 0;
  const struct record_prefix *r = shadow;
  return r->header != 0;
}

/* Counts SHADOW beside RECORD. A shadow record made by the constructor rule
 * has no vtable yet: the engine gives the vtable pointer that the derived
 * record's constructor stores a null shadow (nothing reads a derivative
 * through it), and the library's deallocator destroys the record through
 * it. The first count, after construction, gives it the primal's. */
static void count_shadow(void *record, void *shadow) {
  if (!counted_shadow(record, shadow))
    return;
  struct record_prefix *r = shadow;
  if (!r->vtable)
    r->vtable = ((struct record_prefix *)record)->vtable;
  kokkos_increment(shadow);
}

void __enzyme_rt_kokkos_increment_augment(void *record, void *shadow) {
  kokkos_increment(record);
  count_shadow(record, shadow);
}

void __enzyme_rt_kokkos_increment_reverse(void *record, void *shadow) {
  if (counted_shadow(record, shadow))
    kokkos_decrement(shadow);
}

void __enzyme_rt_kokkos_increment_forward(void *record, void *shadow) {
  __enzyme_rt_kokkos_increment_augment(record, shadow);
}

void *__enzyme_rt_kokkos_decrement_augment(void *record, void *shadow) {
  (void)shadow;
  return kokkos_decrement(record);
}

void __enzyme_rt_kokkos_decrement_reverse(void *record, void *shadow) {
  (void)record;
  (void)shadow;
}

struct pointer_pair {
  void *primal, *shadow;
};

struct pointer_pair __enzyme_rt_kokkos_decrement_forward(void *record,
                                                         void *shadow) {
  struct pointer_pair result = {kokkos_decrement(record), 0};
  if (counted_shadow(record, shadow))
    result.shadow = kokkos_decrement(shadow);
  return result;
}

/* After a record's constructor ran on the primal RECORD and on SHADOW
 * (the engine calls it on both: Plugin/LibraryGradients.cpp): zeroes the
 * shadow's data, since adjoints start at zero whether or not the View
 * initialises its data, and in reverse mode (HOLD) gives the shadow a count
 * of its own, which the reverse of the construction releases: the View
 * initialises its data before it counts its record, so the reverse of that
 * first count comes before the reverse of the initialisation, which still
 * writes adjoints there. */
void __enzyme_rt_kokkos_record_made(void *record, void *shadow, int hold) {
  if (!shadow || shadow == record)
    return;
  struct record_prefix *made = shadow;
  memset(made->header + header_size, 0, made->header_and_data - header_size);
  if (hold)
    kokkos_increment(shadow);
}

void __enzyme_rt_kokkos_record_release(void *record, void *shadow) {
  if (!shadow || shadow == record)
    return;
  /* Without a vtable no View ever counted it (the first count gives it
   * one): the library cannot destroy it, so it is left. */
  if (((struct record_prefix *)shadow)->vtable)
    kokkos_decrement(shadow);
}
