//===- WarpShuffles.cpp - Derivatives of warp shuffles --------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/WarpShuffles.h"

#include "Analysis/MemoryTypes.h"

#include "Core/GpuTarget.h"
#include "Core/ReusableFunctions.h"
#include "Modes/FloatBitWebs.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace enzyme {

static constexpr unsigned WarpSize = 32;

static StringRef modeName(ShuffleMode Mode) {
  switch (Mode) {
  case ShuffleMode::Down:
    return "down";
  case ShuffleMode::Up:
    return "up";
  case ShuffleMode::Xor:
    return "bfly";
  case ShuffleMode::Index:
    return "idx";
  }
  llvm_unreachable("shuffle mode");
}

static Intrinsic::ID intrinsicFor(ShuffleMode Mode, bool Float) {
  switch (Mode) {
  case ShuffleMode::Down:
    return Float ? Intrinsic::nvvm_shfl_sync_down_f32
                 : Intrinsic::nvvm_shfl_sync_down_i32;
  case ShuffleMode::Up:
    return Float ? Intrinsic::nvvm_shfl_sync_up_f32
                 : Intrinsic::nvvm_shfl_sync_up_i32;
  case ShuffleMode::Xor:
    return Float ? Intrinsic::nvvm_shfl_sync_bfly_f32
                 : Intrinsic::nvvm_shfl_sync_bfly_i32;
  case ShuffleMode::Index:
    return Float ? Intrinsic::nvvm_shfl_sync_idx_f32
                 : Intrinsic::nvvm_shfl_sync_idx_i32;
  }
  llvm_unreachable("shuffle mode");
}

/// What an NVVM shuffle intrinsic does: its mode, whether it shuffles a
/// float, and whether it returns PTX's predicate beside the value (`.i32p`,
/// `.f32p`).
struct ShuffleIntrinsic {
  ShuffleMode Mode;
  bool Float;
  bool Predicated;
};

static std::optional<ShuffleIntrinsic> shuffleIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
#define SHUFFLE(Name, Mode)                                                    \
  case Intrinsic::nvvm_shfl_sync_##Name##_i32:                                 \
    return ShuffleIntrinsic{ShuffleMode::Mode, false, false};                  \
  case Intrinsic::nvvm_shfl_sync_##Name##_f32:                                 \
    return ShuffleIntrinsic{ShuffleMode::Mode, true, false};                   \
  case Intrinsic::nvvm_shfl_sync_##Name##_i32p:                                \
    return ShuffleIntrinsic{ShuffleMode::Mode, false, true};                   \
  case Intrinsic::nvvm_shfl_sync_##Name##_f32p:                                \
    return ShuffleIntrinsic{ShuffleMode::Mode, true, true};
    SHUFFLE(down, Down)
    SHUFFLE(up, Up)
    SHUFFLE(bfly, Xor)
    SHUFFLE(idx, Index)
#undef SHUFFLE
  default:
    return std::nullopt;
  }
}

/// The mode of a shuffle that returns only the value, and whether it
/// shuffles a float.
static std::optional<ShuffleMode> modeOfIntrinsic(Intrinsic::ID ID,
                                                  bool &Float) {
  std::optional<ShuffleIntrinsic> Shuffle = shuffleIntrinsic(ID);
  if (!Shuffle || Shuffle->Predicated)
    return std::nullopt;
  Float = Shuffle->Float;
  return Shuffle->Mode;
}

static constexpr StringLiteral HelperPrefix = "enzyme.shfl.sync.";

/// `double enzyme.shfl.sync.MODE.f64(i32 mask, double v, i32 b, i32 c)`:
/// two 32-bit shuffles of v's halves, as CUDA's headers shuffle a double.
static Function *doubleShuffleHelper(Module &M, ShuffleMode Mode) {
  std::string Name = (HelperPrefix + modeName(Mode) + ".f64").str();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *F64 = Type::getDoubleTy(Ctx);
  auto *FT = FunctionType::get(F64, {I32, F64, I32, I32}, false);
  if (Function *F = findReusableFunction(M, Name, FT))
    return F;
  auto *F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::Convergent);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(InlinedAfterAD);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Value *Bits = B.CreateBitCast(F->getArg(1), B.getInt64Ty());
  Value *Halves[2] = {B.CreateTrunc(Bits, I32),
                      B.CreateTrunc(B.CreateLShr(Bits, 32), I32)};
  for (Value *&Half : Halves)
    Half = B.CreateIntrinsic(intrinsicFor(Mode, /*Float=*/false), {},
                             {F->getArg(0), Half, F->getArg(2), F->getArg(3)});
  Value *Joined =
      B.CreateOr(B.CreateShl(B.CreateZExt(Halves[1], B.getInt64Ty()), 32),
                 B.CreateZExt(Halves[0], B.getInt64Ty()));
  B.CreateRet(B.CreateBitCast(Joined, F64));
  return F;
}

std::optional<ShuffleMode> classifyWarpShuffle(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return std::nullopt;
  bool Float;
  if (std::optional<ShuffleMode> Mode =
          modeOfIntrinsic(Callee->getIntrinsicID(), Float))
    return Float ? Mode : std::nullopt;
  StringRef Name = Callee->getName();
  if (!Name.consume_front(HelperPrefix) || !Name.consume_back(".f64"))
    return std::nullopt;
  for (ShuffleMode Mode : {ShuffleMode::Down, ShuffleMode::Up, ShuffleMode::Xor,
                           ShuffleMode::Index})
    if (Name == modeName(Mode))
      return Mode;
  return std::nullopt;
}

