//===- ContextShadows.cpp - Shadows of globals kept in a context ----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/ContextShadows.h"
#include "Core/GlobalUsers.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/Diagnostics.h"
#include "Core/GlobalShadows.h"
#include "Core/LibcCalls.h"
#include "Core/ReusableFunctions.h"
#include "Core/UserRegistrations.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

//===----------------------------------------------------------------------===//
// Which globals take a shadow from a context
//===----------------------------------------------------------------------===//

static bool holdsPointers(Type *Ty) {
  if (Ty->isPointerTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(Ty))
    return any_of(ST->elements(), holdsPointers);
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return holdsPointers(AT->getElementType());
  if (auto *VT = dyn_cast<VectorType>(Ty))
    return holdsPointers(VT->getElementType());
  return false;
}

uint64_t contextShadowBytes(const GlobalVariable &GV) {
  Type *Ty = GV.getValueType();
  if (!Ty->isSized())
    return 0;
  TypeSize Size = GV.getParent()->getDataLayout().getTypeAllocSize(Ty);
  return Size.isScalable() ? 0 : Size.getFixedValue();
}

/// Why \p GV takes no shadow from a context; nullptr when it does (or when
/// it has a declared one, which it keeps).
static const char *contextShadowProblem(const GlobalVariable &GV) {
  StringRef Name = GV.getName();
  if (Name.starts_with("enzyme") || Name.starts_with("__enzyme") ||
      Name.starts_with("llvm."))
    return "belongs to the toolchain";
  if (GV.isConstant())
    return "is constant, so it carries no derivative";
  if (GV.isThreadLocal())
    return "is thread-local";
  if (isInactiveGlobal(GV))
    return "is marked inactive";
  if (GV.getAddressSpace() != 0)
    return "is not in the default address space";
  if (contextShadowBytes(GV) == 0)
    return "has no size known here (an extern declaration without one); "
           "declare it with its size";
  if (holdsPointers(GV.getValueType()))
    return "holds pointers, and a context gives shadows only to globals of "
           "floating-point data";
  if (!isDifferentiableType(GV.getValueType()))
    return "holds no floating-point data";
  return nullptr;
}

bool isContextGlobal(const GlobalVariable &GV) {
  return !globalShadowOf(GV) && !contextShadowProblem(GV);
}

std::string whyNoContextShadow(const GlobalVariable &GV) {
  const char *Problem = contextShadowProblem(GV);
  return Problem ? Problem : "";
}

/// The context global that the constant address \p V lies within.
static const GlobalVariable *contextGlobalOf(const Value *V,
                                             unsigned Depth = 0) {
  if (const auto *GV = dyn_cast<GlobalVariable>(V))
    return isContextGlobal(*GV) ? GV : nullptr;
  const auto *CE = dyn_cast<ConstantExpr>(V);
  if (!CE || Depth > 8 ||
      (CE->getOpcode() != Instruction::GetElementPtr &&
       CE->getOpcode() != Instruction::BitCast &&
       CE->getOpcode() != Instruction::AddrSpaceCast))
    return nullptr;
  return contextGlobalOf(CE->getOperand(0), Depth + 1);
}

bool hasContextShadow(const Value *V) {
  return isa<Constant>(V) && V->getType()->isPointerTy() && contextGlobalOf(V);
}

static constexpr GlobalUserMarks ContextGlobalUsers = {
    "enzyme_context_globals", "enzyme.context_globals"};

void markContextGlobalUsers(Module &M) {
  markGlobalUsers(M, ContextGlobalUsers,
                  M.getNamedGlobal("enzyme_context") != nullptr,
                  [](const GlobalVariable &GV) { return isContextGlobal(GV); });
}

bool mayTouchContextGlobals(const CallBase &Call) {
  return mayReachMarkedGlobals(Call, ContextGlobalUsers);
}

//===----------------------------------------------------------------------===//
// The run-time, emitted as IR
//===----------------------------------------------------------------------===//
//
// A context is one pointer, to the first of its entries
//   { next, global address, bytes, shadow }.

static StructType *entryType(LLVMContext &Ctx) {
  Type *Ptr = PointerType::getUnqual(Ctx);
  return StructType::get(Ctx, {Ptr, Ptr, Type::getInt64Ty(Ctx), Ptr});
}

