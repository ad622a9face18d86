//===- MemoryAnnotations.h - What the user says memory holds ---*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `__enzyme_double(p, bytes)`, `__enzyme_float`, `__enzyme_integer` and
/// `__enzyme_pointer` tell the type analysis what memory holds where
/// nothing in the program does (Analysis/MemoryTypes.h, annotatedType).
/// They have no definition. While requests may still be served at the link
/// (a compile-time run), each one called gets an empty internal definition,
/// kept out of line, so that the object links and the link-time run still
/// reads the calls; at the link the calls are removed.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_MEMORYANNOTATIONS_H
#define ENZYME_PLUGIN_MEMORYANNOTATIONS_H

namespace llvm {
class Module;
} // namespace llvm

namespace enzyme {

/// Defines (\p AtLink false) or removes (\p AtLink true) the memory
/// annotations of \p M once its requests are served.
void finishMemoryAnnotations(llvm::Module &M, bool AtLink);

} // namespace enzyme

#endif // ENZYME_PLUGIN_MEMORYANNOTATIONS_H
