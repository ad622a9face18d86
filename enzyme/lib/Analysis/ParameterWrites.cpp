//===- ParameterWrites.cpp - What a function stores through a parameter ---===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ParameterWrites.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace enzyme {

bool addressOnlyInspected(const Value &Int, unsigned Depth) {
  if (Depth > 16)
    return false;
  for (const User *Usr : Int.users()) {
    if (isa<ICmpInst>(Usr))
      continue;
    if (isa<BinaryOperator>(Usr) || isa<TruncInst>(Usr) || isa<ZExtInst>(Usr) ||
        isa<SExtInst>(Usr)) {
      if (!addressOnlyInspected(*Usr, Depth + 1))
        return false;
      continue;
    }
    const auto *Call = dyn_cast<CallBase>(Usr);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Callee && Callee->isDeclaration() &&
        Callee->getName().starts_with("__ubsan_handle_"))
      continue;
    return false;
  }
  return true;
}

bool callSiteOnlyReads(const CallBase &Call, unsigned ArgNo) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call)) {
    if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
        II->getIntrinsicID() == Intrinsic::objectsize)
      return true;
    if (isa<MemTransferInst>(II))
      return ArgNo == 1;
  }
  return Call.onlyReadsMemory(ArgNo) && Call.doesNotCapture(ArgNo);
}

AddressUse classifyAddressUse(const User &Usr, std::optional<uint64_t> Offset,
                              const DataLayout &DL) {
  if (isa<LoadInst>(Usr) || isa<ICmpInst>(Usr) ||
      (isa<PtrToIntInst>(Usr) && addressOnlyInspected(Usr)))
    return {AddressUse::Read, std::nullopt};
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(&Usr)) {
    APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
    std::optional<uint64_t> Next;
    if (Offset && GEP->accumulateConstantOffset(DL, Delta) &&
        !Delta.isNegative())
      Next = *Offset + Delta.getZExtValue();
    return {AddressUse::Derived, Next};
  }
  if (isa<BitCastInst>(Usr) || isa<AddrSpaceCastInst>(Usr))
    return {AddressUse::Derived, Offset};
  return {AddressUse::Other, std::nullopt};
}

namespace {
/// A stored value in terms of the function that stores it.
struct StoredSource {
  const Constant *Value = nullptr;
  unsigned Parameter = 0;
  /// The value at this offset in the object the parameter points to.
  std::optional<uint64_t> LoadedAt;
};
} // namespace

/// The one value that the local \p Slot ever holds (-O0's spill of a
/// parameter); null when it may hold several or is accessed otherwise.
static const Value *onlyValueHeld(const AllocaInst &Slot) {
  const Value *Held = nullptr;
  for (const Use &U : Slot.uses()) {
    const User *Usr = U.getUser();
    if (const auto *Load = dyn_cast<LoadInst>(Usr); Load && !Load->isVolatile())
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(Usr);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    const auto *Store = dyn_cast<StoreInst>(Usr);
    if (!Store || U.getOperandNo() != 1 || Store->isVolatile() ||
        (Held && Held != Store->getValueOperand()))
      return nullptr;
    Held = Store->getValueOperand();
  }
  return Held;
}

static std::optional<unsigned> returnedParameter(const Function &F,
                                                 unsigned Depth);

