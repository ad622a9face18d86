//===- UserRegistrations.cpp - What users declare with __enzyme_* globals -===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/UserRegistrations.h"

#include "Core/ContextShadows.h"
#include "Core/Diagnostics.h"
#include "Core/GlobalShadows.h"
#include "Core/GpuTarget.h"
#include "Core/KokkosRuntime.h"
#include "Rules/MathRules.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace enzyme {

namespace {

/// The registration kinds, by the key their global's name contains.
enum class Kind {
  Gradient,
  Forward,
  InactiveFunction,
  InactiveGlobal,
  FunctionLike,
  AllocationLike,
  DifferentiableLauncher,
  Unsupported,
};

Kind kindOf(StringRef Name) {
  if (Name.contains("__enzyme_register_gradient"))
    return Kind::Gradient;
  if (Name.contains("__enzyme_register_derivative"))
    return Kind::Forward;
  if (Name.contains("__enzyme_inactivefn"))
    return Kind::InactiveFunction;
  if (Name.contains("__enzyme_inactive_global"))
    return Kind::InactiveGlobal;
  if (Name.contains("__enzyme_function_like"))
    return Kind::FunctionLike;
  if (Name.contains("__enzyme_allocation_like"))
    return Kind::AllocationLike;
  if (Name.contains("__enzyme_differentiable_launcher"))
    return Kind::DifferentiableLauncher;
  return Kind::Unsupported;
}

/// The elements of a registration: the operands of an array or struct
/// initializer, or the initializer itself, with casts stripped.
SmallVector<Constant *, 4> elementsOf(const GlobalVariable &GV) {
  SmallVector<Constant *, 4> Elements;
  const Constant *Init = GV.getInitializer();
  // AddressSanitizer pads a global as {original, zeroed redzone}; the
  // original is a list of functions, or one (`void *NAME = (void *)f;`).
  if (auto *Padded = dyn_cast<ConstantStruct>(Init);
      Padded && Padded->getNumOperands() == 2 &&
      isa<ArrayType>(Padded->getOperand(1)->getType()) &&
      Padded->getOperand(1)->isNullValue() &&
      (isa<ConstantArray>(Padded->getOperand(0)) ||
       isa<ConstantStruct>(Padded->getOperand(0)) ||
       Padded->getOperand(0)->getType()->isPointerTy()))
    Init = Padded->getOperand(0);
  if (isa<ConstantArray>(Init) || isa<ConstantStruct>(Init)) {
    for (const Use &U : Init->operands())
      Elements.push_back(cast<Constant>(U.get()->stripPointerCasts()));
  } else if (auto *Data = dyn_cast<ConstantDataSequential>(Init)) {
    for (unsigned I = 0; I < Data->getNumElements(); ++I)
      Elements.push_back(Data->getElementAsConstant(I));
  } else {
    Elements.push_back(const_cast<Constant *>(Init->stripPointerCasts()));
  }
  return Elements;
}

Function *functionAt(ArrayRef<Constant *> Elements, unsigned I) {
  if (I >= Elements.size())
    return nullptr;
  Constant *C = Elements[I];
  if (auto *Alias = dyn_cast<GlobalAlias>(C))
    C = dyn_cast<Constant>(Alias->getAliaseeObject());
  return dyn_cast_or_null<Function>(C);
}

/// A C string constant (`"sin"`), if \p C points to one.
std::optional<StringRef> stringAt(ArrayRef<Constant *> Elements, unsigned I) {
  if (I >= Elements.size())
    return std::nullopt;
  auto *GV = dyn_cast<GlobalVariable>(Elements[I]);
  if (!GV || !GV->hasInitializer())
    return std::nullopt;
  auto *Data = dyn_cast<ConstantDataArray>(GV->getInitializer());
  if (!Data || !Data->isCString())
    return std::nullopt;
  return Data->getAsCString();
}

/// An integer stored as a pointer (`(void*)2`), if \p C is one.
std::optional<uint64_t> integerAt(ArrayRef<Constant *> Elements, unsigned I) {
  if (I >= Elements.size())
    return std::nullopt;
  if (Elements[I]->isNullValue())
    return 0;
  if (auto *CE = dyn_cast<ConstantExpr>(Elements[I]))
    if (CE->getOpcode() == Instruction::IntToPtr)
      if (auto *CI = dyn_cast<ConstantInt>(CE->getOperand(0)))
        return CI->getZExtValue();
  if (auto *CI = dyn_cast<ConstantInt>(Elements[I]))
    return CI->getZExtValue();
  return std::nullopt;
}

/// \p Returned (the reverse function's result) holds one gradient per
/// type of \p Gradients, in order: void for none, the type itself for one,
/// a struct of them for several (or, as x86-64 returns a struct of two
/// floats, a vector).
bool gradientsFit(Type *Returned, ArrayRef<Type *> Gradients) {
  if (Gradients.empty())
    return Returned->isVoidTy();
  if (Gradients.size() == 1 && Returned == Gradients.front())
    return true;
  if (auto *ST = dyn_cast<StructType>(Returned))
    return ST->elements() == Gradients;
  if (auto *VT = dyn_cast<FixedVectorType>(Returned))
    return VT->getNumElements() == Gradients.size() &&
           all_of(Gradients,
                  [&](Type *T) { return T == VT->getElementType(); });
  return false;
}

std::string signatureOf(const Function &F) {
  std::string S = displayType(F.getReturnType()) + "(";
  for (auto [I, A] : enumerate(F.args()))
    S += (I ? ", " : "") + displayType(A.getType());
  return S + ")";
}

std::string describeFunction(const Function &F) {
  return "'" + displayName(F.getName()) + "' (" + signatureOf(F) + ")";
}

/// The parameters a custom augmented or reverse function starts with: the
/// function's, each pointer followed by its shadow.
SmallVector<Type *, 8> duplicatedParams(const Function &F) {
  SmallVector<Type *, 8> Params;
  for (const Argument &A : F.args()) {
    Params.push_back(A.getType());
    if (A.getType()->isPointerTy())
      Params.push_back(A.getType());
  }
  return Params;
}

bool startsWith(const Function &F, ArrayRef<Type *> Params) {
  if (F.arg_size() < Params.size())
    return false;
  for (auto [I, Ty] : enumerate(Params))
    if (F.getArg(I)->getType() != Ty)
      return false;
  return true;
}

} // namespace

