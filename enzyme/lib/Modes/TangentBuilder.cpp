//===- TangentBuilder.cpp - One tangent function --------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The driver of a tangent function and the rules of the instructions that
/// compute values: ẏ for y = a op b from ȧ, ḃ and the primal operands.
///
//===----------------------------------------------------------------------===//

#include "Modes/TangentBuilder.h"

#include "Core/GlobalShadows.h"

#include "Analysis/KnownFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/RuntimeLibrary.h"
#include "Core/ScratchShadows.h"
#include "Modes/ShadowAddresses.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace enzyme {

SmallVector<Activity, 4> analysisActivities(const ForwardSignature &Sig) {
  SmallVector<Activity, 4> Acts;
  for (auto [A, Act] : enumerate(Sig.Args)) {
    Type *Ty = Sig.Fn->getArg(A)->getType();
    if (hasShadow(Act) && !carriesPointers(Ty))
      Acts.push_back(Activity::Out);
    else
      Acts.push_back(Act);
  }
  return Acts;
}

TangentBuilder::TangentBuilder(ForwardModeGenerator &Gen,
                               const ForwardSignature &Sig, Function &Prepared,
                               Function &Tangent)
    : Gen(Gen), Sig(Sig), Prep(Prepared), Out(Tangent),
      Activity(Prepared, analysisActivities(Sig),
               Sig.ReturnTangent && carriesPointers(Prepared.getReturnType()),
               Sig.ContextShadows, Sig.UnshadowedFields, Sig.ReturnTangent,
               Gen.unshadowedReturns()) {}

bool TangentBuilder::waitsForTargets(const Value *V) const {
  const auto *Call = dyn_cast<CallBase>(V);
  return Call && Call->isIndirectCall() && Gen.defersIndirectCalls();
}

bool TangentBuilder::fail(const Instruction *I, const Twine &Message,
                          bool MissingDefinition) {
  return Failure->record(I, Message, MissingDefinition);
}

Value *TangentBuilder::primal(Value *V) {
  if (isa<Constant>(V) || isa<MetadataAsValue>(V) || isa<InlineAsm>(V))
    return V;
  Value *P = Primals.lookup(V);
  assert(P && "a prepared value without a copy");
  return P;
}

Value *TangentBuilder::tangent(Value *V) {
  if (Value *T = Tangents.lookup(V))
    return T;
  // An instruction or argument that carries a derivative has its tangent
  // computed before its users (reverse post-order; phis first): a missing
  // one is a bug, never a zero.
  if ((isa<Instruction>(V) || isa<Argument>(V)) && carries(V)) {
    fail(dyn_cast<Instruction>(V),
         "internal error: the tangent of a value was needed before it was "
         "computed");
    return PoisonValue::get(tangentType(V->getType()));
  }
  // A global whose shadow the user declared (or an address within it).
  if (auto *C = dyn_cast<Constant>(V))
    if (Constant *S = constantShadow(C)) {
      if (Sig.Width == 1)
        return S;
      // One declared shadow cannot hold N directions.
      fail(nullptr, "a global with a declared shadow (enzyme_shadow) is "
                    "used in vector mode (enzyme_width " +
                        Twine(Sig.Width) +
                        "), which needs one shadow per direction; compute "
                        "the directions one at a time");
      return PoisonValue::get(tangentType(V->getType()));
    }
  // A global whose shadow the request's context keeps (one direction:
  // vector mode with a context is refused with the request).
  if (auto *C = dyn_cast<Constant>(V); C && Sig.ContextShadows)
    if (Value *S = ContextShadows.shadowOf(Out, C))
      return S;
  // Constants, globals and inactive values: no derivative, no shadow.
  return Constant::getNullValue(tangentType(V->getType()));
}

Value *TangentBuilder::sum(IRBuilder<> &B, ArrayRef<Value *> Terms, Type *Ty) {
  Value *S = nullptr;
  for (Value *T : Terms)
    S = S ? perLane(
                B, {S, T}, Ty,
                [&](ArrayRef<Value *> L) { return B.CreateFAdd(L[0], L[1]); })
          : T;
  return S ? S : Constant::getNullValue(tangentType(Ty));
}

bool TangentBuilder::checkChoiceOfShadows(Instruction &I) {
  if (!carriesPointers(I.getType()) || !Activity.isShadowed(&I))
    return true;
  // With the run-time, a choice without a shadow gets a scratch one.
  if (canLinkRuntime(*Prep.getParent()))
    return true;
  const Value *Choice = Activity.unshadowedChoice(I);
  return !Choice || fail(&I, describeUnshadowedChoice(*Choice));
}

bool TangentBuilder::takesScratchShadow(const Value *V) const {
  return Activity.needsScratchShadow(V) && canLinkRuntime(*Prep.getParent());
}

