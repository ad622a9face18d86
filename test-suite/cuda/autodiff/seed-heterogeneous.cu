// The heterogeneous example of Enzyme's CUDA guide, both tape forms, as the
// guide writes them (Inputs/): __enzyme_autodiff of the host loop `iter`,
// whose kernel launches take the registered device-made gradient. Checked
// against the adjoint worked out by hand, seeds d src = 0, d dst = 1.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DINLINE_TAPE %s -o %t.inline.O0 && %t.inline.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DINLINE_TAPE %s -o %t.inline.O2 && %t.inline.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 -DINLINE_TAPE %s -o %t.inline.gpu && %t.inline.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#ifdef INLINE_TAPE
#include "Inputs/seed-heterogeneous-inline-tape.cu"
#else
#include "Inputs/seed-heterogeneous.cu"
#endif

#include "Inputs/seed-heterogeneous-main.cu"
