//===- LibraryRewrites.cpp - Library calls the engine restates ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/LibraryRewrites.h"
#include "Core/ReusableFunctions.h"
#include "Core/RuntimeLibrary.h"
#include "Rules/MathRules.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cerrno>
#include <optional>

using namespace llvm;

namespace enzyme {

/// `int posix_memalign(void **, size_t, size_t)`, as a C library declares it.
static bool isPosixMemalign(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->getName() != "posix_memalign" ||
      !Callee->isDeclaration() || Call.arg_size() != 3)
    return false;
  return Call.getType()->isIntegerTy() &&
         Call.getArgOperand(0)->getType()->isPointerTy() &&
         Call.getArgOperand(1)->getType()->isIntegerTy() &&
         Call.getArgOperand(2)->getType()->isIntegerTy();
}

static void rewritePosixMemalign(CallInst &Call) {
  Module &M = *Call.getModule();
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *SizeTy = DL.getIntPtrType(Ctx);
  Type *PtrTy = PointerType::getUnqual(Ctx);
  // memalign, unlike aligned_alloc, takes any size (C11's aligned_alloc
  // wants a multiple of the alignment, and sanitizers check that).
  FunctionCallee Memalign = M.getOrInsertFunction(
      "memalign", FunctionType::get(PtrTy, {SizeTy, SizeTy}, false));

  Value *Out = Call.getArgOperand(0);
  IRBuilder<> B(&Call);
  Value *Align = B.CreateZExtOrTrunc(Call.getArgOperand(1), SizeTy);
  Value *Size = B.CreateZExtOrTrunc(Call.getArgOperand(2), SizeTy);
  Value *PowerOfTwo =
      B.CreateICmpEQ(B.CreateUnaryIntrinsic(Intrinsic::ctpop, Align),
                     ConstantInt::get(SizeTy, 1));
  Value *BigEnough =
      B.CreateICmpUGE(Align, ConstantInt::get(SizeTy, DL.getPointerSize()));
  Value *Valid = B.CreateAnd(PowerOfTwo, BigEnough, "memalign.valid");

  Instruction *Then = SplitBlockAndInsertIfThen(Valid, &Call, false);
  BasicBlock *ThenBB = Then->getParent();
  BasicBlock *Head = ThenBB->getSinglePredecessor();
  B.SetInsertPoint(Then);
  CallInst *Block = B.CreateCall(Memalign, {Align, Size}, "memalign");
  Value *Got = B.CreateIsNotNull(Block);
  // posix_memalign leaves *pp alone when it fails.
  Value *Old = B.CreateLoad(PtrTy, Out);
  B.CreateStore(B.CreateSelect(Got, Block, Old), Out);

  B.SetInsertPoint(&Call);
  PHINode *Allocated = B.CreatePHI(B.getInt1Ty(), 2);
  Allocated->addIncoming(Got, ThenBB);
  Allocated->addIncoming(B.getFalse(), Head);
  Type *RetTy = Call.getType();
  Value *Result =
      B.CreateSelect(Valid,
                     B.CreateSelect(Allocated, ConstantInt::get(RetTy, 0),
                                    ConstantInt::get(RetTy, ENOMEM)),
                     ConstantInt::get(RetTy, EINVAL));
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

/// `T modf(T, T *)` for T float, double or long double.
static bool isModf(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Call.arg_size() != 2)
    return false;
  StringRef Name = Callee->getName();
  Type *Ty = Call.getType();
  bool NameMatches = (Name == "modf" && Ty->isDoubleTy()) ||
                     (Name == "modff" && Ty->isFloatTy()) ||
                     (Name == "modfl" && Ty->isX86_FP80Ty());
  return NameMatches && Call.getArgOperand(0)->getType() == Ty &&
         Call.getArgOperand(1)->getType()->isPointerTy();
}

/// The integral part, written again as a store of the same value.
static void restateModf(CallInst &Call) {
  IRBuilder<> B(Call.getNextNode());
  Value *X = Call.getArgOperand(0);
  Value *Integral = B.CreateUnaryIntrinsic(Intrinsic::trunc, X);
  B.CreateStore(Integral, Call.getArgOperand(1));
}