/// A new linkonce_odr function \p Name of type \p FT with an entry block,
/// or nullptr when the module already defines it.
static Function *startRuntimeFunction(Module &M, StringRef Name,
                                      FunctionType *FT, Function *&Existing) {
  if ((Existing = findReusableFunction(M, Name, FT)))
    return nullptr;
  Function *F = Existing = M.getFunction(Name);
  if (!F)
    F = Function::Create(FT, GlobalValue::LinkOnceODRLinkage, Name, M);
  F->setLinkage(GlobalValue::LinkOnceODRLinkage);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::NoInline);
  BasicBlock::Create(M.getContext(), "entry", F);
  Existing = F;
  return F;
}

static GlobalVariable *currentContextSlot(Module &M) {
  StringRef Name = "enzyme.context.current";
  if (GlobalVariable *GV = M.getNamedGlobal(Name))
    return GV;
  Type *Ptr = PointerType::getUnqual(M.getContext());
  auto *GV = new GlobalVariable(
      M, Ptr, /*isConstant=*/false, GlobalValue::LinkOnceODRLinkage,
      ConstantPointerNull::get(cast<PointerType>(Ptr)), Name, nullptr,
      GlobalValue::GeneralDynamicTLSModel);
  return GV;
}

static void emitTrap(IRBuilder<> &B) {
  B.CreateIntrinsic(Intrinsic::trap, {}, {});
  B.CreateUnreachable();
}

/// Emits, at \p B, a walk over the entries of \p Ctx (not null) that calls
/// \p Body on each; \p B ends after the walk.
static void forEachEntry(IRBuilder<> &B, Value *Ctx,
                         function_ref<void(IRBuilder<> &, Value *)> Body) {
  Function *F = B.GetInsertBlock()->getParent();
  LLVMContext &C = F->getContext();
  Type *Ptr = B.getPtrTy();
  BasicBlock *Pre = B.GetInsertBlock();
  auto *Loop = BasicBlock::Create(C, "loop", F);
  auto *Each = BasicBlock::Create(C, "each", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  Value *Head = B.CreateLoad(Ptr, Ctx, "head");
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *E = B.CreatePHI(Ptr, 2, "entry");
  E->addIncoming(Head, Pre);
  B.CreateCondBr(B.CreateIsNull(E), Done, Each);
  B.SetInsertPoint(Each);
  // The next entry is read first: the body may free this one.
  Value *Next = B.CreateLoad(Ptr, E, "next");
  Body(B, E);
  E->addIncoming(Next, B.GetInsertBlock());
  B.CreateBr(Loop);
  B.SetInsertPoint(Done);
}

/// Branches to a return of void when \p Ctx is null; \p B continues on the
/// other path.
static void returnIfNull(IRBuilder<> &B, Value *Ctx) {
  Function *F = B.GetInsertBlock()->getParent();
  auto *Ret = BasicBlock::Create(F->getContext(), "null", F);
  auto *Go = BasicBlock::Create(F->getContext(), "go", F);
  B.CreateCondBr(B.CreateIsNull(Ctx), Ret, Go);
  IRBuilder<>(Ret).CreateRetVoid();
  B.SetInsertPoint(Go);
}

static Function *contextNew(Module &M) {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  Function *F;
  if (!startRuntimeFunction(M, "enzyme.context.new",
                            FunctionType::get(Ptr, false), F))
    return F;
  IRBuilder<> B(&F->getEntryBlock());
  B.CreateRet(emitCalloc(B, B.getInt64(1), B.getInt64(8), "ctx"));
  return F;
}

static Function *contextFree(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Function *F;
  if (!startRuntimeFunction(M, "enzyme.context.free",
                            FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                            F))
    return F;
  IRBuilder<> B(&F->getEntryBlock());
  Value *Ctx = F->getArg(0);
  returnIfNull(B, Ctx);
  StructType *Entry = entryType(C);
  forEachEntry(B, Ctx, [&](IRBuilder<> &B, Value *E) {
    emitFree(B, B.CreateLoad(Ptr, B.CreateStructGEP(Entry, E, 3)));
    emitFree(B, E);
  });
  emitFree(B, Ctx);
  B.CreateRetVoid();
  return F;
}

static Function *contextZero(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Function *F;
  if (!startRuntimeFunction(M, "enzyme.context.zero",
                            FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                            F))
    return F;
  IRBuilder<> B(&F->getEntryBlock());
  Value *Ctx = F->getArg(0);
  returnIfNull(B, Ctx);
  StructType *Entry = entryType(C);
  forEachEntry(B, Ctx, [&](IRBuilder<> &B, Value *E) {
    Value *Bytes = B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(Entry, E, 2));
    Value *Shadow = B.CreateLoad(Ptr, B.CreateStructGEP(Entry, E, 3));
    B.CreateMemSet(Shadow, B.getInt8(0), Bytes, MaybeAlign());
  });
  B.CreateRetVoid();
  return F;
}

