//===- ParallelRegions.cpp - Derivatives of OpenMP parallel regions -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ParallelRegions.h"

#include "Core/Diagnostics.h"
#include "Core/OpenMPRuntime.h"
#include "Core/RuntimeLibrary.h"
#include "Modes/ForwardModeGenerator.h"
#include "Modes/ReverseModeGenerator.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// The function the user wrote the region in, as they would name it
/// (clang outlines `f`'s region as `f.omp_outlined`, or `.omp_outlined.`
/// at -O0 in older versions).
static std::string regionOwner(const Function &Body) {
  std::string Name = displayName(Body.getName());
  size_t Outlined = Name.find(".omp_outlined");
  if (Outlined != std::string::npos && Outlined > 0)
    Name.resize(Outlined);
  return Name;
}

std::string describeUnsupportedRegion(const Function &Region, unsigned Width,
                                      bool ContextShadows) {
  std::string Owner = regionOwner(outlinedFunctionOf(Region));
  if (Width != 1)
    return "cannot differentiate the OpenMP parallel region in '" + Owner +
           "' in vector mode (enzyme_width " + std::to_string(Width) +
           "): the OpenMP runtime passes a region one word per argument; "
           "compute the directions one at a time";
  if (takesUnfollowedFloatBits(Region))
    return "cannot differentiate the OpenMP parallel region in '" + Owner +
           "': a value it takes by copy (firstprivate) carries "
           "floating-point bits in a form the engine does not follow; make "
           "it shared, or a double or float of its own";
  if (ContextShadows)
    return "cannot differentiate the OpenMP parallel region in '" + Owner +
           "' with enzyme_context: the context is the calling thread's; "
           "declare the shadows of the globals the region uses "
           "(docs/parallel.md)";
  return "";
}

SmallVector<Activity, 4> bodyActivities(ArrayRef<Activity> Args) {
  SmallVector<Activity, 4> Body = {Activity::Const, Activity::Const};
  Body.append(Args.begin(), Args.end());
  return Body;
}

/// \p Fields of the region's arguments, as the body's (after its two
/// thread-id pointers).
static UnshadowedFieldOffsets bodyFields(const UnshadowedFieldOffsets &Fields) {
  if (Fields.empty())
    return {};
  UnshadowedFieldOffsets Body(2);
  Body.append(Fields.begin(), Fields.end());
  return Body;
}

/// The first instruction of \p Body with a location, where run-time
/// reports about its region point.
static DebugLoc regionLocation(const Function &Body) {
  for (const Instruction &I : instructions(Body))
    if (I.getDebugLoc())
      return I.getDebugLoc();
  return DebugLoc();
}

/// `void Name(ptr gtid, ptr btid, args..., shadows..., ptr scratch[,
/// ptr record])`: what the team of a derivative of \p Region runs. Its
/// threads use the master's scratch shadows (`scratch`, ScratchShadows.h):
/// memory without derivatives that one thread writes and another reads
/// (Kokkos' per-thread partial sums, joined after the region) has one
/// shadow.
static Function *createTask(Module &M, const Function &Region,
                            ArrayRef<Activity> Args, const Twine &Name,
                            bool WithRecord = true) {
  PointerType *Ptr = PointerType::getUnqual(M.getContext());
  SmallVector<Type *, 8> Params = {Ptr, Ptr};
  FunctionType *RT = Region.getFunctionType();
  Params.append(RT->param_begin(), RT->param_end());
  for (unsigned A = 0; A < RT->getNumParams(); ++A)
    if (hasShadow(Args[A]))
      Params.push_back(RT->getParamType(A));
  Params.push_back(Ptr);
  if (WithRecord)
    Params.push_back(Ptr);
  auto *Task = Function::Create(
      FunctionType::get(Type::getVoidTy(M.getContext()), Params, false),
      GlobalValue::InternalLinkage, Name, M);
  Task->addFnAttr(Attribute::NoUnwind);
  return Task;
}

/// The scratch shadows of the thread that forks (ScratchShadows.h), for
/// its team.
static Value *teamScratch(IRBuilder<> &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_scratch_team_state"));
}

