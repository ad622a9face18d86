/*===- MpiRules.c - Derivatives of MPI's messages and collectives ---------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * Run-time support that the engine links into modules that need it
 * (Core/RuntimeLibrary.h); compiled to LLVM IR when the plugin is built.
 *
 * Reverse-mode derivatives of the Open MPI calls below, in the ABI of
 * __enzyme_register_gradient (each pointer followed by its shadow, null
 * where the call carries no derivative through it; the shadows of
 * datatypes, communicators, operations, requests and statuses mean
 * nothing). Adjoints travel the way the values came, backwards, on the same
 * communicator:
 *
 *   MPI_Send, MPI_Recv        the receiver sends back the adjoints of what
 *                             it received and clears them; the sender adds
 *                             them to its own;
 *   MPI_Isend, MPI_Irecv,     the same, started by the reverse of the wait
 *   MPI_Wait, MPI_Waitall     that completed the request (a table finds a
 *                             request's record by its handle) and finished
 *                             by the reverse of the call that posted it;
 *   MPI_Bcast                 the root gets the sum of every rank's adjoint;
 *   MPI_Reduce, MPI_Allreduce the result's adjoint is broadcast (summed
 *                             over ranks for Allreduce) to every rank's
 *                             input; for MPI_MAX and MPI_MIN only to the
 *                             lowest rank that held the extreme value;
 *   MPI_Gather, MPI_Scatter,  blocks go back the way they came (Scatter,
 *   MPI_Allgather             Gather, Reduce_scatter_block).
 *
 * Only MPI_DOUBLE and MPI_FLOAT data have adjoints; integer data has none,
 * and every rank agrees on the datatype, so no rank communicates. A rank
 * whose shadow is null still takes part, with zeros, so the others do not
 * wait for it. Calls reach here from one thread. Adjoint messages carry
 * tags of their own (adjoint_tag); a receive with MPI_ANY_TAG could still
 * take the adjoint message of a rank already in its reverse pass, unless a
 * collective (say, the loss's reduction) ends the forward pass.
 *
 *===----------------------------------------------------------------------===*/

#include "Message.h"

/* Without OpenMPI's headers the build leaves the rules out (CMakeLists.txt),
 * and the engine says so where a program differentiates an MPI call. */
#ifndef ENZYME_NO_MPI

#include <mpi.h>

/* Every rule gets the shadows of the datatype, communicator and the like,
 * and most get primal arguments that their half does not need. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

void *calloc(size_t, size_t);
void free(void *);

enum adjoint { no_adjoint = 0, float_adjoint = 4, double_adjoint = 8 };

/* The tag of an adjoint message: the primal's, moved to the upper half of
 * OpenMPI's tag range, so that a receive of the forward pass that names its
 * tag (from MPI_ANY_SOURCE too) never takes the adjoint message of a rank
 * already in its reverse pass. Only MPI_ANY_TAG receives could. */
static int adjoint_tag(int tag) {
  return tag < (1 << 30) ? tag + (1 << 30) : tag;
}

/* "enzyme: the derivative of FUNCTION: WHAT", and MPI's ERROR if not
 * negative. */
__attribute__((noreturn, cold)) static void
fail_with(const char *function, const char *what, int error) {
  struct message m;
  m.length = 0;
  append(&m, "enzyme: the derivative of ");
  append(&m, function);
  append(&m, ": ");
  append(&m, what);
  if (error >= 0) {
    append(&m, " failed with error code ");
    append_number(&m, (unsigned)error);
  }
  append(&m, "\n");
  write_and_abort(&m);
}

__attribute__((noreturn, cold)) static void fail(const char *function,
                                                 const char *what) {
  fail_with(function, what, -1);
}

/* Under MPI_ERRORS_RETURN a failure in the reverse pass has no caller to
 * return to. */
static void check(int error, const char *call, const char *function) {
  if (error != MPI_SUCCESS)
    fail_with(function, call, error);
}

static int is_integer(MPI_Datatype t) {
  return t == MPI_INT || t == MPI_UNSIGNED || t == MPI_LONG ||
         t == MPI_UNSIGNED_LONG || t == MPI_LONG_LONG ||
         t == MPI_UNSIGNED_LONG_LONG || t == MPI_SHORT ||
         t == MPI_UNSIGNED_SHORT || t == MPI_CHAR || t == MPI_SIGNED_CHAR ||
         t == MPI_UNSIGNED_CHAR || t == MPI_BYTE || t == MPI_WCHAR ||
         t == MPI_C_BOOL || t == MPI_CXX_BOOL || t == MPI_INT8_T ||
         t == MPI_INT16_T || t == MPI_INT32_T || t == MPI_INT64_T ||
         t == MPI_UINT8_T || t == MPI_UINT16_T || t == MPI_UINT32_T ||
         t == MPI_UINT64_T || t == MPI_AINT || t == MPI_OFFSET ||
         t == MPI_COUNT || t == MPI_2INT;
}

