//===- enzyme_abi.hpp - The Enzyme C ABI, declared by the benchmarks ------===//
//
// The benchmarks declare the ABI themselves, as users of any Enzyme-ABI
// compiler do, so the same sources build with ours and with another one
// (BENCH_ALT_CXX). Every request passes shadows for its outputs, so one
// C declaration returning void serves them all.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_ABI_HPP
#define ENZYME_BENCH_ABI_HPP

extern "C" {
extern int enzyme_const;
extern int enzyme_dup;
extern int enzyme_dupnoneed;
extern int enzyme_out;
void __enzyme_autodiff(void *, ...);
}

#endif // ENZYME_BENCH_ABI_HPP
