//===- LibraryGradients.cpp - Rules for MPI's and Kokkos' calls -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/LibraryGradients.h"

#include "Core/KokkosRuntime.h"
#include "Core/MpiRuntime.h"
#include "Core/RuntimeLibrary.h"
#include "Core/UserRegistrations.h"
#include "Plugin/LaunchDerivatives.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// `__enzyme_<Kind>_<F>` = {F, \p Rules()...}, unless the user registered F
/// (\p Registered) or the registration exists; the rules are made (linked
/// or generated) only then.
static void registerRules(Module &M, Function &F, StringRef Kind,
                          function_ref<SmallVector<Function *, 2>()> Rules,
                          const SmallPtrSetImpl<const Function *> &Registered) {
  if (Registered.count(&F) || M.getNamedGlobal(registrationName(Kind, F)))
    return;
  SmallVector<Constant *, 2> Entries;
  for (Function *Rule : Rules())
    Entries.push_back(Rule);
  addRegistration(M, Kind, F, Entries);
}

/// Registers the run-time's `<Prefix><Suffix>` functions for \p F.
static void
registerRuntimeRule(Module &M, Function &F, StringRef Kind, StringRef Prefix,
                    ArrayRef<StringRef> Suffixes,
                    const SmallPtrSetImpl<const Function *> &Registered) {
  registerRules(
      M, F, Kind,
      [&] {
        SmallVector<Function *, 2> Rules;
        for (StringRef Suffix : Suffixes)
          Rules.push_back(getRuntimeFunction(M, (Prefix + Suffix).str()));
        return Rules;
      },
      Registered);
}

void prepareMpiCalls(Module &M, ArrayRef<Function *> Reached) {
  if (!haveMpiRules() || !canLinkRuntime(M))
    return;
  if (Reached.empty())
    return;
  // Every MPI function the module declares: requests resolved later (a
  // function pointer that a specialisation makes known) reach more code
  // than Reached holds.
  SetVector<Function *> Called;
  for (Function &F : M)
    if (F.isDeclaration() && !mpiGradientPrefix(F.getName()).empty() &&
        !F.use_empty())
      Called.insert(&F);
  if (Called.empty())
    return;
  SmallPtrSet<const Function *, 8> Registered = registeredFunctions(M);
  for (Function *F : Called) {
    // A wait completes requests whose adjoint messages its reverse starts,
    // whatever its own arguments carry.
    if (F->getName() == "MPI_Wait" || F->getName() == "MPI_Waitall")
      F->addFnAttr(CarriesHiddenDerivatives);
    registerRuntimeRule(M, *F, "register_gradient",
                        mpiGradientPrefix(F->getName()),
                        {"_augment", "_reverse"}, Registered);
  }
}

namespace {
enum class MirrorRule { Augment, Reverse, Forward };
} // namespace

/// A rule for \p Ctor, a View's record constructor, in the shape of
/// __enzyme_register_gradient's and __enzyme_register_derivative's
/// functions (each pointer parameter followed by its shadow): the augmented
/// and forward rules run the constructor on the record and, with the same
/// arguments, on its shadow (runtime/KokkosRules.c's record_made finishes
/// the shadow); the reverse rule releases the shadow.
static Function *mirroredConstructorRule(Module &M, Function &Ctor,
                                         MirrorRule Kind) {
  static const char *const Suffixes[] = {".kokkos.augment", ".kokkos.reverse",
                                         ".kokkos.forward"};
  std::string Name = (Ctor.getName() + Suffixes[unsigned(Kind)]).str();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  SmallVector<Type *, 8> Params;
  SmallVector<unsigned, 8> PrimalAt;
  for (Argument &A : Ctor.args()) {
    PrimalAt.push_back(Params.size());
    Params.push_back(A.getType());
    if (A.getType()->isPointerTy())
      Params.push_back(A.getType());
  }
  auto *Rule =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), Params, false),
                       GlobalValue::InternalLinkage, Name, M);
  Rule->addFnAttr("enzyme_inactive");
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Rule));
  Value *Record = Rule->getArg(PrimalAt[0]);
  Value *Shadow = Rule->getArg(PrimalAt[0] + 1);
  if (Kind == MirrorRule::Reverse) {
    B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_kokkos_record_release"),
                 {Record, Shadow});
    B.CreateRetVoid();
    return Rule;
  }
  SmallVector<Value *, 8> Args;
  for (unsigned At : PrimalAt)
    Args.push_back(Rule->getArg(At));
  B.CreateCall(&Ctor, Args);
  Value *Distinct =
      B.CreateAnd(B.CreateIsNotNull(Shadow), B.CreateICmpNE(Shadow, Record));
  BasicBlock *Mirror = BasicBlock::Create(Ctx, "shadow", Rule);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", Rule);
  B.CreateCondBr(Distinct, Mirror, Done);
  B.SetInsertPoint(Mirror);
  Args[0] = Shadow;
  B.CreateCall(&Ctor, Args);
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_kokkos_record_made"),
               {Record, Shadow});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return Rule;
}

