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
#include "Analysis/MemoryTypes.h"
#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Modes/ForwardModeGenerator.h" // shadowType

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

enum class Marker {
  Dup,
  DupNoNeed,
  /// `enzyme_dupv, STRIDE, p, dp`: the N shadows of a pointer in one block,
  /// shadow k at dp + k * STRIDE bytes (vector mode).
  DupV,
  DupNoNeedV,
  Const,
  Out,
  Width,
  Allocated,
  Tape,
  PrimalReturn,
  ConstReturn,
  ActiveReturn,
  Context,
  /// `enzyme_nocache`, before a pointer parameter's activity: split mode may
  /// reload what it reads there instead of recording it.
  NoCache,
  /// `__enzyme_batch`: one value per lane, or one value for all lanes.
  Vector,
  Scalar,
  Unsupported
};

/// The marker an argument stands for, if it is one: `enzyme_dup` passed as
/// the value of a global (`int enzyme_dup;`) or as its address.
std::optional<std::pair<Marker, StringRef>> markerOf(Value *V) {
  GlobalVariable *GV = nullptr;
  // A `__device__` marker lives in the global address space and is read
  // through an address-space cast to the generic one.
  if (auto *Load = dyn_cast<LoadInst>(V))
    GV = dyn_cast<GlobalVariable>(
        Load->getPointerOperand()->stripPointerCasts());
  else
    GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  if (!GV || !GV->getName().starts_with("enzyme_"))
    return std::nullopt;
  StringRef Name = GV->getName();
  Marker M = StringSwitch<Marker>(Name)
                 .Case("enzyme_dup", Marker::Dup)
                 .Case("enzyme_dupnoneed", Marker::DupNoNeed)
                 .Case("enzyme_dupv", Marker::DupV)
                 .Case("enzyme_dupnoneedv", Marker::DupNoNeedV)
                 .Case("enzyme_const", Marker::Const)
                 .Case("enzyme_out", Marker::Out)
                 .Case("enzyme_width", Marker::Width)
                 .Case("enzyme_allocated", Marker::Allocated)
                 .Case("enzyme_tape", Marker::Tape)
                 .Case("enzyme_primal_return", Marker::PrimalReturn)
                 .Case("enzyme_const_return", Marker::ConstReturn)
                 .Case("enzyme_active_return", Marker::ActiveReturn)
                 .Case("enzyme_context", Marker::Context)
                 .Case("enzyme_nocache", Marker::NoCache)
                 .Case("enzyme_vector", Marker::Vector)
                 .Case("enzyme_scalar", Marker::Scalar)
                 .Default(Marker::Unsupported);
  return std::make_pair(M, Name);
}

