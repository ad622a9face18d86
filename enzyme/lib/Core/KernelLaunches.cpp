//===- KernelLaunches.cpp - Kernels differentiated for their launches -----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/KernelLaunches.h"

#include "Core/Diagnostics.h"

#include "Analysis/MemoryTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace enzyme {

static cl::list<std::string> DerivativeKernels(
    "enzyme-derivative-kernels", cl::CommaSeparated,
    cl::desc("CUDA kernels (device names) launched from differentiated host "
             "code, which get derivative kernels (enzyme-clang sets it)"));

static cl::list<std::string> TangentKernels(
    "enzyme-tangent-kernels", cl::CommaSeparated,
    cl::desc("CUDA kernels (device names) launched from host code that "
             "forward mode differentiates, which get tangent kernels "
             "(enzyme-clang sets it)"));

static cl::list<std::string> OptionalTangentKernels(
    "enzyme-optional-tangent-kernels", cl::CommaSeparated,
    cl::desc("CUDA kernels that get tangent kernels where forward mode can "
             "differentiate them (a launcher registration names them; "
             "enzyme-clang sets it)"));

static cl::list<std::string> RelocatableKernels(
    "enzyme-relocatable-kernels", cl::CommaSeparated,
    cl::desc("CUDA kernels of relocatable device code (-fgpu-rdc) that host "
             "code in other files may launch, which get derivative and "
             "tangent kernels where they can be differentiated (enzyme-clang "
             "sets it)"));

static cl::opt<std::string> ListLaunchedKernels(
    "enzyme-list-launched-kernels", cl::init(""),
    cl::desc("Scan mode: write the CUDA kernels launched from differentiated "
             "host code to this file, one per line, and differentiate "
             "nothing (enzyme-clang runs it before a CUDA compilation)"));

bool isDerivativeKernel(StringRef KernelName) {
  return is_contained(DerivativeKernels, KernelName) ||
         isRelocatableKernel(KernelName);
}

bool isOptionalDerivativeKernel(StringRef KernelName) {
  return !is_contained(DerivativeKernels, KernelName) &&
         isRelocatableKernel(KernelName);
}

bool isTangentKernel(StringRef KernelName) {
  return is_contained(TangentKernels, KernelName) ||
         isOptionalTangentKernel(KernelName);
}

bool isOptionalTangentKernel(StringRef KernelName) {
  return !is_contained(TangentKernels, KernelName) &&
         (is_contained(OptionalTangentKernels, KernelName) ||
          isRelocatableKernel(KernelName));
}

bool isRelocatableKernel(StringRef KernelName) {
  return is_contained(RelocatableKernels, KernelName);
}

bool anyDerivativeKernels() {
  return !DerivativeKernels.empty() || !TangentKernels.empty() ||
         !OptionalTangentKernels.empty() || !RelocatableKernels.empty();
}

StringRef launchedKernelListPath() { return ListLaunchedKernels; }

std::string augmentedKernelName(StringRef Kernel) {
  return ("_enzyme_kernel_augmented_" + Kernel).str();
}
std::string reverseKernelName(StringRef Kernel) {
  return ("_enzyme_kernel_reverse_" + Kernel).str();
}
std::string kernelInfoName(StringRef Kernel) {
  return ("_enzyme_kernel_info_" + Kernel).str();
}
std::string tangentKernelName(StringRef Kernel) {
  return ("_enzyme_kernel_tangent_" + Kernel).str();
}
std::string tangentKernelInfoName(StringRef Kernel) {
  return ("_enzyme_kernel_tangent_info_" + Kernel).str();
}

std::optional<std::string> kernelNameOfStub(StringRef Stub) {
  static constexpr StringLiteral Prefix = "__device_stub__";
  size_t At = Stub.find(Prefix);
  if (At == StringRef::npos)
    return std::nullopt;
  // In a mangled name the prefix is part of an identifier whose length
  // comes before it.
  size_t Digits = At;
  while (Digits > 0 && isDigit(Stub[Digits - 1]))
    --Digits;
  if (Digits == At)
    return (Stub.take_front(At) + Stub.drop_front(At + Prefix.size())).str();
  unsigned Length;
  if (Stub.slice(Digits, At).getAsInteger(10, Length) ||
      Length <= Prefix.size())
    return std::nullopt;
  return (Stub.take_front(Digits) + Twine(Length - Prefix.size()) +
          Stub.drop_front(At + Prefix.size()))
      .str();
}