/// The clamp operand of a shuffle over the whole warp.
static unsigned fullWarpClamp(ShuffleMode Mode) {
  return Mode == ShuffleMode::Up ? 0 : WarpSize - 1;
}

std::string describeUndifferentiableShuffle(const CallBase &Call) {
  // Any clamp and segment (c): the adjoint follows PTX's choice of source
  // lane (emitShuffleAdjoint), the tangent is the same shuffle.
  if (classifyWarpShuffle(Call))
    return "";
  return "cannot differentiate a warp shuffle the engine does not know";
}

namespace {
/// The lane a shuffle reads from, and whether it is in range.
struct SourceLane {
  Value *Lane;
  Value *InRange;
};
} // namespace

/// The lane whose value lane \p Lane reads in a shuffle in \p Mode with
/// operands \p B (lane or offset) and \p C (clamp and segment mask), as
/// PTX's shfl.sync defines it, before the clamp: a lane out of range reads
/// its own value.
static SourceLane unclampedSourceLane(IRBuilder<> &B, ShuffleMode Mode,
                                      Value *Lane, Value *BVal, Value *C) {
  Value *Low5 = B.getInt32(WarpSize - 1);
  Value *SegMask = B.CreateAnd(B.CreateLShr(C, 8), Low5);
  Value *NotSeg = B.CreateNot(SegMask);
  Value *MaxLane = B.CreateOr(B.CreateAnd(Lane, SegMask),
                              B.CreateAnd(B.CreateAnd(C, Low5), NotSeg));
  Value *MinLane = B.CreateAnd(Lane, SegMask);
  BVal = B.CreateAnd(BVal, Low5);
  Value *J, *Valid;
  switch (Mode) {
  case ShuffleMode::Up:
    J = B.CreateSub(Lane, BVal);
    Valid = B.CreateICmpSGE(J, MaxLane);
    break;
  case ShuffleMode::Down:
    J = B.CreateAdd(Lane, BVal);
    Valid = B.CreateICmpSLE(J, MaxLane);
    break;
  case ShuffleMode::Xor:
    J = B.CreateXor(Lane, BVal);
    Valid = B.CreateICmpSLE(J, MaxLane);
    break;
  case ShuffleMode::Index:
    J = B.CreateOr(MinLane, B.CreateAnd(BVal, NotSeg));
    Valid = B.CreateICmpSLE(J, MaxLane);
    break;
  }
  return {J, Valid};
}

/// The lane whose value lane \p Lane reads: the lane itself where the
/// source is out of range.
static Value *sourceLane(IRBuilder<> &B, ShuffleMode Mode, Value *Lane,
                         Value *BVal, Value *C) {
  SourceLane Source = unclampedSourceLane(B, Mode, Lane, BVal, C);
  return B.CreateSelect(Source.InRange, Source.Lane, Lane);
}

Value *emitShuffleSourceInRange(IRBuilder<> &B, ShuffleMode Mode,
                                Value *LaneOrOffset, Value *Clamp) {
  Value *Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
  return unclampedSourceLane(B, Mode, Lane, LaneOrOffset, Clamp).InRange;
}

namespace {
/// What a walk back over the values some bits come from does at a value.
enum class BitStep {
  /// Walk on to where its bits come from: a phi's or a select's incoming
  /// values, another instruction's first operand.
  Follow,
  /// Walk no further from it.
  Leaf,
  /// End the walk.
  Stop,
};
/// How a walk ended.
enum class BitWalk { Done, Stopped, OutOfBudget };
} // namespace

/// Walks back from \p V to the values its bits come from, depth first,
/// asking \p Step at each (once) how to go on. The shuffle analyses below
/// differ in the instructions they see through and in what they look for
/// at the leaves.
static BitWalk walkBitSources(const Value *V,
                              function_ref<BitStep(const Value &)> Step,
                              unsigned Budget = 64) {
  SmallVector<const Value *, 8> Work = {V};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *Next = Work.pop_back_val();
    if (!Seen.insert(Next).second)
      continue;
    if (Seen.size() > Budget)
      return BitWalk::OutOfBudget;
    BitStep Action = Step(*Next);
    if (Action == BitStep::Stop)
      return BitWalk::Stopped;
    const auto *I = dyn_cast<Instruction>(Next);
    if (Action == BitStep::Leaf || !I || I->getNumOperands() == 0)
      continue;
    if (const auto *Phi = dyn_cast<PHINode>(I))
      append_range(Work, Phi->incoming_values());
    else if (const auto *Select = dyn_cast<SelectInst>(I))
      Work.append({Select->getTrueValue(), Select->getFalseValue()});
    else
      Work.push_back(I->getOperand(0));
  }
  return BitWalk::Done;
}