bool isInactiveGlobal(const GlobalVariable &GV) {
  return GV.getMetadata("enzyme_inactive") != nullptr;
}

UserRegistrations::UserRegistrations(Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    StringRef Name = GV.getName();
    // A sanitizer's descriptors of a registration are not registrations.
    if (!Name.contains("__enzyme_") || Name.starts_with("__asan") ||
        Name.starts_with("__odr_asan"))
      continue;
    // Declared elsewhere: read in the module that defines it (at link time
    // every module's registrations are present). A __device__ registration
    // seen from the host compilation has no initializer either.
    if (!GV.hasInitializer() || isa<UndefValue>(GV.getInitializer()) ||
        GV.getInitializer()->isNullValue())
      continue;
    switch (kindOf(Name)) {
    case Kind::Gradient:
      readGradient(GV);
      break;
    case Kind::Forward:
      readForward(GV);
      break;
    case Kind::InactiveFunction:
      readInactiveFunction(GV);
      break;
    case Kind::InactiveGlobal:
      readInactiveGlobal(GV);
      break;
    case Kind::FunctionLike:
      readFunctionLike(GV);
      break;
    case Kind::AllocationLike:
      readAllocationLike(GV);
      break;
    case Kind::DifferentiableLauncher:
      // Read by the driver's scan (Core/KernelLaunches.h); here only checked.
      if (!functionAt(elementsOf(GV), 0))
        reportError(GV, "'" + Name +
                            "' must name a host function that launches "
                            "kernels: void *" +
                            Name + " = (void *)function;");
      break;
    case Kind::Unsupported:
      if (Name.contains("__enzyme_shadow_global")) {
        readShadowGlobal(GV);
        break;
      }
      reportError(GV, "the registration '" + Name +
                          "' is not supported by this toolchain; remove it "
                          "(see docs/custom-derivatives.md for the "
                          "registrations it supports)");
      break;
    }
  }
  markShadowedGlobalUsers(M);
  markContextGlobalUsers(M);
}

