//===- OpenMPRuntime.cpp - What clang's OpenMP code calls -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/OpenMPRuntime.h"

#include "Analysis/MemoryTypes.h"
#include "Core/KokkosRuntime.h"
#include "Core/RuntimeLibrary.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace enzyme {

static constexpr StringLiteral RegionAttribute = "enzyme-openmp-region";
/// On a parameter of an outlined body: the shared variable it points to is
/// a local of the forking function that only the region reaches.
static constexpr StringLiteral RegionOnlyAttribute = "enzyme-region-only";
/// On a region function: a value it takes by copy carries floating-point
/// bits in a form the engine does not follow.
static constexpr StringLiteral FloatBitsAttribute = "enzyme-region-float-bits";

static StringRef calleeName(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee ? Callee->getName() : StringRef();
}

bool isInactiveOpenMPCall(const CallBase &Call) {
  static const StringSet<> Names = {"__kmpc_global_thread_num",
                                    "__kmpc_for_static_init_4",
                                    "__kmpc_for_static_init_4u",
                                    "__kmpc_for_static_init_8",
                                    "__kmpc_for_static_init_8u",
                                    "__kmpc_for_static_fini",
                                    "__kmpc_dispatch_init_4",
                                    "__kmpc_dispatch_init_4u",
                                    "__kmpc_dispatch_init_8",
                                    "__kmpc_dispatch_init_8u",
                                    "__kmpc_dispatch_next_4",
                                    "__kmpc_dispatch_next_4u",
                                    "__kmpc_dispatch_next_8",
                                    "__kmpc_dispatch_next_8u",
                                    "__kmpc_dispatch_fini_4",
                                    "__kmpc_dispatch_fini_4u",
                                    "__kmpc_dispatch_fini_8",
                                    "__kmpc_dispatch_fini_8u",
                                    "__kmpc_dispatch_deinit",
                                    "__kmpc_push_num_threads",
                                    "__kmpc_push_proc_bind",
                                    "__kmpc_single",
                                    "__kmpc_end_single",
                                    "__kmpc_master",
                                    "__kmpc_end_master",
                                    "__kmpc_masked",
                                    "__kmpc_end_masked",
                                    "__kmpc_flush",
                                    "omp_get_thread_num",
                                    "omp_get_num_threads",
                                    "omp_get_max_threads",
                                    "omp_get_num_procs",
                                    "omp_in_parallel",
                                    "omp_get_level",
                                    "omp_get_active_level",
                                    "omp_get_max_active_levels",
                                    "omp_set_max_active_levels",
                                    "omp_get_ancestor_thread_num",
                                    "omp_get_team_size",
                                    "omp_get_thread_limit",
                                    "omp_get_dynamic",
                                    "omp_set_dynamic",
                                    "omp_get_nested",
                                    "omp_set_nested",
                                    "omp_in_final",
                                    "omp_get_proc_bind",
                                    "omp_get_num_places",
                                    "omp_get_place_num",
                                    "omp_get_default_device",
                                    "omp_is_initial_device",
                                    "omp_get_num_devices",
                                    "omp_get_wtime",
                                    "omp_get_wtick",
                                    "omp_set_num_threads",
                                    "omp_init_lock",
                                    "omp_destroy_lock"};
  return Names.contains(calleeName(Call)) || isOpenMPSynchronization(Call);
}

/// What mirrors each synchronisation call in the reverse pass. Critical
/// sections and locks are entered through the run-time, which orders their
/// reverse entries (runtime/OpenMPRegions.c).
static StringRef mirrorOf(StringRef Name) {
  return StringSwitch<StringRef>(Name)
      .Case("__kmpc_barrier", "__kmpc_barrier")
      .Case("__enzyme_rt_omp_critical", "__enzyme_rt_omp_critical_reverse_exit")
      .Case("__kmpc_end_critical", "__enzyme_rt_omp_critical_reverse_enter")
      .Case("__enzyme_rt_omp_set_lock", "__enzyme_rt_omp_lock_reverse_exit")
      .Case("omp_unset_lock", "__enzyme_rt_omp_lock_reverse_enter")
      .Default("");
}