bool shufflesFloatBits(const CallBase &Call, Value *&Bits) {
  const Function *Callee = Call.getCalledFunction();
  bool IsFloat;
  if (!Callee || !modeOfIntrinsic(Callee->getIntrinsicID(), IsFloat) || IsFloat)
    return false;
  // Through truncations, shifts, casts, phis and selects back to where the
  // bits come from.
  Bits = nullptr;
  walkBitSources(
      Call.getArgOperand(1),
      [&](const Value &V) {
        if (auto *Cast = dyn_cast<BitCastInst>(&V);
            Cast && Cast->getSrcTy()->isFPOrFPVectorTy()) {
          Bits = Cast->getOperand(0);
          return BitStep::Stop;
        }
        // A word of memory (unoptimised code shuffles a double's words
        // read through a pointer to integers, as CUB's ShuffleDown does).
        if (isa<LoadInst>(V)) {
          Bits = const_cast<Value *>(&V);
          return BitStep::Stop;
        }
        const auto *I = dyn_cast<Instruction>(&V);
        return I && (isa<PHINode>(I) || isa<SelectInst>(I) ||
                     isa<CastInst>(I) || I->getOpcode() == Instruction::LShr ||
                     I->getOpcode() == Instruction::AShr ||
                     I->getOpcode() == Instruction::ExtractElement)
                   ? BitStep::Follow
                   : BitStep::Leaf;
      },
      /*Budget=*/32);
  return Bits != nullptr;
}

bool shufflesWordsOfMemory(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (Value * Bits; shufflesFloatBits(*Call, Bits) && isa<LoadInst>(Bits))
        return true;
  return false;
}

/// CUDA's `__shfl_*_sync(unsigned mask, T value, offset, int width)` for
/// T float or double, as clang's headers define them (calls remain at -O0).
static std::optional<ShuffleMode>
headerShuffleMode(StringRef Name, Type *&ValueTy, LLVMContext &Ctx) {
  static const std::pair<StringLiteral, ShuffleMode> Names[] = {
      {"_Z11__shfl_syncj", ShuffleMode::Index},
      {"_Z14__shfl_up_syncj", ShuffleMode::Up},
      {"_Z16__shfl_down_syncj", ShuffleMode::Down},
      {"_Z15__shfl_xor_syncj", ShuffleMode::Xor}};
  for (auto [Prefix, Mode] : Names) {
    StringRef Rest = Name;
    if (!Rest.consume_front(Prefix) || Rest.size() != 3)
      continue;
    if (Rest[0] == 'f')
      ValueTy = Type::getFloatTy(Ctx);
    else if (Rest[0] == 'd')
      ValueTy = Type::getDoubleTy(Ctx);
    else
      return std::nullopt;
    return Mode;
  }
  return std::nullopt;
}

/// Calls of the header's float and double shuffles become the shuffle they
/// wrap, so that the rules see it.
static bool raiseHeaderShuffles(Function &F) {
  SmallVector<std::pair<CallInst *, ShuffleMode>, 4> Calls;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    Type *ValueTy = nullptr;
    if (!Callee || Call->arg_size() != 4)
      continue;
    std::optional<ShuffleMode> Mode =
        headerShuffleMode(Callee->getName(), ValueTy, F.getContext());
    if (Mode && Call->getType() == ValueTy &&
        Call->getArgOperand(1)->getType() == ValueTy)
      Calls.emplace_back(Call, *Mode);
  }
  for (auto [Call, Mode] : Calls) {
    IRBuilder<> B(Call);
    // The clamp operand the header computes from the width.
    Value *Width = Call->getArgOperand(3);
    Value *Clamp = B.CreateShl(B.CreateSub(B.getInt32(WarpSize), Width), 8);
    if (Mode != ShuffleMode::Up)
      Clamp = B.CreateOr(Clamp, B.getInt32(WarpSize - 1));
    Value *Shuffle =
        emitWarpShuffle(B, Mode, Call->getArgOperand(0), Call->getArgOperand(1),
                        Call->getArgOperand(2), Clamp);
    cast<Instruction>(Shuffle)->setDebugLoc(Call->getDebugLoc());
    Call->replaceAllUsesWith(Shuffle);
    Call->eraseFromParent();
  }
  return !Calls.empty();
}

/// The mode of a shuffle that returns PTX's predicate beside its value
/// (`.i32p`, `.f32p`), and whether it shuffles a float.
static std::optional<ShuffleMode> modeOfPredicatedIntrinsic(Intrinsic::ID ID,
                                                            bool &Float) {
  std::optional<ShuffleIntrinsic> Shuffle = shuffleIntrinsic(ID);
  if (!Shuffle || !Shuffle->Predicated)
    return std::nullopt;
  Float = Shuffle->Float;
  return Shuffle->Mode;
}

/// Shuffles that return PTX's predicate beside their value (inline PTX's
/// `shfl.sync.MODE.b32 d|p`, Core/PtxStatements.h) as the shuffle of the
/// value, which the rules read, and the range test of the source lane, which
/// is integer arithmetic.
static bool splitPredicatedShuffles(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->getCalledFunction())
      if (bool Float; modeOfPredicatedIntrinsic(
              Call->getCalledFunction()->getIntrinsicID(), Float))
        Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    bool Float;
    ShuffleMode Mode = *modeOfPredicatedIntrinsic(
        Call->getCalledFunction()->getIntrinsicID(), Float);
    IRBuilder<> B(Call);
    SmallVector<Value *, 4> Args(Call->args());
    CallInst *Shuffle = B.CreateIntrinsic(intrinsicFor(Mode, Float), {}, Args);
    Shuffle->setDebugLoc(Call->getDebugLoc());
    Value *InRange = emitShuffleSourceInRange(B, Mode, Args[2], Args[3]);
    Value *Parts[] = {Shuffle, InRange};
    // The parts' users get them directly, where the rules look for them.
    for (User *U : make_early_inc_range(Call->users()))
      if (auto *Part = dyn_cast<ExtractValueInst>(U)) {
        Part->replaceAllUsesWith(Parts[Part->getIndices()[0]]);
        Part->eraseFromParent();
      }
    if (!Call->use_empty()) {
      Value *Pair =
          B.CreateInsertValue(PoisonValue::get(Call->getType()), Shuffle, 0);
      Call->replaceAllUsesWith(B.CreateInsertValue(Pair, InRange, 1));
    }
    Call->eraseFromParent();
  }
  return !Calls.empty();
}