void UserRegistrations::readGradient(GlobalVariable &GV) {
  SmallVector<Constant *, 4> E = elementsOf(GV);
  Function *F = functionAt(E, 0), *Aug = functionAt(E, 1),
           *Rev = functionAt(E, 2);
  if (E.size() != 3 || !F || !Aug || !Rev) {
    reportError(GV, "'" + GV.getName() +
                        "' must hold three functions: {function, augmented "
                        "forward, reverse}");
    return;
  }
  auto Mismatch = [&](Function &Which, const Twine &Expected) {
    reportError(GV, "the custom gradient of " + describeFunction(*F) +
                        " does not fit it: " + describeFunction(Which) +
                        " must " + Expected);
  };
  SmallVector<Type *, 8> Params = duplicatedParams(*F);
  if (Aug->arg_size() != Params.size() || !startsWith(*Aug, Params))
    return Mismatch(*Aug, "take the parameters of '" +
                              displayName(F->getName()) +
                              "', each pointer followed by its shadow");

  // The augmented function returns the primal result (if any), or a tape,
  // or a struct of the tape and the primal result.
  CustomGradient G;
  G.Augment = Aug;
  G.Reverse = Rev;
  G.Registration = &GV;
  Type *RetTy = F->getReturnType(), *AugRet = Aug->getReturnType();
  if (RetTy->isVoidTy()) {
    G.TapeType = AugRet->isVoidTy() ? nullptr : AugRet;
  } else if (AugRet == RetTy) {
    G.ReturnsPrimal = true;
  } else if (auto *ST = dyn_cast<StructType>(AugRet);
             ST && ST->getNumElements() == 2 &&
             ST->getElementType(1) == RetTy) {
    G.TapeType = ST->getElementType(0);
    G.ReturnsPrimal = true;
  } else {
    return Mismatch(*Aug, "return '" + displayType(RetTy) +
                              "' (the primal result) or a struct of a tape "
                              "and the primal result");
  }

  // The reverse function: the same parameters, the adjoint of a float
  // result, the tape; it returns the gradients of the float parameters.
  if (RetTy->isFPOrFPVectorTy())
    Params.push_back(RetTy);
  if (G.TapeType)
    Params.push_back(G.TapeType);
  SmallVector<Type *, 4> GradientTypes;
  for (Argument &A : F->args())
    if (A.getType()->isFPOrFPVectorTy())
      GradientTypes.push_back(A.getType());
  std::string Tail =
      std::string(RetTy->isFPOrFPVectorTy() ? ", then the adjoint of the result"
                                            : "") +
      (G.TapeType ? ", then the tape" : "");
  // Gradients returned through memory (a struct too large for registers)
  // come first, as a struct-return pointer.
  G.GradientsThroughMemory =
      Rev->arg_size() > 0 && Rev->hasParamAttribute(0, Attribute::StructRet);
  unsigned First = G.GradientsThroughMemory ? 1 : 0;
  bool ParamsOk = Rev->arg_size() == Params.size() + First;
  for (unsigned I = 0; ParamsOk && I < Params.size(); ++I)
    ParamsOk = Rev->getArg(I + First)->getType() == Params[I];
  if (!ParamsOk)
    return Mismatch(*Rev, "take the parameters of '" +
                              displayName(F->getName()) +
                              "', each pointer followed by its shadow" + Tail);
  Type *Returned = G.GradientsThroughMemory ? Rev->getParamStructRetType(0)
                                            : Rev->getReturnType();
  if (!gradientsFit(Returned, GradientTypes)) {
    std::string Types;
    for (auto [I, T] : enumerate(GradientTypes))
      Types += (I ? ", " : "") + displayType(T);
    return Mismatch(*Rev, GradientTypes.empty()
                              ? "return void (the function has no "
                                "floating-point parameter)"
                              : "return the gradients of the floating-point "
                                "parameters (" +
                                    Types + ")");
  }
  Gradients[F] = G;
}

