//===- SharedMemory.cpp - __shared__ variables in per-block memory --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// On a GPU each block has its own copy of every `__shared__` variable. The
/// emulator gives each running block one buffer: static variables get fixed
/// offsets in it, and `extern __shared__` arrays (dynamic shared memory, the
/// launch's third parameter) all start after the last static one. Uses of a
/// variable become an address computed from the running block's buffer.
///
//===----------------------------------------------------------------------===//

#include "Retarget.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace enzyme::cuda_emulation {

static constexpr unsigned SharedAddressSpace = 3;
/// Where dynamic shared memory starts, as on the GPU.
static constexpr uint64_t DynamicSharedAlignment = 16;

/// The functions \p Kernel may run: its direct callees, transitively, or
/// every function when one of them calls through a pointer.
static SetVector<const Function *> reachableFunctions(const Function &Kernel) {
  SetVector<const Function *> Reached;
  Reached.insert(&Kernel);
  for (unsigned Next = 0; Next < Reached.size(); ++Next) {
    for (const Instruction &I : instructions(*Reached[Next])) {
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      const Function *Callee = Call->getCalledFunction();
      if (!Callee) {
        for (const Function &F : *Kernel.getParent())
          Reached.insert(&F);
        return Reached;
      }
      if (!Callee->isDeclaration())
        Reached.insert(Callee);
    }
  }
  return Reached;
}

/// Does a function in \p Functions use \p Variable (after constant
/// expressions became instructions)?
static bool isUsedBy(const GlobalVariable &Variable,
                     const SetVector<const Function *> &Functions) {
  for (const User *U : Variable.users())
    if (const auto *I = dyn_cast<Instruction>(U))
      if (Functions.contains(I->getFunction()))
        return true;
  return false;
}

SharedMemoryLayout lowerSharedMemory(Module &M, ArrayRef<Function *> Kernels,
                                     DiagnosticList &Diags) {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<GlobalVariable *, 8> Static, Dynamic;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == SharedAddressSpace)
      (G.isDeclaration() ? Dynamic : Static).push_back(&G);
  SharedMemoryLayout Layout;
  if (Static.empty() && Dynamic.empty())
    return Layout;

  // Instructions, not constant expressions, use the variables from here on,
  // so every use has a function to compute its address in.
  SmallVector<Constant *, 8> All(Static.begin(), Static.end());
  All.append(Dynamic.begin(), Dynamic.end());
  removeFromUsedLists(M, [&](Constant *C) {
    return is_contained(All, C->stripPointerCasts());
  });
  convertUsersOfConstantsToInstructions(All);

  // Where a layout that ends at \p End puts \p G, and where it then ends.
  auto Place = [&](uint64_t End, const GlobalVariable &G) {
    uint64_t Offset = alignTo(
        End, DL.getValueOrABITypeAlignment(G.getAlign(), G.getValueType()));
    return std::make_pair(Offset,
                          Offset + DL.getTypeAllocSize(G.getValueType()));
  };

  SmallVector<std::pair<GlobalVariable *, uint64_t>, 8> Offsets;
  uint64_t End = 0;
  for (GlobalVariable *G : Static) {
    auto [Offset, Next] = Place(End, *G);
    Offsets.emplace_back(G, Offset);
    End = Next;
  }
  Layout.StaticBytes = alignTo(End, DynamicSharedAlignment);
  for (GlobalVariable *G : Dynamic)
    Offsets.emplace_back(G, Layout.StaticBytes);

  // What a GPU would reserve for each kernel: the static variables it uses.
  for (Function *Kernel : Kernels) {
    SetVector<const Function *> Reached = reachableFunctions(*Kernel);
    uint64_t Bytes = 0;
    for (GlobalVariable *G : Static)
      if (isUsedBy(*G, Reached))
        Bytes = Place(Bytes, *G).second;
    Layout.KernelStaticBytes[Kernel] = Bytes;
  }

  FunctionCallee BlockMemory = M.getOrInsertFunction(
      "__cudaemu_shared_memory",
      FunctionType::get(PointerType::getUnqual(M.getContext()), false));
  DenseMap<Function *, Value *> BlockBase;
  for (auto &[G, Offset] : Offsets) {
    for (Use &U : make_early_inc_range(G->uses())) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I) {
        Diags.error(*Kernels.front(),
                    "the address of the __shared__ variable '" + G->getName() +
                        "' is used in a global initializer, which CUDA "
                        "emulation cannot give a per-block address");
        continue;
      }
      Function *F = I->getFunction();
      IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
      Value *&Base = BlockBase[F];
      if (!Base)
        Base = B.CreateCall(BlockMemory, {}, "shared.memory");
      B.SetInsertPoint(cast<Instruction>(Base)->getNextNode());
      Value *Address = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset,
                                                    G->getName());
      U.set(B.CreateAddrSpaceCast(Address, G->getType()));
    }
  }
  for (GlobalVariable *G : Static)
    if (G->use_empty())
      G->eraseFromParent();
  for (GlobalVariable *G : Dynamic)
    if (G->use_empty())
      G->eraseFromParent();
  return Layout;
}

} // namespace enzyme::cuda_emulation