/// Erases the shuffles of \p F whose results nothing uses, and what then
/// computes nothing: clang's header shuffles a double as two 32-bit halves,
/// and where -O2 deleted the reassembly of an unused result, the halves of
/// an active double would look like a float's bits moved as integers. \p F
/// is the engine's copy of a function (PreparedFunction.h): the shuffle
/// moves no value, and every lane of the warp skips it alike.
static bool eraseUnusedShuffles(Function &F) {
  SmallVector<CallInst *, 4> Unused;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->use_empty())
      if (Function *Callee = Call->getCalledFunction()) {
        bool Float;
        if (modeOfIntrinsic(Callee->getIntrinsicID(), Float))
          Unused.push_back(Call);
      }
  for (CallInst *Call : Unused) {
    SmallVector<Value *, 4> Operands(Call->args());
    Call->eraseFromParent();
    for (Value *Operand : Operands)
      RecursivelyDeleteTriviallyDeadInstructions(Operand);
  }
  return !Unused.empty();
}

/// \p Word holds a float's bits on every path: `bitcast float to i32`, or
/// phis and selects of such words and of constants (optimised code keeps
/// the word CUB shuffles across a loop's iterations, as it does for the
/// float of a (float, index) pair that Thrust's max_element reduces), with
/// a float's bits on some path (not only constants). \p FloatTy is the
/// float's type (float, or half for a half's 16 bits).
static bool isFloatWord(const Value *Word, Type *FloatTy) {
  bool Bitcast = false;
  BitWalk Walk = walkBitSources(Word, [&](const Value &V) {
    if (const auto *Cast = dyn_cast<BitCastInst>(&V)) {
      Bitcast |= Cast->getSrcTy() == FloatTy;
      return Cast->getSrcTy() == FloatTy ? BitStep::Leaf : BitStep::Stop;
    }
    if (isa<Constant>(V))
      return BitStep::Leaf;
    return isa<PHINode>(V) || isa<SelectInst>(V) ? BitStep::Follow
                                                 : BitStep::Stop;
  });
  return Walk == BitWalk::Done && Bitcast;
}

/// The float whose bits \p Word is (isFloatWord holds): phis and selects of
/// words get phis and selects of the floats, of type \p FloatTy.
static Value *floatOfWord(Value *Word, Type *FloatTy,
                          DenseMap<Value *, Value *> &Made) {
  if (auto *Cast = dyn_cast<BitCastInst>(Word))
    return Cast->getOperand(0);
  if (auto *C = dyn_cast<Constant>(Word))
    return ConstantExpr::getBitCast(C, FloatTy);
  if (Value *Float = Made.lookup(Word))
    return Float;
  if (auto *Select = dyn_cast<SelectInst>(Word)) {
    Value *True = floatOfWord(Select->getTrueValue(), FloatTy, Made);
    Value *False = floatOfWord(Select->getFalseValue(), FloatTy, Made);
    return Made[Word] = SelectInst::Create(Select->getCondition(), True, False,
                                           "word.float", Select->getIterator());
  }
  auto *Phi = cast<PHINode>(Word);
  PHINode *Float = PHINode::Create(FloatTy, Phi->getNumIncomingValues(),
                                   "word.float", Phi->getParent()->begin());
  Made[Word] = Float;
  for (auto [Block, Incoming] : zip(Phi->blocks(), Phi->incoming_values()))
    Float->addIncoming(floatOfWord(Incoming, FloatTy, Made), Block);
  return Float;
}

/// The 32-bit integer shuffles of \p F whose shuffled word satisfies
/// \p Moves.
static SmallVector<CallInst *, 4>
integerShufflesOf(Function &F, function_ref<bool(Value *)> Moves) {
  SmallVector<CallInst *, 4> Shuffles;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->getCalledFunction())
      if (bool Float;
          modeOfIntrinsic(Call->getCalledFunction()->getIntrinsicID(), Float) &&
          !Float && Moves(Call->getArgOperand(1)))
        Shuffles.push_back(Call);
  return Shuffles;
}

/// A 32-bit shuffle of a float's bits (as CUB shuffles a float one word at
/// a time) as the shuffle of the float, whose bits its users get: the rules
/// then see it.
static bool raiseFloatWordShuffles(Function &F) {
  Type *FloatTy = Type::getFloatTy(F.getContext());
  SmallVector<CallInst *, 4> Words = integerShufflesOf(
      F, [&](Value *Word) { return isFloatWord(Word, FloatTy); });
  DenseMap<Value *, Value *> Floats;
  SmallVector<WeakTrackingVH, 4> Operands;
  for (CallInst *Word : Words) {
    bool Float;
    ShuffleMode Mode =
        *modeOfIntrinsic(Word->getCalledFunction()->getIntrinsicID(), Float);
    Value *Shuffled = floatOfWord(Word->getArgOperand(1), FloatTy, Floats);
    IRBuilder<> B(Word);
    CallInst *Shuffle =
        B.CreateIntrinsic(intrinsicFor(Mode, /*Float=*/true), {},
                          {Word->getArgOperand(0), Shuffled,
                           Word->getArgOperand(2), Word->getArgOperand(3)});
    Shuffle->setDebugLoc(Word->getDebugLoc());
    Word->replaceAllUsesWith(B.CreateBitCast(Shuffle, B.getInt32Ty()));
    Operands.push_back(Word->getArgOperand(1));
    Word->eraseFromParent();
  }
  // The words' integer chains go once no float is looked up by them.
  for (WeakTrackingVH &Operand : Operands)
    if (Operand) // Not deleted with another word's chain.
      RecursivelyDeleteTriviallyDeadInstructions(Operand);
  return !Words.empty();
}