/// For `sincos(x, &s, &c)` (sincosf, and libdevice's `__nv_sincos`,
/// `__nv_sincosf`, `__nv_fast_sincosf` and `__nv_sincospi[f]`, which CUDA's
/// sincosf and __sincosf call): the functions of the sine and the cosine it
/// computes; empty names for other calls.
static std::pair<StringRef, StringRef> sinCosFunctions(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Call.arg_size() != 3 ||
      !Call.getType()->isVoidTy() ||
      !Call.getArgOperand(0)->getType()->isFloatingPointTy() ||
      !Call.getArgOperand(1)->getType()->isPointerTy() ||
      !Call.getArgOperand(2)->getType()->isPointerTy())
    return {};
  using Pair = std::pair<StringRef, StringRef>;
  return StringSwitch<Pair>(Callee->getName())
      .Case("sincos", {"sin", "cos"})
      .Case("sincosf", {"sinf", "cosf"})
      .Case("__nv_sincos", {"__nv_sin", "__nv_cos"})
      .Case("__nv_sincosf", {"__nv_sinf", "__nv_cosf"})
      .Case("__nv_fast_sincosf", {"__nv_fast_sinf", "__nv_fast_cosf"})
      .Case("__nv_sincospi", {"__nv_sinpi", "__nv_cospi"})
      .Case("__nv_sincospif", {"__nv_sinpif", "__nv_cospif"})
      .Default({});
}

/// The sine and the cosine, computed by the functions of each and stored:
/// stores the generators differentiate, and calls that have rules.
static void restateSinCos(CallInst &Call, std::pair<StringRef, StringRef> Fns) {
  Module &M = *Call.getModule();
  Value *X = Call.getArgOperand(0);
  FunctionType *FTy = FunctionType::get(X->getType(), {X->getType()}, false);
  IRBuilder<> B(&Call);
  for (auto [Name, Out] : {std::pair(Fns.first, Call.getArgOperand(1)),
                           std::pair(Fns.second, Call.getArgOperand(2))}) {
    CallInst *Part = B.CreateCall(M.getOrInsertFunction(Name, FTy), {X});
    Part->setDebugLoc(Call.getDebugLoc());
    Part->setCallingConv(Call.getCallingConv());
    B.CreateStore(Part, Out);
  }
  Call.eraseFromParent();
}

/// The floating-point type that a call of libstdc++'s
/// `std::istream::operator>>(T &)` reads, or of what it calls at -O1 and up
/// (`_M_extract<T>`); null for other calls.
static Type *istreamExtractedType(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Call.arg_size() != 2 ||
      !Call.getArgOperand(0)->getType()->isPointerTy() ||
      !Call.getArgOperand(1)->getType()->isPointerTy())
    return nullptr;
  // The type is one letter of the mangled name: f, d or e (long double).
  StringRef Name = Callee->getName(), Letter;
  if (Name.consume_front("_ZNSirsER"))
    Letter = Name;
  else if (Name.consume_front("_ZNSi10_M_extractI") &&
           Name.consume_back("EERSiRT_"))
    Letter = Name;
  if (Letter.size() != 1)
    return nullptr;
  LLVMContext &Ctx = Call.getContext();
  switch (Letter[0]) {
  case 'f':
    return Type::getFloatTy(Ctx);
  case 'd':
    return Type::getDoubleTy(Ctx);
  case 'e':
    return Type::getX86_FP80Ty(Ctx);
  default:
    return nullptr;
  }
}

/// `in >> d` into a floating-point d becomes
///
///     ok  = istream::sentry(in, false)   (what the extraction itself asks)
///     in >> tmp                          (a fresh local)
///     d   = ok ? tmp : d
///
/// with both calls inactive: the value read is a constant, so the store
/// gives d the derivative 0 (and consumes its adjoint in reverse mode),
/// while a read that fails before extracting (the stream was not good)
/// leaves d and its derivative alone, as libstdc++ leaves d.
static void restateIstreamExtraction(CallInst &Call, Type *Ty) {
  Module &M = *Call.getModule();
  LLVMContext &Ctx = M.getContext();
  Type *PtrTy = PointerType::getUnqual(Ctx);
  // libstdc++ exports the sentry's constructor; its one member is the bool
  // the extraction tests.
  FunctionCallee Sentry = M.getOrInsertFunction(
      "_ZNSi6sentryC1ERSib",
      FunctionType::get(Type::getVoidTy(Ctx),
                        {PtrTy, PtrTy, Type::getInt1Ty(Ctx)}, false));
  Value *In = Call.getArgOperand(0), *Out = Call.getArgOperand(1);
  IRBuilder<> Entry(
      &*Call.getFunction()->getEntryBlock().getFirstInsertionPt());
  AllocaInst *SentryObj =
      Entry.CreateAlloca(Entry.getInt8Ty(), nullptr, "istream.sentry");
  AllocaInst *Tmp = Entry.CreateAlloca(Ty, nullptr, "istream.read");

  IRBuilder<> B(&Call);
  CallInst *Check = B.CreateCall(Sentry, {SentryObj, In, B.getFalse()});
  Check->addFnAttr(Attribute::get(Ctx, "enzyme_inactive"));
  Value *Ok = B.CreateIsNotNull(B.CreateLoad(B.getInt8Ty(), SentryObj));
  B.CreateStore(ConstantFP::getZero(Ty), Tmp);
  Call.setArgOperand(1, Tmp);
  Call.addFnAttr(Attribute::get(Ctx, "enzyme_inactive"));

  B.SetInsertPoint(Call.getNextNode());
  Value *Read = B.CreateLoad(Ty, Tmp);
  Value *Old = B.CreateLoad(Ty, Out);
  B.CreateStore(B.CreateSelect(Ok, Read, Old), Out);
}