/// What \p V is when it is stored: a constant, or a parameter of its
/// function reloaded from a spill or passed through a function that
/// returns it (Eigen's `cast_to_pointer_type`). With \p ThroughArithmetic,
/// a pointer computed from a parameter (`Table + Row * Width`) counts as
/// the parameter: it points into the same object, so it has a shadow
/// exactly when the parameter has, which is all the summaries' users ask.
static std::optional<StoredSource> storedSource(const Value *V, unsigned Depth,
                                                bool ThroughArithmetic) {
  if (Depth > 8)
    return std::nullopt;
  V = V->stripPointerCasts();
  if (const auto *GEP = dyn_cast<GEPOperator>(V); GEP && ThroughArithmetic)
    return storedSource(GEP->getPointerOperand(), Depth + 1, ThroughArithmetic);
  // A value read from a parameter's object, at a constant offset (a copy
  // constructor's `Data(Other.Data)`): a pointer read so is shadowed when
  // that field is.
  if (const auto *Load = dyn_cast<LoadInst>(V);
      Load && ThroughArithmetic && !Load->isVolatile() &&
      !isa<AllocaInst>(Load->getPointerOperand())) {
    const DataLayout &DL = Load->getModule()->getDataLayout();
    APInt Offset(DL.getIndexTypeSizeInBits(Load->getPointerOperandType()), 0);
    const Value *Object =
        Load->getPointerOperand()->stripAndAccumulateConstantOffsets(
            DL, Offset, /*AllowNonInbounds=*/true);
    std::optional<StoredSource> Base =
        storedSource(Object, Depth + 1, /*ThroughArithmetic=*/false);
    if (!Base || Base->Value || Base->LoadedAt || Offset.isNegative())
      return std::nullopt;
    Base->LoadedAt = Offset.getZExtValue();
    return Base;
  }
  if (const auto *C = dyn_cast<Constant>(V))
    return StoredSource{C, 0};
  if (const auto *A = dyn_cast<Argument>(V))
    return StoredSource{nullptr, A->getArgNo()};
  if (const auto *Load = dyn_cast<LoadInst>(V)) {
    const auto *Slot = dyn_cast<AllocaInst>(Load->getPointerOperand());
    const Value *Held =
        Slot && !Load->isVolatile() ? onlyValueHeld(*Slot) : nullptr;
    if (!Held || Held->getType() != Load->getType())
      return std::nullopt;
    return storedSource(Held, Depth + 1, ThroughArithmetic);
  }
  if (const auto *Call = dyn_cast<CallBase>(V)) {
    const Function *Callee = Call->getCalledFunction();
    if (!Callee || Callee->isDeclaration() || Callee->isInterposable() ||
        Callee->getFunctionType() != Call->getFunctionType())
      return std::nullopt;
    std::optional<unsigned> P = returnedParameter(*Callee, Depth + 1);
    if (!P || *P >= Call->arg_size())
      return std::nullopt;
    return storedSource(Call->getArgOperand(*P), Depth + 1, ThroughArithmetic);
  }
  return std::nullopt;
}

/// The parameter that every return of \p F returns, if there is one.
static std::optional<unsigned> returnedParameter(const Function &F,
                                                 unsigned Depth) {
  std::optional<unsigned> Returned;
  for (const BasicBlock &BB : F) {
    const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    std::optional<StoredSource> S =
        Ret->getReturnValue() ? storedSource(Ret->getReturnValue(), Depth,
                                             /*ThroughArithmetic=*/false)
                              : std::nullopt;
    if (!S || S->Value || S->LoadedAt ||
        (Returned && *Returned != S->Parameter))
      return std::nullopt;
    Returned = S->Parameter;
  }
  return Returned;
}

/// A value read from parameter \p Source's object is the one the caller
/// put there when \p F writes nothing through \p Source (its summary has
/// no writes) and \p Source is not the object being written, \p Written.
bool ParameterWrites::onlyReadsThrough(const Function &F, unsigned Source,
                                       unsigned Written) {
  if (Source == Written)
    return false;
  const Summary *S = through(F, Source);
  return S && S->Writes.empty();
}

const ParameterWrites::Summary *ParameterWrites::through(const Function &F,
                                                         unsigned ArgNo) {
  return through(F, ArgNo, 0);
}

const ParameterWrites::Summary *
ParameterWrites::through(const Function &F, unsigned ArgNo, unsigned Depth) {
  auto Key = std::make_pair(&F, ArgNo);
  if (auto It = Summaries.find(Key); It != Summaries.end())
    return It->second ? &*It->second : nullptr;
  if (Depth > 6 || F.isDeclaration() || F.isInterposable() ||
      ArgNo >= F.arg_size() || !F.getArg(ArgNo)->getType()->isPointerTy())
    return nullptr;
  Summaries[Key] = std::nullopt; // A recursive call finds no summary.
  std::optional<Summary> S = summarise(F, ArgNo, Depth);
  std::optional<Summary> &Entry = Summaries[Key];
  Entry = std::move(S);
  return Entry ? &*Entry : nullptr;
}

