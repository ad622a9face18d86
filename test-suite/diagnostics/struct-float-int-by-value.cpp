// Regression test: a struct that mixes a float and an int, passed or
// returned by value, travels in one integer register on x86-64 (`i64`). The
// float's derivative did not go with it: the gradient with respect to the
// field came back 0 with no diagnostic, in reverse and forward mode, at -O0
// and -O2. Expected: an error at the call that names the callee, the
// argument and what to do. Structs whose floats travel in float registers
// ({double, int}, {float, float}) work: test-suite/runtime/cpp-struct-by-
// value-registers.cpp.
//
// RUN: not %clangxx_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clangxx_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}

struct Sample {
  float value;
  int count;
};
struct Reversed {
  int count;
  float value;
};

extern int enzyme_dup, enzyme_const;
extern float __enzyme_autodiff(void *, ...);
extern void __enzyme_fwddiff(void *, ...);

template <class S> __attribute__((noinline)) void weigh(S s, float *y) {
  for (int i = 0; i < s.count; ++i)
    y[i] += s.value * s.value;
}
template <class S> void pass(float x, float *y) {
  S s{};
  s.value = x;
  s.count = 2;
  weigh(s, y);
}

__attribute__((noinline)) Sample square(float x) { return {x * x, 1}; }
void unpack(float x, float *y) {
  y[0] = square(x).value;
}

float gradients(float x, float *y, float *dy) {
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:10: error: cannot differentiate 'void pass<Sample>(float, float*)': cannot differentiate the call of 'void weigh<Sample>(Sample, float*)': its argument 1 is an integer that carries the bits of a float with a derivative (a struct that mixes floats and integers, passed by value, which the ABI packs into one integer register), and the callee would receive it without its derivative; pass the struct by pointer or reference, or give 'void weigh<Sample>(Sample, float*)' a custom derivative (the operation is at {{.*}}struct-float-int-by-value.cpp:[[#PASS:]]:3)
  return __enzyme_autodiff((void *)pass<Sample>, x, enzyme_dup, y, dy) +
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:10: error: cannot differentiate 'void pass<Reversed>(float, float*)': cannot differentiate the call of 'void weigh<Reversed>(Reversed, float*)': its argument 1 is an integer {{.*}}(the operation is at {{.*}}struct-float-int-by-value.cpp:[[#PASS]]:3)
         __enzyme_autodiff((void *)pass<Reversed>, x, enzyme_dup, y, dy) +
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:10: error: cannot differentiate 'unpack(float, float*)': cannot differentiate floats unpacked from the integer that 'square(float)' returns (a struct that mixes floats and integers, returned by value, which the ABI packs into one integer register): their derivative would stay in the callee; return the struct through a pointer or reference parameter, or give 'square(float)' a custom derivative (the operation is at {{.*}}struct-float-int-by-value.cpp:[[#PASS+5]]:{{8|10}})
         __enzyme_autodiff((void *)unpack, x, enzyme_dup, y, dy);
}

// Forward mode: the same call, the same error.
void tangent(float x, float dx, float *y, float *dy) {
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:3: error: cannot differentiate 'void pass<Sample>(float, float*)': cannot differentiate the call of 'void weigh<Sample>(Sample, float*)': its argument 1 is an integer {{.*}}(the operation is at {{.*}}struct-float-int-by-value.cpp:[[#PASS]]:3)
  __enzyme_fwddiff((void *)pass<Sample>, x, dx, enzyme_dup, y, dy);
}
