/*===- ScratchShadows.c - Zeroed shadows of memory without derivatives ----===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * Memory without derivatives (an enzyme_const argument, a global, a buffer
 * that inactive code returned) has no shadow. Where generated code must give
 * a pointer to such memory a shadow anyway, because the pointer goes where
 * code that the engine cannot follow may read derivatives through it (a
 * field of an object with a shadow, a returned pointer, one side of a
 * choice), it asks for a scratch shadow here: zeroed memory at the same
 * offsets as the primal's, which is what `enzyme_dup` with a zeroed shadow
 * would have passed. Derivatives added there are dropped with it; the
 * derivatives of everything else are exact.
 *
 * The primal object's size is not known, so the scratch shadow covers the
 * whole mapping that holds the address (read from /proc/self/maps) with a
 * margin on both sides, reserved without committing memory: pages are
 * zero until touched. One address always gets the same scratch shadow while
 * a sweep runs, so pointer arithmetic, copies and comparisons agree on both
 * sides. Each direction of vector mode (lane) has scratch shadows of its own.
 *
 * Scratch shadows are zeroed when the outermost bracketed sweep ends
 * (__enzyme_rt_scratch_begin / __enzyme_rt_scratch_end, around every
 * gradient, forward derivative and split-mode pair that asks for them), so
 * each sweep starts from zero, as an enzyme_dup shadow would. They stay
 * reserved for the next sweep, which checks with two system calls that the
 * mappings around them did not grow past their margins before it uses
 * them again; /proc/self/maps is read only for addresses no scratch shadow
 * covers. State is per thread; the threads that run a parallel region's
 * derivative share their master's.
 *
 *===----------------------------------------------------------------------===*/

#include "Message.h"
#include "ShadowRelease.h"

typedef __UINTPTR_TYPE__ uintptr_t;

void *mmap(void *, size_t, int, int, int, long);
int munmap(void *, size_t);
int madvise(void *, size_t, int);
int msync(void *, size_t, int);
int *__errno_location(void);
int open(const char *, int, ...);
long read(int, void *, size_t);
int close(int);
void *realloc(void *, size_t);

#define SCRATCH_PROT_READ_WRITE 3
#define SCRATCH_MAP_PRIVATE_ANONYMOUS_NORESERVE (0x02 | 0x20 | 0x4000)
#define SCRATCH_O_RDONLY_CLOEXEC 02000000
#define SCRATCH_MAP_FAILED ((void *)-1)
#define SCRATCH_MADV_DONTNEED 4
#define SCRATCH_MS_ASYNC 1
#define SCRATCH_ENOMEM 12

/* What a scratch shadow covers beyond its mapping on each side: room for a
 * heap that grows and for addresses just outside an object. */
static const uintptr_t Margin = (uintptr_t)64 << 20;

/* How many scratch shadows stay reserved between sweeps. */
static const size_t MaxKeptRegions = 64;

struct scratch_region {
  uintptr_t lo, hi;      /* the mapping that holds the primal addresses */
  uintptr_t first, last; /* the primal addresses the reservation covers */
  uintptr_t offset;      /* scratch shadow - primal address (mod 2^64) */
  void *base;
  size_t bytes;
  unsigned lane;
  unsigned long epoch; /* the sweep whose mappings its bounds hold for */
};

struct scratch_state {
  struct scratch_region *regions;
  size_t count, capacity;
  unsigned depth;
  unsigned long epoch; /* outermost sweeps ended so far */
  int lock;            /* the threads of a parallel region share it */
};
/* Not static: each function is linked into a module on its own, and they
 * must share one state. */
__thread struct scratch_state __enzyme_rt_scratch_state;
/* The state this thread uses, where not its own: the threads of a parallel
 * region's derivative share their master's (Modes/ParallelRegions.cpp), so
 * that a scratch shadow one thread writes (Kokkos' per-thread partial sums)
 * is the one another reads (the join after the region). */
__thread struct scratch_state *__enzyme_rt_scratch_shared;

static struct scratch_state *state(void) {
  struct scratch_state *s = __enzyme_rt_scratch_shared;
  return s ? s : &__enzyme_rt_scratch_state;
}

static void lock(struct scratch_state *s) {
  while (__atomic_exchange_n(&s->lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&s->lock, __ATOMIC_RELAXED))
      ;
}

static void unlock(struct scratch_state *s) {
  __atomic_store_n(&s->lock, 0, __ATOMIC_RELEASE);
}

