//===- CompileTimeBodies.h - Bodies kept for requests served at the link -===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A request whose callees live in other files is served at the link, on the
/// bitcode of every -fenzyme object. That bitcode is written after the whole
/// compile-time pipeline: vectorised, unrolled and, with sanitizers,
/// instrumented (AddressSanitizer moves locals to addresses computed from
/// integers, where derivatives cannot follow). DESIGN §3 has AD read code
/// after simplification and before vectorisation, wherever it is served.
///
/// So the compile-time run keeps a copy of each function body as it sees it,
/// out of the reach of the passes that follow (optnone, no sanitizer
/// attributes), tied to its function by metadata. The link-time run
/// differentiates those copies and deletes them; the native half of a
/// fat-LTO compilation deletes them before code generation.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_COMPILETIMEBODIES_H
#define ENZYME_CORE_COMPILETIMEBODIES_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace enzyme {

/// Keeps, for every function defined in \p M, a copy of its body as it
/// stands now for requests served at the link.
void keepBodiesForTheLink(llvm::Module &M);

/// The body AD should read for \p F: the copy kept at compile time when
/// there is one, \p F itself otherwise.
const llvm::Function &bodyToDifferentiate(const llvm::Function &F);

/// Deletes the copies (after the link-time run, or before native code).
void dropBodiesKeptForTheLink(llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_CORE_COMPILETIMEBODIES_H
