//===- LoweringSupport.h - What every request lowering shares --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Pieces that the lowering of each request mode uses: reporting why a
/// function could not be differentiated (or deferring the request to link
/// time), converting results to the type the user declared for the
/// `__enzyme_*` call, and replacing the call.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_LOWERINGSUPPORT_H
#define ENZYME_PLUGIN_LOWERINGSUPPORT_H

#include "Plugin/DiffRequest.h"
#include "Plugin/RequestLowering.h"

#include "llvm/IR/IRBuilder.h"

namespace enzyme {

struct DifferentiationFailure;

/// Handles a failed generation for \p Request: defers it (a callee may get
/// a body at link time) when \p AllowDeferral permits, else reports the
/// failure at the request.
LoweringResult handleGenerationFailure(const DiffRequest &Request,
                                       const DifferentiationFailure &Failure,
                                       bool AllowDeferral);

/// Converts \p Values (scalars, in order) to the type \p To that the user
/// declared for the request's result: a scalar, a struct or array of
/// scalars, or a vector of floats (how x86-64 returns a struct of two
/// floats). Floating-point values convert to other floating-point types.
/// \p What names the values in the error on a mismatch ("the gradients").
/// Returns nullptr for `void` and after reporting a mismatch.
llvm::Value *convertResults(llvm::IRBuilder<> &B,
                            llvm::ArrayRef<llvm::Value *> Values,
                            llvm::Type *To, const DiffRequest &Request,
                            const llvm::Twine &What);

/// The fields of \p Aggregate (a struct value), or none for nullptr.
llvm::SmallVector<llvm::Value *, 4> structFields(llvm::IRBuilder<> &B,
                                                 llvm::Value *Aggregate);

/// The type the user declared for the request's result (the struct
/// returned through memory, or the call's type).
llvm::Type *declaredResultType(const DiffRequest &Request);

/// Makes \p Result the request's result (stored through the struct-return
/// pointer, or replacing the call's uses), then removes the call and the
/// marker loads only it used. \p Result may be nullptr after an error.
void replaceRequest(const DiffRequest &Request, llvm::Value *Result);

/// The request's call as a plain call (a request inside a C++ try scope is
/// an invoke; the generated code does not throw).
llvm::CallBase &requestCallAsCall(DiffRequest &Request);

/// \p Value for parameter \p Param of the request's function, as a call
/// would pass it: a struct passed by value (a `byval` parameter) is copied
/// into a local of the caller, so the generated code works on its own copy.
llvm::Value *passAsArgument(llvm::IRBuilder<> &B, const DiffRequest &Request,
                            unsigned Param, llvm::Value *Value);

} // namespace enzyme

#endif // ENZYME_PLUGIN_LOWERINGSUPPORT_H
