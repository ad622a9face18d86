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
 * library counts references to and frees at zero. A View that the
 * differentiated code allocates gets a shadow View: the engine runs the
 * record's constructor on the shadow record too (same label, size and
 * deallocator: Plugin/LibraryGradients.cpp), and record_made below zeroes
 * its data and holds one count on it, which is the only count a shadow
 * record ever has:
 *
 *   reverse mode  the reverse of the construction releases it: the shadow
 *                 is freed there, after every adjoint in it has been read
 *                 (the construction comes before every use of the View);
 *   forward mode  the primal's last decrement releases it, with the
 *                 primal's memory.
 *
 * The counts of Views copied in the differentiated code are not mirrored
 * on shadows: the shadow record a copy of a View holds is read from shadow
 * memory, which unoptimised code reaches through copies the engine cannot
 * always follow (a scratch shadow, ScratchShadows.c, stands for it then),
 * so the pairing of a record with its shadow is taken only where it is
 * sure, at the construction, and kept here (per thread: records are made
 * by the thread that runs the host code).
 *
 * One repair: the derived record's constructor, inline in the program,
 * stores its vtable pointer after the base constructor ran, and the engine
 * gives that store a null shadow (nothing reads a derivative through a
 * vtable); the library destroys a record through its vtable, so the first
 * count of the primal record copies its vtable pointer to the shadow.
 *
 * The ABI is the library's (Kokkos 3.4 to 4.6 without KOKKOS_ENABLE_DEBUG):
 * a record begins with its vtable pointer, then the address of its
 * 128-byte header, then the size of header and data together.
 *
 *===----------------------------------------------------------------------===*/

typedef __SIZE_TYPE__ size_t;

void *memset(void *, int, size_t);
void *realloc(void *, size_t);
void abort(void);

struct record_prefix {
  void *vtable;
  char *header;
  size_t header_and_data;
};
enum { header_size = 128 };

#define KOKKOS_RECORD(name) "_ZN6Kokkos4Impl22SharedAllocationRecordIvvE" name

void kokkos_increment(void *record) __asm__(KOKKOS_RECORD("9incrementEPS2_"));
void *kokkos_decrement(void *record) __asm__(KOKKOS_RECORD("9decrementEPS2_"));

/* Live records with a shadow the engine made: primal -> shadow. A few at a
 * time (the Views of one function), so a list. Not static: each function
 * is linked into a module on its own, and they must share one table. */
struct shadow_pair {
  void *record, *shadow;
};
struct shadow_pairs {
  struct shadow_pair *items;
  size_t count, capacity;
};
__thread struct shadow_pairs __enzyme_rt_kokkos_shadows;

static struct shadow_pair *find_pair(const void *record) {
  struct shadow_pairs *t = &__enzyme_rt_kokkos_shadows;
  for (size_t i = t->count; i-- > 0;)
    if (t->items[i].record == record)
      return &t->items[i];
  return 0;
}

static void forget_pair(struct shadow_pair *p) {
  struct shadow_pairs *t = &__enzyme_rt_kokkos_shadows;
  *p = t->items[--t->count];
}

static void add_pair(void *record, void *shadow) {
  struct shadow_pairs *t = &__enzyme_rt_kokkos_shadows;
  /* A record at the address of one freed earlier (its pair forgotten then,
   * or not: the primal was freed by code the rules did not see). */
  struct shadow_pair *old = find_pair(record);
  if (old)
    forget_pair(old);
  if (t->count == t->capacity) {
    size_t capacity = t->capacity ? 2 * t->capacity : 16;
    struct shadow_pair *items =
        realloc(t->items, capacity * sizeof(struct shadow_pair));
    if (!items)
      abort();
    t->items = items;
    t->capacity = capacity;
  }
  t->items[t->count].record = record;
  t->items[t->count].shadow = shadow;
  ++t->count;
}

/* After a record's constructor ran on the primal RECORD and on SHADOW. */
void __enzyme_rt_kokkos_record_made(void *record, void *shadow) {
  if (!shadow || shadow == record)
    return;
  struct record_prefix *made = shadow;
  memset(made->header + header_size, 0, made->header_and_data - header_size);
  kokkos_increment(shadow);
  add_pair(record, shadow);
}

/* The reverse of the construction of RECORD with SHADOW. */
void __enzyme_rt_kokkos_record_release(void *record, void *shadow) {
  if (!shadow || shadow == record)
    return;
  struct shadow_pair *p = find_pair(record);
  if (p && p->shadow == shadow)
    forget_pair(p);
  /* Without a vtable the primal was never counted (no View took it): the
   * library could not destroy the shadow, so it is left. */
  if (((struct record_prefix *)shadow)->vtable)
    kokkos_decrement(shadow);
}

/* Every count of RECORD: gives a shadow made beside it its vtable. */
static void repair_vtable(void *record) {
  struct shadow_pair *p = find_pair(record);
  if (!p)
    return;
  struct record_prefix *shadow = p->shadow;
  if (!shadow->vtable)
    shadow->vtable = ((struct record_prefix *)record)->vtable;
}

void __enzyme_rt_kokkos_increment_augment(void *record, void *shadow) {
  (void)shadow;
  kokkos_increment(record);
  repair_vtable(record);
}

void __enzyme_rt_kokkos_increment_reverse(void *record, void *shadow) {
  (void)record;
  (void)shadow;
}

void __enzyme_rt_kokkos_increment_forward(void *record, void *shadow) {
  __enzyme_rt_kokkos_increment_augment(record, shadow);
}

/* In reverse mode the primal may be freed: its shadow lives on until the
 * reverse of its construction. */
void *__enzyme_rt_kokkos_decrement_augment(void *record, void *shadow) {
  (void)shadow;
  struct shadow_pair *p = find_pair(record);
  void *left = kokkos_decrement(record);
  if (p && !left)
    forget_pair(p); /* The address may be a new record's next. */
  return left;
}

void __enzyme_rt_kokkos_decrement_reverse(void *record, void *shadow) {
  (void)record;
  (void)shadow;
}

struct pointer_pair {
  void *primal, *shadow;
};

/* In forward mode the shadow goes with the primal's memory. */
struct pointer_pair __enzyme_rt_kokkos_decrement_forward(void *record,
                                                         void *shadow) {
  (void)shadow;
  struct shadow_pair *p = find_pair(record);
  void *made = p ? p->shadow : 0;
  struct pointer_pair result = {kokkos_decrement(record), 0};
  if (made && !result.primal) {
    forget_pair(find_pair(record));
    kokkos_decrement(made);
  } else {
    result.shadow = made;
  }
  return result;
}