/* What a parallel region's threads are to use: this thread's state. */
void *__enzyme_rt_scratch_team_state(void) { return state(); }

/* A thread of a parallel region's derivative takes TEAM_STATE; returns what
 * it used before, which it takes back after the region's body. */
void *__enzyme_rt_scratch_adopt(void *team_state) {
  void *before = __enzyme_rt_scratch_shared;
  __enzyme_rt_scratch_shared = team_state;
  return before;
}

__attribute__((noreturn, cold, noinline)) static void report(const char *what,
                                                             uintptr_t bytes) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: ");
  append(&m, what);
  if (bytes) {
    append(&m, " (");
    append_number(&m, bytes);
    append(&m, " bytes)");
  }
  append(&m, " for memory without derivatives that the derivative reaches; "
             "pass that memory with enzyme_dup and a zeroed shadow, see "
             "docs/reverse-mode.md\n");
  write_and_abort(&m);
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

/* The mapping [*lo, *hi) that holds p (p == *hi counts: an end pointer),
 * from /proc/self/maps. Returns 0 if no mapping holds it. */
static int find_mapping(uintptr_t p, uintptr_t *lo, uintptr_t *hi) {
  int fd = open("/proc/self/maps", SCRATCH_O_RDONLY_CLOEXEC);
  if (fd < 0)
    report("cannot read /proc/self/maps to make a scratch shadow", 0);
  char buffer[4096];
  /* Each line starts "lo-hi "; the rest is skipped. */
  enum { Low, High, Rest } field = Low;
  uintptr_t a = 0, b = 0;
  int found = 0;
  long n;
  while (!found && (n = read(fd, buffer, sizeof(buffer))) > 0) {
    for (long i = 0; i < n && !found; ++i) {
      char c = buffer[i];
      if (field == Rest) {
        if (c == '\n') {
          field = Low;
          a = b = 0;
        }
        continue;
      }
      int d = hex_digit(c);
      if (d >= 0) {
        if (field == Low)
          a = a * 16 + (uintptr_t)d;
        else
          b = b * 16 + (uintptr_t)d;
      } else if (field == Low && c == '-') {
        field = High;
      } else {
        field = Rest;
        if (a <= p && p <= b) {
          *lo = a;
          *hi = b;
          found = 1;
        }
      }
    }
  }
  close(fd);
  return found;
}

static struct scratch_region *add_region(struct scratch_state *s, uintptr_t lo,
                                         uintptr_t hi, unsigned lane) {
  if (s->count == s->capacity) {
    size_t capacity = s->capacity ? 2 * s->capacity : 16;
    struct scratch_region *regions =
        realloc(s->regions, capacity * sizeof(struct scratch_region));
    if (!regions)
      report("out of memory for the table of scratch shadows", 0);
    s->regions = regions;
    s->capacity = capacity;
  }
  /* The margin below stops at address 0. */
  uintptr_t below = lo < Margin ? lo : Margin;
  size_t bytes = (size_t)(hi - lo + below + Margin);
  void *base = mmap(0, bytes, SCRATCH_PROT_READ_WRITE,
                    SCRATCH_MAP_PRIVATE_ANONYMOUS_NORESERVE, -1, 0);
  if (base == SCRATCH_MAP_FAILED)
    report("cannot reserve a scratch shadow", bytes);
  struct scratch_region *r = &s->regions[s->count++];
  r->lo = lo;
  r->hi = hi;
  r->first = lo - below;
  r->last = hi + Margin;
  r->offset = (uintptr_t)base - r->first;
  r->base = base;
  r->bytes = bytes;
  r->lane = lane;
  r->epoch = s->epoch;
  return r;
}

/* Some page in [from, to) is not mapped: msync reports ENOMEM for a range
 * with a hole, and does nothing else with MS_ASYNC. An empty range (the
 * margin below a mapping at address 0) counts as a hole. */
static int has_hole(uintptr_t from, uintptr_t to) {
  uintptr_t page = 4096;
  from &= ~(page - 1);
  to = (to + page - 1) & ~(page - 1);
  if (to <= from)
    return 1;
  return msync((void *)from, to - from, SCRATCH_MS_ASYNC) != 0 &&
         *__errno_location() == SCRATCH_ENOMEM;
}

/* R, made in an earlier sweep, still covers the object at any address of
 * the mapping it was made for: unmapped pages in both margins bound the
 * mapped memory around it, which holds every object there. Otherwise the
 * mappings changed, and R's bounds are read again. */