/// `shadow_of(ctx, global, bytes)`: the shadow of the global in ctx,
/// created zeroed on first use. A null context, an allocation failure, or a
/// global asked for with more bytes than its shadow has, traps.
static Function *contextShadowOf(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F;
  if (!startRuntimeFunction(M, "enzyme.context.shadow_of",
                            FunctionType::get(Ptr, {Ptr, Ptr, I64}, false), F))
    return F;
  Value *Ctx = F->getArg(0), *Key = F->getArg(1), *Bytes = F->getArg(2);
  StructType *Entry = entryType(C);
  auto *Trap = BasicBlock::Create(C, "trap", F);
  auto *Search = BasicBlock::Create(C, "search", F);
  auto *Loop = BasicBlock::Create(C, "loop", F);
  auto *Check = BasicBlock::Create(C, "check", F);
  auto *Next = BasicBlock::Create(C, "next", F);
  auto *Found = BasicBlock::Create(C, "found", F);
  auto *Create = BasicBlock::Create(C, "create", F);
  auto *Made = BasicBlock::Create(C, "made", F);
  IRBuilder<> B(&F->getEntryBlock());
  B.CreateCondBr(B.CreateIsNull(Ctx), Trap, Search);
  B.SetInsertPoint(Trap);
  emitTrap(B);

  B.SetInsertPoint(Search);
  Value *Head = B.CreateLoad(Ptr, Ctx, "head");
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *E = B.CreatePHI(Ptr, 2, "entry");
  E->addIncoming(Head, Search);
  B.CreateCondBr(B.CreateIsNull(E), Create, Check);
  B.SetInsertPoint(Check);
  Value *K = B.CreateLoad(Ptr, B.CreateStructGEP(Entry, E, 1), "key");
  B.CreateCondBr(B.CreateICmpEQ(K, Key), Found, Next);
  B.SetInsertPoint(Next);
  E->addIncoming(B.CreateLoad(Ptr, E, "next"), Next);
  B.CreateBr(Loop);

  B.SetInsertPoint(Found);
  Value *Have = B.CreateLoad(I64, B.CreateStructGEP(Entry, E, 2), "bytes");
  Value *Shadow = B.CreateLoad(Ptr, B.CreateStructGEP(Entry, E, 3), "shadow");
  auto *Ret = BasicBlock::Create(C, "ret", F);
  B.CreateCondBr(B.CreateICmpULT(Have, Bytes), Trap, Ret);
  IRBuilder<>(Ret).CreateRet(Shadow);

  B.SetInsertPoint(Create);
  Value *Block = emitCalloc(
      B, B.CreateBinaryIntrinsic(Intrinsic::umax, Bytes, B.getInt64(1)),
      B.getInt64(1), "shadow");
  Value *NewEntry = emitCalloc(B, B.getInt64(1), B.getInt64(32), "new");
  B.CreateCondBr(B.CreateOr(B.CreateIsNull(Block), B.CreateIsNull(NewEntry)),
                 Trap, Made);
  B.SetInsertPoint(Made);
  B.CreateStore(B.CreateLoad(Ptr, Ctx), B.CreateStructGEP(Entry, NewEntry, 0));
  B.CreateStore(Key, B.CreateStructGEP(Entry, NewEntry, 1));
  B.CreateStore(Bytes, B.CreateStructGEP(Entry, NewEntry, 2));
  B.CreateStore(Block, B.CreateStructGEP(Entry, NewEntry, 3));
  B.CreateStore(NewEntry, Ctx);
  B.CreateRet(Block);
  return F;
}

