/*===- ShadowRegistry.c - Shadows that outlive their allocator's frame ----===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * A block that a differentiated function allocates and that leaves it (it
 * is returned, or stored) may be freed by another function: std::vector's
 * storage is allocated by one member function and freed by another. Its
 * shadow must live until the reverse pass has consumed every adjoint in
 * it, that is until the sweep ends, and must be freed then, unless the
 * shadow is not the engine's (a shadow the user passed in). So:
 *
 *  - the augmented function that makes such a shadow records it
 *    (__enzyme_rt_shadow_made);
 *  - the reverse of a `free` of a block whose allocation is elsewhere hands
 *    its shadow over (__enzyme_rt_shadow_freed): a recorded shadow is freed
 *    when the sweep ends, as the program freed its primal (free, or
 *    operator delete: ShadowRelease.h), any other one is left to its owner;
 *  - a sweep (a gradient, or the reverse half of split mode) brackets its
 *    reverse pass with __enzyme_rt_sweep_begin / __enzyme_rt_sweep_end.
 *
 * Split mode's halves run apart, so a shadow recorded by one augmented
 * forward call stays recorded until its reverse call hands it over.
 *
 * State is per thread. The record is an open-addressing hash set of
 * pointers, so recording and handing over cost O(1) on average.
 *
 *===----------------------------------------------------------------------===*/

#include "ShadowRelease.h"

typedef __UINTPTR_TYPE__ uintptr_t;

void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void abort(void);

#define TOMBSTONE ((void *)1)

/* The engine's shadows that may be freed by a function other than their
 * allocator's. */
struct shadow_set {
  void **slots;
  size_t capacity; /* a power of two, or 0 */
  size_t used;     /* live entries and tombstones */
};
__thread struct shadow_set __enzyme_rt_made;

/* Shadows to free when the current sweep ends, and how. */
struct freed_shadow {
  void *shadow;
  int family;
  size_t align;
};
struct shadow_list {
  struct freed_shadow *items;
  size_t count, capacity;
};
__thread struct shadow_list __enzyme_rt_later;

static size_t slot_of(const void *p, size_t capacity) {
  uintptr_t x = (uintptr_t)p >> 4;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (capacity - 1);
}

static void insert_unchecked(struct shadow_set *s, void *p) {
  size_t i = slot_of(p, s->capacity);
  while (s->slots[i] && s->slots[i] != TOMBSTONE)
    i = (i + 1) & (s->capacity - 1);
  s->slots[i] = p;
}

static void grow(struct shadow_set *s) {
  size_t old_capacity = s->capacity;
  void **old = s->slots;
  size_t live = 0;
  for (size_t i = 0; i < old_capacity; ++i)
    live += old[i] && old[i] != TOMBSTONE;
  size_t capacity = 64;
  while (capacity < 4 * (live + 1))
    capacity *= 2;
  s->slots = calloc(capacity, sizeof(void *));
  if (!s->slots)
    abort();
  s->capacity = capacity;
  s->used = live;
  for (size_t i = 0; i < old_capacity; ++i)
    if (old[i] && old[i] != TOMBSTONE)
      insert_unchecked(s, old[i]);
  free(old);
}


void __enzyme_rt_shadow_made(void *shadow) {
  struct shadow_set *s = &__enzyme_rt_made;
  if (!shadow)
    return;
  if (2 * (s->used + 1) > s->capacity)
    grow(s);
  size_t i = slot_of(shadow, s->capacity);
  while (s->slots[i]) {
    if (s->slots[i] == shadow)
      return;
    i = (i + 1) & (s->capacity - 1);
  }
  s->slots[i] = shadow;
  ++s->used;
}

void __enzyme_rt_shadow_freed(void *shadow, int family, size_t align) {
  struct shadow_set *s = &__enzyme_rt_made;
  if (!shadow || !s->capacity)
    return;
  size_t i = slot_of(shadow, s->capacity);
  while (s->slots[i]) {
    if (s->slots[i] == shadow) {
      s->slots[i] = TOMBSTONE;
      struct shadow_list *l = &__enzyme_rt_later;
      if (l->count == l->capacity) {
        size_t capacity = l->capacity ? 2 * l->capacity : 64;
        struct freed_shadow *items =
            realloc(l->items, capacity * sizeof(struct freed_shadow));
        if (!items)
          abort();
        l->items = items;
        l->capacity = capacity;
      }
      struct freed_shadow freed = {shadow, family, align};
      l->items[l->count++] = freed;
      return;
    }
    i = (i + 1) & (s->capacity - 1);
  }
}

size_t __enzyme_rt_sweep_begin(void) { return __enzyme_rt_later.count; }

/* With `forget`, the end of an outermost gradient (nothing handed over
 * before it began) also forgets every recorded shadow: those still
 * recorded left with their blocks (to the user, who owns them now), and
 * forgetting them keeps a later user allocation at the same address from
 * being taken for the engine's. */
void __enzyme_rt_sweep_end(size_t mark, int forget) {
  struct shadow_list *l = &__enzyme_rt_later;
  for (size_t i = mark; i < l->count; ++i)
    release_shadow(l->items[i].shadow, l->items[i].family, l->items[i].align);
  l->count = mark;
  struct shadow_set *s = &__enzyme_rt_made;
  if (forget && mark == 0 && s->used) {
    for (size_t i = 0; i < s->capacity; ++i)
      s->slots[i] = 0;
    s->used = 0;
  }
}