void UserRegistrations::readForward(GlobalVariable &GV) {
  SmallVector<Constant *, 4> E = elementsOf(GV);
  Function *F = functionAt(E, 0), *Fwd = functionAt(E, 1);
  if (E.size() != 2 || !F || !Fwd) {
    reportError(GV, "'" + GV.getName() +
                        "' must hold two functions: {function, forward "
                        "derivative}");
    return;
  }
  // The function's parameters, each float or pointer followed by its
  // tangent; the tangent of the result, or {result, tangent}.
  SmallVector<Type *, 8> Params;
  for (Argument &A : F->args()) {
    Params.push_back(A.getType());
    if (A.getType()->isFPOrFPVectorTy() || A.getType()->isPointerTy())
      Params.push_back(A.getType());
  }
  auto Mismatch = [&](const Twine &Expected) {
    reportError(GV, "the custom forward derivative of " + describeFunction(*F) +
                        " does not fit it: " + describeFunction(*Fwd) +
                        " must " + Expected);
  };
  if (Fwd->arg_size() != Params.size() || !startsWith(*Fwd, Params))
    return Mismatch("take the parameters of '" + displayName(F->getName()) +
                    "', each floating-point or pointer one followed by its "
                    "tangent");
  Type *RetTy = F->getReturnType(), *FwdRet = Fwd->getReturnType();
  CustomForward C{Fwd, false, &GV};
  if (FwdRet == RetTy) {
    C.ReturnsPrimal = false;
  } else if (auto *ST = dyn_cast<StructType>(FwdRet);
             ST && ST->getNumElements() == 2 &&
             ST->getElementType(0) == RetTy && ST->getElementType(1) == RetTy) {
    C.ReturnsPrimal = true;
  } else {
    return Mismatch(RetTy->isVoidTy()
                        ? Twine("return void")
                        : "return the tangent of the result ('" +
                              displayType(RetTy) +
                              "') or a struct of the result and its tangent");
  }
  Forwards[F] = C;
}

void UserRegistrations::readInactiveFunction(GlobalVariable &GV) {
  SmallVector<Constant *, 4> E = elementsOf(GV);
  bool Any = false;
  for (unsigned I = 0; I < E.size(); ++I) {
    Function *F = functionAt(E, I);
    if (!F) {
      reportError(GV, "'" + GV.getName() + "' must hold functions; element " +
                          Twine(I + 1) + " is not one");
      return;
    }
    F->addFnAttr("enzyme_inactive");
    Any = true;
  }
  if (!Any)
    reportError(GV, "'" + GV.getName() + "' names no function");
}

void UserRegistrations::readInactiveGlobal(GlobalVariable &GV) {
  SmallVector<Constant *, 4> E = elementsOf(GV);
  for (unsigned I = 0; I < E.size(); ++I) {
    auto *Target = dyn_cast<GlobalVariable>(E[I]);
    if (!Target) {
      reportError(GV, "'" + GV.getName() +
                          "' must hold addresses of global variables; "
                          "element " +
                          Twine(I + 1) + " is not one");
      return;
    }
    Target->setMetadata("enzyme_inactive",
                        MDNode::get(Target->getContext(), {}));
  }
}

void UserRegistrations::readShadowGlobal(GlobalVariable &GV) {
  SmallVector<Constant *, 4> E = elementsOf(GV);
  auto *Target = E.size() == 2 ? dyn_cast<GlobalVariable>(E[0]) : nullptr;
  auto *Shadow = E.size() == 2 ? dyn_cast<GlobalVariable>(E[1]) : nullptr;
  if (!Target || !Shadow) {
    reportError(GV, "'" + GV.getName() +
                        "' must hold the addresses of a global and of its "
                        "shadow: {&g, &g_shadow}");
    return;
  }
  const DataLayout &DL = GV.getParent()->getDataLayout();
  if (DL.getTypeAllocSize(Target->getValueType()) !=
          DL.getTypeAllocSize(Shadow->getValueType()) ||
      Shadow->isConstant()) {
    reportError(GV, "'" + GV.getName() + "': the shadow '" + Shadow->getName() +
                        "' of '" + Target->getName() +
                        "' must be a writable global of the same type");
    return;
  }
  // Kernels add their adjoints into the shadow.
  if (isCudaModule(*GV.getParent()) &&
      Shadow->getAddressSpace() == ConstantAddressSpace) {
    reportError(GV, "the shadow '" + Shadow->getName() + "' of '" +
                        Target->getName() +
                        "' is __constant__, which kernels cannot add their "
                        "derivatives into; declare it __device__");
    return;
  }
  setGlobalShadow(*Target, *Shadow);
}