/* What adjoints data of type T has. Datatypes are pointers to Open MPI's
 * predefined objects, compared by address; any other type (derived, a
 * duplicate, long double, pairs) is an error where the buffer has a
 * shadow, and carries nothing where none has. */
static enum adjoint adjoint_of(MPI_Datatype t, const void *shadow,
                               const char *function) {
  if (t == MPI_DOUBLE)
    return double_adjoint;
  if (t == MPI_FLOAT)
    return float_adjoint;
  if (shadow && !is_integer(t))
    fail(function, "derived and other datatypes are not supported for "
                   "derivatives, only MPI_DOUBLE and MPI_FLOAT data (and "
                   "integer data, which has none), see docs/parallel.md");
  return no_adjoint;
}

/* The collectives with a send and a receive type, each used where USE_ says
 * the buffer is significant at this rank. */
static enum adjoint adjoint_of_both(MPI_Datatype a, const void *da, int use_a,
                                    MPI_Datatype b, const void *db, int use_b,
                                    const char *function) {
  enum adjoint x = use_a ? adjoint_of(a, da, function) : no_adjoint;
  enum adjoint y = use_b ? adjoint_of(b, db, function) : no_adjoint;
  if (use_a && use_b && x != y)
    fail(function, "the send and receive datatypes differ; derived and "
                   "other datatypes are not supported for derivatives, see "
                   "docs/parallel.md");
  return use_a ? x : y;
}

/* Reductions of floating-point data need an operation with a derivative;
 * other operations are fine where no shadow asks for one: the input's, or
 * the result's where it is significant at this rank. */
static enum adjoint reduction_adjoint(const void *sendbuf, const void *dsendbuf,
                                      const void *drecvbuf, int significant,
                                      MPI_Datatype dt, MPI_Op op,
                                      const char *function) {
  const void *shadow = sendbuf != MPI_IN_PLACE && dsendbuf ? dsendbuf
                       : significant                       ? drecvbuf
                                                           : 0;
  enum adjoint a = adjoint_of(dt, shadow, function);
  if (a == no_adjoint || op == MPI_SUM || op == MPI_MAX || op == MPI_MIN)
    return a;
  if (shadow)
    fail(function, "only MPI_SUM, MPI_MAX and MPI_MIN have derivatives, "
                   "see docs/parallel.md");
  return no_adjoint;
}

static size_t bytes_of(int count, enum adjoint a) {
  return count > 0 ? (size_t)count * (size_t)a : 0;
}

static void *zeros(size_t bytes, const char *function) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p)
    fail(function, "out of memory for the adjoints");
  return p;
}

static void copy_bytes(void *to, const void *from, size_t n) {
  for (size_t i = 0; i < n; ++i)
    ((char *)to)[i] = ((const char *)from)[i];
}

static void clear(void *p, size_t n) {
  if (p)
    for (size_t i = 0; i < n; ++i)
      ((char *)p)[i] = 0;
}

/* TO[i] += FROM[i] where MASK (if any) says this rank owns element i. TO
 * is the shadow of a buffer the primal only reads, hence const. */
static void add_to(enum adjoint a, const void *to, const void *from, int count,
                   const unsigned char *mask) {
  if (!to)
    return;
  for (int i = 0; i < count; ++i)
    if (!mask || mask[i]) {
      if (a == double_adjoint)
        ((double *)to)[i] += ((const double *)from)[i];
      else
        ((float *)to)[i] += ((const float *)from)[i];
    }
}

/* Clears the elements of P that this rank does not own. */
static void keep_owned(enum adjoint a, void *p, int count,
                       const unsigned char *mask) {
  if (p && mask)
    for (int i = 0; i < count; ++i)
      if (!mask[i])
        clear((char *)p + (size_t)i * a, a);
}

static int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

static int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

/* MPI_MAX, MPI_MIN: which elements of RESULT this rank supplied, MINE being
 * its input. Ranks holding equal values would share one adjoint several
 * times over, so the lowest of them takes it all. */
