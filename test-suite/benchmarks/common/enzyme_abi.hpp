//===- enzyme_abi.hpp - The Enzyme C ABI, declared by the benchmarks ------===//
//
// The benchmarks declare the ABI themselves, as users of any Enzyme-ABI
// compiler do, so the same sources build with ours and with another one
// (BENCH_ALT_CXX). Every reverse-mode request passes shadows for its
// outputs, so one C declaration returning void serves them all. Forward
// mode returns the tangent of a double result (__enzyme_fwddiff) or nothing
// for a void function (__enzyme_fwddiff_void: every name that starts with
// __enzyme_fwddiff is a request). Vector forward mode (enzyme_width, 8)
// returns the eight tangents of a double result (__enzyme_fwddiff_x8) and
// takes eight shadows per duplicated argument (ENZYME_BENCH_LANES).
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_ABI_HPP
#define ENZYME_BENCH_ABI_HPP

extern "C" {
extern int enzyme_const;
extern int enzyme_dup;
extern int enzyme_dupnoneed;
extern int enzyme_out;
extern int enzyme_width;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
struct enzyme_tangents8 {
  double d[8];
};
enzyme_tangents8 __enzyme_fwddiff_x8(void *, ...);
}

// The eight shadows of one argument in vector mode, from an array of eight
// pointers (bench::Directions8::Ptr).
#define ENZYME_BENCH_LANES(P) P[0], P[1], P[2], P[3], P[4], P[5], P[6], P[7]

#endif // ENZYME_BENCH_ABI_HPP