static int still_covers(struct scratch_state *s, struct scratch_region *r) {
  if (r->epoch == s->epoch)
    return 1;
  if (!has_hole(r->first, r->lo) || !has_hole(r->hi, r->last))
    return 0;
  r->epoch = s->epoch;
  return 1;
}

static void *scratch_shadow(struct scratch_state *s, uintptr_t a,
                            unsigned lane) {
  for (size_t i = 0; i < s->count; ++i) {
    struct scratch_region *r = &s->regions[i];
    if (r->lane == lane && r->lo <= a && a <= r->hi && still_covers(s, r))
      return (void *)(a + r->offset);
  }
  uintptr_t lo, hi;
  if (!find_mapping(a, &lo, &hi))
    return 0; /* Not memory: the program does not read through it. */
  /* A mapping that grew (the heap), or that was read again, within a
   * region's reservation keeps its scratch shadow: the bounds just read
   * hold. */
  for (size_t i = 0; i < s->count; ++i) {
    struct scratch_region *r = &s->regions[i];
    if (r->lane == lane && r->first <= lo && hi <= r->last) {
      r->lo = lo;
      r->hi = hi;
      r->epoch = s->epoch;
      return (void *)(a + r->offset);
    }
  }
  return (void *)(a + add_region(s, lo, hi, lane)->offset);
}

/* The scratch shadow of address P in direction LANE. */
void *__enzyme_rt_scratch_shadow(void *p, unsigned lane) {
  uintptr_t a = (uintptr_t)p;
  if (!a)
    return 0;
  struct scratch_state *s = state();
  lock(s);
  void *shadow = scratch_shadow(s, a, lane);
  unlock(s);
  return shadow;
}

/* SHADOW, loaded from shadow memory for the pointer P loaded from memory
 * with derivatives: a null shadow beside a pointer that is not null means
 * the pointer has none (a pointer to memory without derivatives kept in a
 * field, which copies the engine could not follow put there); code that
 * reads through it gets a scratch shadow instead. */
void *__enzyme_rt_scratch_if_null(void *shadow, void *p, unsigned lane) {
  if (__builtin_expect(shadow != 0 || p == 0, 1))
    return shadow;
  return __enzyme_rt_scratch_shadow(p, lane);
}

/* The forward-mode mirror of a `free`: SHADOW, unless it is a scratch
 * shadow (the pointer freed came from code without derivatives), which is
 * the run-time's, or an address on this thread's stack: a string's buffer
 * that a library member moved from its inline storage to the heap in the
 * primal (a call without derivatives, std::string's, which the shadow
 * string does not follow) leaves the shadow pointing at the shadow's
 * inline storage, a local of the derivative. Nothing of the stack is the
 * allocator's; 8 MiB above this frame covers a thread's default stack.
 * FAMILY and ALIGN: how the primal is freed (ShadowRelease.h). */
void __enzyme_rt_free_shadow(void *shadow, int family, size_t align) {
  uintptr_t a = (uintptr_t)shadow;
  struct scratch_state *s = state();
  int scratch = 0;
  lock(s);
  for (size_t i = 0; i < s->count && !scratch; ++i) {
    uintptr_t base = (uintptr_t)s->regions[i].base;
    scratch = base <= a && a < base + s->regions[i].bytes;
  }
  unlock(s);
  uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
  int stack = a >= frame && a - frame < ((uintptr_t)8 << 20);
  if (!scratch && !stack)
    release_shadow(shadow, family, align);
}

void __enzyme_rt_scratch_begin(void) {
  struct scratch_state *s = state();
  lock(s);
  ++s->depth;
  unlock(s);
}

/* The outermost sweep ended: the scratch shadows are zeroed for the next
 * (their pages given back), and kept, so that the next sweep does not
 * read the mappings again; a table grown large is let go. */
void __enzyme_rt_scratch_end(void) {
  struct scratch_state *s = state();
  lock(s);
  if (s->depth && --s->depth) {
    unlock(s);
    return;
  }
  int keep = s->count <= MaxKeptRegions;
  for (size_t i = 0; i < s->count; ++i) {
    struct scratch_region *r = &s->regions[i];
    if (keep)
      madvise(r->base, r->bytes, SCRATCH_MADV_DONTNEED);
    else
      munmap(r->base, r->bytes);
  }
  if (!keep)
    s->count = 0;
  ++s->epoch;
  unlock(s);
}
