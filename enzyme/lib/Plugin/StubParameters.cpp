//===- StubParameters.cpp - How a kernel's host stub passes its parameters ===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/StubParameters.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace enzyme {

bool StubParameter::isStruct() const { return MemoryType->isAggregateType(); }

namespace {
/// A store into some memory at a constant offset from its start.
struct StoreAt {
  StoreInst *Store;
  uint64_t Offset;
};
} // namespace

/// The stores into \p Memory (through constant offsets), if everything
/// else that uses it is \p Allowed or a lifetime marker.
static std::optional<SmallVector<StoreAt, 4>>
storesInto(Value *Memory, const DataLayout &DL,
           function_ref<bool(const User *, const Value *)> Allowed) {
  SmallVector<StoreAt, 4> Stores;
  SmallVector<std::pair<Value *, uint64_t>, 4> Work = {{Memory, 0}};
  while (!Work.empty()) {
    auto [Address, Offset] = Work.pop_back_val();
    for (User *U : Address->users()) {
      if (auto *GEP = dyn_cast<GEPOperator>(U)) {
        APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (GEP->getPointerOperand() != Address ||
            !GEP->accumulateConstantOffset(DL, Delta) || Delta.isNegative())
          return std::nullopt;
        Work.push_back({GEP, Offset + Delta.getZExtValue()});
        continue;
      }
      if (auto *Store = dyn_cast<StoreInst>(U);
          Store && Store->getPointerOperand() == Address) {
        Stores.push_back({Store, Offset});
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(U);
          II && II->isLifetimeStartOrEnd())
        continue;
      if (!Allowed(U, Address))
        return std::nullopt;
    }
  }
  return Stores;
}

/// A piece of a kernel argument the derivatives can pass on: its shadow
/// (a pointer's) or its derivative (a float's) has a place in the ABI.
static bool isPassablePiece(Type *T) {
  return T->isPointerTy() || T->isIntegerTy() || T->isFloatTy() ||
         T->isDoubleTy() ||
         (T->isVectorTy() && (T->getScalarType()->isFloatTy() ||
                              T->getScalarType()->isDoubleTy()));
}

std::optional<SmallVector<StubParameter, 8>>
readStubParameters(Function &Stub) {
  CallBase *Launch = nullptr;
  for (Instruction &I : instructions(Stub))
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      Function *Callee = Call->getCalledFunction();
      // The stub of a kernel that cudaLaunchKernelEx launches calls the
      // run-time instead (DirectLaunches.cpp).
      if (!Callee || (Callee->getName() != "cudaLaunchKernel" &&
                      Callee->getName() != "__enzyme_rt_cuda_stub_launch"))
        continue;
      if (Launch || Call->arg_size() != 8)
        return std::nullopt;
      Launch = Call;
    }
  if (!Launch)
    return std::nullopt;
  auto *Array = dyn_cast<AllocaInst>(Launch->getArgOperand(5));
  if (!Array)
    return std::nullopt;
  const DataLayout &DL = Stub.getDataLayout();
  uint64_t PointerBytes = DL.getPointerSize();
  auto Slots = storesInto(
      Array, DL, [&](const User *U, const Value *) { return U == Launch; });
  if (!Slots)
    return std::nullopt;
  DenseMap<uint64_t, Value *> AddressOf;
  for (const StoreAt &Slot : *Slots) {
    if (Slot.Offset % PointerBytes ||
        !AddressOf
             .try_emplace(Slot.Offset / PointerBytes,
                          Slot.Store->getValueOperand())
             .second)
      return std::nullopt;
  }
  SmallVector<StubParameter, 8> Params(AddressOf.size());
  for (auto [Index, Address] : AddressOf) {
    if (Index >= Params.size())
      return std::nullopt;
    StubParameter &P = Params[Index];
    if (auto *Arg = dyn_cast<Argument>(Address);
        Arg && Arg->getParent() == &Stub) {
      P.ByValue = Arg->getArgNo();
      P.Indirect = !Arg->hasByValAttr();
      P.MemoryType = P.Indirect ? StructType::get(Stub.getContext())
                                : Arg->getParamByValType();
      continue;
    }
    auto *Local = dyn_cast<AllocaInst>(Address);
    if (!Local || Local->getFunction() != &Stub)
      return std::nullopt;
    P.MemoryType = Local->getAllocatedType();
    // The local is stored into the array, and the stub's parameters into it.
    auto Pieces = storesInto(Local, DL, [&](const User *U, const Value *V) {
      const auto *Store = dyn_cast<StoreInst>(U);
      return Store && Store->getValueOperand() == V &&
             getUnderlyingObject(Store->getPointerOperand()) == Array;
    });
    if (!Pieces)
      return std::nullopt;
    for (const StoreAt &Piece : *Pieces) {
      auto *Arg = dyn_cast<Argument>(Piece.Store->getValueOperand());
      if (!Arg || Arg->getParent() != &Stub || !isPassablePiece(Arg->getType()))
        return std::nullopt;
      P.Pieces.push_back({Arg->getArgNo(), Piece.Offset});
    }
    // An empty class is not passed at all: the kernel gets the local.
    if (P.Pieces.empty() && !P.isStruct())
      return std::nullopt;
  }
  return Params;
}

} // namespace enzyme