bool isOpenMPSynchronization(const CallBase &Call) {
  return !mirrorOf(calleeName(Call)).empty();
}

Constant *emitUnknownOpenMPLocation(Module &M) {
  static constexpr StringLiteral Name = "__enzyme_omp_unknown_location";
  if (GlobalVariable *GV = M.getNamedGlobal(Name))
    return GV;
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  // `ident_t`: reserved, flags (KMP_IDENT_KMPC), reserved, the length of
  // the source string, the source string.
  Constant *Source =
      ConstantDataArray::getString(Ctx, ";unknown;unknown;0;0;;");
  auto *SourceGV =
      new GlobalVariable(M, Source->getType(), /*isConstant=*/true,
                         GlobalValue::PrivateLinkage, Source, Name + ".source");
  auto *Ty =
      StructType::get(Ctx, {I32, I32, I32, I32, PointerType::getUnqual(Ctx)});
  Constant *Init = ConstantStruct::get(
      Ty, {ConstantInt::get(I32, 0), ConstantInt::get(I32, 2),
           ConstantInt::get(I32, 0),
           ConstantInt::get(I32, Source->getType()->getArrayNumElements() - 1),
           SourceGV});
  return new GlobalVariable(M, Ty, /*isConstant=*/true,
                            GlobalValue::PrivateLinkage, Init, Name);
}

void emitTeamBarrier(IRBuilder<> &B, Value *Loc) {
  // The reverse pass may run in another OpenMP thread than the forward one
  // did (a region's reverse is a team of its own): ask for the id again.
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy(), *I32 = B.getInt32Ty();
  Value *Thread = B.CreateCall(
      M.getOrInsertFunction("__kmpc_global_thread_num", I32, Ptr), {Loc});
  B.CreateCall(M.getOrInsertFunction("__kmpc_barrier", B.getVoidTy(), Ptr, I32),
               {Loc, Thread});
}

void emitMirroredOpenMPSynchronization(IRBuilder<> &B, const CallBase &Sync,
                                       function_ref<Value *(Value *)> Primal) {
  Module &M = *B.GetInsertBlock()->getModule();
  StringRef Mirror = mirrorOf(calleeName(Sync));
  if (Mirror == "__kmpc_barrier") {
    emitTeamBarrier(B, Primal(Sync.getArgOperand(0)));
    return;
  }
  Function *Reverse = getRuntimeFunction(M, Mirror);
  if (Mirror.contains("_lock_"))
    B.CreateCall(Reverse, {Primal(Sync.getArgOperand(0))});
  else
    B.CreateCall(Reverse, {Primal(Sync.getArgOperand(0)),
                           Primal(Sync.getArgOperand(2))});
}

std::string describeUnsupportedOpenMPCall(const CallBase &Call) {
  StringRef Name = calleeName(Call);
  if (!Name.starts_with("__kmpc_") && !Name.starts_with("omp_"))
    return "";
  if (isInactiveOpenMPCall(Call))
    return "";
  std::string What;
  if (Name.contains("task"))
    What = "OpenMP tasks";
  else if (Name.contains("ordered"))
    What = "an 'ordered' region";
  else if (Name.contains("teams"))
    What = "a 'teams' construct";
  else if (Name == "__kmpc_fork_call_if" ||
           Name.contains("serialized_parallel"))
    What = "a parallel region with an 'if' clause";
  else if (Name == "__kmpc_fork_call")
    What = "a parallel region whose outlined function is not known";
  else if (Name.starts_with("__kmpc_atomic"))
    What = "an atomic update that the OpenMP runtime performs (a type "
           "without a native atomic instruction)";
  else if (Name.contains("reduce"))
    What = "a reduction the engine cannot rewrite";
  else
    What = "this part of the OpenMP runtime";
  return "cannot differentiate the OpenMP runtime call '" + Name.str() + "' (" +
         What +
         "): not supported, docs/parallel.md lists what is; move it out of "
         "the differentiated code";
}

bool takesUnfollowedFloatBits(const Function &Region) {
  return Region.hasFnAttribute(FloatBitsAttribute);
}

bool isParallelRegion(const Function &F) {
  return F.hasFnAttribute(RegionAttribute);
}

