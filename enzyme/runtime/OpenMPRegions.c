/*===- OpenMPRegions.c - OpenMP parallel regions between their passes -----===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * The augmented pass of a parallel region (Modes/ParallelRegions.h) forks a
 * team whose threads each run the augmented body with a tape of their own;
 * the region's record keeps the team's size and every thread's tape until
 * the reverse pass forks a team of the same size, whose thread T reverses
 * what thread T did (a worksharing loop gave it its iterations, a barrier
 * split its work in phases that the reverse pass mirrors).
 *
 *===----------------------------------------------------------------------===*/

#include "Message.h"

void *calloc(size_t, size_t);
void free(void *);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int __kmpc_global_thread_num(void *loc);
void __kmpc_push_num_threads(void *loc, int gtid, int threads);

struct omp_region {
  int threads;
  void **tapes;
};

void *__enzyme_rt_omp_region_new(void) {
  return calloc(1, sizeof(struct omp_region));
}

/* In each thread of the augmented team: keeps TAPE as the thread's. The
 * first thread to come allocates the slots. */
void __enzyme_rt_omp_keep_tape(struct omp_region *r, void *tape) {
  int threads = omp_get_num_threads();
  void **slots = __atomic_load_n(&r->tapes, __ATOMIC_ACQUIRE);
  if (!slots) {
    void **fresh = calloc((size_t)threads, sizeof(void *));
    if (__atomic_compare_exchange_n(&r->tapes, &slots, fresh, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      slots = fresh;
      __atomic_store_n(&r->threads, threads, __ATOMIC_RELAXED);
    } else {
      free(fresh);
    }
  }
  slots[omp_get_thread_num()] = tape;
}

/* Before the reverse fork: a team as large as the augmented one. */
void __enzyme_rt_omp_push_team(void *loc, struct omp_region *r) {
  __kmpc_push_num_threads(loc, __kmpc_global_thread_num(loc), r->threads);
}

__attribute__((noreturn, cold, noinline)) static void
report(const char *function, const char *where, int threads, int expected) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: the reverse pass of the parallel region in '");
  append(&m, function);
  append(&m, "'");
  if (where) {
    append(&m, " at ");
    append(&m, where);
  }
  append(&m, " got a team of ");
  append_number(&m, (unsigned long long)threads);
  append(&m, " threads where its forward pass had ");
  append_number(&m, (unsigned long long)expected);
  append(&m, "; each thread reverses what the same thread did, so the "
             "OpenMP runtime must give the reverse pass as many threads "
             "(do not lower the thread limit between the two passes, and "
             "keep OMP_DYNAMIC off), see docs/parallel.md\n");
  write_and_abort(&m);
}

/* In each thread of the reverse team: the tape of the same thread of the
 * augmented team. */
void *__enzyme_rt_omp_thread_tape(struct omp_region *r, const char *function,
                                  const char *where) {
  int threads = omp_get_num_threads();
  if (__builtin_expect(threads != r->threads, 0))
    report(function, where, threads, r->threads);
  return r->tapes[omp_get_thread_num()];
}

void __enzyme_rt_omp_region_free(struct omp_region *r) {
  free(r->tapes);
  free(r);
}
