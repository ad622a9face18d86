//===- ExceptionGuards.cpp - Calls that may throw, in derivatives ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ExceptionGuards.h"

#include "Analysis/KnownFunctions.h"
#include "Analysis/MemoryTypes.h"
#include "Core/Diagnostics.h"
#include "Core/RuntimeLibrary.h"
#include "Rules/MathRules.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace enzyme {

/// \p Call calls a C library function the engine knows (a math function
/// it has a rule for, the C allocator), which never throws even where its
/// declaration does not say so (IR written by hand, or before attributes
/// are inferred). C++'s operator new does throw; a user's allocator (one
/// marked __enzyme_allocation_like) may.
static bool callsNonThrowingLibraryFunction(const CallInst &Call) {
  if (rules::findMathRule(Call))
    return true;
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->getName().starts_with("_Z") ||
      Callee->hasFnAttribute("enzyme_allocation_size_arg") ||
      Callee->hasFnAttribute("enzyme_deallocation"))
    return false;
  return isAllocationCall(Call) || isDeallocationCall(Call);
}

/// \p Call may unwind into its caller.
static bool mayUnwind(const CallInst &Call) {
  if (Call.doesNotThrow() || Call.isInlineAsm() || Call.isMustTailCall())
    return false;
  const Function *Callee = Call.getCalledFunction();
  if (Callee && Callee->isIntrinsic())
    return false;
  // What memory holds (`__enzyme_double(p, n)`, declared in C++ without
  // noexcept) says something to the engine, which removes the call.
  if (annotatedType(Call))
    return false;
  return !callsNonThrowingLibraryFunction(Call);
}

/// The personality that \p Generated's landing pad is written for: the
/// primal's, or else the module's (one language per module, in practice),
/// or else C++'s in C++ code where no function catches anything. Null for
/// other code (C): nothing there can catch, so nothing is guarded, and the
/// program needs no C++ run-time for it.
static Constant *personalityFor(Function &Generated, const Function &Primal) {
  if (Generated.hasPersonalityFn())
    return Generated.getPersonalityFn();
  if (Primal.hasPersonalityFn())
    return Primal.getPersonalityFn();
  Module &M = *Generated.getParent();
  for (const Function &F : M)
    if (F.hasPersonalityFn())
      return F.getPersonalityFn();
  // The driver gives every -fenzyme compilation line tables, so a compile
  // unit says what language the module is in.
  bool IsCxx = any_of(M.debug_compile_units(), [](const DICompileUnit *CU) {
    return dwarf::isCPlusPlus(
        static_cast<dwarf::SourceLanguage>(CU->getSourceLanguage()));
  });
  if (!IsCxx)
    return nullptr;
  LLVMContext &Ctx = M.getContext();
  return cast<Constant>(
      M.getOrInsertFunction("__gxx_personality_v0",
                            FunctionType::get(Type::getInt32Ty(Ctx), true))
          .getCallee());
}

void guardCallsThatMayThrow(Function &Generated, const Function &Primal) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(Generated))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && mayUnwind(*Call))
      Calls.push_back(Call);
  Module &M = *Generated.getParent();
  if (Calls.empty() || !canLinkRuntime(M))
    return;
  Constant *Personality = personalityFor(Generated, Primal);
  if (!Personality)
    return;

  Generated.setPersonalityFn(Personality);
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  // One landing pad for the whole function; which call threw reaches it
  // through a phi.
  BasicBlock *Unwind =
      BasicBlock::Create(Ctx, "enzyme.exception.thrown", &Generated);
  IRBuilder<> B(Unwind);
  PHINode *Where = B.CreatePHI(Ptr, Calls.size(), "where");
  // Catching everything (a null type) stops the personality's search here,
  // so the report runs even where nothing above would catch the exception.
  LandingPadInst *Pad =
      B.CreateLandingPad(StructType::get(Ptr, B.getInt32Ty()), 1);
  Pad->addClause(ConstantPointerNull::get(Ptr));
  Value *Name = B.CreateGlobalString(displayName(Primal.getName()),
                                     "enzyme.exception.fn");
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_exception_thrown"),
               {Name, Where});
  B.CreateUnreachable();

  StringMap<Value *> Locations;
  for (CallInst *Call : Calls) {
    std::string Location = describeLocation(Call->getDebugLoc());
    // Without a location (no debug info, or a call the engine made itself,
    // to a custom derivative), the function called says where to look.
    const Function *Callee = Call->getCalledFunction();
    if (Location.empty() && Callee)
      Location = "a call to '" + displayName(Callee->getName()) + "'";
    Value *&Text = Locations[Location];
    if (!Text)
      Text = Location.empty()
                 ? static_cast<Value *>(ConstantPointerNull::get(Ptr))
                 : B.CreateGlobalString(Location, "enzyme.exception.at");
    BasicBlock *From = Call->getParent();
    changeToInvokeAndSplitBasicBlock(Call, Unwind);
    Where->addIncoming(Text, From);
  }
}

} // namespace enzyme