static CallBase &forkOf(const Function &Region) {
  for (const Instruction &I : instructions(Region))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (calleeName(*Call) == "__kmpc_fork_call")
        return const_cast<CallBase &>(*Call);
  llvm_unreachable("a region function forks");
}

Function &outlinedFunctionOf(const Function &Region) {
  return *cast<Function>(forkOf(Region).getArgOperand(2)->stripPointerCasts());
}

Value *forkLocationOf(const Function &Region) {
  return forkOf(Region).getArgOperand(0);
}

CallInst *emitFork(IRBuilder<> &B, Value *Loc, Function *Microtask,
                   ArrayRef<Value *> Args) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  FunctionCallee Fork = M.getOrInsertFunction(
      "__kmpc_fork_call",
      FunctionType::get(B.getVoidTy(), {Ptr, B.getInt32Ty(), Ptr}, true));
  SmallVector<Value *, 8> Operands = {Loc, B.getInt32(Args.size()), Microtask};
  Operands.append(Args.begin(), Args.end());
  return B.CreateCall(Fork, Operands);
}

/// The outlined function \p Call forks, if the engine can make a region
/// function of it: a definition taking the two thread-id pointers and one
/// pointer-sized value per forwarded argument, as the runtime passes them.
static Function *forkedFunction(CallBase &Call) {
  if (calleeName(Call) != "__kmpc_fork_call" || Call.arg_size() < 3)
    return nullptr;
  auto *Outlined =
      dyn_cast<Function>(Call.getArgOperand(2)->stripPointerCasts());
  if (!Outlined || Outlined->isDeclaration() || Outlined->isVarArg() ||
      Outlined->arg_size() != Call.arg_size() - 1)
    return nullptr;
  const DataLayout &DL = Outlined->getParent()->getDataLayout();
  for (Argument &A : Outlined->args())
    if (!A.getType()->isPointerTy() &&
        !(A.getType()->isIntegerTy() &&
          DL.getTypeSizeInBits(A.getType()) == DL.getPointerSizeInBits()))
      return nullptr;
  return Outlined;
}

/// `void Outlined.enzyme.region(args...)`: forks a team that runs
/// \p Outlined, located at \p Loc.
static Function &regionFunction(Function &Outlined, Value *Loc) {
  Module &M = *Outlined.getParent();
  std::string Name = (Outlined.getName() + ".enzyme.region").str();
  if (Function *Existing = M.getFunction(Name))
    return *Existing;
  SmallVector<Type *, 8> Params(
      drop_begin(Outlined.getFunctionType()->params(), 2));
  auto *Region = Function::Create(
      FunctionType::get(Type::getVoidTy(M.getContext()), Params, false),
      GlobalValue::InternalLinkage, Name, M);
  Region->addFnAttr(RegionAttribute);
  Region->addFnAttr(Attribute::NoInline);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Region));
  SmallVector<Value *, 8> Args;
  for (Argument &A : Region->args())
    Args.push_back(&A);
  emitFork(B, Loc, &Outlined, Args);
  B.CreateRetVoid();
  return *Region;
}

/// \p Shared, an argument that \p Fork passes to its team, is a local of
/// the forking function that only the region reaches: its address goes
/// nowhere but into this fork, and the function only stores to it or loads
/// it.
static bool onlyTheRegionReaches(const Value &Shared, const CallBase &Fork) {
  const auto *Local = dyn_cast<AllocaInst>(&Shared);
  if (!Local)
    return false;
  unsigned Forks = 0;
  SmallVector<const Value *, 8> Work = {Local};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *Address = Work.pop_back_val();
    if (!Seen.insert(Address).second)
      continue;
    for (const Use &U : Address->uses()) {
      const auto *User = cast<Instruction>(U.getUser());
      if (User == &Fork && Address == Local) {
        ++Forks;
        continue;
      }
      // Fields of it (a closure object's members).
      if (isa<GetElementPtrInst, BitCastInst>(User)) {
        Work.push_back(User);
        continue;
      }
      if (isa<LoadInst, ICmpInst>(User) || User->isLifetimeStartOrEnd() ||
          isa<DbgInfoIntrinsic>(User))
        continue;
      if (const auto *Store = dyn_cast<StoreInst>(User);
          Store && U.getOperandNo() == StoreInst::getPointerOperandIndex())
        continue;
      // Copies to and from it, calls that keep no address they get (an
      // execution space's handle copied into a Kokkos closure), and any
      // call once the region is over (the closure's destructor).
      if (const auto *Call = dyn_cast<CallBase>(User);
          Call && Call != &Fork &&
          (!isPotentiallyReachable(Call, &Fork) ||
           (Call->isArgOperand(&U) &&
            (isa<MemIntrinsic>(Call) ||
             Call->doesNotCapture(Call->getArgOperandNo(&U)) ||
             kokkosCallKeepsNoAddress(*Call)))))
        continue;
      return false;
    }
  }
  return Forks == 1;
}

