// Regression test: a struct that mixes a float and an int, passed or
// returned by value, travels in one integer register on x86-64 (`i64`).
// Direct calls, and calls through pointers whose possible targets all have
// bodies, get the float as a float (test-suite/runtime/cpp-struct-mixed-
// float-int.cpp and cpp-struct-mixed-float-int-pointers.cpp), and so do
// targets marked inactive. Where a possible target has a custom derivative,
// which takes and returns the integer, the engine cannot give it the float
// as a float; there the float's derivative was once lost with no diagnostic
// (0), as it was for such a result stored to memory without a shadow.
// Expected: an error that names the target and what to do: at the link for
// the call through a pointer (its targets are known there), at the request
// for the store.
//
// RUN: not %clangxx_enzyme -fenzyme -O0 -g %s -o %t 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clangxx_enzyme -fenzyme -O2 -g %s -o %t 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clangxx_enzyme -fenzyme -O0 -g -c -DSTORE %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STORE %{no-crash}
// RUN: not %clangxx_enzyme -fenzyme -O2 -g -c -DSTORE %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STORE %{no-crash}

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
__attribute__((noinline)) float logged(Sample s) { return s.count; }
__attribute__((noinline)) float loggedAugment(Sample s) { return logged(s); }
__attribute__((noinline)) void loggedReverse(Sample, float) {}
void *__enzyme_register_gradient_logged[3] = {
    (void *)logged, (void *)loggedAugment, (void *)loggedReverse};
__attribute__((noinline)) float loggedForward(Sample) { return 0; }
void *__enzyme_register_derivative_logged[2] = {(void *)logged,
                                                (void *)loggedForward};
__attribute__((noinline)) Sample square(float x) { return {x * x, 1}; }
__attribute__((noinline)) Sample noted(float x) { return {x, 0}; }
__attribute__((noinline)) Sample notedAugment(float x) { return noted(x); }
__attribute__((noinline)) float notedReverse(float) { return 0; }
void *__enzyme_register_gradient_noted[3] = {(void *)noted, (void *)notedAugment,
                                             (void *)notedReverse};

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

#ifdef STORE
float gradients(float x) {
  // STORE: struct-float-int-by-value.cpp:[[@LINE+1]]:10: error: cannot differentiate 'storeWithoutShadow(float)': a value that carries a derivative is stored into the memory that argument 1 of 'fill(Sample*, float)' points to, which has no shadow {{.*}}(the operation is at {{.*}}struct-float-int-by-value.cpp:[[#STORED:]]:{{[0-9]+}})
  return __enzyme_autodiff((void *)storeWithoutShadow, x);
}
#else
int main(int argc, char **) {
  float x = 1.5f;
  // The marked functions are possible targets of the calls.
  if (argc > 5) {
    Weigh = logged;
    Square = noted;
  }
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:{{[0-9]+}}: {{.*}}cannot differentiate 'passThroughPointer(float)': cannot differentiate the call of 'logged(Sample)': its argument 1 is an integer that carries the bits of a float with a derivative (a struct that mixes floats and integers, passed by value, which the ABI packs into one integer register), and its custom derivative would receive it without its derivative; pass the struct by pointer or reference
  float d = __enzyme_autodiff((void *)passThroughPointer, x);
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:{{[0-9]+}}: {{.*}}cannot differentiate 'returnThroughPointer(float)': cannot differentiate floats unpacked from the integer that 'noted(float)' returns (a struct that mixes floats and integers, returned by value, which the ABI packs into one integer register): its custom derivative cannot give their derivative; return the struct through a pointer or reference parameter
  d += __enzyme_autodiff((void *)returnThroughPointer, x);
  // Forward mode: the same call, the same error.
  // CHECK: struct-float-int-by-value.cpp:[[@LINE+1]]:{{[0-9]+}}: {{.*}}cannot differentiate 'passThroughPointer(float)': cannot differentiate the call of 'logged(Sample)': its argument 1 is an integer {{.*}}its custom derivative would receive it
  __enzyme_fwddiff((void *)passThroughPointer, x, 1.0f);
  return d > 0;
}
#endif