/// Markers that set an option of the request rather than the activity of
/// the next parameter.
bool isOptionMarker(Marker M) {
  return M == Marker::Width || M == Marker::Allocated || M == Marker::Tape ||
         M == Marker::PrimalReturn || M == Marker::ConstReturn ||
         M == Marker::ActiveReturn || M == Marker::Context;
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

/// The identifier of an `__enzyme_*` entry point: the name itself in C, the
/// first identifier of a mangled C++ name (`_Z17__enzyme_autodiffIJ...`).
static StringRef entryIdentifier(StringRef Name) {
  if (!Name.consume_front("_Z"))
    return Name;
  unsigned Length = 0;
  if (Name.consumeInteger(10, Length) || Length > Name.size())
    return "";
  return Name.take_front(Length);
}

std::optional<RequestMode> requestModeOf(StringRef Name) {
  // Users declare variants with other prototypes under longer names
  // (`__enzyme_autodiff_vec`), as Enzyme allows.
  StringRef Id = entryIdentifier(Name);
  if (Id.starts_with("__enzyme_autodiff"))
    return RequestMode::Reverse;
  if (Id.starts_with("__enzyme_fwddiff"))
    return RequestMode::Forward;
  if (Id.starts_with("__enzyme_augmentfwd"))
    return RequestMode::AugmentedForward;
  if (Id.starts_with("__enzyme_augmentsize"))
    return RequestMode::AugmentSize;
  if (Id.starts_with("__enzyme_reverse"))
    return RequestMode::ReverseSplit;
  if (Id.starts_with("__enzyme_batch"))
    return RequestMode::Batch;
  return std::nullopt;
}

StringRef requestEntryName(RequestMode Mode) {
  switch (Mode) {
  case RequestMode::Reverse:
    return "__enzyme_autodiff";
  case RequestMode::Forward:
    return "__enzyme_fwddiff";
  case RequestMode::AugmentedForward:
    return "__enzyme_augmentfwd";
  case RequestMode::ReverseSplit:
    return "__enzyme_reverse";
  case RequestMode::AugmentSize:
    return "__enzyme_augmentsize";
  case RequestMode::Batch:
    return "__enzyme_batch";
  }
  llvm_unreachable("unknown request mode");
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
    reportError(Call, Twine(requestEntryName(Request.Mode)) + ": " + Message);
    return false;
  }
  bool isForward() const { return Request.Mode == RequestMode::Forward; }
  bool isBatch() const { return Request.Mode == RequestMode::Batch; }
  bool isSplit() const {
    return Request.Mode == RequestMode::AugmentedForward ||
           Request.Mode == RequestMode::ReverseSplit ||
           Request.Mode == RequestMode::AugmentSize;
  }
  bool parseFunction();
  /// Consumes the option markers (`enzyme_width, N`...) at the cursor.
  bool parseOptions();
  bool parseConstantOption(StringRef Name, uint64_t &Value);
  bool parseParameter(unsigned Param);
  /// `enzyme_nocache` at the cursor, if there: checks it and consumes it.
  bool parseNoCache(unsigned Param, bool &NoCache);
  /// `__enzyme_batch`: the lane values of \p Param.
  bool parseLanes(unsigned Param);
  /// `__enzyme_augmentsize`: a marker without a value.
  bool parseActivityOnly(unsigned Param);
  /// `__enzyme_reverse`: the adjoint of the result and the tape.
  bool parseReverseTail();
  Value *coerce(Value *V, Type *Ty, unsigned Param);
  /// The shadow (or tangent) of \p Param: one value, or in vector mode the
  /// [Width x T] of the Width values at the cursor, or of the one block
  /// with a byte stride (`enzyme_dupv`, \p Stride); nullptr after an error.
  Value *parseShadows(unsigned Param, Activity Act, bool ScalarTangent,
                      ConstantInt *Stride);
  std::string describeParam(unsigned Param) const {
    return "parameter " + std::to_string(Param + 1) + " of '" +
           displayName(Request.Fn->getName()) + "' (" +
           displayType(Request.Fn->getArg(Param)->getType()) + ")";
  }

  CallBase &Call;
  DiffRequest Request;
  unsigned Next = 0;
  bool TapeGiven = false;
  bool WidthGiven = false;
};

bool Parser::parseFunction() {
  if (Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet)) {
    Request.StructReturn = Call.getArgOperand(0);
    Request.StructReturnType = Call.getParamStructRetType(0);
    Next = 1;
  }
  StringRef What = isBatch() ? "evaluate" : "differentiate";
  if (Next >= Call.arg_size())
    return error("the first argument must be the function to " + What);
  Request.Fn = resolveFunction(Call.getArgOperand(Next++));
  if (!Request.Fn)
    return error("the function to " + What +
                 " must be known at compile time; pass the function itself "
                 "(e.g. (void*)f), not a pointer computed at run time");
  if (Request.Fn->isVarArg())
    return error("cannot " + What + " the variadic function '" +
                 displayName(Request.Fn->getName()) + "'");
  return true;
}

bool Parser::parseConstantOption(StringRef Name, uint64_t &Value) {
  if (++Next >= Call.arg_size())
    return error("'" + Name + "' must be followed by a value");
  auto *C = dyn_cast<ConstantInt>(Call.getArgOperand(Next));
  if (!C)
    return error("'" + Name +
                 "' must be followed by an integer known at compile time");
  Value = C->getZExtValue();
  ++Next;
  return true;
}