/// `current_shadow(global, bytes)`: shadow_of in the current context.
static Function *contextCurrentShadow(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Function *F;
  if (!startRuntimeFunction(M, "enzyme.context.current_shadow",
                            FunctionType::get(Ptr, {Ptr, I64}, false), F))
    return F;
  IRBuilder<> B(&F->getEntryBlock());
  Value *Slot = B.CreateThreadLocalAddress(currentContextSlot(M));
  Value *Ctx = B.CreateLoad(Ptr, Slot, "ctx");
  B.CreateRet(
      B.CreateCall(contextShadowOf(M), {Ctx, F->getArg(0), F->getArg(1)}));
  return F;
}

//===----------------------------------------------------------------------===//
// Generated code
//===----------------------------------------------------------------------===//

Value *ContextShadowLookups::shadowOf(Function &F, Constant *C) {
  auto Key = std::make_pair(&F, C);
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;
  Value *Result = nullptr;
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    if (!isContextGlobal(*GV))
      return nullptr;
    // At the entry, after its allocas: it dominates every use.
    BasicBlock &Entry = F.getEntryBlock();
    IRBuilder<> B(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
    CallInst *Lookup = B.CreateCall(contextCurrentShadow(*F.getParent()),
                                    {GV, B.getInt64(contextShadowBytes(*GV))},
                                    GV->getName() + ".shadow");
    Lookup->addRetAttr(Attribute::NonNull);
    Result = Lookup;
  } else if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    if (!contextGlobalOf(CE))
      return nullptr;
    Value *Base = shadowOf(F, CE->getOperand(0));
    if (!Base)
      return nullptr;
    // The same address arithmetic on the shadow, right after its base.
    Instruction *I = CE->getAsInstruction();
    I->setOperand(0, Base);
    I->insertAfter(cast<Instruction>(Base));
    Result = I;
  } else {
    return nullptr;
  }
  Cache[Key] = Result;
  return Result;
}

void setCurrentContextAround(CallInst &Call, Value *Ctx) {
  Module &M = *Call.getModule();
  IRBuilder<> B(&Call);
  Value *Slot = B.CreateThreadLocalAddress(currentContextSlot(M));
  Value *Previous = B.CreateLoad(B.getPtrTy(), Slot, "previous.context");
  B.CreateStore(B.CreatePointerBitCastOrAddrSpaceCast(Ctx, B.getPtrTy()), Slot);
  B.SetInsertPoint(Call.getNextNode());
  B.CreateStore(Previous, Slot);
}

//===----------------------------------------------------------------------===//
// The user's calls
//===----------------------------------------------------------------------===//

