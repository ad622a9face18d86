//===- AttributeRecords.h - Enzyme attributes seen in one TU ----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The attribute handlers run while a declaration is still being built
/// (before it joins its redeclaration chain), so they only check their
/// arguments and record what they saw. At the end of the translation unit
/// the registration emitter pairs the records up and lowers them to the
/// registration globals that the AD engine reads.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_TOOLCHAIN_ATTRIBUTES_ATTRIBUTERECORDS_H
#define ENZYME_TOOLCHAIN_ATTRIBUTES_ATTRIBUTERECORDS_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace enzyme::attributes {

enum class RecordKind {
  InactiveFunction, ///< enzyme_inactive on a function
  InactiveGlobal,   ///< enzyme_inactive on a global variable
  Augment,          ///< enzyme("augment", fn)
  Gradient,         ///< enzyme("gradient", fn)
  Forward,          ///< enzyme("forward", fn)
  FunctionLike,     ///< enzyme_function_like("name")
  ShadowGlobal,     ///< enzyme_shadow(var)
};

/// One attribute as written on one declaration.
struct AttributeRecord {
  RecordKind Kind;
  /// The declaration the attribute is written on.
  clang::NamedDecl *Subject;
  /// Where the attribute is written; diagnostics point here.
  clang::SourceLocation Loc;
  /// The function (augment, gradient, forward) or variable (shadow) that the
  /// attribute names, else null.
  clang::NamedDecl *Target = nullptr;
  /// The name given to enzyme_function_like.
  std::string Name;
};

/// The records of the translation unit that \p Ctx belongs to. The plugin
/// lives in the process across compilations (clang runs several cc1 jobs in
/// one process), so records are kept per AST context and dropped with it.
std::vector<AttributeRecord> &recordsFor(const clang::ASTContext &Ctx);
void forgetRecords(const clang::ASTContext &Ctx);

} // namespace enzyme::attributes

#endif // ENZYME_TOOLCHAIN_ATTRIBUTES_ATTRIBUTERECORDS_H
