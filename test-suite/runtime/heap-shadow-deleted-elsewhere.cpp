// The shadow of a block from operator new comes from the same operator new
// (plain, array, aligned), so code that deletes it pairs correctly:
//  - code the engine does not write: a custom forward derivative deletes
//    the shadow it is handed, as a library deletes an object it owns (a
//    Kokkos allocation record);
//  - the run-time, at the end of a gradient, for a block allocated by one
//    function and deleted by another (the shadow is handed over);
//  - the engine, for a block allocated and deleted in one function.
// AddressSanitizer checks every pair (alloc_dealloc_mismatch, and
// new_delete_type_mismatch for the aligned forms); before, shadows came from
// calloc and the first case was a mismatch. Gradients against analytic
// values and central differences, forward against reverse mode.
// RUN: %clangxx_enzyme -fenzyme -O0 -g -fsanitize=address %s -o %t1
// RUN: env ASAN_OPTIONS=alloc_dealloc_mismatch=1:new_delete_type_mismatch=1:detect_leaks=1 %t1
// RUN: %clangxx_enzyme -fenzyme -O2 -g -fsanitize=address %s -o %t2
// RUN: env ASAN_OPTIONS=alloc_dealloc_mismatch=1:new_delete_type_mismatch=1:detect_leaks=1 %t2
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t3 && %t3
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);

struct Box {
  double v;
};
struct alignas(64) Cell {
  double v[4];
};

// Out of the engine's view in forward mode: the registered derivative
// deletes the primal and the shadow.
__attribute__((noinline)) void disposeBox(Box *b) { delete b; }
__attribute__((noinline)) void disposeArray(double *a) { delete[] a; }
__attribute__((noinline)) void disposeCell(Cell *c) { delete c; }
void fwdDisposeBox(Box *b, Box *db) {
  delete b;
  delete db;
}
void fwdDisposeArray(double *a, double *da) {
  delete[] a;
  delete[] da;
}
void fwdDisposeCell(Cell *c, Cell *dc) {
  delete c;
  delete dc;
}
void *__enzyme_register_derivative_box[2] = {(void *)disposeBox,
                                             (void *)fwdDisposeBox};
void *__enzyme_register_derivative_array[2] = {(void *)disposeArray,
                                               (void *)fwdDisposeArray};
void *__enzyme_register_derivative_cell[2] = {(void *)disposeCell,
                                              (void *)fwdDisposeCell};

// s = x^2 (box) + sum_i (x + i)^2 (array of n) + sum_j (j + 1) x^3 (cell)
static double value(double x, int n) {
  Box *b = new Box{x * x};
  double *a = new double[n];
  for (int i = 0; i < n; ++i)
    a[i] = (x + i) * (x + i);
  Cell *c = new Cell;
  for (int j = 0; j < 4; ++j)
    c->v[j] = (j + 1) * x * x * x;
  double s = b->v;
  for (int i = 0; i < n; ++i)
    s += a[i];
  for (int j = 0; j < 4; ++j)
    s += c->v[j];
  disposeBox(b);
  disposeArray(a);
  disposeCell(c);
  return s;
}

// The same blocks, made by one function and deleted by another (reverse
// mode hands their shadows over to the end of the gradient).
__attribute__((noinline)) Box *makeBox(double x) { return new Box{x * x}; }
__attribute__((noinline)) double *makeArray(double x, int n) {
  double *a = new double[n];
  for (int i = 0; i < n; ++i)
    a[i] = (x + i) * (x + i);
  return a;
}
__attribute__((noinline)) Cell *makeCell(double x) {
  Cell *c = new Cell;
  for (int j = 0; j < 4; ++j)
    c->v[j] = (j + 1) * x * x * x;
  return c;
}
__attribute__((noinline)) double takeAll(Box *b, double *a, int n, Cell *c) {
  double s = b->v;
  for (int i = 0; i < n; ++i)
    s += a[i];
  for (int j = 0; j < 4; ++j)
    s += c->v[j];
  delete b;
  delete[] a;
  delete c;
  return s;
}
static double acrossFunctions(double x, int n) {
  return takeAll(makeBox(x), makeArray(x, n), n, makeCell(x));
}

static double value7(double x) { return value(x, 7); }
static double across7(double x) { return acrossFunctions(x, 7); }

int main() {
  const int n = 7;
  double x = 0.6;
  double d = 2 * x + 10 * 3 * x * x;
  for (int i = 0; i < n; ++i)
    d += 2 * (x + i);
  check_grad("forward, shadows deleted by a custom derivative",
             __enzyme_fwddiff<double>(value, x, 1.0, n), d,
             fd_diff1(value7, x));
  check_grad("reverse, one function",
             __enzyme_autodiff<double>(value, x, n), d, fd_diff1(value7, x));
  check_grad("reverse, made and deleted apart",
             __enzyme_autodiff<double>(acrossFunctions, x, n), d,
             fd_diff1(across7, x));
  check_grad("forward, made and deleted apart",
             __enzyme_fwddiff<double>(acrossFunctions, x, 1.0, n), d,
             fd_diff1(across7, x));
  return check_done();
}
