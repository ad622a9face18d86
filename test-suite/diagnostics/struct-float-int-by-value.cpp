// Regression test: a struct that mixes a float and an int, passed or
// returned by value, travels in one integer register on x86-64 (`i64`).
// Direct calls get the float as a float (test-suite/runtime/cpp-struct-
// mixed-float-int.cpp); the engine cannot do that through a function
// pointer, whose target it does not know when it prepares the call. There
// the float's derivative was lost with no diagnostic (0), as it was for such
// a result stored to memory without a shadow. Expected: an error at the
// call that names what is wrong and what to do.
//
// RUN: not %clangxx_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clangxx_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}

struct Sample {
  float value;
  int count;
};

extern int enzyme_dup, enzyme_const;
extern float __enzyme_autodiff(void *, ...);
extern void __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) float weigh(Sample s) {
  return s.value * s.value * s.count;
}
__attribute__((noinline)) Sample square(float x) { return {x * x, 1}; }

float (*volatile Weigh)(Sample) = weigh;
Sample (*volatile Square)(float) = square;

float passThroughPointer(float x) {
  Sample s{x, 2};
  return Weigh(s);
}
float returnThroughPointer(float x) { return Square(x).value * 3; }

Sample *Heap = new Sample[2];
__attribute__((noinline)) void fill(Sample *p, float x) { p[1] = square(x); }
float storeWithoutShadow(float x) {
  fill(Heap, x);
  return Heap[1].value;
}

float gradients(float x) {
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:10: error: cannot differentiate 'passThroughPointer(float)': cannot differentiate the call of the function it calls through a pointer: its argument 1 is an integer that carries the bits of a float with a derivative (a struct that mixes floats and integers, passed by value, which the ABI packs into one integer register), and the callee would receive it without its derivative; pass the struct by pointer or reference, or call the function directly (the operation is at {{.*}}struct-float-int-by-value.cpp:[[#PASS:]]:10)
  return __enzyme_autodiff((void *)passThroughPointer, x) +
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:10: error: cannot differentiate 'returnThroughPointer(float)': cannot differentiate floats unpacked from the integer that the function it calls through a pointer returns (a struct that mixes floats and integers, returned by value, which the ABI packs into one integer register): their derivative would stay in the callee; return the struct through a pointer or reference parameter, or call the function directly (the operation is at {{.*}}struct-float-int-by-value.cpp:[[#PASS+2]]:{{[0-9]+}})
         __enzyme_autodiff((void *)returnThroughPointer, x) +
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:10: error: cannot differentiate 'storeWithoutShadow(float)': a value that carries a derivative is stored into the memory that argument 1 of 'fill(Sample*, float)' points to, which has no shadow {{.*}}(the operation is at {{.*}}struct-float-int-by-value.cpp:[[#PASS+5]]:{{[0-9]+}})
         __enzyme_autodiff((void *)storeWithoutShadow, x);
}

// Forward mode: the same call, the same error.
void tangent(float x, float dx) {
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:3: error: cannot differentiate 'passThroughPointer(float)': cannot differentiate the call of the function it calls through a pointer: its argument 1 is an integer {{.*}}(the operation is at {{.*}}struct-float-int-by-value.cpp:[[#PASS]]:10)
  __enzyme_fwddiff((void *)passThroughPointer, x, dx);
}
