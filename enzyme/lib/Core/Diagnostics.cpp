//===- Diagnostics.cpp - Clang-style errors from the engine ---------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/Diagnostics.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace enzyme {

std::string describeLocation(const DebugLoc &Loc) {
  if (!Loc)
    return "";
  std::string Text;
  raw_string_ostream OS(Text);
  OS << Loc->getFilename() << ":" << Loc.getLine();
  if (Loc.getCol())
    OS << ":" << Loc.getCol();
  return Text;
}

/// The location of a request whose debug info was stripped after the
/// compile-time run, kept as `!enzyme.srcloc` on the call.
static std::string savedLocation(const Instruction &I) {
  if (MDNode *N = I.getMetadata("enzyme.srcloc"))
    if (auto *S = dyn_cast<MDString>(N->getOperand(0)))
      return S->getString().str();
  return "";
}

void reportError(const Instruction &At, const Twine &Message,
                 const Instruction *Offending) {
  std::string Text = Message.str();
  if (Offending) {
    std::string Where = describeLocation(Offending->getDebugLoc());
    if (!Where.empty())
      Text += " (the operation is at " + Where + ")";
  }
  DebugLoc Loc = At.getDebugLoc();
  if (!Loc) {
    std::string Saved = savedLocation(At);
    if (!Saved.empty())
      Text = Saved + ": " + Text;
  }
  const Function &F = *At.getFunction();
  F.getContext().diagnose(DiagnosticInfoUnsupported(F, Text, Loc, DS_Error));
}

} // namespace enzyme