static unsigned char *owner_mask(enum adjoint a, const void *mine,
                                 const void *result, int count, MPI_Comm comm,
                                 const char *function) {
  if (count <= 0)
    return 0;
  int rank = rank_in(comm), size = size_of(comm);
  int *owner = zeros((size_t)count * sizeof(int), function);
  for (int i = 0; i < count; ++i) {
    int equal = a == double_adjoint
                    ? ((const double *)mine)[i] == ((const double *)result)[i]
                    : ((const float *)mine)[i] == ((const float *)result)[i];
    owner[i] = equal ? rank : size;
  }
  check(MPI_Allreduce(MPI_IN_PLACE, owner, count, MPI_INT, MPI_MIN, comm),
        "MPI_Allreduce", function);
  unsigned char *mask = zeros((size_t)count, function);
  for (int i = 0; i < count; ++i)
    mask[i] = owner[i] == rank;
  free(owner);
  return mask;
}

/* The tapes, returned with the primal result. */
struct mpi_pointer_tape {
  void *tape;
  int result;
};
struct mpi_long_tape {
  long tape;
  int result;
};

/* MPI_Send, MPI_Recv. */

int __enzyme_rt_mpi_send_augment(const void *buf, const void *dbuf, int count,
                                 MPI_Datatype dt, MPI_Datatype ddt, int dest,
                                 int tag, MPI_Comm comm, MPI_Comm dcomm) {
  adjoint_of(dt, dbuf, "MPI_Send");
  return MPI_Send(buf, count, dt, dest, tag, comm);
}

void __enzyme_rt_mpi_send_reverse(const void *buf, const void *dbuf, int count,
                                  MPI_Datatype dt, MPI_Datatype ddt, int dest,
                                  int tag, MPI_Comm comm, MPI_Comm dcomm) {
  enum adjoint a = adjoint_of(dt, dbuf, "MPI_Send");
  if (a == no_adjoint || dest == MPI_PROC_NULL)
    return;
  void *back = zeros(bytes_of(count, a), "MPI_Send");
  check(MPI_Recv(back, count, dt, dest, adjoint_tag(tag), comm,
                 MPI_STATUS_IGNORE),
        "MPI_Recv", "MPI_Send");
  add_to(a, dbuf, back, count, 0);
  free(back);
}

/* The tape of MPI_Recv: the source and tag the message came with, for
 * MPI_ANY_SOURCE and MPI_ANY_TAG. */
static long source_and_tag(int source, int tag) {
  return (long)((unsigned long)(unsigned)source << 32 | (unsigned)tag);
}

struct mpi_long_tape
__enzyme_rt_mpi_recv_augment(void *buf, void *dbuf, int count, MPI_Datatype dt,
                             MPI_Datatype ddt, int source, int tag,
                             MPI_Comm comm, MPI_Comm dcomm, MPI_Status *status,
                             MPI_Status *dstatus) {
  enum adjoint a = adjoint_of(dt, dbuf, "MPI_Recv");
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  struct mpi_long_tape r;
  r.result = MPI_Recv(buf, count, dt, source, tag, comm, status);
  r.tape = source_and_tag(status->MPI_SOURCE, status->MPI_TAG);
  int received = count;
  /* The tape has no room for the count: the reverse sends back COUNT, which
   * the sender's reverse must expect. */
  if (a != no_adjoint && r.result == MPI_SUCCESS && source != MPI_PROC_NULL &&
      MPI_Get_count(status, dt, &received) == MPI_SUCCESS && received != count)
    fail("MPI_Recv", "the message must fill the receive buffer (it "
                     "received fewer elements than the count), see "
                     "docs/parallel.md");
  return r;
}

void __enzyme_rt_mpi_recv_reverse(void *buf, void *dbuf, int count,
                                  MPI_Datatype dt, MPI_Datatype ddt, int source,
                                  int tag, MPI_Comm comm, MPI_Comm dcomm,
                                  MPI_Status *status, MPI_Status *dstatus,
                                  long tape) {
  enum adjoint a = adjoint_of(dt, dbuf, "MPI_Recv");
  int from = (int)(unsigned)((unsigned long)tape >> 32);
  int with = (int)(unsigned)tape;
  /* From MPI_PROC_NULL nothing arrived: BUF kept its value and adjoint. */
  if (a == no_adjoint || from == MPI_PROC_NULL)
    return;
  size_t bytes = bytes_of(count, a);
  void *none = dbuf ? 0 : zeros(bytes, "MPI_Recv");
  check(MPI_Send(dbuf ? dbuf : none, count, dt, from, adjoint_tag(with), comm),
        "MPI_Send", "MPI_Recv");
  clear(dbuf, bytes);
  free(none);
}