Value *TangentBuilder::tangentOrScratch(Value *V, IRBuilder<> &B) {
  if (!takesScratchShadow(V))
    return tangent(V);
  return createScratchShadow(B, primal(V), Sig.Width);
}

bool TangentBuilder::differentiate(Instruction &I, IRBuilder<> &B) {
  auto Op = [&](unsigned N) { return I.getOperand(N); };
  auto Active = [&](unsigned N) { return Activity.isActive(Op(N)); };
  auto T = [&](unsigned N) { return tangent(Op(N)); };
  Type *Ty = I.getType();
  // The scalar rule \p Rule, on each lane of the tangents \p Ts.
  auto Lanes = [&](ArrayRef<Value *> Ts,
                   function_ref<Value *(ArrayRef<Value *>)> Rule) {
    return perLane(B, Ts, Ty, Rule);
  };
  auto Neg = [&](Value *V) {
    return Lanes({V}, [&](ArrayRef<Value *> L) { return B.CreateFNeg(L[0]); });
  };
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub: {
    SmallVector<Value *, 2> Terms;
    if (Active(0))
      Terms.push_back(T(0));
    if (Active(1))
      Terms.push_back(I.getOpcode() == Instruction::FAdd ? T(1) : Neg(T(1)));
    setTangent(&I, sum(B, Terms, Ty));
    return true;
  }
  case Instruction::FMul: {
    SmallVector<Value *, 2> Terms;
    Value *A = primal(Op(0)), *C = primal(Op(1));
    if (Active(0))
      Terms.push_back(Lanes(
          {T(0)}, [&](ArrayRef<Value *> L) { return B.CreateFMul(L[0], C); }));
    if (Active(1))
      Terms.push_back(Lanes(
          {T(1)}, [&](ArrayRef<Value *> L) { return B.CreateFMul(A, L[0]); }));
    setTangent(&I, sum(B, Terms, Ty));
    return true;
  }
  case Instruction::FDiv: {
    // y = a / b: ẏ = (ȧ - y·ḃ) / b.
    SmallVector<Value *, 2> Terms;
    Value *Y = primal(&I), *Divisor = primal(Op(1));
    if (Active(0))
      Terms.push_back(T(0));
    if (Active(1))
      Terms.push_back(Lanes({T(1)}, [&](ArrayRef<Value *> L) {
        return B.CreateFNeg(B.CreateFMul(Y, L[0]));
      }));
    setTangent(&I, Lanes({sum(B, Terms, Ty)}, [&](ArrayRef<Value *> L) {
      return B.CreateFDiv(L[0], Divisor);
    }));
    return true;
  }
  case Instruction::FRem: {
    // a - b·trunc(a / b): ∂/∂a = 1, ∂/∂b = -trunc(a / b), as fmod.
    SmallVector<Value *, 2> Terms;
    if (Active(0))
      Terms.push_back(T(0));
    if (Active(1)) {
      Value *Quotient = B.CreateUnaryIntrinsic(
          Intrinsic::trunc, B.CreateFDiv(primal(Op(0)), primal(Op(1))));
      Terms.push_back(Lanes({T(1)}, [&](ArrayRef<Value *> L) {
        return B.CreateFNeg(B.CreateFMul(Quotient, L[0]));
      }));
    }
    setTangent(&I, sum(B, Terms, Ty));
    return true;
  }
  case Instruction::FNeg:
    setTangent(&I, Neg(T(0)));
    return true;
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    setTangent(&I, Lanes({T(0)}, [&](ArrayRef<Value *> L) {
      return B.CreateFPCast(L[0], Ty);
    }));
    return true;
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
    if (auto *Load = dyn_cast<LoadInst>(Op(0));
        Load && !isDifferentiableType(Load->getType()) &&
        !Load->getType()->isPointerTy()) {
      // A float read as an integer and reinterpreted: its tangent is the
      // same bits of the shadow memory.
      setTangent(&I,
                 Lanes({loadShadowBits(*Load, B)}, [&](ArrayRef<Value *> L) {
                   return B.CreateBitCast(L[0], Ty);
                 }));
      return true;
    }
    setTangent(&I, Lanes({T(0)}, [&](ArrayRef<Value *> L) {
      return B.CreateBitOrPointerCast(L[0], Ty);
    }));
    return true;
  case Instruction::IntToPtr:
    // An address computed as an integer (a buffer aligned by hand): the
    // same arithmetic on the shadow's address (ShadowAddresses.h).
    if (const Value *Base = addressArithmeticBase(Op(0))) {
      Value *Int = primal(Op(0));
      setTangent(&I, Lanes({tangent(const_cast<Value *>(Base))},
                           [&](ArrayRef<Value *> L) {
                             return shadowOfAddressArithmetic(
                                 B, Int, L[0], Ty, I.getName() + ".shadow");
                           }));
      return true;
    }
    if (LoadInst *Load = taggedBitsLoad(Op(0))) {
      // A pointer moved through memory as an integer, perhaps tagged.
      Value *Int = primal(Op(0));
      setTangent(&I,
                 Lanes({loadShadowBits(*Load, B)}, [&](ArrayRef<Value *> L) {
                   return B.CreateIntToPtr(retagShadowBits(B, Int, L[0]), Ty,
                                           I.getName() + ".shadow");
                 }));
      return true;
    }
    break;
  case Instruction::Freeze:
    setTangent(&I, T(0));
    return true;
  case Instruction::GetElementPtr: {
    auto *PrimalGEP = cast<Instruction>(primal(&I));
    setTangent(&I, Lanes({T(0)}, [&](ArrayRef<Value *> L) {
      Instruction *S = PrimalGEP->clone();
      S->setOperand(0, L[0]);
      return B.Insert(S, I.getName() + ".shadow");
    }));
    return true;
  }
  case Instruction::Select: {
    if (!checkChoiceOfShadows(I))
      return false;
    Value *Cond = primal(Op(0));
    // A side without a shadow gets a scratch one only when it is taken.
    auto Side = [&](unsigned N) {
      if (!takesScratchShadow(Op(N)))
        return T(N);
      return createScratchShadowOfSide(B, Cond, primal(Op(N)), N == 1,
                                       Sig.Width);
    };
    setTangent(&I, Lanes({Side(1), Side(2)}, [&](ArrayRef<Value *> L) {
      return B.CreateSelect(Cond, L[0], L[1]);
    }));
    return true;
  }
  case Instruction::ExtractValue:
    setTangent(&I, Lanes({T(0)}, [&](ArrayRef<Value *> L) {
      return B.CreateExtractValue(L[0], cast<ExtractValueInst>(I).getIndices());
    }));
    return true;
  case Instruction::InsertValue:
    // A pointer put into an aggregate with a shadow needs one there.
    setTangent(&I,
               Lanes({tangentOrScratch(Op(0), B), tangentOrScratch(Op(1), B)},
                     [&](ArrayRef<Value *> L) {
                       return B.CreateInsertValue(
                           L[0], L[1], cast<InsertValueInst>(I).getIndices());
                     }));
    return true;
  case Instruction::ExtractElement: {
    Value *Index = primal(Op(1));
    setTangent(&I, Lanes({T(0)}, [&](ArrayRef<Value *> L) {
      return B.CreateExtractElement(L[0], Index);
    }));
    return true;
  }
  case Instruction::InsertElement: {
    Value *Index = primal(Op(2));
    setTangent(&I,
               Lanes({tangentOrScratch(Op(0), B), tangentOrScratch(Op(1), B)},
                     [&](ArrayRef<Value *> L) {
                       return B.CreateInsertElement(L[0], L[1], Index);
                     }));
    return true;
  }
  case Instruction::ShuffleVector:
    setTangent(&I, Lanes({T(0), T(1)}, [&](ArrayRef<Value *> L) {
      return B.CreateShuffleVector(L[0], L[1],
                                   cast<ShuffleVectorInst>(I).getShuffleMask());
    }));
    return true;
  default:
    break;
  }
  return fail(&I, "cannot differentiate the instruction '" +
                      Twine(I.getOpcodeName()) + "'");
}

