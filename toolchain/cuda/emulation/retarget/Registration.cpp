//===- Registration.cpp - Kernel entries and the module's table -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host compilation registers each kernel by its device name and each
/// device variable by name (`__cudaRegisterFunction`, `__cudaRegisterVar`).
/// The retargeted module answers with one table the runtime reads: for each
/// kernel an entry point taking `cudaLaunchKernel`'s `void **args`, for each
/// variable its host address and size. A constructor hands the table over.
///
//===----------------------------------------------------------------------===//

#include "Retarget.h"

#include "../EmulationAbi.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace enzyme::cuda_emulation {

/// Address spaces of variables the host can name: global and constant.
static bool isRegisteredVariable(const GlobalVariable &G) {
  unsigned AS = G.getAddressSpace();
  return (AS == 1 || AS == 4) && !G.isDeclaration() &&
         !G.getName().starts_with("llvm.");
}

SmallVector<Function *, 8> findKernels(Module &M) {
  SmallVector<Function *, 8> Kernels;
  auto Add = [&](Function *F) {
    if (F && !F->isDeclaration() && !is_contained(Kernels, F))
      Kernels.push_back(F);
  };
  for (Function &F : M)
    if (F.getCallingConv() == CallingConv::PTX_Kernel)
      Add(&F);
  if (NamedMDNode *Annotations = M.getNamedMetadata("nvvm.annotations")) {
    for (MDNode *Node : Annotations->operands()) {
      if (Node->getNumOperands() < 3)
        continue;
      auto *What = dyn_cast<MDString>(Node->getOperand(1));
      auto *Value =
          mdconst::dyn_extract_or_null<ConstantInt>(Node->getOperand(2));
      if (What && What->getString() == "kernel" && Value && Value->isOne())
        Add(mdconst::dyn_extract_or_null<Function>(Node->getOperand(0)));
    }
  }
  return Kernels;
}

/// `void entry(void **Args)`: loads each parameter from the storage its
/// pointer names and calls the kernel. A `byval` aggregate is passed as the
/// pointer itself; the call copies it, as a launch does.
static Function *emitEntry(Module &M, Function &Kernel) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto *Entry = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
      GlobalValue::InternalLinkage, "__cudaemu_entry." + Kernel.getName(), M);
  Entry->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Entry));
  SmallVector<Value *, 8> Arguments;
  for (Argument &Param : Kernel.args()) {
    Value *Slot = B.CreateLoad(
        Ptr, B.CreateConstGEP1_64(Ptr, Entry->getArg(0), Param.getArgNo()));
    if (Param.hasByValAttr() || Param.hasAttribute(Attribute::ByRef))
      Arguments.push_back(B.CreateAddrSpaceCast(Slot, Param.getType()));
    else
      Arguments.push_back(B.CreateAlignedLoad(Param.getType(), Slot, Align(1)));
  }
  B.CreateCall(&Kernel, Arguments);
  B.CreateRetVoid();
  return Entry;
}

static Constant *stringConstant(Module &M, StringRef Text, const Twine &Name) {
  auto *Data = ConstantDataArray::getString(M.getContext(), Text);
  auto *G = new GlobalVariable(M, Data->getType(), true,
                               GlobalValue::PrivateLinkage, Data, Name);
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return G;
}

/// The architecture the device code was compiled for, from the functions'
/// `target-cpu` (`sm_75` gives 75); 0 when none says.
static uint32_t computeCapability(const Module &M) {
  for (const Function &F : M) {
    StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
    unsigned Version = 0;
    if (CPU.consume_front("sm_") &&
        !CPU.take_while(isDigit).getAsInteger(10, Version))
      return Version;
  }
  return 0;
}

void emitRegistration(Module &M, ArrayRef<Function *> Kernels,
                      const SharedMemoryLayout &Shared,
                      const RetargetOptions &Options) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  // The records of EmulationAbi.h.
  auto *KernelType = StructType::get(Ctx, {Ptr, Ptr, I64});
  auto *VariableType = StructType::get(Ctx, {Ptr, Ptr, I64});
  auto *ModuleType =
      StructType::get(Ctx, {I32, I32, I32, Ptr, I32, I32, Ptr, Ptr, I64});

  SmallVector<Constant *, 8> KernelRecords;
  for (Function *Kernel : Kernels) {
    Function *Entry = emitEntry(M, *Kernel);
    KernelRecords.push_back(ConstantStruct::get(
        KernelType,
        {stringConstant(M, Kernel->getName(), "__cudaemu.name"), Entry,
         ConstantInt::get(I64, Shared.KernelStaticBytes.lookup(Kernel))}));
  }
  SmallVector<Constant *, 8> VariableRecords;
  const DataLayout &DL = M.getDataLayout();
  for (GlobalVariable &G : M.globals())
    if (isRegisteredVariable(G))
      VariableRecords.push_back(ConstantStruct::get(
          VariableType,
          {stringConstant(M, G.getName(), "__cudaemu.name"),
           ConstantExpr::getAddrSpaceCast(&G, Ptr),
           ConstantInt::get(I64, DL.getTypeAllocSize(G.getValueType()))}));

  auto Table = [&](Type *Element, ArrayRef<Constant *> Records,
                   StringRef Name) -> Constant * {
    if (Records.empty())
      return ConstantPointerNull::get(cast<PointerType>(Ptr));
    auto *Array = ArrayType::get(Element, Records.size());
    return new GlobalVariable(M, Array, true, GlobalValue::PrivateLinkage,
                              ConstantArray::get(Array, Records), Name);
  };
  auto *ModuleRecord = new GlobalVariable(
      M, ModuleType, true, GlobalValue::PrivateLinkage,
      ConstantStruct::get(
          ModuleType,
          {ConstantInt::get(I32, ENZYME_CUDA_EMU_ABI_VERSION),
           ConstantInt::get(I32, Options.CudaVersion),
           ConstantInt::get(I32, computeCapability(M)),
           stringConstant(M, Options.ModuleId, "__cudaemu.id"),
           ConstantInt::get(I32, KernelRecords.size()),
           ConstantInt::get(I32, VariableRecords.size()),
           Table(KernelType, KernelRecords, "__cudaemu.kernels"),
           Table(VariableType, VariableRecords, "__cudaemu.variables"),
           ConstantInt::get(I64, Shared.StaticBytes)}),
      "__cudaemu.module");

  auto *Constructor =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                       GlobalValue::InternalLinkage, "__cudaemu.register", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Constructor));
  B.CreateCall(M.getOrInsertFunction(
                   "__cudaemu_register_module",
                   FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false)),
               {ModuleRecord});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Constructor, 65535);
}

} // namespace enzyme::cuda_emulation