bool isRegionLocal(const Argument &A) {
  return A.getParent()->getAttributes().hasParamAttr(A.getArgNo(),
                                                     RegionOnlyAttribute);
}

void hoistInvariantSharedLoads(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  for (Argument &A : F.args()) {
    if (!F.getAttributes().hasParamAttr(A.getArgNo(), RegionOnlyAttribute))
      continue;
    // Nothing in the team writes it: every use is a load.
    SmallVector<LoadInst *, 8> Loads;
    bool OnlyLoads = all_of(A.users(), [&](User *U) {
      auto *Load = dyn_cast<LoadInst>(U);
      if (Load && !Load->isVolatile() && !Load->isAtomic())
        Loads.push_back(Load);
      return Load && !Load->isVolatile() && !Load->isAtomic();
    });
    if (!OnlyLoads)
      continue;
    // One load per type at the entry: the value cannot change while the
    // team runs (the variable's address went nowhere else).
    DenseMap<Type *, LoadInst *> AtEntry;
    for (LoadInst *Load : Loads) {
      LoadInst *&First = AtEntry[Load->getType()];
      if (!First) {
        First = cast<LoadInst>(Load->clone());
        First->insertInto(&Entry, Entry.getFirstInsertionPt());
        First->setName(A.getName() + ".invariant");
      }
      if (First != Load) {
        Load->replaceAllUsesWith(First);
        Load->eraseFromParent();
      }
    }
  }
}

/// The floating-point value whose bits \p Arg, an integer that a fork
/// passes by copy (a `firstprivate` variable, a scalar captured by copy),
/// carries, or null: `bitcast double %c to i64` once optimised, or a load
/// of the slot clang stored the value to at -O0.
static Value *floatCarriedBy(Value *Arg) {
  if (!Arg->getType()->isIntegerTy())
    return nullptr;
  // A float narrower than the word: `zext (bitcast float %c to i32)`.
  if (auto *Ext = dyn_cast<ZExtInst>(Arg))
    Arg = Ext->getOperand(0);
  if (auto *Cast = dyn_cast<BitCastInst>(Arg))
    return Cast->getSrcTy()->isFloatingPointTy() ? Cast->getOperand(0)
                                                 : nullptr;
  auto *Load = dyn_cast<LoadInst>(Arg);
  if (!Load)
    return nullptr;
  auto *Slot = dyn_cast<AllocaInst>(Load->getPointerOperand());
  if (!Slot) {
    // A float read as an integer of its width (`load i32` of a float,
    // which optimisation makes of `bitcast (load float)`): its tag or the
    // memory's accesses say what it is.
    Type *Float = inferFloatElementType(Load->getPointerOperand(),
                                        Load->getPointerOperand(), Load);
    const DataLayout &DL = Load->getModule()->getDataLayout();
    if (!Float ||
        DL.getTypeSizeInBits(Float) != DL.getTypeSizeInBits(Load->getType()))
      return nullptr;
    return new BitCastInst(Load, Float, Load->getName() + ".float",
                           Load->getNextNode());
  }
  StoreInst *Only = nullptr;
  for (User *U : Slot->users()) {
    if (isa<LoadInst>(U) || cast<Instruction>(U)->isLifetimeStartOrEnd())
      continue;
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getPointerOperand() != Slot || Only)
      return nullptr;
    Only = Store;
  }
  if (!Only || Only->getParent() != Load->getParent() ||
      !Only->comesBefore(Load))
    return nullptr;
  Value *Stored = Only->getValueOperand();
  return Stored->getType()->isFloatingPointTy() ? Stored : nullptr;
}