/// The two halves whose bits the 32-bit word \p Word is: a pair of halves
/// cast to an integer, or (unoptimised code, once SROA has run) a pair of
/// 16-bit integers each inserted as a half's bits or a constant, at least
/// one a half's: the pair alone where it is a vector of halves, else its
/// two lanes' words and \p HalfType, the type of the halves they hold.
/// False where it is neither.
static bool halfLanes(Value *Word, SmallVectorImpl<Value *> &Lanes,
                      Type *&HalfType) {
  HalfType = nullptr;
  auto *Cast = dyn_cast<BitCastInst>(Word);
  auto *PairTy = Cast ? dyn_cast<FixedVectorType>(Cast->getSrcTy()) : nullptr;
  if (!PairTy || PairTy->getNumElements() != 2 ||
      PairTy->getScalarSizeInBits() != 16)
    return false;
  Value *Pair = Cast->getOperand(0);
  if (PairTy->getElementType()->isFloatingPointTy()) {
    Lanes.assign(1, Pair);
    return true;
  }
  Lanes.assign(2, nullptr);
  // Insertions of the halves' bits (through phis and selects, as a loop
  // carries them) into a vector of integers.
  while (auto *Insert = dyn_cast<InsertElementInst>(Pair)) {
    auto *Index = dyn_cast<ConstantInt>(Insert->getOperand(2));
    if (!Index || Index->getZExtValue() > 1)
      return false;
    Value *&Lane = Lanes[Index->getZExtValue()];
    if (!Lane)
      Lane = Insert->getOperand(1);
    Pair = Insert->getOperand(0);
  }
  if (!isa<UndefValue>(Pair) || !Lanes[0] || !Lanes[1])
    return false;
  LLVMContext &Ctx = Word->getContext();
  for (Type *HalfTy : {Type::getHalfTy(Ctx), Type::getBFloatTy(Ctx)}) {
    auto IsHalf = [&](Value *Lane) { return isFloatWord(Lane, HalfTy); };
    auto IsHalfOrConstant = [&](Value *Lane) {
      return isa<Constant>(Lane) || IsHalf(Lane);
    };
    if (all_of(Lanes, IsHalfOrConstant) && any_of(Lanes, IsHalf)) {
      HalfType = HalfTy;
      return true;
    }
  }
  return false;
}

/// A 32-bit shuffle of a pair of halves' bits (cuda_fp16.h's shuffles of a
/// `__half2`, and of a `__half` as the pair of it twice) as two shuffles of
/// the halves widened to floats, which the rules read; widening and
/// narrowing back are exact.
static bool raiseHalfPairShuffles(Function &F) {
  SmallVector<CallInst *, 4> Pairs = integerShufflesOf(F, [](Value *Word) {
    SmallVector<Value *, 2> Lanes;
    Type *HalfTy;
    return halfLanes(Word, Lanes, HalfTy);
  });
  DenseMap<Value *, Value *> Halves;
  for (CallInst *Pair : Pairs) {
    bool Float;
    ShuffleMode Mode =
        *modeOfIntrinsic(Pair->getCalledFunction()->getIntrinsicID(), Float);
    SmallVector<Value *, 2> Lanes;
    Type *HalfTy;
    halfLanes(Pair->getArgOperand(1), Lanes, HalfTy);
    IRBuilder<> B(Pair);
    if (Lanes.size() == 1) {
      Value *Pair = Lanes[0];
      Lanes.assign({B.CreateExtractElement(Pair, uint64_t(0)),
                    B.CreateExtractElement(Pair, uint64_t(1))});
    } else {
      for (Value *&Lane : Lanes)
        Lane = floatOfWord(Lane, HalfTy, Halves);
    }
    Value *Shuffled =
        PoisonValue::get(FixedVectorType::get(Lanes[0]->getType(), 2));
    for (uint64_t Lane : {0, 1}) {
      Value *Half = Lanes[Lane];
      CallInst *Shuffle = B.CreateIntrinsic(
          intrinsicFor(Mode, /*Float=*/true), {},
          {Pair->getArgOperand(0), B.CreateFPExt(Half, B.getFloatTy()),
           Pair->getArgOperand(2), Pair->getArgOperand(3)});
      Shuffle->setDebugLoc(Pair->getDebugLoc());
      Shuffled = B.CreateInsertElement(
          Shuffled, B.CreateFPTrunc(Shuffle, Half->getType()), Lane);
    }
    Pair->replaceAllUsesWith(B.CreateBitCast(Shuffled, B.getInt32Ty()));
    Value *Operand = Pair->getArgOperand(1);
    Pair->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Operand);
  }
  return !Pairs.empty();
}