/* MPI_Isend, MPI_Irecv, MPI_Wait, MPI_Waitall. */

/* A pending request of data with adjoints, from its post to the reverse of
 * its post. */
struct request {
  MPI_Request handle;
  struct request *next;
  int sending, registered;
  enum adjoint adjoint;
  void *shadow;
  int count, peer, tag;
  MPI_Datatype type;
  MPI_Comm comm;
  /* The adjoint message's, and its buffer. */
  MPI_Request reverse;
  void *temp;
};

/* The posted requests not yet waited for, by handle: Open MPI's handles
 * are addresses, unique while the request is pending. Not static: the
 * engine links the rules it needs one by one, and each link would bring a
 * table of its own (external names are kept once). */
#define REQUEST_SLOTS 256
struct request *__enzyme_rt_mpi_requests[REQUEST_SLOTS];

static struct request **slot(MPI_Request handle) {
  unsigned long h = (unsigned long)handle;
  return &__enzyme_rt_mpi_requests[(h >> 4 ^ h >> 12) % REQUEST_SLOTS];
}

static struct mpi_pointer_tape post(int sending, void *shadow, int count,
                                    MPI_Datatype dt, int peer, int tag,
                                    MPI_Comm comm, MPI_Request *req, int result,
                                    const char *function) {
  enum adjoint a = adjoint_of(dt, shadow, function);
  struct mpi_pointer_tape r = {0, result};
  /* MPI_PROC_NULL's requests may share one handle, and move nothing. */
  if (a == no_adjoint || result != MPI_SUCCESS || peer == MPI_PROC_NULL)
    return r;
  struct request *q = zeros(sizeof *q, function);
  *q = (struct request){.handle = *req,
                        .sending = sending,
                        .registered = 1,
                        .adjoint = a,
                        .shadow = shadow,
                        .count = count,
                        .peer = peer,
                        .tag = tag,
                        .type = dt,
                        .comm = comm,
                        .reverse = MPI_REQUEST_NULL};
  struct request **s = slot(q->handle);
  q->next = *s;
  *s = q;
  r.tape = q;
  return r;
}

/* Removes and returns the record of HANDLE, null for requests without
 * adjoints (integer data, or posted outside differentiated code). */
static struct request *take(MPI_Request handle) {
  for (struct request **at = slot(handle); *at; at = &(*at)->next)
    if ((*at)->handle == handle) {
      struct request *q = *at;
      *at = q->next;
      q->registered = 0;
      return q;
    }
  return 0;
}

/* A received message may be shorter than the buffer, and its source and
 * tag wildcards. */
static void completed(struct request *q, MPI_Status *status) {
  int received;
  if (!q || q->sending)
    return;
  q->peer = status->MPI_SOURCE;
  q->tag = status->MPI_TAG;
  if (MPI_Get_count(status, q->type, &received) == MPI_SUCCESS &&
      received != MPI_UNDEFINED && received < q->count)
    q->count = received;
}

/* The reverse of the wait: the adjoint message starts, backwards. */
static void start_reverse(struct request *q, const char *function) {
  if (!q)
    return;
  size_t bytes = bytes_of(q->count, q->adjoint);
  q->temp = zeros(bytes, function);
  if (q->sending) {
    check(MPI_Irecv(q->temp, q->count, q->type, q->peer, adjoint_tag(q->tag),
                    q->comm, &q->reverse),
          "MPI_Irecv", function);
    return;
  }
  if (q->shadow)
    copy_bytes(q->temp, q->shadow, bytes);
  clear(q->shadow, bytes);
  check(MPI_Isend(q->temp, q->count, q->type, q->peer, adjoint_tag(q->tag),
                  q->comm, &q->reverse),
        "MPI_Isend", function);
}

/* The reverse of the post: the adjoint message ends. */
static void finish_reverse(struct request *q, const char *function) {
  if (!q)
    return;
  if (q->registered)
    fail(function, "a request was completed by a call other than MPI_Wait "
                   "or MPI_Waitall, whose derivative is not supported, see "
                   "docs/parallel.md");
  check(MPI_Wait(&q->reverse, MPI_STATUS_IGNORE), "MPI_Wait", function);
  if (q->sending)
    add_to(q->adjoint, q->shadow, q->temp, q->count, 0);
  free(q->temp);
  free(q);
}

