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
 * Critical sections (and OpenMP locks) are entered in the reverse pass in
 * the reverse of the order the forward pass entered them: a combine such as
 * `m = max(m, mine)` is not commutative in its derivative (the adjoint goes
 * to whoever held the maximum when the section ran). The forward pass takes
 * a ticket per lock and region at each entry, logged per thread; the
 * reverse pass waits for its ticket's turn, counting down.
 *
 *===----------------------------------------------------------------------===*/

#include "Message.h"

void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
int sched_yield(void);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
void omp_set_lock(void *lock);
void omp_unset_lock(void *lock);
int __kmpc_global_thread_num(void *loc);
void __kmpc_push_num_threads(void *loc, int gtid, int threads);
void __kmpc_critical(void *loc, int gtid, void *name);
void __kmpc_end_critical(void *loc, int gtid, void *name);

/* The next ticket of one lock in one region. */
struct lock_turn {
  const void *lock;
  unsigned long next;
  struct lock_turn *link;
};

/* A thread's tickets, in the order it took them. */
struct thread_log {
  struct omp_region *region;
  unsigned long *tickets;
  size_t count, capacity;
  /* The log of an enclosing region in the same thread (nested regions). */
  struct thread_log *outer;
};

struct omp_region {
  int threads;
  /* A thread of the forward team read at tile points that failed their
   * checks: the reverse adds those reads' adjoints atomically. */
  int plain_vetoed;
  void **tapes;
  struct thread_log **logs;
  int turns_busy;
  struct lock_turn *turns;
};

/* The log of the region whose derivative this thread runs, or null outside
 * the augmented and reverse bodies of regions. */
__thread struct thread_log *__enzyme_rt_omp_current;

void *__enzyme_rt_omp_region_new(void) {
  return calloc(1, sizeof(struct omp_region));
}

/* In each thread of the augmented team, before the body. */
void __enzyme_rt_omp_thread_begin(struct omp_region *r) {
  struct thread_log *log = calloc(1, sizeof(struct thread_log));
  log->region = r;
  log->outer = __enzyme_rt_omp_current;
  __enzyme_rt_omp_current = log;
}

/* In each thread of the augmented team, after the body: keeps TAPE and the
 * thread's tickets as the thread's. The first thread to come allocates the
 * slots. */