/// libstdc++'s std::list links nodes in the shared library
/// (`_List_node_base::_M_hook(position)` and `_M_unhook()`), where the
/// engine cannot see the pointer stores that a node's shadow must mirror.
/// Their whole behaviour, on `struct { node *next, *prev; }`, is restated
/// here as a function the generators differentiate like any code.
enum class ListLink { None, Hook, Unhook };

static ListLink listLinkKind(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || !Call.getType()->isVoidTy() ||
      !all_of(Call.args(),
              [](const Use &A) { return A->getType()->isPointerTy(); }))
    return ListLink::None;
  StringRef Name = Callee->getName();
  if (Name == "_ZNSt8__detail15_List_node_base7_M_hookEPS0_" &&
      Call.arg_size() == 2)
    return ListLink::Hook;
  if (Name == "_ZNSt8__detail15_List_node_base9_M_unhookEv" &&
      Call.arg_size() == 1)
    return ListLink::Unhook;
  return ListLink::None;
}

/// `void enzyme.list.hook(node *self, node *pos)`: self goes before pos;
/// `void enzyme.list.unhook(node *self)`: self's neighbours link up.
static Function *listLinkFunction(Module &M, ListLink Kind) {
  StringRef Name =
      Kind == ListLink::Hook ? "enzyme.list.hook" : "enzyme.list.unhook";
  LLVMContext &Ctx = M.getContext();
  Type *PtrTy = PointerType::getUnqual(Ctx);
  SmallVector<Type *, 2> Params(Kind == ListLink::Hook ? 2 : 1, PtrTy);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), Params, false);
  if (Function *F = findReusableFunction(M, Name, FT))
    return F;
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Align A = M.getDataLayout().getPointerABIAlignment(0);
  uint64_t PtrSize = M.getDataLayout().getPointerSize();
  auto Next = [&](Value *Node) { return Node; };
  auto Prev = [&](Value *Node) {
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Node, PtrSize);
  };
  Value *Self = F->getArg(0);
  if (Kind == ListLink::Hook) {
    Value *Pos = F->getArg(1);
    Value *Before = B.CreateAlignedLoad(PtrTy, Prev(Pos), A);
    B.CreateAlignedStore(Pos, Next(Self), A);
    B.CreateAlignedStore(Before, Prev(Self), A);
    B.CreateAlignedStore(Self, Next(Before), A);
    B.CreateAlignedStore(Self, Prev(Pos), A);
  } else {
    Value *After = B.CreateAlignedLoad(PtrTy, Next(Self), A);
    Value *Before = B.CreateAlignedLoad(PtrTy, Prev(Self), A);
    B.CreateAlignedStore(After, Next(Before), A);
    B.CreateAlignedStore(Before, Prev(After), A);
  }
  B.CreateRetVoid();
  return F;
}

/// libstdc++'s red-black tree (std::map, std::set and their multi
/// variants) links and walks its nodes in the shared library, for the same
/// reason as std::list; the run-time restates those functions in C
/// (runtime/RbTree.c), linked into the module and differentiated like any
/// code. The name of the restatement of \p Call's callee, or empty.
static StringRef redBlackTreeRestatement(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || !canLinkRuntime(*Call.getModule()))
    return "";
  return StringSwitch<StringRef>(Callee->getName())
      .Cases("_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base",
             "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base",
             "__enzyme_rb_increment")
      .Cases("_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base",
             "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base",
             "__enzyme_rb_decrement")
      .Case("_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
            "__enzyme_rb_insert_and_rebalance")
      .Case("_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_",
            "__enzyme_rb_rebalance_for_erase")
      .Default("");
}