/// A thread of the team uses \p State's scratch shadows; returns what it
/// used before.
static Value *adoptTeamScratch(IRBuilder<> &B, Value &State) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_scratch_adopt"),
                      {&State});
}

/// The arguments of \p F from \p First on, with \p Last more left out.
static SmallVector<Value *, 8> argumentsOf(Function &F, unsigned First,
                                           unsigned Last = 0) {
  SmallVector<Value *, 8> Args;
  for (unsigned I = First; I + Last < F.arg_size(); ++I)
    Args.push_back(F.getArg(I));
  return Args;
}

const ReversePair *
ReverseModeGenerator::generateParallelRegion(const ReverseSignature &Sig,
                                             DifferentiationFailure &Failure) {
  Function &Region = *Sig.Fn;
  Function &Body = outlinedFunctionOf(Region);
  std::string Why =
      describeUnsupportedRegion(Region, Sig.Width, Sig.ContextShadows);
  if (Why.empty() && is_contained(Sig.Args, Activity::Out))
    Why = "cannot differentiate the OpenMP parallel region in '" +
          regionOwner(Body) +
          "': a value it takes by copy (firstprivate) carries a derivative; "
          "make it shared";
  if (!Why.empty()) {
    Failure.Message = Why;
    return nullptr;
  }

  ReverseSignature BodySig;
  BodySig.Fn = &Body;
  BodySig.Args = bodyActivities(Sig.Args);
  BodySig.InputsKeptUntilReverse = Sig.InputsKeptUntilReverse;
  if (!Sig.KeptArgs.empty()) {
    BodySig.KeptArgs = {false, false};
    BodySig.KeptArgs.append(Sig.KeptArgs.begin(), Sig.KeptArgs.end());
  }
  BodySig.UnshadowedFields = bodyFields(Sig.UnshadowedFields);
  BodySig.Parallel = true;
  BodySig.TeamEntry = true;

  auto [Slot, Inserted] = Pairs.try_emplace(Sig);
  ReversePair &Pair = Slot->second;
  Pair.Augmented =
      Function::Create(getAugmentedType(Sig), GlobalValue::InternalLinkage,
                       Region.getName() + ".aug", M);
  Pair.Reverse =
      Function::Create(getReverseType(Sig), GlobalValue::InternalLinkage,
                       Region.getName() + ".rev", M);
  Pending.push_back(Pair.Augmented);
  Pending.push_back(Pair.Reverse);
  PendingSignatures.push_back(Slot->first);

  const ReversePair *BodyPair = generate(BodySig, Failure);
  if (!BodyPair)
    return nullptr;

  LLVMContext &Ctx = M.getContext();
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  Value *Loc = forkLocationOf(Region);
  // Region arguments, then their shadows: the pair's, before its tape.
  unsigned Forwarded = Pair.Augmented->arg_size() - 1;

  // Each thread of the augmented team runs the body with a tape of its own.
  Function *AugTask =
      createTask(M, Region, Sig.Args, Region.getName() + ".aug.task");
  {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", AugTask));
    Value *Record = AugTask->getArg(AugTask->arg_size() - 1);
    Value *Before =
        adoptTeamScratch(B, *AugTask->getArg(AugTask->arg_size() - 2));
    B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_thread_begin"),
                 {Record});
    Value *ThreadTape = Tape.createHeapTape(B);
    SmallVector<Value *, 8> Args = argumentsOf(*AugTask, 0, 2);
    Args.push_back(ThreadTape);
    B.CreateCall(BodyPair->Augmented, Args);
    B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_keep_tape"),
                 {Record, ThreadTape});
    adoptTeamScratch(B, *Before);
    B.CreateRetVoid();
  }
  // Thread T of the reverse team reverses what thread T did.
  Function *RevTask =
      createTask(M, Region, Sig.Args, Region.getName() + ".rev.task");
  {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", RevTask));
    auto [Fn, At] =
        createReportSubject(B, Body, regionLocation(Body), Region.getName());
    Value *Before =
        adoptTeamScratch(B, *RevTask->getArg(RevTask->arg_size() - 2));
    Value *ThreadTape =
        B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_thread_tape"),
                     {RevTask->getArg(RevTask->arg_size() - 1), Fn, At});
    SmallVector<Value *, 8> Args = argumentsOf(*RevTask, 0, 2);
    Args.push_back(ThreadTape);
    B.CreateCall(BodyPair->Reverse, Args);
    B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_thread_end"));
    Tape.destroyHeapTape(B, ThreadTape);
    adoptTeamScratch(B, *Before);
    B.CreateRetVoid();
  }
  PendingHelpers.push_back(AugTask);
  PendingHelpers.push_back(RevTask);

  {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Pair.Augmented));
    Value *Record =
        B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_region_new"));
    SmallVector<Value *, 8> Args = argumentsOf(*Pair.Augmented, 0, 1);
    Args.push_back(teamScratch(B));
    Args.push_back(Record);
    emitFork(B, Loc, AugTask, Args);
    Value *CallerTape = Pair.Augmented->getArg(Forwarded);
    if (Sig.FixedTape)
      Tape.store(B, CallerTape, 0, {Record});
    else
      Tape.push(B, CallerTape, {Record});
    B.CreateRetVoid();
  }
  {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Pair.Reverse));
    Value *CallerTape = Pair.Reverse->getArg(Forwarded);
    Value *Record = Sig.FixedTape ? Tape.load(B, CallerTape, 0, {Ptr}).front()
                                  : Tape.pop(B, CallerTape, {Ptr}).front();
    B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_push_team"),
                 {Loc, Record});
    SmallVector<Value *, 8> Args = argumentsOf(*Pair.Reverse, 0, 1);
    Args.push_back(teamScratch(B));
    Args.push_back(Record);
    emitFork(B, Loc, RevTask, Args);
    B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_omp_region_free"),
                 {Record});
    B.CreateRetVoid();
  }
  if (Sig.FixedTape)
    FixedTapeSizes[Sig] = Tape.packedSize({Ptr});
  else
    TapeBounds[Sig] = Tape.batchSize({ConstantPointerNull::get(Ptr)});
  return &Pair;
}