/// The operand of a call of the runtime API function \p Name that names
/// the kernel it launches, if \p Name launches one.
static std::optional<unsigned> launchedKernelOperand(StringRef Name) {
  if (Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel")
    return 0;
  if (Name == "cudaLaunchKernelExC")
    return 1;
  return std::nullopt;
}

std::string copyNameFor(StringRef Base, StringRef Kind, StringRef Callee) {
  std::optional<std::string> Kernel = kernelNameOfStub(Callee);
  std::string Name = (Base + ".").str();
  if (!Kind.empty())
    Name += (Kind + ".").str();
  return Name + (Kernel ? *Kernel : Callee.str());
}

bool isRuntimeLaunch(StringRef Name) {
  return launchedKernelOperand(Name).has_value();
}

bool isConfiguredCallThroughPointer(const CallBase &Call) {
  if (!Call.isIndirectCall())
    return false;
  for (const Instruction &I : instructions(*Call.getFunction()))
    if (const auto *Push = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Push->getCalledFunction();
          Callee && Callee->getName() == "__cudaPushCallConfiguration")
        return true;
  return false;
}

Value *launchedKernel(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return nullptr;
  std::optional<unsigned> Operand = launchedKernelOperand(Callee->getName());
  if (!Operand || *Operand >= Call.arg_size())
    return nullptr;
  return Call.getArgOperand(*Operand);
}

std::optional<std::string> launchWithoutDerivativeKernels(const CallBase &Call,
                                                          bool Forward) {
  const Function &Callee = *Call.getCalledFunction();
  if (Value *Kernel = launchedKernel(Call);
      Kernel && !isa<Function>(Kernel->stripPointerCasts()))
    return "cannot differentiate a kernel launch (" + Callee.getName().str() +
           ") whose kernel the program chooses at run time: derivative "
           "kernels are made for the kernels that host code names, at the "
           "launch or in the calls that pass the kernel down to it (as "
           "Thrust's and CUB's algorithms do), and this one comes through a "
           "function pointer that is not one of them (read from memory, or "
           "chosen by a condition); launch each kernel where it is named "
           "(docs/cuda.md)";
  std::optional<std::string> Kernel = kernelNameOfStub(Callee.getName());
  if (Kernel && Callee.isDeclaration())
    return std::nullopt;
  if (!Kernel && Callee.getName() != "__cudaPopCallConfiguration" &&
      !launchedKernelOperand(Callee.getName()))
    return std::nullopt;
  return "cannot differentiate the launch of " +
         (Kernel ? "kernel '" + displayName(*Kernel) + "'"
                 : std::string("a kernel")) +
         (Forward ? " in forward mode: its CUDA file made no tangent kernel "
                    "for it, since no forward-mode request in that file "
                    "reaches this launch"
                  : ": its CUDA file made no derivative kernels for it, "
                    "since no reverse-mode request in that file reaches this "
                    "launch") +
         "; name the host function that launches it there with 'void "
         "*__enzyme_differentiable_launcher_NAME = (void *)function;', or "
         "build the file that defines the kernel with -fenzyme -fgpu-rdc, "
         "which makes them for every kernel other files can launch "
         "(docs/cuda.md)";
}

std::optional<std::string> cudaGraphCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return std::nullopt;
  StringRef Name = Callee->getName();
  if (!Name.starts_with("cudaGraph") &&
      !Name.starts_with("cudaStreamBeginCapture") &&
      Name != "cudaStreamEndCapture" && Name != "cudaStreamIsCapturing" &&
      !Name.starts_with("cudaStreamGetCaptureInfo") &&
      Name != "cudaThreadExchangeStreamCaptureMode")
    return std::nullopt;
  return ("cannot differentiate the call of '" + Name +
          "': the kernels a CUDA graph captures run when the graph is "
          "launched, which the derivative cannot follow; launch the kernels "
          "directly in the differentiated code, or capture and launch the "
          "graph outside it")
      .str();
}

std::optional<std::string>
launchOfKernelDefinedElsewhere(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return std::nullopt;
  std::optional<std::string> Kernel = kernelNameOfStub(Callee->getName());
  if (!Kernel)
    return std::nullopt;
  return "cannot differentiate the launch of kernel '" + displayName(*Kernel) +
         "': it is defined in another CUDA file (relocatable device code), "
         "which makes derivative kernels for it when it is built with "
         "-fenzyme -fgpu-rdc";
}

bool floatFieldsOf(Type *Ty, const DataLayout &DL,
                   SmallVectorImpl<FloatField> &Fields) {
  // Walks Ty's leaves at their offsets from Base. The IR type of a union
  // shows one of its members: a float there may be another member's
  // integer, so a union may hold integers and pointers only.
  auto Walk = [&](auto &Self, Type *T, uint64_t Base, bool InUnion) -> bool {
    if (auto *ST = dyn_cast<StructType>(T)) {
      InUnion |= isUnion(ST);
      const StructLayout *Layout = DL.getStructLayout(ST);
      for (unsigned I = 0; I < ST->getNumElements(); ++I)
        if (!Self(Self, ST->getElementType(I),
                  Base + Layout->getElementOffset(I), InUnion))
          return false;
      return true;
    }
    if (auto *AT = dyn_cast<ArrayType>(T)) {
      uint64_t Stride = DL.getTypeAllocSize(AT->getElementType());
      for (uint64_t I = 0; I < AT->getNumElements(); ++I)
        if (!Self(Self, AT->getElementType(), Base + I * Stride, InUnion))
          return false;
      return true;
    }
    if ((T->isFloatTy() || T->isDoubleTy()) && !InUnion) {
      Fields.push_back({Base, T});
      return true;
    }
    return T->isIntegerTy() || T->isPointerTy();
  };
  return Walk(Walk, Ty, 0, /*InUnion=*/false);
}