struct mpi_pointer_tape
__enzyme_rt_mpi_isend_augment(const void *buf, const void *dbuf, int count,
                              MPI_Datatype dt, MPI_Datatype ddt, int dest,
                              int tag, MPI_Comm comm, MPI_Comm dcomm,
                              MPI_Request *req, MPI_Request *dreq) {
  int result = MPI_Isend(buf, count, dt, dest, tag, comm, req);
  return post(1, (void *)dbuf, count, dt, dest, tag, comm, req, result,
              "MPI_Isend");
}

void __enzyme_rt_mpi_isend_reverse(const void *buf, const void *dbuf, int count,
                                   MPI_Datatype dt, MPI_Datatype ddt, int dest,
                                   int tag, MPI_Comm comm, MPI_Comm dcomm,
                                   MPI_Request *req, MPI_Request *dreq,
                                   void *tape) {
  finish_reverse(tape, "MPI_Isend");
}

struct mpi_pointer_tape
__enzyme_rt_mpi_irecv_augment(void *buf, void *dbuf, int count, MPI_Datatype dt,
                              MPI_Datatype ddt, int source, int tag,
                              MPI_Comm comm, MPI_Comm dcomm, MPI_Request *req,
                              MPI_Request *dreq) {
  int result = MPI_Irecv(buf, count, dt, source, tag, comm, req);
  return post(0, dbuf, count, dt, source, tag, comm, req, result, "MPI_Irecv");
}

void __enzyme_rt_mpi_irecv_reverse(void *buf, void *dbuf, int count,
                                   MPI_Datatype dt, MPI_Datatype ddt,
                                   int source, int tag, MPI_Comm comm,
                                   MPI_Comm dcomm, MPI_Request *req,
                                   MPI_Request *dreq, void *tape) {
  finish_reverse(tape, "MPI_Irecv");
}

struct mpi_pointer_tape __enzyme_rt_mpi_wait_augment(MPI_Request *req,
                                                     MPI_Request *dreq,
                                                     MPI_Status *status,
                                                     MPI_Status *dstatus) {
  /* MPI_Wait sets *REQ to MPI_REQUEST_NULL. */
  struct request *q = take(*req);
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  struct mpi_pointer_tape r = {q, MPI_Wait(req, status)};
  completed(q, status);
  return r;
}

void __enzyme_rt_mpi_wait_reverse(MPI_Request *req, MPI_Request *dreq,
                                  MPI_Status *status, MPI_Status *dstatus,
                                  void *tape) {
  start_reverse(tape, "MPI_Wait");
}

/* The tape: the requests' records, in the array's order. */
struct mpi_pointer_tape __enzyme_rt_mpi_waitall_augment(int count,
                                                        MPI_Request *reqs,
                                                        MPI_Request *dreqs,
                                                        MPI_Status *statuses,
                                                        MPI_Status *dstatuses) {
  struct request **records = 0;
  MPI_Status *local = 0;
  if (count > 0) {
    records = zeros((size_t)count * sizeof *records, "MPI_Waitall");
    for (int i = 0; i < count; ++i)
      records[i] = take(reqs[i]);
    if (statuses == MPI_STATUSES_IGNORE)
      statuses = local =
          zeros((size_t)count * sizeof(MPI_Status), "MPI_Waitall");
  }
  struct mpi_pointer_tape r = {records, MPI_Waitall(count, reqs, statuses)};
  for (int i = 0; i < count; ++i)
    completed(records[i], &statuses[i]);
  free(local);
  return r;
}

/* As MPI_Wait's reverse for each request, last first: the reverse of
 * waiting for them in the array's order. */
void __enzyme_rt_mpi_waitall_reverse(int count, MPI_Request *reqs,
                                     MPI_Request *dreqs, MPI_Status *statuses,
                                     MPI_Status *dstatuses, void *tape) {
  struct request **records = tape;
  if (!records)
    return;
  for (int i = count - 1; i >= 0; --i)
    start_reverse(records[i], "MPI_Waitall");
  free(records);
}

/* MPI_Bcast. */

int __enzyme_rt_mpi_bcast_augment(void *buf, void *dbuf, int count,
                                  MPI_Datatype dt, MPI_Datatype ddt, int root,
                                  MPI_Comm comm, MPI_Comm dcomm) {
  adjoint_of(dt, dbuf, "MPI_Bcast");
  return MPI_Bcast(buf, count, dt, root, comm);
}

