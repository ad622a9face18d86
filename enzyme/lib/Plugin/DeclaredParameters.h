//===- DeclaredParameters.h - C++ parameter types of IR arguments -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The mangled name of a C++ function lists its declared parameter types
/// ("double const*", "long", "thrust::device_ptr<double>"), which say what
/// memory a pointer parameter points to when nothing in the code does (a
/// cudaMemcpy in unoptimised code). The IR's parameters are not the
/// declared ones one to one: a returned struct may come first (sret), a
/// method takes `this`, and the x86-64 ABI drops empty classes passed by
/// value (std::integral_constant, tag types) and splits small structs into
/// two registers. This file matches the two lists in every way those rules
/// allow and names the declared type of an IR argument only where all
/// matchings agree.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_DECLAREDPARAMETERS_H
#define ENZYME_PLUGIN_DECLAREDPARAMETERS_H

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace llvm {
class Argument;
class Function;
} // namespace llvm

namespace enzyme {

/// The parameter types that the mangled name of the C++ function \p F
/// lists ("double const*", "float*", "int"); false for a name that does not
/// demangle to a function.
bool declaredParameterTypes(const llvm::Function &F,
                            llvm::SmallVectorImpl<std::string> &Types);

/// The declared C++ type of the parameter that \p A passes, when every
/// matching of its function's IR parameters to the declared ones gives the
/// same; nullopt otherwise (including `this`, a piece of a split struct,
/// and functions whose names do not demangle).
std::optional<std::string> declaredTypeOfArgument(const llvm::Argument &A);

} // namespace enzyme

#endif // ENZYME_PLUGIN_DECLAREDPARAMETERS_H