Function *
ForwardModeGenerator::generateParallelRegion(const ForwardSignature &Sig,
                                             DifferentiationFailure &Failure) {
  Function &Region = *Sig.Fn;
  if (std::string Why =
          describeUnsupportedRegion(Region, Sig.Width, Sig.ContextShadows);
      !Why.empty()) {
    Failure.Message = Why;
    return nullptr;
  }
  ForwardSignature BodySig;
  BodySig.Fn = &outlinedFunctionOf(Region);
  BodySig.Args = bodyActivities(Sig.Args);
  BodySig.UnshadowedFields = bodyFields(Sig.UnshadowedFields);

  Function *Tangent =
      Function::Create(getTangentType(Sig), GlobalValue::InternalLinkage,
                       Region.getName() + ".fwd", M);
  Tangents[Sig] = Tangent;
  Pending.push_back(Sig);
  Function *BodyTangent = generate(BodySig, Failure);
  if (!BodyTangent)
    return nullptr;
  // A tangent function takes the thread ids, the arguments and their
  // shadows: the runtime's calling convention for the team.
  Function *Task =
      createTask(M, Region, Sig.Args, Region.getName() + ".fwd.task",
                 /*WithRecord=*/false);
  {
    IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Task));
    Value *Before = adoptTeamScratch(B, *Task->getArg(Task->arg_size() - 1));
    B.CreateCall(BodyTangent, argumentsOf(*Task, 0, 1));
    adoptTeamScratch(B, *Before);
    B.CreateRetVoid();
  }
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Tangent));
  SmallVector<Value *, 8> Args = argumentsOf(*Tangent, 0);
  Args.push_back(teamScratch(B));
  emitFork(B, forkLocationOf(Region), Task, Args);
  B.CreateRetVoid();
  return Tangent;
}

} // namespace enzyme
