/*===- TapeStorage.c - Tape storage kept between gradients ----------------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * Every tape of a gradient on a CPU grows a buffer, and code with parallel
 * regions (or split mode) keeps one tape per region and thread alive between
 * the forward and the reverse pass: a time-stepping loop of Kokkos kernels
 * makes hundreds. Freed at the end of each gradient, the buffers go back to
 * the system (glibc maps large blocks, and trims its heap), and the next
 * gradient faults every page in again and regrows each buffer from nothing:
 * that was a third of the gradient's time on a 100,000-cell Kokkos kernel,
 * and most of it on GMM before a gradient's own tape was kept.
 *
 * So each thread keeps the storage of the tapes it destroys, as a stack,
 * and its next tapes start with it: a repeated gradient takes back, tape by
 * tape, buffers of the sizes it gave (the reverse pass gives them in the
 * opposite order of the forward pass's takes). A thread keeps at most
 * enzyme_tape_pool_bytes, never more than its gradients used at once; the
 * rest is freed, as is what a thread keeps when it exits.
 *
 *===----------------------------------------------------------------------===*/

typedef __SIZE_TYPE__ size_t;
typedef unsigned pthread_key_t;
typedef int pthread_once_t;

void *realloc(void *, size_t);
void free(void *);
int pthread_once(pthread_once_t *, void (*)(void));
int pthread_key_create(pthread_key_t *, void (*)(void *));
int pthread_setspecific(pthread_key_t, const void *);

enum { enzyme_tape_pool_bytes = 512 << 20 };

struct tape_storage {
  void *data;
  size_t capacity;
};

struct tape_pool {
  struct tape_storage *blocks;
  size_t count, slots, bytes;
  int registered; /* with the key, whose destructor frees it */
};

__thread struct tape_pool __enzyme_rt_tape_pool;
pthread_key_t __enzyme_rt_tape_pool_key;
pthread_once_t __enzyme_rt_tape_pool_once;

static void free_pool(void *pool) {
  struct tape_pool *p = pool;
  for (size_t i = 0; i < p->count; ++i)
    free(p->blocks[i].data);
  free(p->blocks);
  p->blocks = 0;
  p->count = p->slots = p->bytes = 0;
  /* A later destructor that destroys tapes registers the pool again. */
  p->registered = 0;
}

static void create_key(void) {
  pthread_key_create(&__enzyme_rt_tape_pool_key, free_pool);
}

/* Storage for a new tape: the last kept, or none. */
struct tape_storage __enzyme_rt_tape_take(void) {
  struct tape_pool *p = &__enzyme_rt_tape_pool;
  struct tape_storage s = {0, 0};
  if (p->count) {
    s = p->blocks[--p->count];
    p->bytes -= s.capacity;
  }
  return s;
}

/* The storage of a destroyed tape: kept for the thread's next, or freed. */
void __enzyme_rt_tape_give(void *data, size_t capacity) {
  struct tape_pool *p = &__enzyme_rt_tape_pool;
  if (!data)
    return;
  if (capacity > enzyme_tape_pool_bytes - p->bytes) {
    free(data);
    return;
  }
  if (p->count == p->slots) {
    size_t slots = p->slots ? 2 * p->slots : 64;
    struct tape_storage *blocks =
        realloc(p->blocks, slots * sizeof(struct tape_storage));
    if (!blocks) {
      free(data);
      return;
    }
    p->blocks = blocks;
    p->slots = slots;
  }
  if (!p->registered) {
    /* A thread that exits frees what it kept. */
    pthread_once(&__enzyme_rt_tape_pool_once, create_key);
    pthread_setspecific(__enzyme_rt_tape_pool_key, p);
    p->registered = 1;
  }
  struct tape_storage s = {data, capacity};
  p->blocks[p->count++] = s;
  p->bytes += capacity;
}
