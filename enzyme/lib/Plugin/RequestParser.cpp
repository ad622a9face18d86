//===- RequestParser.cpp - Parsing and checking __enzyme_* calls ----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the arguments of an `__enzyme_*` call (DESIGN §2): the function,
/// then per parameter an optional activity marker (a load of, or the address
/// of, a global named `enzyme_dup`, `enzyme_const`...), the value, and for
/// duplicated pointers the shadow. Unmarked arguments take the default
/// activity of their type. Variadic promotion is undone (a `float`
/// parameter receives a `double`). Every mismatch is an error at the call.
///
//===----------------------------------------------------------------------===//

#include "Plugin/DiffRequest.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

namespace enzyme {
namespace {

enum class Marker { Dup, DupNoNeed, Const, Out, Unsupported };

/// The marker an argument stands for, if it is one: `enzyme_dup` passed as
/// the value of a global (`int enzyme_dup;`) or as its address.
std::optional<std::pair<Marker, StringRef>> markerOf(Value *V) {
  GlobalVariable *GV = nullptr;
  if (auto *Load = dyn_cast<LoadInst>(V))
    GV = dyn_cast<GlobalVariable>(Load->getPointerOperand());
  else
    GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  if (!GV || !GV->getName().starts_with("enzyme_"))
    return std::nullopt;
  StringRef Name = GV->getName();
  Marker M = StringSwitch<Marker>(Name)
                 .Case("enzyme_dup", Marker::Dup)
                 .Case("enzyme_dupnoneed", Marker::DupNoNeed)
                 .Case("enzyme_const", Marker::Const)
                 .Case("enzyme_out", Marker::Out)
                 .Default(Marker::Unsupported);
  return std::make_pair(M, Name);
}

} // namespace

Value *resolveFunctionValue(Value *V, unsigned Depth) {
  if (Depth > 4)
    return nullptr;
  V = V->stripPointerCasts();
  if (auto *Alias = dyn_cast<GlobalAlias>(V))
    V = Alias->getAliaseeObject();
  if (isa<Function>(V) || isa<Argument>(V))
    return V;
  if (auto *Load = dyn_cast<LoadInst>(V)) {
    auto *Slot = dyn_cast<AllocaInst>(Load->getPointerOperand());
    if (!Slot)
      return nullptr;
    StoreInst *OnlyStore = nullptr;
    for (User *U : Slot->users()) {
      if (auto *S = dyn_cast<StoreInst>(U)) {
        if (OnlyStore || S->getPointerOperand() != Slot)
          return nullptr;
        OnlyStore = S;
      } else if (!isa<LoadInst>(U) && !U->isDroppable() &&
                 !isa<LifetimeIntrinsic>(U)) {
        return nullptr;
      }
    }
    return OnlyStore
               ? resolveFunctionValue(OnlyStore->getValueOperand(), Depth + 1)
               : nullptr;
  }
  if (auto *Inner = dyn_cast<CallBase>(V)) {
    Function *Callee = Inner->getCalledFunction();
    if (!Callee || Callee->isDeclaration())
      return nullptr;
    Function *Result = nullptr;
    for (BasicBlock &BB : *Callee)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
        Value *R = Ret->getReturnValue()
                       ? resolveFunctionValue(Ret->getReturnValue(), Depth + 1)
                       : nullptr;
        auto *RF = dyn_cast_or_null<Function>(R);
        if (!RF || (Result && RF != Result))
          return nullptr;
        Result = RF;
      }
    return Result;
  }
  return nullptr;
}

std::optional<RequestMode> requestModeOf(StringRef Name) {
  // C declarations use the plain name, C++ templates a mangled one.
  if (Name.contains("__enzyme_autodiff"))
    return RequestMode::Reverse;
  if (Name.contains("__enzyme_fwddiff"))
    return RequestMode::Forward;
  if (Name.contains("__enzyme_augmentfwd"))
    return RequestMode::AugmentedForward;
  if (Name.contains("__enzyme_reverse"))
    return RequestMode::ReverseSplit;
  return std::nullopt;
}

namespace {

Function *resolveFunction(Value *V) {
  return dyn_cast_or_null<Function>(resolveFunctionValue(V, 0));
}

class Parser {
public:
  Parser(CallBase &Call, RequestMode Mode) : Call(Call) {
    Request.Call = &Call;
    Request.Mode = Mode;
  }

  std::optional<DiffRequest> parse();

private:
  bool error(const Twine &Message) {
    reportError(Call, Twine(calleeName()) + ": " + Message);
    return false;
  }
  StringRef calleeName() const {
    if (Request.Mode == RequestMode::Reverse)
      return "__enzyme_autodiff";
    return Call.getCalledOperand()->stripPointerCasts()->getName();
  }
  bool parseFunction();
  bool parseParameter(unsigned Param);
  Value *coerce(Value *V, Type *Ty, unsigned Param);
  std::string describeParam(unsigned Param) const {
    return "parameter " + std::to_string(Param + 1) + " of '" +
           displayName(Request.Fn->getName()) + "' (" +
           displayType(Request.Fn->getArg(Param)->getType()) + ")";
  }