std::optional<ParameterWrites::Summary>
ParameterWrites::summarise(const Function &F, unsigned ArgNo, unsigned Depth) {
  const DataLayout &DL = F.getDataLayout();
  Summary Result;
  SmallVector<std::pair<const Value *, std::optional<uint64_t>>, 8> Work = {
      {F.getArg(ArgNo), 0}};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    auto [Address, Offset] = Work.pop_back_val();
    if (!Seen.insert(Address).second)
      continue;
    for (const Use &U : Address->uses()) {
      const User *Usr = U.getUser();
      AddressUse Kind = classifyAddressUse(*Usr, Offset, DL);
      if (Kind.What == AddressUse::Read)
        continue;
      if (Kind.What == AddressUse::Derived) {
        Work.emplace_back(Usr, Kind.DerivedOffset);
        continue;
      }
      if (isa<ReturnInst>(Usr)) {
        if (!Offset || (Result.ReturnedAt && *Result.ReturnedAt != *Offset))
          return std::nullopt;
        Result.ReturnedAt = Offset;
        continue;
      }
      if (const auto *Store = dyn_cast<StoreInst>(Usr)) {
        if (U.getOperandNo() == 1) {
          const Value *Val = Store->getValueOperand();
          std::optional<StoredSource> S =
              Offset ? storedSource(Val, 0, /*ThroughArithmetic=*/true)
                     : std::nullopt;
          if (!S || Store->isVolatile() ||
              (S->LoadedAt && !onlyReadsThrough(F, S->Parameter, ArgNo)))
            return std::nullopt;
          Result.Writes.push_back({*Offset, DL.getTypeStoreSize(Val->getType()),
                                   S->Value, S->Parameter, S->LoadedAt,
                                   Val->getType()});
          continue;
        }
        // Spilled to a local that holds only the address: its reloads are
        // the address.
        const auto *Spill = dyn_cast<AllocaInst>(Store->getPointerOperand());
        if (!Spill || onlyValueHeld(*Spill) != Address)
          return std::nullopt;
        for (const User *SpillUser : Spill->users())
          if (isa<LoadInst>(SpillUser))
            Work.emplace_back(SpillUser, Offset);
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(Usr);
      if (!Call || !Call->isArgOperand(&U))
        return std::nullopt;
      unsigned CallArg = Call->getArgOperandNo(&U);
      if (callSiteOnlyReads(*Call, CallArg))
        continue;
      const Function *Callee = Call->getCalledFunction();
      if (!Offset || !Callee ||
          Callee->getFunctionType() != Call->getFunctionType())
        return std::nullopt;
      const Summary *Inner = through(*Callee, CallArg, Depth + 1);
      if (!Inner)
        return std::nullopt;
      // What the callee returns is the address too.
      if (Inner->ReturnedAt)
        Work.emplace_back(Call, *Offset + *Inner->ReturnedAt);
      for (const ParameterWrite &W : Inner->Writes) {
        StoredSource S{W.StoredConstant, 0, std::nullopt};
        if (!W.StoredConstant) {
          // A value read from the callee's parameter's object is read from
          // the object that parameter's argument is, exactly (an offset
          // would move the field).
          std::optional<StoredSource> Mapped =
              storedSource(Call->getArgOperand(W.StoredParameter), 0,
                           /*ThroughArithmetic=*/!W.StoredLoadedAt);
          if (!Mapped ||
              (W.StoredLoadedAt && (Mapped->Value || Mapped->LoadedAt)))
            return std::nullopt;
          S = *Mapped;
          if (W.StoredLoadedAt)
            S.LoadedAt = W.StoredLoadedAt;
          if (S.LoadedAt && !onlyReadsThrough(F, S.Parameter, ArgNo))
            return std::nullopt;
        }
        Result.Writes.push_back({*Offset + W.Offset, W.Size, S.Value,
                                 S.Parameter, S.LoadedAt, W.StoredType});
      }
    }
  }
  return Result;
}

bool ParameterWrites::ofCall(const CallBase &Call, unsigned ArgNo,
                             SmallVectorImpl<CallerWrite> &Writes,
                             std::optional<uint64_t> &ReturnedAt) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->getFunctionType() != Call.getFunctionType())
    return false;
  const Summary *S = through(*Callee, ArgNo);
  if (!S)
    return false;
  for (const ParameterWrite &W : S->Writes) {
    const Value *Argument =
        W.StoredConstant ? nullptr : Call.getArgOperand(W.StoredParameter);
    if (W.StoredLoadedAt)
      Writes.push_back({W.Offset, W.Size, nullptr, Argument, *W.StoredLoadedAt,
                        W.StoredType});
    else
      Writes.push_back({W.Offset, W.Size,
                        W.StoredConstant ? W.StoredConstant : Argument, nullptr,
                        0, W.StoredType});
  }
  ReturnedAt = S->ReturnedAt;
  return true;
}

} // namespace enzyme