void UserRegistrations::readFunctionLike(GlobalVariable &GV) {
  SmallVector<Constant *, 4> E = elementsOf(GV);
  Function *F = functionAt(E, 0);
  std::optional<StringRef> Like = stringAt(E, 1);
  if (E.size() != 2 || !F || !Like) {
    reportError(GV, "'" + GV.getName() +
                        "' must hold a function and the name of a math "
                        "function: {f, \"sin\"}");
    return;
  }
  if (!rules::isMathFunctionName(*Like)) {
    reportError(GV, "'" + GV.getName() + "': '" + *Like +
                        "' is not a math function the engine knows; see "
                        "docs/reverse-mode.md for the list");
    return;
  }
  bool FloatsOnly =
      F->getReturnType()->isFloatingPointTy() &&
      all_of(F->args(), [](Argument &A) {
        return A.getType()->isFloatingPointTy() || A.getType()->isIntegerTy();
      });
  if (!FloatsOnly) {
    reportError(GV, "'" + GV.getName() + "': " + describeFunction(*F) +
                        " cannot behave like '" + *Like +
                        "': it must take and return floating-point values");
    return;
  }
  F->addFnAttr("enzyme_math", *Like);
}

void UserRegistrations::readAllocationLike(GlobalVariable &GV) {
  SmallVector<Constant *, 4> E = elementsOf(GV);
  Function *Alloc = functionAt(E, 0), *Free = functionAt(E, 3);
  std::optional<uint64_t> SizeArg = integerAt(E, 1);
  std::optional<StringRef> Freed = stringAt(E, 2);
  if (E.size() != 4 || !Alloc || !SizeArg || !Freed || !Free) {
    reportError(GV, "'" + GV.getName() +
                        "' must hold {allocator, (void*)index of its size "
                        "argument, \"-1\", deallocator}");
    return;
  }
  if (*SizeArg >= Alloc->arg_size() ||
      !Alloc->getArg(*SizeArg)->getType()->isIntegerTy() ||
      !Alloc->getReturnType()->isPointerTy()) {
    reportError(GV, "'" + GV.getName() + "': argument " + Twine(*SizeArg) +
                        " of " + describeFunction(*Alloc) +
                        " is not an integer size, or it returns no pointer");
    return;
  }
  // "-1": the deallocator frees what the allocator returned, passed as
  // its first argument. Other layouts are not supported.
  if (*Freed != "-1" || Free->arg_size() < 1 ||
      !Free->getArg(0)->getType()->isPointerTy()) {
    reportError(GV, "'" + GV.getName() +
                        "': only \"-1\" (the deallocator's first argument "
                        "is the allocated pointer) is supported");
    return;
  }
  Alloc->addFnAttr("enzyme_allocation_size_arg", utostr(*SizeArg));
  Free->addFnAttr("enzyme_deallocation");
}

