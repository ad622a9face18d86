//===- Cuda3DCalls.cpp - The CUDA runtime's 3D memory calls ---------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The 3D calls in differentiated host code become calls of run-time
/// functions that take scalars and the pointers that carry shadows
/// (Cuda3DCalls.h).
///
//===----------------------------------------------------------------------===//

#include "Plugin/Cuda3DCalls.h"

#include "Core/RuntimeLibrary.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

// Byte offsets in the toolkit's structs (driver_types.h), which
// runtime/CudaApi.h mirrors; the run-time checks that the pointers passed
// beside cudaMemcpy3DParms are the ones in it.
static constexpr uint64_t ParmsSrcPointer = 32, ParmsDstPointer = 96;
static constexpr uint64_t SizeBytes = 8;

/// Argument \p Index of \p Call is a struct passed by value in memory.
static bool byValue(const CallBase &Call, unsigned Index) {
  return Call.getArgOperand(Index)->getType()->isPointerTy() &&
         Call.paramHasAttr(Index, Attribute::ByVal);
}

/// The field of type \p Ty at byte \p Offset of the struct at \p Struct.
static Value *loadField(IRBuilder<> &B, Value *Struct, uint64_t Offset,
                        Type *Ty) {
  return B.CreateLoad(
      Ty, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Struct, Offset));
}

/// The \p Count sizes (size_t) from byte \p From of the struct at \p Struct.
static void appendSizes(IRBuilder<> &B, Value *Struct, uint64_t From,
                        unsigned Count, SmallVectorImpl<Value *> &Args) {
  for (unsigned I = 0; I < Count; ++I)
    Args.push_back(loadField(B, Struct, From + I * SizeBytes, B.getInt64Ty()));
}

CallBase *lower3DCall(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  if (!Callee || !Call.getFunctionType()->getReturnType()->isIntegerTy(32) ||
      !(isa<CallInst>(Call) || isa<InvokeInst>(Call)))
    return nullptr;
  StringRef Name = Callee->getName();
  unsigned NumArgs = Call.arg_size();
  bool Malloc = Name == "cudaMalloc3D" && NumArgs == 2 && byValue(Call, 1);
  bool Memset = (Name == "cudaMemset3D" && NumArgs == 3) ||
                (Name == "cudaMemset3DAsync" && NumArgs == 4);
  Memset = Memset && byValue(Call, 0) && byValue(Call, 2);
  bool Memcpy = (Name == "cudaMemcpy3D" && NumArgs == 1) ||
                (Name == "cudaMemcpy3DAsync" && NumArgs == 2);
  if (!Malloc && !Memset && !Memcpy)
    return nullptr;
  for (Value *Arg : Call.args())
    if (!Arg->getType()->isPointerTy() && !Arg->getType()->isIntegerTy(32))
      return nullptr;

  IRBuilder<> B(&Call);
  Type *Ptr = B.getPtrTy();
  SmallVector<Value *, 10> Args;
  std::string Runtime;
  if (Malloc) {
    // (pitched pointer, width, height, depth)
    Args.push_back(Call.getArgOperand(0));
    appendSizes(B, Call.getArgOperand(1), 0, 3, Args);
    Runtime = "__enzyme_rt_cuda_malloc_3d";
  } else if (Memset) {
    // (ptr, pitch, xsize, ysize, value, width, height, depth[, stream])
    Value *At = Call.getArgOperand(0);
    Args.push_back(loadField(B, At, 0, Ptr));
    appendSizes(B, At, SizeBytes, 3, Args);
    Args.push_back(Call.getArgOperand(1));
    appendSizes(B, Call.getArgOperand(2), 0, 3, Args);
    Runtime = "__enzyme_rt_cuda_memset_3d";
  } else {
    // (dst, src, parms[, stream]); CudaRuntimeCalls.cpp types the copy.
    Value *Parms = Call.getArgOperand(0);
    Args.push_back(loadField(B, Parms, ParmsDstPointer, Ptr));
    Args.push_back(loadField(B, Parms, ParmsSrcPointer, Ptr));
    Args.push_back(Parms);
    Runtime = (NumArgs == 2 ? Memcpy3DAsyncPrefix : Memcpy3DPrefix) +
              std::string("untyped");
  }
  if (NumArgs == 4 || (Memcpy && NumArgs == 2)) {
    Args.push_back(Call.getArgOperand(NumArgs - 1));
    if (Memset)
      Runtime += "_async";
  }
  Function *Replacement = getRuntimeFunction(*Call.getModule(), Runtime);
  CallBase *New;
  if (auto *Invoke = dyn_cast<InvokeInst>(&Call))
    New = B.CreateInvoke(Replacement, Invoke->getNormalDest(),
                         Invoke->getUnwindDest(), Args);
  else
    New = B.CreateCall(Replacement, Args);
  New->setDebugLoc(Call.getDebugLoc());
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
  return New;
}

