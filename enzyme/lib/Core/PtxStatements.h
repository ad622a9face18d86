//===- PtxStatements.h - Straight-line inline PTX as NVVM IR ----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA libraries write small computations as inline PTX. CUB's warp
/// reductions and scans of a sum (`cub::WarpReduce<double>::Sum`,
/// `WarpScan::InclusiveSum`, and the block collectives and Thrust algorithms
/// built on them) are blocks such as
///
///   { .reg .u32 lo; .reg .u32 hi; .reg .pred p; .reg .f64 r0;
///     mov.b64 $0, $1;  mov.b64 {lo, hi}, $1;
///     shfl.sync.down.b32 lo|p, lo, $2, $3, $4;
///     shfl.sync.down.b32 hi|p, hi, $2, $3, $4;
///     mov.b64 r0, {lo, hi};  @p add.f64 $0, $0, r0; }
///
/// which neither the engine nor the CUDA emulation can read as text. This
/// translates such straight-line PTX into the IR it computes, with NVVM's
/// intrinsics for the shuffles (a shuffle with a predicate output is the
/// `.i32p` intrinsic), so that both read it with their ordinary rules:
///
/// - `.reg .T name, ...;` declarations (T: pred, b/u/s 16, 32, 64, f16,
///   f16x2, bf16, bf16x2, f32, f64), in nested blocks `{ ... }` that are
///   scopes (cuda_fp16.h declares the same names in each of its blocks);
/// - `mov.T d, s;`, and `mov.T {a, b}, s;` / `mov.T d, {a, b};`, which
///   take a value apart into its halves and join them (16-bit halves as
///   the lanes of a vector: a `__half2`);
/// - `shfl.sync.MODE.b32 d[|p], a, b, c, m;` (MODE: up, down, bfly, idx);
/// - `add`, `sub`, `mul` (`.lo` for integers), `div`, `min`, `max`, `neg`,
///   `abs`, `fma` with `.rn` where floats take a rounding mode, and
///   `selp.T d, a, b, p;`; `setp` and `set` comparisons; `cvt` between
///   floats and integers; `rcp`, `sqrt`, `rsqrt` (computed exactly), `ex2`,
///   `lg2`, `sin`, `cos` (`.approx`: NVVM's approximations); `and`, `or`,
///   `xor`, `not` of bits;
/// - loads with a cache operator, `ld.CACHE[.v2|.v4].uN d, [a];` (CACHE:
///   global.nc, ca, cg, cs, cv), as CUB loads its tiles: plain loads;
/// - `atom[.SEM][.SCOPE].OP.T d, [a], b;` (libcu++'s atomic_ref,
///   cuda_fp16's atomicAdd): atomicrmw; `fence` and `membar`: NVVM's
///   membar;
/// - any of them guarded by `@p` or `@!p` (not atomics and fences).
///
/// Operands are `$N`, declared registers, and immediates (integers, with
/// PTX's `U` suffix, and floats as PTX writes them: `0d` and 16 hex digits,
/// `0f` and 8). The statement's outputs must be values, not memory; a
/// statement without outputs must be fences. Anything else is left alone:
/// an error where it matters, as before.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_PTXSTATEMENTS_H
#define ENZYME_CORE_PTXSTATEMENTS_H

namespace llvm {
class CallInst;
class Value;
} // namespace llvm

namespace enzyme {

struct AsmOperands;

/// Builds, before \p Call (inline PTX with operands \p Ops), the IR its
/// statements compute and returns the value of its result (a struct where it
/// has several outputs); nullptr, building nothing, when the statements are
/// not all of those above. The caller replaces \p Call.
llvm::Value *translatePtxStatements(llvm::CallInst &Call,
                                    const AsmOperands &Ops);

} // namespace enzyme

#endif // ENZYME_CORE_PTXSTATEMENTS_H