void __enzyme_rt_mpi_bcast_reverse(void *buf, void *dbuf, int count,
                                   MPI_Datatype dt, MPI_Datatype ddt, int root,
                                   MPI_Comm comm, MPI_Comm dcomm) {
  enum adjoint a = adjoint_of(dt, dbuf, "MPI_Bcast");
  if (a == no_adjoint)
    return;
  size_t bytes = bytes_of(count, a);
  void *none = dbuf ? 0 : zeros(bytes, "MPI_Bcast");
  void *mine = dbuf ? dbuf : none;
  int is_root = rank_in(comm) == root;
  /* Every rank's copy of the value sends its adjoint to the root's. */
  check(is_root ? MPI_Reduce(MPI_IN_PLACE, mine, count, dt, MPI_SUM, root, comm)
                : MPI_Reduce(mine, 0, count, dt, MPI_SUM, root, comm),
        "MPI_Reduce", "MPI_Bcast");
  if (!is_root)
    clear(dbuf, bytes);
  free(none);
}

/* MPI_Reduce, MPI_Allreduce. */

/* The tape: for MPI_MAX and MPI_MIN, which elements this rank supplied. */
struct mpi_pointer_tape __enzyme_rt_mpi_reduce_augment(
    const void *sendbuf, const void *dsendbuf, void *recvbuf, void *drecvbuf,
    int count, MPI_Datatype dt, MPI_Datatype ddt, MPI_Op op, MPI_Op dop,
    int root, MPI_Comm comm, MPI_Comm dcomm) {
  int rank = rank_in(comm);
  enum adjoint a = reduction_adjoint(sendbuf, dsendbuf, drecvbuf, rank == root,
                                     dt, op, "MPI_Reduce");
  if (a == no_adjoint || op == MPI_SUM)
    return (struct mpi_pointer_tape){
        0, MPI_Reduce(sendbuf, recvbuf, count, dt, op, root, comm)};
  struct mpi_pointer_tape r = {0, 0};
  /* Every rank needs the result to tell whether it supplied it. */
  const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  size_t bytes = bytes_of(count, a);
  void *result = zeros(bytes, "MPI_Reduce");
  r.result = MPI_Allreduce(mine, result, count, dt, op, comm);
  if (r.result == MPI_SUCCESS) {
    r.tape = owner_mask(a, mine, result, count, comm, "MPI_Reduce");
    if (rank == root)
      copy_bytes(recvbuf, result, bytes);
  }
  free(result);
  return r;
}

void __enzyme_rt_mpi_reduce_reverse(const void *sendbuf, const void *dsendbuf,
                                    void *recvbuf, void *drecvbuf, int count,
                                    MPI_Datatype dt, MPI_Datatype ddt,
                                    MPI_Op op, MPI_Op dop, int root,
                                    MPI_Comm comm, MPI_Comm dcomm, void *tape) {
  int rank = rank_in(comm);
  enum adjoint a = reduction_adjoint(sendbuf, dsendbuf, drecvbuf, rank == root,
                                     dt, op, "MPI_Reduce");
  unsigned char *mask = tape;
  if (a == no_adjoint) {
    free(mask);
    return;
  }
  size_t bytes = bytes_of(count, a);
  void *result = zeros(bytes, "MPI_Reduce");
  if (rank == root && drecvbuf)
    copy_bytes(result, drecvbuf, bytes);
  check(MPI_Bcast(result, count, dt, root, comm), "MPI_Bcast", "MPI_Reduce");
  if (sendbuf != MPI_IN_PLACE) {
    add_to(a, dsendbuf, result, count, mask);
    if (rank == root)
      clear(drecvbuf, bytes);
  } else {
    /* The root's input was the result's buffer: its adjoint stays there. */
    keep_owned(a, drecvbuf, count, mask);
  }
  free(result);
  free(mask);
}

/* The tape: for MPI_MAX and MPI_MIN, which elements this rank supplied. */
struct mpi_pointer_tape
__enzyme_rt_mpi_allreduce_augment(const void *sendbuf, const void *dsendbuf,
                                  void *recvbuf, void *drecvbuf, int count,
                                  MPI_Datatype dt, MPI_Datatype ddt, MPI_Op op,
                                  MPI_Op dop, MPI_Comm comm, MPI_Comm dcomm) {
  enum adjoint a = reduction_adjoint(sendbuf, dsendbuf, drecvbuf, 1, dt, op,
                                     "MPI_Allreduce");
  if (a == no_adjoint || op == MPI_SUM)
    return (struct mpi_pointer_tape){
        0, MPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm)};
  struct mpi_pointer_tape r = {0, 0};
  /* In place, the input is gone once the result is there. */
  const void *mine = sendbuf;
  void *saved = 0;
  if (sendbuf == MPI_IN_PLACE) {
    saved = zeros(bytes_of(count, a), "MPI_Allreduce");
    copy_bytes(saved, recvbuf, bytes_of(count, a));
    mine = saved;
  }
  r.result = MPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm);
  if (r.result == MPI_SUCCESS)
    r.tape = owner_mask(a, mine, recvbuf, count, comm, "MPI_Allreduce");
  free(saved);
  return r;
}