/// How one complex value (or a part) crosses a call on x86-64.
enum class ComplexPassing {
  Part,   ///< one part T on its own (double complex, the runtime helpers)
  Vector, ///< <2 x T> (float complex)
  ByVal,  ///< a pointer to a {T, T} copy, byval (long double complex)
  Pair,   ///< {T, T} (results of double and long double complex)
  Invalid
};

static ComplexPassing complexPassing(Type *Ty, Type *ByValTy, Type *&PartTy) {
  Type *Part = nullptr;
  ComplexPassing How = ComplexPassing::Invalid;
  if (Ty->isFloatingPointTy()) {
    Part = Ty;
    How = ComplexPassing::Part;
  } else if (auto *VT = dyn_cast<FixedVectorType>(Ty);
             VT && VT->getNumElements() == 2) {
    Part = VT->getElementType();
    How = ComplexPassing::Vector;
  } else if (auto *ST =
                 dyn_cast_or_null<StructType>(Ty->isPointerTy() ? ByValTy : Ty);
             ST && ST->getNumElements() == 2 &&
             ST->getElementType(0) == ST->getElementType(1)) {
    Part = ST->getElementType(0);
    How = Ty->isPointerTy() ? ComplexPassing::ByVal : ComplexPassing::Pair;
  }
  if (!Part || !Part->isFloatingPointTy() || (PartTy && PartTy != Part))
    return ComplexPassing::Invalid;
  PartTy = Part;
  return How;
}

/// A call of a complex function of the rule table and how its values travel.
struct ComplexCall {
  CallInst *Call;
  Type *PartTy = nullptr;
  const rules::MathRule *Rule = nullptr;
  SmallVector<ComplexPassing, 4> Args;
  ComplexPassing Result = ComplexPassing::Invalid;
};

/// A call of a complex function of the rule table (cexpf, cabsl,
/// __mulsc3...) whose complex values do not all travel as parts and {T, T}
/// pairs, the one convention the rules read.
static std::optional<ComplexCall> matchComplexCall(CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic() ||
      Callee->isVarArg())
    return std::nullopt;
  ComplexCall C{&Call};
  unsigned Parts = 0;
  bool Restate = false;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    ComplexPassing How = complexPassing(Call.getArgOperand(I)->getType(),
                                        Call.getParamByValType(I), C.PartTy);
    if (How == ComplexPassing::Invalid || How == ComplexPassing::Pair)
      return std::nullopt;
    Parts += How == ComplexPassing::Part ? 1 : 2;
    Restate |= How != ComplexPassing::Part;
    C.Args.push_back(How);
  }
  C.Result = complexPassing(Call.getType(), nullptr, C.PartTy);
  if (C.Result == ComplexPassing::Invalid || C.Result == ComplexPassing::ByVal)
    return std::nullopt;
  Restate |= C.Result == ComplexPassing::Vector;
  if (!Restate)
    return std::nullopt;
  C.Rule = rules::findComplexRule(Callee->getName(), C.PartTy);
  if (!C.Rule || C.Rule->Partials.size() != Parts ||
      C.Rule->returnsComplex() != (C.Result != ComplexPassing::Part))
    return std::nullopt;
  return C;
}

