// Misuse of __enzyme_batch and of its lane markers is an error at the call:
// a function known only at run time, a missing width, the wrong number of
// lane values, a marker of another mode in a batch, enzyme_vector /
// enzyme_scalar outside __enzyme_batch, and a declared result that cannot
// hold the lanes' results.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_width, enzyme_vector, enzyme_scalar, enzyme_dup,
    enzyme_nocache;
typedef struct { double d[2]; } d2;
d2 __enzyme_batch(void *, ...);
double __enzyme_batch_double(void *, ...);
void __enzyme_batch_void(void *, ...);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double add(double x, double y) { return x + y; }
void store(double *p, double v) { *p = v; }

d2 missing_width(double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: 'enzyme_width, N' (the number of lanes) must follow the function
  return __enzyme_batch((void *)add, x, x, x, x);
}

d2 runtime_function(void *fp, double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: the function to evaluate must be known at compile time; pass the function itself (e.g. (void*)f), not a pointer computed at run time
  return __enzyme_batch(fp, enzyme_width, 2, x, x, x, x);
}

d2 too_few_lanes(double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: enzyme_vector for parameter 2 of 'add' (double) needs 2 values, one per lane ('enzyme_width, 2'), but 1 is given
  return __enzyme_batch((void *)add, enzyme_width, 2, x, x, enzyme_vector, x);
}

d2 scalar_without_value(double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: enzyme_scalar for parameter 2 of 'add' (double) needs a value
  return __enzyme_batch((void *)add, enzyme_width, 2, x, x, enzyme_scalar);
}

d2 too_many_values(double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: too many arguments: 'add' has 2 parameters
  return __enzyme_batch((void *)add, enzyme_width, 2, enzyme_scalar, x, x, x, x);
}

d2 activity_marker(double *p, double *dp) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: the marker 'enzyme_dup' is not meaningful in __enzyme_batch; give parameter 1 of 'store' (pointer) with enzyme_vector (one value per lane) or enzyme_scalar (one value for all lanes)
  return __enzyme_batch((void *)store, enzyme_width, 2, enzyme_dup, p, dp, 1.0, 2.0);
}

d2 nocache_in_batch(double *p) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: the marker 'enzyme_nocache' is not meaningful in __enzyme_batch
  return __enzyme_batch((void *)store, enzyme_width, 2, enzyme_nocache, p, p, 1.0, 2.0);
}

d2 late_width(double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: 'enzyme_width' must come before the arguments of 'add', which it applies to
  return __enzyme_batch((void *)add, enzyme_width, 2, x, x, enzyme_width, 4, x, x);
}

void fine(double *p, double *q) {
  __enzyme_batch_void((void *)store, enzyme_width, 2, p, q, enzyme_scalar, 1.0);
}

double vector_outside_batch(double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the marker 'enzyme_vector' describes the lanes of __enzyme_batch; it is not meaningful here
  return __enzyme_autodiff((void *)add, enzyme_vector, x, x);
}

double scalar_outside_batch(double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: the marker 'enzyme_scalar' describes the lanes of __enzyme_batch; it is not meaningful here
  return __enzyme_fwddiff((void *)add, x, 1.0, enzyme_scalar, x, 0.0);
}

// Errors found while lowering come after those found while parsing.
double result_too_small(double x) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch is declared to return 'double', which cannot hold the results of 'add' with 'enzyme_width, 2': 2 values (double, double); declare a struct with one field per value, in order (e.g. struct { double d[2]; })
  return __enzyme_batch_double((void *)add, enzyme_width, 2, x, x, x, x);
}

double void_function_with_result(double *p, double *q) {
  // CHECK: {{.*}}batch-misuse.c:[[@LINE+1]]:10: error: __enzyme_batch: 'store' returns void, so the batch has no results; declare __enzyme_batch to return void
  return __enzyme_batch_double((void *)store, enzyme_width, 2, p, q, enzyme_scalar, 1.0);
}