/// \p V, an integer, is computed from the bits of a floating-point value
/// (through casts, shifts and masks) in a way floatCarriedBy does not
/// follow.
static bool mixesFloatBits(const Value *V, unsigned Depth = 0) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 6)
    return false;
  // A word read from memory that nothing types (no TBAA tag, no typed
  // access) may be a float's bits.
  if (const auto *Load = dyn_cast<LoadInst>(I))
    return !isa<AllocaInst>(Load->getPointerOperand()) &&
           !Load->getMetadata(LLVMContext::MD_tbaa) &&
           (Load->getType()->isIntegerTy(32) ||
            Load->getType()->isIntegerTy(64));
  if (isa<BitCastInst>(I))
    return I->getOperand(0)->getType()->isFPOrFPVectorTy();
  if (!isa<CastInst>(I) && !isa<BinaryOperator>(I) && !isa<SelectInst>(I) &&
      !isa<ExtractElementInst>(I))
    return false;
  return any_of(I->operands(), [&](const Use &U) {
    return mixesFloatBits(U.get(), Depth + 1);
  });
}

/// A copy of \p Outlined that takes each parameter of \p ByReference (the
/// index of an integer parameter, and the floating-point type whose bits it
/// carries) as a pointer to that float instead, and reads it at its entry.
static Function &
copyTakingFloatsByReference(Function &Outlined,
                            ArrayRef<std::pair<unsigned, Type *>> ByReference) {
  Module &M = *Outlined.getParent();
  LLVMContext &Ctx = M.getContext();
  std::string Name = (Outlined.getName() + ".enzyme.byref").str();
  if (Function *Existing = M.getFunction(Name))
    return *Existing;
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  SmallVector<Type *, 8> Params(Outlined.getFunctionType()->params());
  for (auto [Index, FloatTy] : ByReference)
    Params[Index] = Ptr;
  auto *Copy = Function::Create(
      FunctionType::get(Outlined.getReturnType(), Params, false),
      GlobalValue::InternalLinkage, Name, M);
  // The reads go first in the copied entry block (promotion to SSA looks
  // for locals there).
  auto *Reads = BasicBlock::Create(Ctx, "byref", Copy);
  IRBuilder<> B(Reads);
  ValueToValueMapTy VMap;
  for (Argument &A : Outlined.args()) {
    Argument *New = Copy->getArg(A.getArgNo());
    New->setName(A.getName());
    VMap[&A] = New;
  }
  const DataLayout &DL = M.getDataLayout();
  for (auto [Index, FloatTy] : ByReference) {
    Argument &A = *Outlined.getArg(Index);
    Value *V = B.CreateLoad(FloatTy, Copy->getArg(Index), A.getName());
    V = B.CreateBitCast(V, B.getIntNTy(DL.getTypeSizeInBits(FloatTy)));
    VMap[&A] = B.CreateZExtOrTrunc(V, A.getType());
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Copy, &Outlined, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  for (auto [Index, FloatTy] : ByReference)
    Copy->setAttributes(
        Copy->getAttributes().removeParamAttributes(Ctx, Index));
  BasicBlock *Entry = &*std::next(Copy->begin());
  for (Instruction &I : make_early_inc_range(reverse(*Reads)))
    I.moveBefore(*Entry, Entry->getFirstInsertionPt());
  Reads->eraseFromParent();
  return *Copy;
}

void lowerOpenMPRuntimeCalls(Function &F) {
  Module &M = *F.getParent();
  if (!canLinkRuntime(M))
    return;
  Type *Ptr = PointerType::getUnqual(M.getContext());
  Type *I32 = Type::getInt32Ty(M.getContext());
  Type *Void = Type::getVoidTy(M.getContext());
  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && (calleeName(*Call).starts_with("__kmpc_") ||
                 calleeName(*Call) == "omp_set_lock"))
      Calls.push_back(Call);
  auto Replace = [](CallBase *Call, CallInst *By) {
    By->setDebugLoc(Call->getDebugLoc());
    if (!Call->getType()->isVoidTy())
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), 1));
    Call->eraseFromParent();
  };
  for (CallBase *Call : Calls) {
    StringRef Name = calleeName(*Call);
    IRBuilder<> B(Call);
    if (Function *Outlined = forkedFunction(*Call)) {
      // A float the region takes by copy travels as an integer of the same
      // bits, which carries no derivative: it goes through memory, typed as
      // what it is, so that each thread reads it (and its adjoint flows).
      SmallVector<std::pair<unsigned, Type *>, 2> ByReference;
      for (unsigned I = 3; I < Call->arg_size(); ++I)
        if (Value *Float = floatCarriedBy(Call->getArgOperand(I))) {
          IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
          AllocaInst *Slot =
              Entry.CreateAlloca(Float->getType(), nullptr, "firstprivate");
          B.CreateStore(Float, Slot);
          Call->setArgOperand(I, Slot);
          ByReference.push_back({I - 1, Float->getType()});
        }
      if (!ByReference.empty())
        Outlined = &copyTakingFloatsByReference(*Outlined, ByReference);
      bool FloatBitsLeft = any_of(drop_begin(Call->args(), 3), [](Use &U) {
        return U->getType()->isIntegerTy() && mixesFloatBits(U.get());
      });
      // A shared variable that only the region reaches and nothing in it
      // writes keeps its value while the team runs: its body loads it once
      // (hoistInvariantSharedLoads), so that the reverse pass adds its
      // adjoint once per thread, not once per iteration.
      for (unsigned I = 3; I < Call->arg_size(); ++I)
        if (onlyTheRegionReaches(*Call->getArgOperand(I), *Call))
          Outlined->addParamAttr(
              I - 1, Attribute::get(M.getContext(), RegionOnlyAttribute));
      Function &Region = regionFunction(*Outlined, Call->getArgOperand(0));
      if (FloatBitsLeft)
        Region.addFnAttr(FloatBitsAttribute);
      SmallVector<Value *, 8> Args(drop_begin(Call->args(), 3));
      Replace(Call, B.CreateCall(&Region, Args));
      continue;
    }
    // Critical sections and locks are entered through the run-time, which
    // orders their reverse entries.
    if ((Name == "__kmpc_critical" || Name == "__kmpc_critical_with_hint") &&
        Call->arg_size() >= 3) {
      Replace(Call,
              B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_critical"),
                           {Call->getArgOperand(0), Call->getArgOperand(1),
                            Call->getArgOperand(2)}));
      continue;
    }
    if (Name == "omp_set_lock" && Call->arg_size() == 1) {
      Replace(Call,
              B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_set_lock"),
                           {Call->getArgOperand(0)}));
      continue;
    }
    // `__kmpc_reduce*(loc, gtid, n, size, data, combine, lock)` returns 1
    // where this thread combines its copies into the shared variables
    // itself, under the lock (or alone). Every thread does, in turn.
    if ((Name == "__kmpc_reduce" || Name == "__kmpc_reduce_nowait") &&
        Call->arg_size() == 7) {
      Replace(Call,
              B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_critical"),
                           {Call->getArgOperand(0), Call->getArgOperand(1),
                            Call->getArgOperand(6)}));
      continue;
    }
    if ((Name == "__kmpc_end_reduce" || Name == "__kmpc_end_reduce_nowait") &&
        Call->arg_size() == 3) {
      Value *Loc = Call->getArgOperand(0), *Thread = Call->getArgOperand(1);
      CallInst *End = B.CreateCall(
          M.getOrInsertFunction("__kmpc_end_critical", Void, Ptr, I32, Ptr),
          {Loc, Thread, Call->getArgOperand(2)});
      // The blocking form ends with the team's barrier.
      if (Name == "__kmpc_end_reduce")
        B.CreateCall(M.getOrInsertFunction("__kmpc_barrier", Void, Ptr, I32),
                     {Loc, Thread})
            ->setDebugLoc(Call->getDebugLoc());
      Replace(Call, End);
    }
  }
}

} // namespace enzyme