namespace {

enum class ContextCall { None, New, Free, Zero, Shadow };

/// The identifier of an entry point: the name itself in C, the first
/// identifier of a mangled C++ name.
StringRef identifierOf(StringRef Name) {
  if (!Name.consume_front("_Z"))
    return Name;
  unsigned Length = 0;
  if (Name.consumeInteger(10, Length) || Length > Name.size())
    return "";
  return Name.take_front(Length);
}

ContextCall contextCallOf(const Function &F) {
  return StringSwitch<ContextCall>(identifierOf(F.getName()))
      .Case("__enzyme_context", ContextCall::New)
      .Case("__enzyme_free_context", ContextCall::Free)
      .Case("__enzyme_zero_shadows", ContextCall::Zero)
      .Case("__enzyme_shadow", ContextCall::Shadow)
      .Default(ContextCall::None);
}

/// Replaces \p Call by \p Result (nullptr: a poison of its type).
void replaceCall(CallBase &Call, Value *Result) {
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(Result ? Result : PoisonValue::get(Call.getType()));
  if (auto *Invoke = dyn_cast<InvokeInst>(&Call))
    BranchInst::Create(Invoke->getNormalDest(), Invoke->getIterator());
  Call.eraseFromParent();
}

/// `__enzyme_shadow(ctx, &g, flags)`: the shadow of g (or of the address
/// within g) in ctx; nullptr after reporting why there is none.
Value *lowerShadowCall(CallBase &Call) {
  auto Error = [&](const Twine &Message) -> Value * {
    reportError(Call, "__enzyme_shadow: " + Message);
    return nullptr;
  };
  if (Call.arg_size() != 3 ||
      !Call.getArgOperand(0)->getType()->isPointerTy() ||
      !Call.getArgOperand(1)->getType()->isPointerTy() ||
      !Call.getArgOperand(2)->getType()->isIntegerTy() ||
      !Call.getType()->isPointerTy())
    return Error("declare it as 'void *__enzyme_shadow(void *context, void "
                 "*global, int flags)'");
  auto *Flags = dyn_cast<ConstantInt>(Call.getArgOperand(2));
  if (!Flags)
    return Error("the flags must be a constant (0, or 1 to zero the shadow "
                 "first)");
  if (Flags->getZExtValue() & ~ShadowFlagZero)
    return Error("unknown flags " + Twine(Flags->getSExtValue()) +
                 "; the flags are 0, or 1 to zero the shadow first");
  const DataLayout &DL = Call.getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Call.getArgOperand(1)->getType()), 0);
  Value *Base = Call.getArgOperand(1)->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  auto *GV = dyn_cast<GlobalVariable>(Base);
  if (!GV)
    return Error("the second argument must be the address of a global "
                 "variable (or of an element of one) known at compile time");
  std::string Name = displayName(GV->getName());
  GlobalVariable *Declared = globalShadowOf(*GV);
  if (!Declared && !isContextGlobal(*GV))
    return Error("the global '" + Name + "' has no shadow in a context: it " +
                 whyNoContextShadow(*GV));
  uint64_t Bytes = contextShadowBytes(Declared ? *Declared : *GV);
  if (Offset.isNegative() || Offset.getZExtValue() >= Bytes)
    return Error("the address is outside the global '" + Name + "' (offset " +
                 Twine(Offset.getSExtValue()) + ", size " + Twine(Bytes) + ")");
  IRBuilder<> B(&Call);
  Value *Shadow = Declared;
  if (!Declared)
    Shadow = B.CreateCall(contextShadowOf(*Call.getModule()),
                          {B.CreatePointerBitCastOrAddrSpaceCast(
                               Call.getArgOperand(0), B.getPtrTy()),
                           GV, B.getInt64(Bytes)},
                          GV->getName() + ".shadow");
  if (Flags->getZExtValue() & ShadowFlagZero)
    B.CreateMemSet(Shadow, B.getInt8(0), Bytes, MaybeAlign());
  Value *Result = B.CreateInBoundsGEP(B.getInt8Ty(), Shadow,
                                      B.getInt64(Offset.getZExtValue()));
  return B.CreatePointerBitCastOrAddrSpaceCast(Result, Call.getType());
}

} // namespace

void lowerContextCalls(Module &M) {
  if (none_of(M, [](const Function &F) {
        return F.isDeclaration() && contextCallOf(F) != ContextCall::None;
      }))
    return;
  // In module order, so errors come out in source order.
  SmallVector<std::pair<CallBase *, ContextCall>, 8> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      auto *Callee = Call ? dyn_cast<Function>(
                                Call->getCalledOperand()->stripPointerCasts())
                          : nullptr;
      if (!Callee || !Callee->isDeclaration())
        continue;
      if (ContextCall Kind = contextCallOf(*Callee); Kind != ContextCall::None)
        Calls.emplace_back(Call, Kind);
    }
  for (auto &Found : Calls) {
    CallBase *Call = Found.first;
    ContextCall Kind = Found.second;
    IRBuilder<> B(Call);
    auto TakesContext = [&](StringRef Name) {
      if (Call->arg_size() == 1 &&
          Call->getArgOperand(0)->getType()->isPointerTy())
        return true;
      reportError(*Call, Twine(Name) + ": declare it as 'void " + Name +
                             "(void *context)'");
      return false;
    };
    Value *Result = nullptr;
    switch (Kind) {
    case ContextCall::New:
      if (Call->arg_size() != 0 || !Call->getType()->isPointerTy()) {
        reportError(*Call, "__enzyme_context: declare it as 'void "
                           "*__enzyme_context(void)'");
        break;
      }
      Result = B.CreateCall(contextNew(M), {}, "context");
      break;
    case ContextCall::Free:
      if (TakesContext("__enzyme_free_context"))
        B.CreateCall(contextFree(M), {Call->getArgOperand(0)});
      break;
    case ContextCall::Zero:
      if (TakesContext("__enzyme_zero_shadows"))
        B.CreateCall(contextZero(M), {Call->getArgOperand(0)});
      break;
    case ContextCall::Shadow:
      Result = lowerShadowCall(*Call);
      break;
    case ContextCall::None:
      break;
    }
    replaceCall(*Call, Result);
  }
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && contextCallOf(F) != ContextCall::None &&
        F.use_empty())
      F.eraseFromParent();
}

} // namespace enzyme