/// The function `{T, T} enzyme.complex.NAME(T x0, T y0, ...)` (or returning
/// T) that calls \p Callee in its own convention, marked to behave like the
/// rule \p RuleName.
static Function *complexPartsFunction(Function &Callee, Type *PartTy,
                                      StringRef RuleName,
                                      ArrayRef<ComplexPassing> Args,
                                      ComplexPassing Result) {
  Module &M = *Callee.getParent();
  std::string Name = ("enzyme.complex." + Callee.getName()).str();
  LLVMContext &Ctx = M.getContext();
  auto *PairTy = StructType::get(PartTy, PartTy);
  SmallVector<Type *, 4> Params;
  for (ComplexPassing How : Args)
    Params.append(How == ComplexPassing::Part ? 1 : 2, PartTy);
  auto *FTy = FunctionType::get(
      Result == ComplexPassing::Part ? PartTy : (Type *)PairTy, Params, false);
  if (Function *F = findReusableFunction(M, Name, FTy))
    return F;
  Function *F = Function::Create(FTy, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr("enzyme_math", RuleName);
  F->addFnAttr(Attribute::AlwaysInline);
  F->addFnAttr(Attribute::NoUnwind);

  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  SmallVector<Value *, 4> Outer;
  unsigned Next = 0;
  for (ComplexPassing How : Args) {
    if (How == ComplexPassing::Part) {
      Outer.push_back(F->getArg(Next++));
      continue;
    }
    Value *Re = F->getArg(Next++), *Im = F->getArg(Next++);
    if (How == ComplexPassing::Vector) {
      Value *V = PoisonValue::get(FixedVectorType::get(PartTy, 2));
      V = B.CreateInsertElement(V, Re, uint64_t(0));
      Outer.push_back(B.CreateInsertElement(V, Im, uint64_t(1)));
      continue;
    }
    AllocaInst *Copy = B.CreateAlloca(PairTy);
    Copy->setAlignment(
        std::max(Copy->getAlign(), M.getDataLayout().getPrefTypeAlign(PairTy)));
    B.CreateStore(Re, B.CreateStructGEP(PairTy, Copy, 0));
    B.CreateStore(Im, B.CreateStructGEP(PairTy, Copy, 1));
    Outer.push_back(Copy);
  }
  CallInst *Inner = B.CreateCall(&Callee, Outer);
  Inner->setAttributes(Callee.getAttributes());
  Value *Ret = Inner;
  if (Result == ComplexPassing::Vector) {
    Ret = PoisonValue::get(PairTy);
    Ret =
        B.CreateInsertValue(Ret, B.CreateExtractElement(Inner, uint64_t(0)), 0);
    Ret =
        B.CreateInsertValue(Ret, B.CreateExtractElement(Inner, uint64_t(1)), 1);
  }
  B.CreateRet(Ret);
  return F;
}

/// Replaces \p Call by a call of its parts function: complex arguments
/// split into parts (read from the byval copy), the result rebuilt.
static void restateComplexCall(const ComplexCall &C) {
  CallInst &Call = *C.Call;
  Type *PartTy = C.PartTy;
  ArrayRef<ComplexPassing> Args = C.Args;
  Function *Parts = complexPartsFunction(*Call.getCalledFunction(), PartTy,
                                         C.Rule->Name, Args, C.Result);
  auto *PairTy = StructType::get(PartTy, PartTy);
  IRBuilder<> B(&Call);
  SmallVector<Value *, 4> Values;
  for (unsigned I = 0; I < Args.size(); ++I) {
    Value *Arg = Call.getArgOperand(I);
    switch (Args[I]) {
    case ComplexPassing::Part:
      Values.push_back(Arg);
      break;
    case ComplexPassing::Vector:
      Values.push_back(B.CreateExtractElement(Arg, uint64_t(0)));
      Values.push_back(B.CreateExtractElement(Arg, uint64_t(1)));
      break;
    default:
      Values.push_back(B.CreateLoad(PartTy, B.CreateStructGEP(PairTy, Arg, 0)));
      Values.push_back(B.CreateLoad(PartTy, B.CreateStructGEP(PairTy, Arg, 1)));
    }
  }
  CallInst *New = B.CreateCall(Parts, Values);
  New->setDebugLoc(Call.getDebugLoc());
  Value *Ret = New;
  if (C.Result == ComplexPassing::Vector) {
    Ret = PoisonValue::get(Call.getType());
    Ret = B.CreateInsertElement(Ret, B.CreateExtractValue(New, 0), uint64_t(0));
    Ret = B.CreateInsertElement(Ret, B.CreateExtractValue(New, 1), uint64_t(1));
  }
  Ret->takeName(&Call);
  Call.replaceAllUsesWith(Ret);
  Call.eraseFromParent();
}

/// libdevice's reinterpretations of bits (`__nv_longlong_as_double`, which
/// CUDA's `__longlong_as_double` calls, and its kin) and the NVVM
/// intrinsics that take a double's halves apart and join them
/// (`llvm.nvvm.d2i.hi`, `llvm.nvvm.lohi.i2d`), as the casts and shifts they
/// are, or nullptr (building nothing) for other calls. Halves joined again
/// are folded back into the double once locals are promoted
/// (joinSplitHalves, FloatBitWebs.h).
static Value *restateBitReinterpretation(CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return nullptr;
  StringRef Name = Callee->getName();
  if (!Name.consume_front("__nv_"))
    switch (Callee->getIntrinsicID()) {
    case Intrinsic::nvvm_d2i_hi:
      Name = "double2hiint";
      break;
    case Intrinsic::nvvm_d2i_lo:
      Name = "double2loint";
      break;
    case Intrinsic::nvvm_lohi_i2d:
      Name = "lohi2double";
      break;
    default:
      return nullptr;
    }
  Type *RetTy = Call.getType();
  IRBuilder<> B(&Call);
  auto IsI32 = [](const Use &A) { return A->getType()->isIntegerTy(32); };
  if ((Name == "hiloint2double" || Name == "lohi2double") &&
      Call.arg_size() == 2 && RetTy->isDoubleTy() &&
      all_of(Call.args(), IsI32)) {
    bool HiFirst = Name == "hiloint2double";
    Value *Hi = Call.getArgOperand(HiFirst ? 0 : 1);
    Value *Lo = Call.getArgOperand(HiFirst ? 1 : 0);
    Value *Joined =
        B.CreateOr(B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32),
                   B.CreateZExt(Lo, B.getInt64Ty()));
    return B.CreateBitCast(Joined, RetTy);
  }
  if (Call.arg_size() != 1)
    return nullptr;
  Value *Arg = Call.getArgOperand(0);
  if ((Name == "double2hiint" || Name == "double2loint") &&
      Arg->getType()->isDoubleTy() && RetTy->isIntegerTy(32)) {
    Value *Bits = B.CreateBitCast(Arg, B.getInt64Ty());
    if (Name == "double2hiint")
      Bits = B.CreateLShr(Bits, 32);
    return B.CreateTrunc(Bits, RetTy);
  }
  bool Reinterprets =
      is_contained({"longlong_as_double", "double_as_longlong", "int_as_float",
                    "float_as_int", "uint_as_float", "float_as_uint"},
                   Name);
  if (!Reinterprets || !RetTy->isSingleValueType() ||
      RetTy->getPrimitiveSizeInBits() !=
          Arg->getType()->getPrimitiveSizeInBits() ||
      RetTy->getPrimitiveSizeInBits() == 0)
    return nullptr;
  return B.CreateBitCast(Arg, RetTy);
}

