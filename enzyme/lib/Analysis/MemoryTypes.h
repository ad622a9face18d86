//===- MemoryTypes.h - What kind of values memory holds ---------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A small type analysis for memory that is copied without a type: memcpy,
/// and integer loads/stores that optimised code uses to move a double
/// (`load i64` / `store i64`). Evidence comes from TBAA tags and from how
/// the same memory is loaded and stored elsewhere.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_MEMORYTYPES_H
#define ENZYME_ANALYSIS_MEMORYTYPES_H

namespace llvm {
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace enzyme {

/// The floating-point type of the values that memory at \p Dst and \p Src
/// holds, when something says so; nullptr otherwise. \p Access, when given,
/// is the copying instruction, whose TBAA tag is checked first.
llvm::Type *inferFloatElementType(llvm::Value *Dst, llvm::Value *Src,
                                  const llvm::Instruction *Access = nullptr);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_MEMORYTYPES_H