/// \p Lo and \p Hi are the low and high halves of one 64-bit value:
/// `trunc B` and `trunc (lshr B, 32)`, or phis (selects) that choose such
/// halves of the same values on the same edges (under the same condition),
/// as optimised code keeps a double's halves across a loop's iterations.
static bool areHalves(const Value *Lo, const Value *Hi,
                      DenseMap<const Value *, const Value *> &Paired) {
  if (isa<TruncInst>(Lo))
    return wholeOfHalves(Lo, Hi);
  // A cycle through phis is checked where it started.
  if (auto [It, New] = Paired.try_emplace(Lo, Hi); !New)
    return It->second == Hi;
  if (const auto *LoSel = dyn_cast<SelectInst>(Lo)) {
    const auto *HiSel = dyn_cast<SelectInst>(Hi);
    return HiSel && HiSel->getCondition() == LoSel->getCondition() &&
           areHalves(LoSel->getTrueValue(), HiSel->getTrueValue(), Paired) &&
           areHalves(LoSel->getFalseValue(), HiSel->getFalseValue(), Paired);
  }
  const auto *LoPhi = dyn_cast<PHINode>(Lo);
  const auto *HiPhi = dyn_cast<PHINode>(Hi);
  if (!LoPhi || !HiPhi || LoPhi->getParent() != HiPhi->getParent() ||
      Paired.size() > 64)
    return false;
  for (auto [Block, Incoming] :
       zip(LoPhi->blocks(), LoPhi->incoming_values())) {
    int Index = HiPhi->getBasicBlockIndex(Block);
    if (Index < 0 ||
        !areHalves(Incoming, HiPhi->getIncomingValue(Index), Paired))
      return false;
  }
  return true;
}

/// The bits \p Half comes from (through halving, phis and selects) are a
/// float's: some are (a bitcast double, a load of memory that holds floats
/// or may), and none are computed by integer arithmetic or read from
/// memory that holds integers (an index that CUB shuffles beside a double,
/// as Thrust's max_element does, whose shuffle is no double's).
static bool halvesFloatBits(const Value *Half) {
  bool Float = false;
  BitWalk Walk = walkBitSources(Half, [&](const Value &V) {
    const auto *I = dyn_cast<Instruction>(&V);
    if (!I)
      return BitStep::Leaf;
    if (isa<PHINode>(I) || isa<SelectInst>(I) || isa<TruncInst>(I) ||
        isa<FreezeInst>(I) || I->getOpcode() == Instruction::LShr)
      return BitStep::Follow;
    if (const auto *Cast = dyn_cast<BitCastInst>(I)) {
      Float |= Cast->getSrcTy()->isFPOrFPVectorTy();
      return BitStep::Leaf;
    }
    if (const auto *Load = dyn_cast<LoadInst>(I)) {
      IntegerAccessContents Contents =
          classifyIntegerAccess({const_cast<LoadInst *>(Load)});
      if (Contents.What == IntegerAccessContents::Integers ||
          Contents.What == IntegerAccessContents::Pointers)
        return BitStep::Stop;
      Float = true;
      return BitStep::Leaf;
    }
    if (isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<PtrToIntInst>(I) ||
        (isa<BinaryOperator>(I) && !I->isBitwiseLogicOp() && !I->isShift()))
      return BitStep::Stop;
    return BitStep::Leaf;
  });
  return Walk != BitWalk::Stopped && Float;
}

/// The 64-bit value whose halves are \p Lo and \p Hi (areHalves holds):
/// phis and selects of the halves get phis and selects of the whole.
static Value *joinHalves(Value *Lo, Value *Hi,
                         DenseMap<std::pair<Value *, Value *>, Value *> &Made) {
  if (isa<TruncInst>(Lo))
    return wholeOfHalves(Lo, Hi);
  if (Value *Whole = Made.lookup({Lo, Hi}))
    return Whole;
  if (auto *LoSel = dyn_cast<SelectInst>(Lo)) {
    auto *HiSel = cast<SelectInst>(Hi);
    Value *True =
        joinHalves(LoSel->getTrueValue(), HiSel->getTrueValue(), Made);
    Value *False =
        joinHalves(LoSel->getFalseValue(), HiSel->getFalseValue(), Made);
    return Made[{Lo, Hi}] =
               SelectInst::Create(LoSel->getCondition(), True, False,
                                  "halves.joined", LoSel->getIterator());
  }
  auto *LoPhi = cast<PHINode>(Lo), *HiPhi = cast<PHINode>(Hi);
  PHINode *Whole = PHINode::Create(
      Type::getInt64Ty(Lo->getContext()), LoPhi->getNumIncomingValues(),
      "halves.joined", LoPhi->getParent()->begin());
  Made[{Lo, Hi}] = Whole;
  for (auto [Block, Incoming] : zip(LoPhi->blocks(), LoPhi->incoming_values()))
    Whole->addIncoming(
        joinHalves(Incoming, HiPhi->getIncomingValueForBlock(Block), Made),
        Block);
  return Whole;
}

/// The store that follows \p First in its block with nothing between them
/// that touches memory (but shuffles): where unoptimised code stores the
/// next word of a value it shuffles one word at a time.
static StoreInst *storeOfNextWord(StoreInst &First) {
  for (Instruction *I = First.getNextNode(); I; I = I->getNextNode()) {
    if (auto *Store = dyn_cast<StoreInst>(I))
      return Store->isSimple() &&
                     Store->getValueOperand()->getType()->isIntegerTy(32)
                 ? Store
                 : nullptr;
    bool Float;
    if (auto *Call = dyn_cast<CallInst>(I);
        Call && Call->getCalledFunction() &&
        modeOfIntrinsic(Call->getCalledFunction()->getIntrinsicID(), Float))
      continue;
    if (I->mayReadOrWriteMemory() || I->isTerminator())
      return nullptr;
  }
  return nullptr;
}