bool Parser::parseOptions() {
  while (Next < Call.arg_size()) {
    auto Found = markerOf(Call.getArgOperand(Next));
    if (!Found || !isOptionMarker(Found->first))
      return true;
    auto [M, Name] = *Found;
    switch (M) {
    case Marker::Width: {
      uint64_t Width = 0;
      if (!parseConstantOption(Name, Width))
        return false;
      if (Width == 0)
        return error("the width after 'enzyme_width' must be at least 1");
      if (Width > 64)
        return error("the width after 'enzyme_width' is " + Twine(Width) +
                     "; at most 64 directions are computed together");
      if (!Request.Activities.empty() && Width != Request.Width)
        return error("'enzyme_width' must come before the arguments of '" +
                     displayName(Request.Fn->getName()) +
                     "', which it applies to");
      Request.Width = Width;
      WidthGiven = true;
      break;
    }
    case Marker::Allocated: {
      if (!isSplit())
        return error("'enzyme_allocated' is only meaningful in split mode "
                     "(__enzyme_augmentfwd, __enzyme_reverse)");
      uint64_t Bytes = 0;
      if (!parseConstantOption(Name, Bytes))
        return false;
      Request.AllocatedTapeBytes = Bytes;
      break;
    }
    case Marker::Tape:
      if (Request.Mode != RequestMode::ReverseSplit)
        return error("'enzyme_tape' passes the tape to __enzyme_reverse; it "
                     "is not meaningful here");
      if (++Next >= Call.arg_size())
        return error("'enzyme_tape' must be followed by the tape");
      Request.Tape = Call.getArgOperand(Next++);
      TapeGiven = true;
      break;
    case Marker::PrimalReturn:
      if (Request.Mode != RequestMode::Forward &&
          Request.Mode != RequestMode::AugmentedForward)
        return error("'enzyme_primal_return' is only meaningful in "
                     "__enzyme_fwddiff and __enzyme_augmentfwd");
      Request.ReturnPrimal = true;
      ++Next;
      break;
    case Marker::Context: {
      if (++Next >= Call.arg_size())
        return error("'enzyme_context' must be followed by the context "
                     "(from __enzyme_context())");
      Value *Ctx = Call.getArgOperand(Next);
      if (!Ctx->getType()->isPointerTy() || markerOf(Ctx))
        return error("'enzyme_context' must be followed by the context "
                     "(from __enzyme_context())");
      if (isGpuModule(*Call.getModule()))
        return error("'enzyme_context' is not supported in GPU device code; "
                     "declare shadows for the globals (enzyme_shadow)");
      Request.Context = Ctx;
      ++Next;
      break;
    }
    case Marker::ConstReturn:
    case Marker::ActiveReturn: {
      // The activity of the result, for the modes that seed it.
      if (isForward())
        return error("'" + Name +
                     "' sets the activity of the result in reverse and "
                     "split mode; forward mode returns the tangent of the "
                     "result (and with enzyme_primal_return, the result)");
      if (isBatch())
        return error("'" + Name +
                     "' sets the activity of the result in reverse and "
                     "split mode; __enzyme_batch computes no derivative");
      bool Active = M == Marker::ActiveReturn;
      if (Active && !Request.Fn->getReturnType()->isFloatingPointTy())
        return error("'enzyme_active_return' needs a function that returns "
                     "a floating-point value, but '" +
                     displayName(Request.Fn->getName()) + "' returns '" +
                     displayType(Request.Fn->getReturnType()) + "'");
      Request.ReturnActivity =
          Active ? ResultActivity::Active : ResultActivity::Const;
      ++Next;
      break;
    }
    default:
      llvm_unreachable("not an option marker");
    }
  }
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

bool Parser::parseNoCache(unsigned Param, bool &NoCache) {
  auto Found = Next < Call.arg_size() ? markerOf(Call.getArgOperand(Next))
                                      : std::nullopt;
  if (!Found || Found->first != Marker::NoCache)
    return true;
  if (isForward())
    return error("'enzyme_nocache' promises that memory is not changed "
                 "between the augmented forward and the reverse pass; "
                 "forward mode has no tape, so it is not meaningful here");
  if (!Request.Fn->getArg(Param)->getType()->isPointerTy())
    return error("'enzyme_nocache' needs a pointer parameter (it promises "
                 "that the memory the pointer reaches is not changed), but " +
                 describeParam(Param) + " is not");
  ++Next;
  auto After = Next < Call.arg_size() ? markerOf(Call.getArgOperand(Next))
                                      : std::nullopt;
  if (After &&
      (After->first == Marker::NoCache || isOptionMarker(After->first)))
    return error("'enzyme_nocache' must be followed by the activity marker "
                 "or the value of " +
                 describeParam(Param) + ", not by '" + After->second + "'");
  NoCache = true;
  return true;
}

bool Parser::parseLanes(unsigned Param) {
  Type *ParamTy = Request.Fn->getArg(Param)->getType();
  // Unmarked parameters take one value per lane.
  unsigned Count = Request.Width;
  StringRef How = "enzyme_vector";
  if (auto Found = markerOf(Call.getArgOperand(Next))) {
    auto [M, Name] = *Found;
    if (M != Marker::Vector && M != Marker::Scalar)
      return error("the marker '" + Name +
                   "' is not meaningful in __enzyme_batch; give " +
                   describeParam(Param) +
                   " with enzyme_vector (one value per lane) or "
                   "enzyme_scalar (one value for all lanes)");
    if (M == Marker::Scalar) {
      Count = 1;
      How = "enzyme_scalar";
    }
    ++Next;
  }
  SmallVector<WeakTrackingVH, 4> Values;
  for (unsigned K = 0; K < Count; ++K) {
    if (Next >= Call.arg_size() || markerOf(Call.getArgOperand(Next))) {
      if (Count == 1)
        return error(How + " for " + describeParam(Param) + " needs a value");
      return error(How + " for " + describeParam(Param) + " needs " +
                   Twine(Count) + " values, one per lane ('enzyme_width, " +
                   Twine(Count) + "'), but " + Twine(K) +
                   (K == 1 ? " is" : " are") + " given");
    }
    Value *V = coerce(Call.getArgOperand(Next++), ParamTy, Param);
    if (!V)
      return false;
    Values.push_back(V);
  }
  Request.Activities.push_back(Activity::Const);
  Request.Primals.push_back(Values[0]);
  Request.Shadows.push_back(nullptr);
  Request.Lanes.push_back(std::move(Values));
  return true;
}

bool Parser::parseParameter(unsigned Param) {
  Type *ParamTy = Request.Fn->getArg(Param)->getType();
  if (isBatch()) {
    if (!parseOptions())
      return false;
    if (Next >= Call.arg_size())
      return error("too few arguments: no value for " + describeParam(Param));
    return parseLanes(Param);
  }
  bool ByValue = Request.Fn->getArg(Param)->hasByValAttr();
  auto ByValueError = [&] {
    return error(
        "parameter " + Twine(Param + 1) + " of '" +
        displayName(Request.Fn->getName()) +
        "' is a struct passed by value: mark it enzyme_const" +
        (isForward() ? ", or enzyme_dup followed by the struct and its "
                       "tangent (also by value)"
                     : "") +
        "; to differentiate with respect to its fields, pass it by pointer "
        "with enzyme_dup");
  };
  if (ByValue && (isSplit() || Request.Width != 1 || Next >= Call.arg_size() ||
                  !markerOf(Call.getArgOperand(Next))))
    return ByValueError();
  if (!parseOptions())
    return false;
  bool NoCache = false;
  if (!parseNoCache(Param, NoCache))
    return false;
  Request.NoCache.push_back(NoCache);
  if (Request.Mode == RequestMode::AugmentSize)
    return parseActivityOnly(Param);
  if (Next >= Call.arg_size())
    return error("too few arguments: no value for " + describeParam(Param));
  Value *V = Call.getArgOperand(Next);

  Activity Act;
  ConstantInt *Stride = nullptr;
  if (auto Found = markerOf(V)) {
    auto [M, Name] = *Found;
    if (M == Marker::Unsupported)
      return error("the marker '" + Name + "' is not supported here");
    if (M == Marker::Vector || M == Marker::Scalar)
      return error("the marker '" + Name +
                   "' describes the lanes of __enzyme_batch; it is not "
                   "meaningful here");
    if (M == Marker::NoCache)
      return error("'enzyme_nocache' must come before the activity marker "
                   "of a parameter, once");
    Act = M == Marker::Dup || M == Marker::DupV ? Activity::Dup
          : M == Marker::DupNoNeed || M == Marker::DupNoNeedV
              ? Activity::DupNoNeed
          : M == Marker::Const ? Activity::Const
                               : Activity::Out;
    if (M == Marker::DupV || M == Marker::DupNoNeedV) {
      if (!ParamTy->isPointerTy())
        return error("'" + Name + "' needs a pointer parameter, but " +
                     describeParam(Param) + " is not");
      if (++Next >= Call.arg_size())
        return error("'" + Name +
                     "' must be followed by the byte stride "
                     "between the shadows of " +
                     describeParam(Param));
      Stride = dyn_cast<ConstantInt>(Call.getArgOperand(Next));
      if (!Stride)
        return error("the byte stride after '" + Name + "' for " +
                     describeParam(Param) +
                     " must be an integer known at compile time");
    }
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
    // Forward mode: an active scalar comes with its tangent.
    Act = isForward() ? Activity::Dup : Activity::Out;
  } else {
    Act = Activity::Const;
  }
  ++Next;
  if (ByValue && Act != Activity::Const &&
      !(isForward() && Act == Activity::Dup))
    return ByValueError();

  if (Act == Activity::Out && isForward())
    return error("enzyme_out is a reverse-mode activity; in forward mode "
                 "pass " +
                 describeParam(Param) +
                 " with enzyme_dup, its value and its tangent");
  if (Act == Activity::Out && !isDifferentiableType(ParamTy))
    return error("enzyme_out needs a floating-point parameter, but " +
                 describeParam(Param) +
                 " is not; pass pointers with enzyme_dup or enzyme_const");
  bool ScalarTangent = isForward() && hasShadow(Act) && !ParamTy->isPointerTy();
  if (ScalarTangent && !isDifferentiableType(ParamTy))
    return error(getActivityName(Act) +
                 " needs a pointer or floating-point parameter in forward "
                 "mode, but " +
                 describeParam(Param) +
                 " is neither; pass it with "
                 "enzyme_const");
  if (hasShadow(Act) && !ParamTy->isPointerTy() && !ScalarTangent)
    return error(getActivityName(Act) + " needs a pointer parameter, but " +
                 describeParam(Param) +
                 " is not; pass scalars with "
                 "enzyme_out or enzyme_const");

  Value *Primal = coerce(V, ParamTy, Param);
  if (!Primal)
    return false;
  Value *Shadow = nullptr;
  if (hasShadow(Act)) {
    Shadow = parseShadows(Param, Act, ScalarTangent, Stride);
    if (!Shadow)
      return false;
  }
  Request.Activities.push_back(Act);
  Request.Primals.push_back(Primal);
  Request.Shadows.push_back(Shadow);
  return true;
}

Value *Parser::parseShadows(unsigned Param, Activity Act, bool ScalarTangent,
                            ConstantInt *Stride) {
  Type *ParamTy = Request.Fn->getArg(Param)->getType();
  unsigned Width = Request.Width;
  auto Missing = [&](unsigned Found) -> Value * {
    std::string What = ScalarTangent ? "tangent" : "shadow pointer";
    if (Width == 1 || Stride)
      error(getActivityName(Act) + " for " + describeParam(Param) +
            " needs a " + What + " after the value");
    else
      error(getActivityName(Act) + " for " + describeParam(Param) + " needs " +
            Twine(Width) + " " + What +
            "s after the value "
            "('enzyme_width, " +
            Twine(Width) + "'), but " + Twine(Found) +
            (Found == 1 ? " is" : " are") + " given");
    return nullptr;
  };
  auto Available = [&] {
    return Next < Call.arg_size() && !markerOf(Call.getArgOperand(Next));
  };
  // Width values, or with a stride one pointer and Width lanes in it.
  SmallVector<Value *, 8> Lanes;
  for (unsigned K = 0; K < (Stride ? 1 : Width); ++K) {
    if (!Available())
      return Missing(K);
    Value *Lane = coerce(Call.getArgOperand(Next++), ParamTy, Param);
    if (!Lane)
      return nullptr;
    Lanes.push_back(Lane);
  }
  if (Width == 1)
    return Lanes[0];
  IRBuilder<> B(&Call);
  if (Stride)
    for (unsigned K = 1; K < Width; ++K)
      Lanes.push_back(B.CreatePtrAdd(
          Lanes[0], B.getInt64(Stride->getSExtValue() * int64_t(K)),
          "enzyme.lane"));
  // The directions travel together, as the tangent functions take them.
  Value *Aggregate = PoisonValue::get(shadowType(ParamTy, Width));
  for (auto [K, Lane] : enumerate(Lanes))
    Aggregate = insertLane(B, Aggregate, Lane, K);
  return Aggregate;
}

bool Parser::parseActivityOnly(unsigned Param) {
  // `__enzyme_augmentsize(f, enzyme_dup, enzyme_const, ...)`: one marker per
  // parameter, no values.
  Type *ParamTy = Request.Fn->getArg(Param)->getType();
  auto Found = Next < Call.arg_size() ? markerOf(Call.getArgOperand(Next))
                                      : std::nullopt;
  if (!Found || Found->first == Marker::Unsupported ||
      Found->first == Marker::DupV || Found->first == Marker::DupNoNeedV ||
      Found->first == Marker::NoCache || Found->first == Marker::Vector ||
      Found->first == Marker::Scalar || isOptionMarker(Found->first))
    return error("expects one activity marker per parameter and no values; "
                 "none for " +
                 describeParam(Param));
  ++Next;
  Activity Act = Found->first == Marker::Dup         ? Activity::Dup
                 : Found->first == Marker::DupNoNeed ? Activity::DupNoNeed
                 : Found->first == Marker::Const     ? Activity::Const
                                                     : Activity::Out;
  Request.Activities.push_back(Act);
  Request.Primals.push_back(PoisonValue::get(ParamTy));
  Request.Shadows.push_back(hasShadow(Act) ? PoisonValue::get(ParamTy)
                                           : nullptr);
  return true;
}

bool Parser::parseReverseTail() {
  Type *RetTy = Request.Fn->getReturnType();
  if (!parseOptions())
    return false;
  // A constant result (enzyme_const_return) has no adjoint to pass.
  if (isDifferentiableType(RetTy) &&
      Request.ReturnActivity != ResultActivity::Const) {
    // In vector mode, one adjoint per direction.
    SmallVector<Value *, 8> Lanes;
    IRBuilder<> B(&Call);
    for (unsigned K = 0; K < Request.Width; ++K) {
      if (Next >= Call.arg_size()) {
        std::string What = "the adjoint of its result";
        if (Request.Width > 1)
          What = std::to_string(Request.Width) +
                 " adjoints of its result ('enzyme_width, " +
                 std::to_string(Request.Width) + "')";
        return error("too few arguments: '" +
                     displayName(Request.Fn->getName()) + "' returns a '" +
                     displayType(RetTy) + "', so " + What +
                     " must follow the arguments");
      }
      Value *Adjoint = Call.getArgOperand(Next++);
      if (Adjoint->getType() != RetTy) {
        if (!Adjoint->getType()->isFloatingPointTy() ||
            !RetTy->isFloatingPointTy())
          return error("the adjoint of the result of '" +
                       displayName(Request.Fn->getName()) + "' must be a '" +
                       displayType(RetTy) + "', not a '" +
                       displayType(Adjoint->getType()) + "'");
        Adjoint = B.CreateFPCast(Adjoint, RetTy);
      }
      Lanes.push_back(Adjoint);
    }
    Request.ReturnAdjoint = Lanes[0];
    if (Request.Width > 1) {
      Value *Aggregate = PoisonValue::get(shadowType(RetTy, Request.Width));
      for (auto [K, Lane] : enumerate(Lanes))
        Aggregate = insertLane(B, Aggregate, Lane, K);
      Request.ReturnAdjoint = Aggregate;
    }
    if (!parseOptions())
      return false;
  }
  if (!TapeGiven) {
    if (Next >= Call.arg_size())
      return error("too few arguments: the tape that __enzyme_augmentfwd "
                   "returned must come last (or after 'enzyme_tape')");
    Request.Tape = Call.getArgOperand(Next++);
  }
  return parseOptions();
}

std::optional<DiffRequest> Parser::parse() {
  if (!parseFunction())
    return std::nullopt;
  if (isBatch()) {
    if (!parseOptions())
      return std::nullopt;
    if (!WidthGiven) {
      error("'enzyme_width, N' (the number of lanes) must follow the "
            "function");
      return std::nullopt;
    }
  }
  for (unsigned Param = 0; Param < Request.Fn->arg_size(); ++Param)
    if (!parseParameter(Param))
      return std::nullopt;
  if (Request.Mode == RequestMode::ReverseSplit) {
    if (!parseReverseTail())
      return std::nullopt;
  } else if (!parseOptions()) {
    return std::nullopt;
  }
  if (Request.Context && Request.Width != 1) {
    error("'enzyme_context' with vector mode ('enzyme_width, " +
          Twine(Request.Width) +
          "'): a context keeps one shadow per global, which holds one "
          "direction; compute the directions one at a time");
    return std::nullopt;
  }
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
      if (std::optional<RequestMode> Mode = requestModeOf(Callee->getName())) {
        if (std::optional<DiffRequest> R = Parser(*Call, *Mode).parse())
          Requests.push_back(std::move(*R));
      } else if (entryIdentifier(Callee->getName()).starts_with("__enzyme_") &&
                 !annotatedType(*Call)) {
        // Nothing a user writes is ignored: an entry point the engine does
        // not implement would otherwise fail at link time, or not at all.
        reportError(*Call, "'" + entryIdentifier(Callee->getName()) +
                               "' is not supported by this toolchain");
      }
    }
  return Requests;
}

} // namespace enzyme