/// The kernel may read a floating-point value from the memory of \p Param,
/// a struct it takes by value, or lets that memory go where this cannot
/// follow. A union's other members are not in its IR type, so only the
/// kernel's reads, in the functions it passes the memory to too, tell that
/// no float is among them.
static bool mayReadFloatFrom(const Argument &Param) {
  SmallVector<const Value *, 8> Work{&Param};
  SmallPtrSet<const Value *, 16> Seen{&Param};
  auto Follow = [&](const Value *V) {
    if (Seen.insert(V).second)
      Work.push_back(V);
  };
  while (!Work.empty()) {
    const Value *Address = Work.pop_back_val();
    for (const Use &U : Address->uses()) {
      const auto *User = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(User)) {
        Follow(User);
      } else if (const auto *Load = dyn_cast<LoadInst>(User)) {
        if (Load->getType()->getScalarType()->isFloatingPointTy())
          return true;
      } else if (const auto *Store = dyn_cast<StoreInst>(User)) {
        if (U.getOperandNo() == StoreInst::getPointerOperandIndex())
          continue;
        // Unoptimised code keeps the address in a local and reads it back.
        const auto *Local = dyn_cast<AllocaInst>(Store->getPointerOperand());
        if (!Local)
          return true;
        for (const llvm::User *LocalUser : Local->users()) {
          if (isa<LoadInst>(LocalUser))
            Follow(LocalUser);
          else if (!isa<StoreInst>(LocalUser) ||
                   cast<StoreInst>(LocalUser)->getValueOperand() == Local)
            return true;
        }
      } else if (const auto *Copy = dyn_cast<MemTransferInst>(User)) {
        // A copy of the bytes is read like them.
        if (U.getOperandNo() == 1)
          Follow(Copy->getDest());
      } else if (const auto *Intrinsic = dyn_cast<IntrinsicInst>(User)) {
        if (!Intrinsic->isLifetimeStartOrEnd() && !isa<MemSetInst>(Intrinsic))
          return true;
      } else if (const auto *Call = dyn_cast<CallBase>(User)) {
        // Unoptimised code reads the members in functions of their own.
        const Function *Callee = Call->getCalledFunction();
        if (!Callee || Callee->isDeclaration() || !Call->isArgOperand(&U) ||
            Call->getCalledOperand() == Address ||
            Call->getArgOperandNo(&U) >= Callee->arg_size())
          return true;
        Follow(Callee->getArg(Call->getArgOperandNo(&U)));
        // The callee may return the address (std::move).
        if (Call->getType()->isPointerTy())
          Follow(Call);
      } else if (!isa<ICmpInst, ReturnInst>(User)) {
        // A returned address is followed at the call (above).
        return true;
      }
    }
  }
  return false;
}

std::optional<unsigned> unsupportedKernelParameter(const Function &Kernel) {
  const DataLayout &DL = Kernel.getDataLayout();
  for (const Argument &A : Kernel.args()) {
    Type *T = A.getType();
    SmallVector<FloatField, 4> Fields;
    // A struct passed by value reaches a kernel as a pointer (byval).
    // Each float of a struct takes ScalarAdjointReplicas sums.
    if (A.hasByValAttr()
            ? !floatFieldsOf(A.getParamByValType(), DL, Fields) ||
                  Fields.size() > MaxStructFloatFields ||
                  (holdsUnion(A.getParamByValType()) && mayReadFloatFrom(A))
            : !T->isPointerTy() && !T->isIntegerTy() && !T->isFloatTy() &&
                  !T->isDoubleTy())
      return A.getArgNo();
  }
  return std::nullopt;
}

bool isCudaKernel(const Function &F) {
  if (F.getCallingConv() == CallingConv::PTX_Kernel)
    return true;
  const NamedMDNode *Annotations =
      F.getParent()->getNamedMetadata("nvvm.annotations");
  if (!Annotations)
    return false;
  for (const MDNode *Node : Annotations->operands()) {
    if (Node->getNumOperands() < 3)
      continue;
    auto *Target = dyn_cast_or_null<ValueAsMetadata>(Node->getOperand(0));
    auto *What = dyn_cast_or_null<MDString>(Node->getOperand(1));
    auto *Value =
        mdconst::dyn_extract_or_null<ConstantInt>(Node->getOperand(2));
    if (Target && Target->getValue() == &F && What &&
        What->getString() == "kernel" && Value && Value->isOne())
      return true;
  }
  return false;
}

void markCudaKernel(Function &F) {
  // The calling convention as well as the annotation: the NVPTX backend
  // caches annotations by function address, and a function the engine
  // created and erased may leave an entry there that a new kernel at the
  // same address would inherit (it was then emitted as a .func, and its
  // launch failed with "named symbol not found", now and then).
  F.setCallingConv(CallingConv::PTX_Kernel);
  LLVMContext &Ctx = F.getContext();
  Metadata *Fields[] = {
      ValueAsMetadata::get(&F), MDString::get(Ctx, "kernel"),
      ValueAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), 1))};
  F.getParent()
      ->getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(MDNode::get(Ctx, Fields));
}

} // namespace enzyme