void prepareKokkosCalls(Module &M) {
  if (!canLinkRuntime(M))
    return;
  // Declared (Debian's shared library) or defined (a Kokkos built with
  // -fenzyme): the rules stand for the library's functions either way.
  SmallVector<Function *, 8> Ruled, Constructors;
  Function *HostCopy = nullptr;
  for (Function &F : M) {
    if (F.use_empty())
      continue;
    if (!kokkosRulePrefix(F.getName()).empty())
      Ruled.push_back(&F);
    else if (isKokkosHostRecordConstructor(F))
      Constructors.push_back(&F);
    // Marked, so that a virtual call that may reach it (a record's label)
    // knows it for a target without derivatives (IndirectCalls.h).
    else if (isInactiveKokkosFunction(&F))
      F.addFnAttr("enzyme_inactive");
    else if (isKokkosHostCopy(F))
      HostCopy = &F;
  }
  SmallPtrSet<const Function *, 8> Registered = registeredFunctions(M);
  // The rules call the library's functions by name: a Kokkos built with
  // -fenzyme has them in the module, internal after the link's
  // internalisation, where the rules' declarations would not find them
  // (the linker renames an internal function that a declaration names).
  SmallVector<std::pair<Function *, GlobalValue::LinkageTypes>, 8> Local;
  for (Function *F : Ruled)
    if (F->hasLocalLinkage()) {
      Local.push_back({F, F->getLinkage()});
      F->setLinkage(GlobalValue::ExternalLinkage);
    }
  for (Function *F : Ruled) {
    StringRef Prefix = kokkosRulePrefix(F->getName());
    registerRuntimeRule(M, *F, "register_gradient", Prefix,
                        {"_augment", "_reverse"}, Registered);
    registerRuntimeRule(M, *F, "register_derivative", Prefix, {"_forward"},
                        Registered);
  }
  for (auto [F, Linkage] : Local)
    F->setLinkage(Linkage);
  for (Function *Ctor : Constructors) {
    auto Mirror = [&](MirrorRule Kind) {
      return mirroredConstructorRule(M, *Ctor, Kind);
    };
    registerRules(
        M, *Ctor, "register_gradient",
        [&] {
          return SmallVector<Function *, 2>{Mirror(MirrorRule::Augment),
                                            Mirror(MirrorRule::Reverse)};
        },
        Registered);
    registerRules(
        M, *Ctor, "register_derivative",
        [&] { return SmallVector<Function *, 2>{Mirror(MirrorRule::Forward)}; },
        Registered);
  }
  if (!HostCopy || !HostCopy->isDeclaration() || Registered.count(HostCopy))
    return;
  // deep_copy between host Views copies bytes: as a memcpy, the engine's
  // type analysis says what the bytes are, and their adjoints move back.
  // Every call, in code differentiated or not: a request through a
  // function pointer reaches code that no scan lists, and a library without
  // bitcode (Debian's, Serial) copies with memcpy anyway.
  SmallVector<CallInst *, 4> Copies;
  for (User *U : HostCopy->users())
    if (auto *Call = dyn_cast<CallInst>(U);
        Call && Call->getCalledFunction() == HostCopy)
      Copies.push_back(Call);
  for (CallInst *Call : Copies) {
    IRBuilder<> B(Call);
    CallInst *Copy = B.CreateMemCpy(Call->getArgOperand(0), MaybeAlign(),
                                    Call->getArgOperand(1), MaybeAlign(),
                                    Call->getArgOperand(2));
    // Inside deep_copy<double*, ...>, what the bytes are is known: said to
    // the type analysis as the copy's access type, as clang would.
    if (StringRef Element = kokkosDeepCopyElement(*Call->getFunction());
        !Element.empty()) {
      MDBuilder MDB(M.getContext());
      MDNode *Char = MDB.createTBAAScalarTypeNode(
          "omnipotent char", MDB.createTBAARoot("Simple C++ TBAA"));
      MDNode *Scalar = MDB.createTBAAScalarTypeNode(Element, Char);
      Copy->setMetadata(LLVMContext::MD_tbaa,
                        MDB.createTBAAStructTagNode(Scalar, Scalar, 0));
    }
    Call->eraseFromParent();
  }
}

} // namespace enzyme