/// Keeps calls to \p F calls until the engine runs: noinline, and where the
/// optimiser could find that F returns one of its arguments (and replace
/// each call by that argument, the `returned` attribute), F becomes an
/// unoptimised forwarder to a copy of its body, which is optimised as usual.
static void keepCallable(Function &F) {
  if (F.isDeclaration() || F.hasFnAttribute(Attribute::OptimizeNone))
    return;
  F.removeFnAttr(Attribute::AlwaysInline);
  F.addFnAttr(Attribute::NoInline);
  bool MayReturnArgument = any_of(
      F.args(), [&](Argument &A) { return A.getType() == F.getReturnType(); });
  if (!MayReturnArgument || F.isVarArg())
    return;
  ValueToValueMapTy VMap;
  Function *Body = CloneFunction(&F, VMap);
  Body->setName(F.getName() + ".enzyme.body");
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->setVisibility(GlobalValue::DefaultVisibility);
  Body->setComdat(nullptr);
  GlobalValue::LinkageTypes Linkage = F.getLinkage();
  F.deleteBody();
  F.setLinkage(Linkage);
  F.addFnAttr(Attribute::OptimizeNone);
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", &F));
  SmallVector<Value *, 4> Args;
  for (Argument &A : F.args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(Body, Args);
  Call->setAttributes(Body->getAttributes());
  if (F.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
}

void UserRegistrations::keepRegisteredFunctionsCallable(Module &M) {
  SmallSetVector<Function *, 8> Registered;
  for (GlobalVariable &GV : M.globals()) {
    if (!GV.getName().contains("__enzyme_") || !GV.hasInitializer() ||
        kindOf(GV.getName()) == Kind::InactiveGlobal ||
        kindOf(GV.getName()) == Kind::DifferentiableLauncher ||
        kindOf(GV.getName()) == Kind::Unsupported)
      continue;
    SmallVector<Constant *, 4> E = elementsOf(GV);
    if (Function *F = functionAt(E, 0))
      Registered.insert(F);
    // Every function of an inactive list, too.
    if (kindOf(GV.getName()) == Kind::InactiveFunction)
      for (unsigned I = 1; I < E.size(); ++I)
        if (Function *F = functionAt(E, I))
          Registered.insert(F);
  }
  // Kokkos' runtime functions, which the engine gives rules of its own
  // (Core/KokkosRuntime.h): a Kokkos built with -fenzyme has their bodies,
  // which must not be inlined before the rules apply at the link; and the
  // constructs it refuses, so that the error names them.
  for (Function &F : M)
    if (!F.isDeclaration() &&
        (!kokkosRulePrefix(F.getName()).empty() ||
         isKokkosHostRecordConstructor(F) || isInactiveKokkosFunction(&F) ||
         isUnsupportedKokkosConstruct(F)))
      Registered.insert(&F);
  for (Function *F : Registered)
    keepCallable(*F);
}

void UserRegistrations::keepRegistrationsToTheLink(Module &M) {
  // Nothing refers to a registration, so the linker would drop it before a
  // request served at the link could read it; llvm.used keeps it.
  SmallVector<GlobalValue *, 8> Used;
  collectUsedGlobalVariables(M, Used, /*CompilerUsed=*/false);
  SmallPtrSet<GlobalValue *, 8> Already(Used.begin(), Used.end());
  SmallVector<GlobalValue *, 8> Keep;
  for (GlobalVariable &GV : M.globals())
    if (GV.getName().contains("__enzyme_") && GV.hasInitializer() &&
        !GV.getName().starts_with("llvm.") && !Already.count(&GV))
      Keep.push_back(&GV);
  if (!Keep.empty())
    appendToUsed(M, Keep);
}

bool isNamedByRegistration(const Function &F, StringRef NamePart) {
  SmallVector<const User *, 8> Work(F.users());
  SmallPtrSet<const User *, 8> Seen;
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (const auto *GV = dyn_cast<GlobalVariable>(U)) {
      if (GV->getName().contains(NamePart))
        return true;
    } else if (isa<Constant>(U)) {
      Work.append(U->user_begin(), U->user_end());
    }
  }
  return false;
}

std::string registrationName(StringRef Kind, const Function &F) {
  return ("__enzyme_" + Kind + "_" + F.getName()).str();
}

void addRegistration(Module &M, StringRef Kind, Function &F,
                     ArrayRef<Constant *> Rules) {
  SmallVector<Constant *, 3> Entries = {&F};
  Entries.append(Rules.begin(), Rules.end());
  auto *Ty =
      ArrayType::get(PointerType::getUnqual(M.getContext()), Entries.size());
  new GlobalVariable(M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
                     ConstantArray::get(Ty, Entries),
                     registrationName(Kind, F));
}

} // namespace enzyme