void __enzyme_rt_mpi_allreduce_reverse(const void *sendbuf,
                                       const void *dsendbuf, void *recvbuf,
                                       void *drecvbuf, int count,
                                       MPI_Datatype dt, MPI_Datatype ddt,
                                       MPI_Op op, MPI_Op dop, MPI_Comm comm,
                                       MPI_Comm dcomm, void *tape) {
  enum adjoint a = reduction_adjoint(sendbuf, dsendbuf, drecvbuf, 1, dt, op,
                                     "MPI_Allreduce");
  unsigned char *mask = tape;
  if (a == no_adjoint) {
    free(mask);
    return;
  }
  size_t bytes = bytes_of(count, a);
  void *sum = zeros(bytes, "MPI_Allreduce");
  if (drecvbuf)
    copy_bytes(sum, drecvbuf, bytes);
  check(MPI_Allreduce(MPI_IN_PLACE, sum, count, dt, MPI_SUM, comm),
        "MPI_Allreduce", "MPI_Allreduce");
  if (sendbuf != MPI_IN_PLACE) {
    add_to(a, dsendbuf, sum, count, mask);
    clear(drecvbuf, bytes);
  } else if (drecvbuf) {
    copy_bytes(drecvbuf, sum, bytes);
    keep_owned(a, drecvbuf, count, mask);
  }
  free(sum);
  free(mask);
}

/* MPI_Gather, MPI_Scatter, MPI_Allgather. */