void __enzyme_rt_omp_keep_tape(struct omp_region *r, void *tape) {
  int threads = omp_get_num_threads();
  void **slots = __atomic_load_n(&r->tapes, __ATOMIC_ACQUIRE);
  if (!slots) {
    void **fresh = calloc((size_t)threads * 2, sizeof(void *));
    if (__atomic_compare_exchange_n(&r->tapes, &slots, fresh, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      slots = fresh;
      __atomic_store_n(&r->threads, threads, __ATOMIC_RELAXED);
    } else {
      free(fresh);
    }
  }
  int thread = omp_get_thread_num();
  struct thread_log *log = __enzyme_rt_omp_current;
  __enzyme_rt_omp_current = log->outer;
  slots[thread] = tape;
  slots[threads + thread] = log;
}

/* In each thread of the augmented team, as its body returns, when the
 * reverse adds some adjoints plainly only if the reads of every thread were
 * at points apart (Analysis/ParallelLoopReads.h): OK says whether this
 * thread's were. */
void __enzyme_rt_omp_plain_adjoints_report(int ok) {
  struct thread_log *log = __enzyme_rt_omp_current;
  if (!ok && log)
    __atomic_store_n(&log->region->plain_vetoed, 1, __ATOMIC_RELAXED);
}

/* In each thread of the reverse team: whether every thread of the forward
 * team reported its reads apart. The forward team has joined, so every
 * thread gets the same answer. */
int __enzyme_rt_omp_plain_adjoints_allowed(void) {
  struct thread_log *log = __enzyme_rt_omp_current;
  return log && !__atomic_load_n(&log->region->plain_vetoed, __ATOMIC_RELAXED);
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

/* In each thread of the reverse team, before the body: the tape of the
 * same thread of the augmented team (whose tickets it takes up). */
void *__enzyme_rt_omp_thread_tape(struct omp_region *r, const char *function,
                                  const char *where) {
  int threads = omp_get_num_threads();
  if (__builtin_expect(threads != r->threads, 0))
    report(function, where, threads, r->threads);
  int thread = omp_get_thread_num();
  struct thread_log *log = (struct thread_log *)r->tapes[threads + thread];
  log->outer = __enzyme_rt_omp_current;
  __enzyme_rt_omp_current = log;
  return r->tapes[thread];
}

/* In each thread of the reverse team, after the body. */
void __enzyme_rt_omp_thread_end(void) {
  struct thread_log *log = __enzyme_rt_omp_current;
  __enzyme_rt_omp_current = log->outer;
  free(log->tickets);
  free(log);
}

void __enzyme_rt_omp_region_free(struct omp_region *r) {
  for (struct lock_turn *t = r->turns, *next; t; t = next) {
    next = t->link;
    free(t);
  }
  free(r->tapes);
  free(r);
}

/* The turn counter of LOCK in region R (entries never move). */
static unsigned long *turn_of(struct omp_region *r, const void *lock) {
  while (__atomic_exchange_n(&r->turns_busy, 1, __ATOMIC_ACQUIRE))
    sched_yield();
  struct lock_turn *t = r->turns;
  while (t && t->lock != lock)
    t = t->link;
  if (!t) {
    t = calloc(1, sizeof(struct lock_turn));
    t->lock = lock;
    t->link = r->turns;
    r->turns = t;
  }
  __atomic_store_n(&r->turns_busy, 0, __ATOMIC_RELEASE);
  return &t->next;
}

/* Holding LOCK: the thread's next ticket for it. */
static void take_ticket(const void *lock) {
  struct thread_log *log = __enzyme_rt_omp_current;
  if (!log)
    return;
  unsigned long *next = turn_of(log->region, lock);
  if (log->count == log->capacity) {
    log->capacity = log->capacity ? 2 * log->capacity : 8;
    log->tickets = realloc(log->tickets, log->capacity * sizeof(long));
  }
  log->tickets[log->count++] = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
}

/* Before entering LOCK in the reverse pass: waits until every later entry
 * has been reversed. */
static void wait_for_turn(const void *lock) {
  struct thread_log *log = __enzyme_rt_omp_current;
  if (!log)
    return;
  unsigned long ticket = log->tickets[--log->count];
  unsigned long *next = turn_of(log->region, lock);
  while (__atomic_load_n(next, __ATOMIC_ACQUIRE) != ticket + 1)
    sched_yield();
}

/* After leaving LOCK in the reverse pass: the previous entry's turn. */
static void pass_turn(const void *lock) {
  struct thread_log *log = __enzyme_rt_omp_current;
  if (log)
    __atomic_fetch_sub(turn_of(log->region, lock), 1, __ATOMIC_RELEASE);
}

/* `#pragma omp critical` (and a reduction's combine) in augmented code. */
void __enzyme_rt_omp_critical(void *loc, int gtid, void *name) {
  __kmpc_critical(loc, gtid, name);
  take_ticket(name);
}

/* The mirror of leaving a critical section: entering it. */
void __enzyme_rt_omp_critical_reverse_enter(void *loc, void *name) {
  wait_for_turn(name);
  __kmpc_critical(loc, __kmpc_global_thread_num(loc), name);
}

/* The mirror of entering a critical section: leaving it. */
void __enzyme_rt_omp_critical_reverse_exit(void *loc, void *name) {
  int gtid = __kmpc_global_thread_num(loc);
  pass_turn(name);
  __kmpc_end_critical(loc, gtid, name);
}

void __enzyme_rt_omp_set_lock(void *lock) {
  omp_set_lock(lock);
  take_ticket(lock);
}

void __enzyme_rt_omp_lock_reverse_enter(void *lock) {
  wait_for_turn(lock);
  omp_set_lock(lock);
}

void __enzyme_rt_omp_lock_reverse_exit(void *lock) {
  pass_turn(lock);
  omp_unset_lock(lock);
}