  CallBase &Call;
  DiffRequest Request;
  unsigned Next = 0;
};

bool Parser::parseFunction() {
  if (Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet)) {
    Request.StructReturn = Call.getArgOperand(0);
    Request.StructReturnType = Call.getParamStructRetType(0);
    Next = 1;
  }
  if (Next >= Call.arg_size())
    return error("the first argument must be the function to differentiate");
  Request.Fn = resolveFunction(Call.getArgOperand(Next++));
  if (!Request.Fn)
    return error("the function to differentiate must be known at compile "
                 "time; pass the function itself (e.g. (void*)f), not a "
                 "pointer computed at run time");
  if (Request.Fn->isVarArg())
    return error("cannot differentiate the variadic function '" +
                 displayName(Request.Fn->getName()) + "'");
  return true;
}

Value *Parser::coerce(Value *V, Type *Ty, unsigned Param) {
  Type *From = V->getType();
  if (From == Ty)
    return V;
  IRBuilder<> B(&Call);
  // Undo C's default argument promotions of variadic calls.
  if (From->isFloatingPointTy() && Ty->isFloatingPointTy())
    return B.CreateFPCast(V, Ty);
  if (From->isIntegerTy() && Ty->isIntegerTy())
    return B.CreateSExtOrTrunc(V, Ty);
  if (From->isPointerTy() && Ty->isPointerTy())
    return B.CreatePointerBitCastOrAddrSpaceCast(V, Ty);
  error("the argument for " + describeParam(Param) + " is a '" +
        displayType(From) + "'");
  return nullptr;
}

bool Parser::parseParameter(unsigned Param) {
  Type *ParamTy = Request.Fn->getArg(Param)->getType();
  if (Request.Fn->getArg(Param)->hasByValAttr())
    return error("parameter " + Twine(Param + 1) + " of '" +
                 displayName(Request.Fn->getName()) +
                 "' is a struct passed by value, which cannot be "
                 "differentiated yet; pass it by pointer (enzyme_dup or "
                 "enzyme_const)");
  if (Next >= Call.arg_size())
    return error("too few arguments: no value for " + describeParam(Param));
  Value *V = Call.getArgOperand(Next);

  Activity Act;
  if (auto Found = markerOf(V)) {
    auto [M, Name] = *Found;
    if (M == Marker::Unsupported)
      return error("the marker '" + Name + "' is not supported here");
    Act = M == Marker::Dup         ? Activity::Dup
          : M == Marker::DupNoNeed ? Activity::DupNoNeed
          : M == Marker::Const     ? Activity::Const
                                   : Activity::Out;
    if (++Next >= Call.arg_size())
      return error(getActivityName(Act) +
                   " must be followed by the value "
                   "for " +
                   describeParam(Param));
    V = Call.getArgOperand(Next);
    if (auto Second = markerOf(V))
      return error(getActivityName(Act) +
                   " must be followed by the value "
                   "for " +
                   describeParam(Param) + ", not by the marker '" +
                   Second->second + "'");
  } else if (ParamTy->isPointerTy()) {
    Act = Activity::Dup;
  } else if (ParamTy->isFPOrFPVectorTy()) {
    Act = Activity::Out;
  } else {
    Act = Activity::Const;
  }
  ++Next;

  if (Act == Activity::Out && !isDifferentiableType(ParamTy))
    return error("enzyme_out needs a floating-point parameter, but " +
                 describeParam(Param) +
                 " is not; pass pointers with enzyme_dup or enzyme_const");
  if (hasShadow(Act) && !ParamTy->isPointerTy())
    return error(getActivityName(Act) + " needs a pointer parameter, but " +
                 describeParam(Param) +
                 " is not; pass scalars with "
                 "enzyme_out or enzyme_const");

  Value *Primal = coerce(V, ParamTy, Param);
  if (!Primal)
    return false;
  Value *Shadow = nullptr;
  if (hasShadow(Act)) {
    if (Next >= Call.arg_size() || markerOf(Call.getArgOperand(Next)))
      return error(getActivityName(Act) + " for " + describeParam(Param) +
                   " needs a shadow pointer after the value");
    Shadow = coerce(Call.getArgOperand(Next++), ParamTy, Param);
    if (!Shadow)
      return false;
  }
  Request.Activities.push_back(Act);
  Request.Primals.push_back(Primal);
  Request.Shadows.push_back(Shadow);
  return true;
}

std::optional<DiffRequest> Parser::parse() {
  if (Request.Mode != RequestMode::Reverse) {
    error("this mode is not supported yet; use __enzyme_autodiff");
    return std::nullopt;
  }
  if (!parseFunction())
    return std::nullopt;
  for (unsigned Param = 0; Param < Request.Fn->arg_size(); ++Param)
    if (!parseParameter(Param))
      return std::nullopt;
  if (Next != Call.arg_size()) {
    unsigned N = Request.Fn->arg_size();
    error("too many arguments: '" + displayName(Request.Fn->getName()) +
          "' has " + Twine(N) + (N == 1 ? " parameter" : " parameters"));
    return std::nullopt;
  }
  return Request;
}

} // namespace

SmallVector<DiffRequest, 4> collectRequests(Module &M) {
  // In module order, so errors come out in source order.
  SmallVector<DiffRequest, 4> Requests;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      // Not getCalledFunction(): a call through an unprototyped C
      // declaration, or a cast, has another type than the declaration.
      auto *Callee = Call ? dyn_cast<Function>(
                                Call->getCalledOperand()->stripPointerCasts())
                          : nullptr;
      if (!Callee || !Callee->isDeclaration())
        continue;
      if (std::optional<RequestMode> Mode = requestModeOf(Callee->getName()))
        if (std::optional<DiffRequest> R = Parser(*Call, *Mode).parse())
          Requests.push_back(std::move(*R));
    }
  return Requests;
}

} // namespace enzyme
