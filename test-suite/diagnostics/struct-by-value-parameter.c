// Regression test: a large struct passed by value is a pointer (byval) in the
// IR, so the unmarked argument defaults to enzyme_dup and the error reads
// "enzyme_dup for parameter 1 of 'norm' (ptr) needs a shadow pointer after
// the value" -- the user wrote neither enzyme_dup nor a pointer. Expected:
// the error says the parameter is a struct passed by value (and what to do:
// pass a pointer with enzyme_dup, or enzyme_const).
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="(ptr)"
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="(ptr)"

struct vec4 { double a, b, c, d; };
double __enzyme_autodiff(void *, ...);

double norm(struct vec4 v) { return v.a * v.a + v.b * v.b + v.c * v.c; }

double bad(struct vec4 v) {
  // CHECK: {{.*}}struct-by-value-parameter.c:[[@LINE+1]]:10: error: __enzyme_autodiff: {{.*}}parameter 1 of 'norm' {{.*}}struct
  return __enzyme_autodiff((void *)norm, v);
}

// With derivatives in reverse mode, and in split mode, it is still an error
// that says what to do.
extern int enzyme_out, enzyme_const;
double __enzyme_augmentfwd(void *, ...);
double active(struct vec4 v) {
  // CHECK: {{.*}}struct-by-value-parameter.c:[[@LINE+1]]:10: error: __enzyme_autodiff: parameter 1 of 'norm' is a struct passed by value: mark it enzyme_const; to differentiate with respect to its fields, pass it by pointer with enzyme_dup
  return __enzyme_autodiff((void *)norm, enzyme_out, v);
}
double split(struct vec4 v) {
  // CHECK: {{.*}}struct-by-value-parameter.c:[[@LINE+1]]:10: error: __enzyme_augmentfwd: parameter 1 of 'norm' is a struct passed by value
  return __enzyme_augmentfwd((void *)norm, enzyme_const, v);
}