bool raiseDoubleShuffles(Function &F) {
  if (!isCudaModule(*F.getParent()))
    return false;
  bool Changed = splitPredicatedShuffles(F);
  Changed |= eraseUnusedShuffles(F);
  Changed |= raiseHeaderShuffles(F);
  // or (shl (zext HI), 32), (zext LO), where LO and HI shuffle the halves
  // of one 64-bit value the same way: a double, bitcast or loaded as i64
  // (optimised code keeps a copied double in an integer). Or LO and HI
  // stored next to each other (unoptimised code shuffles CUB's values one
  // word at a time into memory SROA cannot promote).
  struct DoubleShuffle {
    Instruction *Joined;
    CallInst *Lo, *Hi;
    Value *Bits;
    StoreInst *LoStore = nullptr, *HiStore = nullptr;
  };
  SmallVector<DoubleShuffle, 4> Found;
  auto AddIfHalves = [&](Instruction *Joined, Value *LoV, Value *HiV) {
    auto *Lo = dyn_cast<CallInst>(LoV), *Hi = dyn_cast<CallInst>(HiV);
    if (!Lo || !Hi || !Lo->getCalledFunction() ||
        Lo->getCalledFunction() != Hi->getCalledFunction() ||
        Lo->getParent() != Hi->getParent())
      return false;
    bool Float;
    if (!modeOfIntrinsic(Lo->getCalledFunction()->getIntrinsicID(), Float) ||
        Float)
      return false;
    bool SameShape = true;
    for (unsigned A : {0u, 2u, 3u})
      SameShape &= Lo->getArgOperand(A) == Hi->getArgOperand(A);
    DenseMap<const Value *, const Value *> Paired;
    if (!SameShape ||
        !areHalves(Lo->getArgOperand(1), Hi->getArgOperand(1), Paired) ||
        !halvesFloatBits(Lo->getArgOperand(1)))
      return false;
    DenseMap<std::pair<Value *, Value *>, Value *> Joins;
    Found.push_back(
        {Joined, Lo, Hi,
         joinHalves(Lo->getArgOperand(1), Hi->getArgOperand(1), Joins)});
    return true;
  };
  const DataLayout &DL = F.getDataLayout();
  for (Instruction &I : instructions(F)) {
    Value *LoV, *HiV;
    if (matchJoinedHalves(&I, LoV, HiV)) {
      AddIfHalves(&I, LoV, HiV);
      continue;
    }
    auto *First = dyn_cast<StoreInst>(&I);
    if (!First || !First->isSimple() ||
        !First->getValueOperand()->getType()->isIntegerTy(32))
      continue;
    StoreInst *Second = storeOfNextWord(*First);
    int64_t FirstAt = 0, SecondAt = 0;
    if (!Second ||
        GetPointerBaseWithConstantOffset(First->getPointerOperand(), FirstAt,
                                         DL) !=
            GetPointerBaseWithConstantOffset(Second->getPointerOperand(),
                                             SecondAt, DL) ||
        (SecondAt != FirstAt + 4 && FirstAt != SecondAt + 4))
      continue;
    StoreInst *LoStore = SecondAt == FirstAt + 4 ? First : Second;
    StoreInst *HiStore = LoStore == First ? Second : First;
    if (AddIfHalves(Second, LoStore->getValueOperand(),
                    HiStore->getValueOperand())) {
      Found.back().LoStore = LoStore;
      Found.back().HiStore = HiStore;
    }
  }
  for (DoubleShuffle &S : Found) {
    bool Float;
    ShuffleMode Mode =
        *modeOfIntrinsic(S.Lo->getCalledFunction()->getIntrinsicID(), Float);
    // Where the lanes shuffled: the halves may be joined in a branch only
    // some lanes take, and a shuffle there would wait for the others.
    Instruction *Later = S.Lo->comesBefore(S.Hi) ? S.Hi : S.Lo;
    IRBuilder<> B(Later->getNextNode());
    Value *Double = B.CreateBitCast(S.Bits, B.getDoubleTy());
    CallInst *Shuffle =
        B.CreateCall(doubleShuffleHelper(*F.getParent(), Mode),
                     {S.Lo->getArgOperand(0), Double, S.Lo->getArgOperand(2),
                      S.Lo->getArgOperand(3)});
    Shuffle->setDebugLoc(S.Lo->getDebugLoc());
    if (S.LoStore) {
      // The two words' stores store the double, where the second was.
      auto *Store = new StoreInst(Shuffle, S.LoStore->getPointerOperand(),
                                  /*isVolatile=*/false, S.LoStore->getAlign(),
                                  S.Joined->getIterator());
      Store->setDebugLoc(S.Joined->getDebugLoc());
      S.LoStore->eraseFromParent();
      S.HiStore->eraseFromParent();
      continue;
    }
    // Stores of the joined bits store the double (whose adjoint the reverse
    // pass then reads); other users get its bits.
    for (User *U : make_early_inc_range(S.Joined->users()))
      if (auto *Store = dyn_cast<StoreInst>(U);
          Store && Store->getValueOperand() == S.Joined) {
        Store->setOperand(0, Shuffle);
      }
    if (!S.Joined->use_empty())
      S.Joined->replaceAllUsesWith(B.CreateBitCast(Shuffle, B.getInt64Ty()));
    RecursivelyDeleteTriviallyDeadInstructions(S.Joined);
  }
  // The integer chains go (also what computes nothing from a half, as SROA
  // leaves at -O0), with the shuffles unless the program reads the halves
  // elsewhere too (then the plan's check sees them).
  SmallVector<WeakTrackingVH, 8> Halves;
  for (DoubleShuffle &S : Found)
    Halves.append({S.Lo, S.Hi});
  if (!Found.empty()) {
    SmallVector<WeakTrackingVH, 16> Dead;
    for (Instruction &I : instructions(F))
      if (isInstructionTriviallyDead(&I))
        Dead.push_back(&I);
    RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
  }
  for (WeakTrackingVH &Half : Halves) {
    if (!Half)
      continue;
    auto *Call = cast<CallInst>(Half);
    if (Call->use_empty()) {
      Value *Operand = Call->getArgOperand(1);
      Call->eraseFromParent();
      RecursivelyDeleteTriviallyDeadInstructions(Operand);
    }
  }
  bool HalfPairs = raiseHalfPairShuffles(F);
  return raiseFloatWordShuffles(F) || HalfPairs || Changed || !Found.empty();
}