bool rewriteLibraryCalls(Function &F) {
  SmallVector<CallInst *, 2> Memaligns, Modfs;
  SmallVector<std::pair<CallInst *, std::pair<StringRef, StringRef>>, 2> SinCos;
  SmallVector<std::pair<CallInst *, Type *>, 2> Extractions;
  SmallVector<ComplexCall, 2> Complex;
  SmallVector<std::pair<CallInst *, ListLink>, 2> ListLinks;
  SmallVector<std::pair<CallInst *, StringRef>, 2> TreeCalls;
  bool Reinterpreted = false;
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *Call = dyn_cast<CallInst>(&I)) {
      if (Value *Bits = restateBitReinterpretation(*Call)) {
        Call->replaceAllUsesWith(Bits);
        Call->eraseFromParent();
        Reinterpreted = true;
      } else if (isPosixMemalign(*Call))
        Memaligns.push_back(Call);
      else if (isModf(*Call))
        Modfs.push_back(Call);
      else if (auto Fns = sinCosFunctions(*Call); !Fns.first.empty())
        SinCos.push_back({Call, Fns});
      else if (Type *Ty = istreamExtractedType(*Call))
        Extractions.push_back({Call, Ty});
      else if (ListLink Kind = listLinkKind(*Call); Kind != ListLink::None)
        ListLinks.push_back({Call, Kind});
      else if (StringRef Tree = redBlackTreeRestatement(*Call); !Tree.empty())
        TreeCalls.push_back({Call, Tree});
      else if (std::optional<ComplexCall> C = matchComplexCall(*Call))
        Complex.push_back(std::move(*C));
    }
  for (CallInst *Call : Memaligns)
    rewritePosixMemalign(*Call);
  for (CallInst *Call : Modfs)
    restateModf(*Call);
  for (auto [Call, Fns] : SinCos)
    restateSinCos(*Call, Fns);
  for (auto [Call, Ty] : Extractions)
    restateIstreamExtraction(*Call, Ty);
  for (const ComplexCall &C : Complex)
    restateComplexCall(C);
  for (auto [Call, Kind] : ListLinks)
    Call->setCalledFunction(listLinkFunction(*F.getParent(), Kind));
  for (auto [Call, Name] : TreeCalls)
    Call->setCalledFunction(getRuntimeFunction(*F.getParent(), Name));
  return Reinterpreted || !Memaligns.empty() || !Modfs.empty() ||
         !SinCos.empty() || !Extractions.empty() || !Complex.empty() ||
         !ListLinks.empty() || !TreeCalls.empty();
}

} // namespace enzyme