/// A call of make_cudaPitchedPtr (kept as a call at -O0), which returns
/// its first argument as the pointer of the struct it writes through sret.
static bool isMakePitchedPointer(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && Call.arg_size() == 5 &&
         Call.paramHasAttr(0, Attribute::StructRet) &&
         StringRef(demangle(Callee->getName()))
             .starts_with("make_cudaPitchedPtr(");
}

/// The object \p P points into and the byte offset, when constant.
static const Value *baseAndOffset(const Value *P, int64_t &Offset,
                                  const DataLayout &DL) {
  Offset = 0;
  return GetPointerBaseWithConstantOffset(P, Offset, DL);
}

/// Appends what the program writes as the pointer at byte \p Offset of
/// \p Object in \p F, following struct copies into it up to \p Depth.
static void collectHeldPointers(const Value *Object, int64_t Offset,
                                Function &F, unsigned Depth,
                                SmallVectorImpl<Value *> &Found) {
  if (Depth == 0)
    return;
  const DataLayout &DL = F.getDataLayout();
  size_t Before = Found.size();
  SmallVector<Value *, 2> Loads;
  auto IsField = [&](const Value *P) {
    int64_t At;
    return baseAndOffset(P, At, DL) == Object && At == Offset;
  };
  for (Instruction &I : instructions(F)) {
    if (auto *Store = dyn_cast<StoreInst>(&I)) {
      if (Store->getValueOperand()->getType()->isPointerTy() &&
          IsField(Store->getPointerOperand()))
        Found.push_back(Store->getValueOperand());
    } else if (auto *Load = dyn_cast<LoadInst>(&I)) {
      if (Load->getType()->isPointerTy() && IsField(Load->getPointerOperand()))
        Loads.push_back(Load);
    } else if (auto *Copy = dyn_cast<MemTransferInst>(&I)) {
      auto *Length = dyn_cast<ConstantInt>(Copy->getLength());
      int64_t To, From;
      if (!Length || baseAndOffset(Copy->getDest(), To, DL) != Object ||
          Offset < To || Offset + 8 > To + Length->getSExtValue())
        continue;
      if (const Value *Source = baseAndOffset(Copy->getSource(), From, DL))
        collectHeldPointers(Source, From + Offset - To, F, Depth - 1, Found);
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (isMakePitchedPointer(*Call) && IsField(Call->getArgOperand(0)))
        Found.push_back(Call->getArgOperand(1));
    }
  }
  if (Found.size() == Before)
    Found.append(Loads);
}

SmallVector<Value *, 4> pointersIn3DParms(CallBase &Copy3D, bool Destination) {
  SmallVector<Value *, 4> Found;
  Function &F = *Copy3D.getFunction();
  int64_t Offset;
  const Value *Parms =
      baseAndOffset(Copy3D.getArgOperand(2), Offset, F.getDataLayout());
  if (Parms)
    collectHeldPointers(
        Parms, Offset + (Destination ? ParmsDstPointer : ParmsSrcPointer), F,
        /*Depth=*/4, Found);
  return Found;
}

} // namespace enzyme