Value *emitWarpShuffle(IRBuilder<> &B, ShuffleMode Mode, Value *Mask, Value *V,
                       Value *LaneOrOffset, Value *Clamp) {
  Type *Ty = V->getType();
  if (Ty->isDoubleTy())
    return B.CreateCall(
        doubleShuffleHelper(*B.GetInsertBlock()->getModule(), Mode),
        {Mask, V, LaneOrOffset, Clamp});
  return B.CreateIntrinsic(intrinsicFor(Mode, Ty->isFloatTy()), {},
                           {Mask, V, LaneOrOffset, Clamp});
}

Value *emitShuffleLike(IRBuilder<> &B, const CallBase &Call, Value *V,
                       function_ref<Value *(Value *)> Operand) {
  return emitWarpShuffle(
      B, *classifyWarpShuffle(Call), Operand(Call.getArgOperand(0)), V,
      Operand(Call.getArgOperand(2)), Operand(Call.getArgOperand(3)));
}

Value *emitShuffleAdjoint(IRBuilder<> &B, const CallBase &Call, Value *D,
                          function_ref<Value *(Value *)> Operand) {
  ShuffleMode Mode = *classifyWarpShuffle(Call);
  Value *Mask = Operand(Call.getArgOperand(0));
  Value *Offset = Operand(Call.getArgOperand(2));
  Type *Ty = D->getType();
  Constant *Zero = ConstantFP::get(Ty, 0.0);
  Value *Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
  Value *Last = B.getInt32(WarpSize - 1);
  auto *Clamp = dyn_cast<ConstantInt>(Call.getArgOperand(3));
  bool FullWarp = Clamp && Clamp->getZExtValue() == fullWarpClamp(Mode);
  switch (FullWarp ? Mode : ShuffleMode::Index) {
  case ShuffleMode::Xor:
    // Lane L read lane L ^ b, which read lane L: the same exchange.
    if (isa<Constant>(Call.getArgOperand(2)))
      return emitWarpShuffle(B, Mode, Mask, D, Offset, Last);
    break;
  case ShuffleMode::Down:
    // Lane L read lane L + b, or itself past the last lane.
    if (isa<Constant>(Call.getArgOperand(2))) {
      Value *FromBelow =
          emitWarpShuffle(B, ShuffleMode::Up, Mask, D, Offset, B.getInt32(0));
      Value *Kept = B.CreateICmpUGT(B.CreateAdd(Lane, Offset), Last);
      return B.CreateFAdd(
          B.CreateSelect(B.CreateICmpUGE(Lane, Offset), FromBelow, Zero),
          B.CreateSelect(Kept, D, Zero));
    }
    break;
  case ShuffleMode::Up:
    // Lane L read lane L - b, or itself below lane b.
    if (isa<Constant>(Call.getArgOperand(2))) {
      Value *FromAbove =
          emitWarpShuffle(B, ShuffleMode::Down, Mask, D, Offset, Last);
      Value *Kept = B.CreateICmpULT(Lane, Offset);
      return B.CreateFAdd(
          B.CreateSelect(B.CreateICmpULE(B.CreateAdd(Lane, Offset), Last),
                         FromAbove, Zero),
          B.CreateSelect(Kept, D, Zero));
    }
    break;
  case ShuffleMode::Index:
    break;
  }
  // Any source lane (a lane, an offset or a clamp known only at run time,
  // as CUB's reductions of partial tiles clamp at their last valid lane):
  // visit every lane of the mask and take the adjoints of the lanes that
  // read this one.
  Value *Source =
      sourceLane(B, Mode, Lane, Offset, Operand(Call.getArgOperand(3)));
  Value *Sum = Zero;
  for (unsigned K = 0; K < WarpSize; ++K) {
    Value *Reader = B.getInt32(K);
    Value *Adjoint =
        emitWarpShuffle(B, ShuffleMode::Index, Mask, D, Reader, Last);
    Value *ReadFrom =
        emitWarpShuffle(B, ShuffleMode::Index, Mask, Source, Reader, Last);
    Value *InMask =
        B.CreateICmpNE(B.CreateAnd(Mask, B.getInt32(1u << K)), B.getInt32(0));
    Value *ReadsThis = B.CreateAnd(InMask, B.CreateICmpEQ(ReadFrom, Lane));
    Sum = B.CreateFAdd(Sum, B.CreateSelect(ReadsThis, Adjoint, Zero));
  }
  return Sum;
}

} // namespace enzyme