void TangentBuilder::buildReturn(ReturnInst &Ret) {
  auto *OutRet = cast<ReturnInst>(primal(&Ret));
  if (!Sig.ReturnTangent)
    return;
  Value *Returned = Ret.getReturnValue();
  if (Returned && Activity.needsScratchShadow(Returned) &&
      !takesScratchShadow(Returned)) {
    fail(&Ret, returnedWithoutShadow(Prep));
    return;
  }
  IRBuilder<> B(OutRet);
  Value *PrimalRet = OutRet->getReturnValue();
  Value *Pair = PoisonValue::get(Out.getReturnType());
  Pair = B.CreateInsertValue(Pair, PrimalRet, 0);
  Pair = B.CreateInsertValue(Pair, tangentOrScratch(Returned, B), 1);
  B.CreateRet(Pair);
  OutRet->eraseFromParent();
}

bool TangentBuilder::run(DifferentiationFailure &F) {
  Failure = &F;
  unsigned NextArg = Prep.arg_size();
  for (Argument &A : Prep.args()) {
    Primals[&A] = Out.getArg(A.getArgNo());
    if (hasShadow(Sig.Args[A.getArgNo()]))
      setTangent(&A, Out.getArg(NextArg++));
  }

  SmallVector<ReturnInst *, 1> Returns;
  AttributeList Declared = Out.getAttributes();
  CloneFunctionInto(&Out, &Prep, Primals,
                    CloneFunctionChangeType::GlobalChanges, Returns);
  // Cloning copied the prepared function's attributes, which describe its
  // memory behaviour; the tangent function also touches shadows. Keep the
  // code-generation attributes and `sret` (a struct passed by value arrives
  // as a plain pointer: the prepared caller copies it, PreparedFunction.cpp),
  // and the C calling convention that the engine calls it with.
  AttributeList Cloned = Out.getAttributes();
  Out.setAttributes(Declared);
  for (unsigned A = 0; A < Prep.arg_size(); ++A)
    for (Attribute::AttrKind Kind : {Attribute::StructRet})
      if (Cloned.hasParamAttr(A, Kind))
        Out.addParamAttr(A, Cloned.getParamAttr(A, Kind));
  Out.setCallingConv(CallingConv::C);

  // Phis first, filled once every block has its tangents; then every other
  // instruction in an order where operands come before their users.
  SmallVector<std::pair<PHINode *, PHINode *>, 8> TangentPhis;
  ReversePostOrderTraversal<Function *> RPO(&Prep);
  for (BasicBlock *BB : RPO)
    for (PHINode &Phi : BB->phis()) {
      if (!carries(&Phi))
        continue;
      if (!checkChoiceOfShadows(Phi))
        return false;
      IRBuilder<> B(cast<Instruction>(primal(&Phi)));
      PHINode *T =
          B.CreatePHI(tangentType(Phi.getType()), Phi.getNumIncomingValues(),
                      Phi.getName() + ".tangent");
      TangentPhis.emplace_back(&Phi, T);
      setTangent(&Phi, T);
    }

  for (BasicBlock *BB : RPO) {
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (isa<PHINode>(I))
        continue;
      if (auto *Ret = dyn_cast<ReturnInst>(&I)) {
        if (Activity.floatBitsReturnedAsInteger(*Ret))
          return fail(&I, describeFloatBitsReturnedAsInteger(*Sig.Fn));
        buildReturn(*Ret);
        continue;
      }
      if (I.isTerminator())
        continue;
      // Through a pointer, the link may make the call direct
      // (PackedFloatLanes.h).
      if (const Value *Source = Activity.lostFloatBits(I))
        return fail(&I, describeLostFloatBits(*Source),
                    waitsForTargets(Source));
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        const Value *Bits;
        if (std::optional<unsigned> Arg =
                Activity.floatBitsPassedAsInteger(*Call, Bits))
          return fail(&I, describeFloatBitsPassedAsInteger(*Call, *Arg, *Bits),
                      waitsForTargets(Call));
      }
      if (const Value *Source = Activity.lostPointerBits(I))
        return fail(&I, describeLostPointerBits(*Source));
      if (const Value *Source = Activity.untypedBitsStored(I, Sig.Fn))
        return fail(&I, describeUntypedBitsStored(*Source));
      auto *OutI = cast<Instruction>(primal(&I));
      IRBuilder<> B(OutI->getNextNode());
      B.SetCurrentDebugLocation(OutI->getDebugLoc());
      bool Ok = true;
      if (auto *Call = dyn_cast<CallBase>(&I))
        Ok = differentiateCall(*Call, B);
      else if (auto *Store = dyn_cast<StoreInst>(&I))
        Ok = differentiateStore(*Store, B);
      else if (auto *Alloca = dyn_cast<AllocaInst>(&I)) {
        if (Activity.isShadowed(Alloca))
          differentiateAlloca(*Alloca, B);
      } else if (auto *Load = dyn_cast<LoadInst>(&I)) {
        if (carries(Load))
          differentiateLoad(*Load, B);
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
                 RMW && isAtomicFloatAdd(*RMW)) {
        differentiateAtomicAdd(*RMW, B);
      } else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
        Value *Ptr = isa<AtomicRMWInst>(I)
                         ? cast<AtomicRMWInst>(I).getPointerOperand()
                         : cast<AtomicCmpXchgInst>(I).getPointerOperand();
        if (std::string Why = describeAtomicWithDerivative(
                I, Activity.isShadowed(Ptr), carries(&I));
            !Why.empty())
          Ok = fail(&I, Why);
      } else if (carries(&I)) {
        Ok = differentiate(I, B);
      }
      if (!Ok || !Failure->Message.empty())
        return false;
    }
  }
  for (auto [Phi, T] : TangentPhis)
    for (unsigned In = 0; In < Phi->getNumIncomingValues(); ++In) {
      auto *From = cast<BasicBlock>(primal(Phi->getIncomingBlock(In)));
      IRBuilder<> B(From->getTerminator());
      T->addIncoming(tangentOrScratch(Phi->getIncomingValue(In), B), From);
    }
  return Failure->Message.empty();
}

} // namespace enzyme
