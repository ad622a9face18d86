//===- Diagnostics.cpp - Clang-style errors from the engine ---------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/Diagnostics.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

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

namespace {
/// An error printed as its text alone ("error: <text>" in clang,
/// "ld.lld: error: <text>" in lld).
class PlainDiagnostic : public DiagnosticInfo {
public:
  explicit PlainDiagnostic(const std::string &Text)
      : DiagnosticInfo(kind(), DS_Error), Text(Text) {}
  void print(DiagnosticPrinter &DP) const override { DP << Text; }

private:
  static int kind() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
  const std::string &Text;
};
} // namespace

void reportWarning(const Instruction &At, const Twine &Message,
                   StringRef OffendingLocation) {
  std::string Text = Message.str();
  if (!OffendingLocation.empty())
    Text += " (the operation is at " + OffendingLocation.str() + ")";
  const Function &F = *At.getFunction();
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, Text, At.getDebugLoc(), DS_Warning));
}

void reportError(const Instruction &At, const Twine &Message,
                 StringRef OffendingLocation) {
  std::string Text = Message.str();
  if (!OffendingLocation.empty())
    Text += " (the operation is at " + OffendingLocation.str() + ")";
  DebugLoc Loc = At.getDebugLoc();
  std::string Where = Loc ? describeLocation(Loc) : savedLocation(At);

  // One error per place: a request in an inlined helper has several copies.
  static std::set<std::pair<const Module *, std::string>> Reported;
  if (!Reported.insert({At.getModule(), Where + Text}).second)
    return;

  const Function &F = *At.getFunction();
  LLVMContext &Ctx = F.getContext();
  if (Loc) {
    Ctx.diagnose(DiagnosticInfoUnsupported(F, Text, Loc, DS_Error));
    return;
  }
  // Without a debug location (debug info stripped before a link-time run),
  // the location saved on the call leads the message.
  if (!Where.empty())
    Text = Where + ": " + Text;
  Ctx.diagnose(PlainDiagnostic(Text));
}

void reportError(const GlobalVariable &At, const Twine &Message) {
  std::string Text = Message.str();
  SmallVector<DIGlobalVariableExpression *, 1> Infos;
  At.getDebugInfo(Infos);
  if (!Infos.empty()) {
    DIGlobalVariable *Var = Infos.front()->getVariable();
    Text =
        (Var->getFilename() + ":" + Twine(Var->getLine()) + ": " + Text).str();
  }
  static std::set<std::pair<const Module *, std::string>> Reported;
  if (!Reported.insert({At.getParent(), Text}).second)
    return;
  At.getContext().diagnose(PlainDiagnostic(Text));
}

std::string displayName(StringRef Symbol) { return demangle(Symbol); }

std::string displayType(Type *Ty) {
  if (Ty->isDoubleTy())
    return "double";
  if (Ty->isFloatTy())
    return "float";
  if (Ty->isX86_FP80Ty() || Ty->isFP128Ty())
    return "long double";
  if (Ty->isHalfTy())
    return "half";
  if (Ty->isPointerTy())
    return "pointer";
  if (auto *IT = dyn_cast<IntegerType>(Ty)) {
    switch (IT->getBitWidth()) {
    case 1:
      return "bool";
    case 8:
      return "char";
    case 16:
      return "short";
    case 32:
      return "int";
    case 64:
      return "long";
    default:
      break;
    }
  }
  if (Ty->isStructTy())
    return "struct";
  if (Ty->isVectorTy())
    return "vector";
  std::string S;
  raw_string_ostream(S) << *Ty;
  return S;
}

} // namespace enzyme