int __enzyme_rt_mpi_gather_augment(const void *sendbuf, const void *dsendbuf,
                                   int scount, MPI_Datatype stype,
                                   MPI_Datatype dstype, void *recvbuf,
                                   void *drecvbuf, int rcount,
                                   MPI_Datatype rtype, MPI_Datatype drtype,
                                   int root, MPI_Comm comm, MPI_Comm dcomm) {
  adjoint_of_both(stype, dsendbuf, sendbuf != MPI_IN_PLACE, rtype, drecvbuf,
                  rank_in(comm) == root, "MPI_Gather");
  return MPI_Gather(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
}

void __enzyme_rt_mpi_gather_reverse(const void *sendbuf, const void *dsendbuf,
                                    int scount, MPI_Datatype stype,
                                    MPI_Datatype dstype, void *recvbuf,
                                    void *drecvbuf, int rcount,
                                    MPI_Datatype rtype, MPI_Datatype drtype,
                                    int root, MPI_Comm comm, MPI_Comm dcomm) {
  int rank = rank_in(comm), is_root = rank == root;
  enum adjoint a = adjoint_of_both(stype, dsendbuf, sendbuf != MPI_IN_PLACE,
                                   rtype, drecvbuf, is_root, "MPI_Gather");
  if (a == no_adjoint)
    return;
  int in_place = sendbuf == MPI_IN_PLACE;
  size_t block = is_root ? bytes_of(rcount, a) : 0;
  size_t all = block * (size_t)size_of(comm);
  void *none = is_root && !drecvbuf ? zeros(all, "MPI_Gather") : 0;
  void *mine = in_place ? 0 : zeros(bytes_of(scount, a), "MPI_Gather");
  /* Only the root's receive arguments are significant. */
  check(MPI_Scatter(is_root ? (drecvbuf ? drecvbuf : none) : 0,
                    is_root ? rcount : 0, is_root ? rtype : stype,
                    in_place ? MPI_IN_PLACE : mine, scount, stype, root, comm),
        "MPI_Scatter", "MPI_Gather");
  if (!in_place)
    add_to(a, dsendbuf, mine, scount, 0);
  if (is_root && drecvbuf) {
    /* In place, the root's own block is its input: its adjoint stays. */
    size_t own = (size_t)rank * block;
    clear(drecvbuf, in_place ? own : all);
    if (in_place)
      clear((char *)drecvbuf + own + block, all - own - block);
  }
  free(none);
  free(mine);
}

int __enzyme_rt_mpi_scatter_augment(const void *sendbuf, const void *dsendbuf,
                                    int scount, MPI_Datatype stype,
                                    MPI_Datatype dstype, void *recvbuf,
                                    void *drecvbuf, int rcount,
                                    MPI_Datatype rtype, MPI_Datatype drtype,
                                    int root, MPI_Comm comm, MPI_Comm dcomm) {
  adjoint_of_both(stype, dsendbuf, rank_in(comm) == root, rtype, drecvbuf,
                  recvbuf != MPI_IN_PLACE, "MPI_Scatter");
  return MPI_Scatter(sendbuf, scount, stype, recvbuf, rcount, rtype, root,
                     comm);
}

void __enzyme_rt_mpi_scatter_reverse(const void *sendbuf, const void *dsendbuf,
                                     int scount, MPI_Datatype stype,
                                     MPI_Datatype dstype, void *recvbuf,
                                     void *drecvbuf, int rcount,
                                     MPI_Datatype rtype, MPI_Datatype drtype,
                                     int root, MPI_Comm comm, MPI_Comm dcomm) {
  int is_root = rank_in(comm) == root;
  enum adjoint a = adjoint_of_both(stype, dsendbuf, is_root, rtype, drecvbuf,
                                   recvbuf != MPI_IN_PLACE, "MPI_Scatter");
  if (a == no_adjoint)
    return;
  int in_place = recvbuf == MPI_IN_PLACE;
  size_t block = bytes_of(rcount, a);
  int total = is_root ? scount * size_of(comm) : 0;
  /* In place, the root's own block (left zero here) keeps its adjoint. */
  void *gathered = is_root ? zeros(bytes_of(total, a), "MPI_Scatter") : 0;
  void *none = !in_place && !drecvbuf ? zeros(block, "MPI_Scatter") : 0;
  const void *mine = in_place ? MPI_IN_PLACE : drecvbuf ? drecvbuf : none;
  check(MPI_Gather(mine, rcount, rtype, gathered, is_root ? scount : 0,
                   is_root ? stype : rtype, root, comm),
        "MPI_Gather", "MPI_Scatter");
  if (is_root)
    add_to(a, dsendbuf, gathered, total, 0);
  if (!in_place)
    clear(drecvbuf, block);
  free(gathered);
  free(none);
}

int __enzyme_rt_mpi_allgather_augment(const void *sendbuf, const void *dsendbuf,
                                      int scount, MPI_Datatype stype,
                                      MPI_Datatype dstype, void *recvbuf,
                                      void *drecvbuf, int rcount,
                                      MPI_Datatype rtype, MPI_Datatype drtype,
                                      MPI_Comm comm, MPI_Comm dcomm) {
  adjoint_of_both(stype, dsendbuf, sendbuf != MPI_IN_PLACE, rtype, drecvbuf, 1,
                  "MPI_Allgather");
  return MPI_Allgather(sendbuf, scount, stype, recvbuf, rcount, rtype, comm);
}

void __enzyme_rt_mpi_allgather_reverse(
    const void *sendbuf, const void *dsendbuf, int scount, MPI_Datatype stype,
    MPI_Datatype dstype, void *recvbuf, void *drecvbuf, int rcount,
    MPI_Datatype rtype, MPI_Datatype drtype, MPI_Comm comm, MPI_Comm dcomm) {
  enum adjoint a = adjoint_of_both(stype, dsendbuf, sendbuf != MPI_IN_PLACE,
                                   rtype, drecvbuf, 1, "MPI_Allgather");
  if (a == no_adjoint)
    return;
  size_t block = bytes_of(rcount, a);
  size_t all = block * (size_t)size_of(comm);
  void *none = drecvbuf ? 0 : zeros(all, "MPI_Allgather");
  void *sum = zeros(block, "MPI_Allgather");
  /* Block R of every rank's result came from rank R. */
  check(MPI_Reduce_scatter_block(drecvbuf ? drecvbuf : none, sum, rcount, rtype,
                                 MPI_SUM, comm),
        "MPI_Reduce_scatter_block", "MPI_Allgather");
  clear(drecvbuf, all);
  if (sendbuf != MPI_IN_PLACE)
    add_to(a, dsendbuf, sum, scount, 0);
  else if (drecvbuf)
    copy_bytes((char *)drecvbuf + (size_t)rank_in(comm) * block, sum, block);
  free(none);
  free(sum);
}

#endif /* ENZYME_NO_MPI */
