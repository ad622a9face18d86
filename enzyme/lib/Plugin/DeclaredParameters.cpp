//===- DeclaredParameters.cpp - C++ parameter types of IR arguments -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/DeclaredParameters.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace enzyme {

bool declaredParameterTypes(const Function &F,
                            SmallVectorImpl<std::string> &Types) {
  // The demangler keeps pointers into the name it was given.
  std::string Name = F.getName().str();
  ItaniumPartialDemangler Demangler;
  if (Demangler.partialDemangle(Name.c_str()))
    return false;
  size_t Size = 0;
  char *Params = Demangler.getFunctionParameters(nullptr, &Size);
  if (!Params)
    return false;
  // "(double const*, float*, int)": split at the top-level commas.
  StringRef List = StringRef(Params).trim().drop_front().drop_back();
  unsigned Depth = 0, Start = 0;
  for (unsigned I = 0; I <= List.size(); ++I) {
    if (I == List.size() || (List[I] == ',' && !Depth)) {
      StringRef T = List.slice(Start, I).trim();
      if (!T.empty() && T != "void")
        Types.push_back(T.str());
      Start = I + 1;
    } else if (List[I] == '<' || List[I] == '(') {
      ++Depth;
    } else if ((List[I] == '>' || List[I] == ')') && Depth) {
      --Depth;
    }
  }
  std::free(Params);
  return true;
}

namespace {
/// How a declared parameter reaches the IR.
enum class Passing {
  /// One pointer: pointers, references, nullptr_t.
  Pointer,
  /// One integer: the integer types, bool and the character types.
  Integer,
  /// One float or double.
  Float,
  /// A class, enum or anything else: dropped when empty, one parameter of
  /// any type (in a register, or its address), or two (split in halves).
  Other,
};
} // namespace

static Passing passingOf(StringRef T) {
  T = T.trim();
  T.consume_back(" __restrict");
  if (T.ends_with("*") || T.ends_with("&") || T.contains("(*)") ||
      T == "std::nullptr_t" || T == "decltype(nullptr)")
    return Passing::Pointer;
  T.consume_back(" const");
  return StringSwitch<Passing>(T)
      .Cases("bool", "char", "signed char", "unsigned char", "short",
             Passing::Integer)
      .Cases("unsigned short", "int", "unsigned int", "long", "unsigned long",
             Passing::Integer)
      .Cases("long long", "unsigned long long", "wchar_t", "char8_t",
             "char16_t", Passing::Integer)
      .Cases("char32_t", "__int128", "unsigned __int128", Passing::Integer)
      .Cases("float", "double", Passing::Float)
      .Default(Passing::Other);
}

static bool fits(Passing P, const Type *IR) {
  switch (P) {
  case Passing::Pointer:
    return IR->isPointerTy();
  case Passing::Integer:
    return IR->isIntegerTy();
  case Passing::Float:
    return IR->isFloatTy() || IR->isDoubleTy();
  case Passing::Other:
    return true;
  }
  return false;
}

namespace {
/// Matches declared parameters to IR parameters, and says which declared
/// parameter the IR parameter of interest passes: the same in every
/// complete matching, or none.
struct Matcher {
  ArrayRef<Passing> Declared;
  ArrayRef<const Type *> IR;
  unsigned Target;
  /// The declared position the target took in the matchings found (-1:
  /// `this`, or a piece of a split class).
  std::optional<int> Agreed;
  bool Disagree = false;
  unsigned Budget = 256;

  bool done() const { return Disagree || !Budget; }

  void match(unsigned D, unsigned J, int TargetAt) {
    if (done())
      return;
    --Budget;
    if (D == Declared.size()) {
      if (J != IR.size())
        return;
      Disagree |= Agreed && *Agreed != TargetAt;
      Agreed = TargetAt;
      return;
    }
    auto Take = [&](unsigned Count, bool Whole) {
      int At = TargetAt;
      for (unsigned K = 0; K < Count; ++K)
        if (J + K == Target)
          At = Whole ? int(D) : -1;
      match(D + 1, J + Count, At);
    };
    if (Declared[D] != Passing::Other) {
      if (J < IR.size() && fits(Declared[D], IR[J]))
        Take(1, true);
      return;
    }
    Take(0, true);
    if (J < IR.size())
      Take(1, true);
    if (J + 1 < IR.size())
      Take(2, false);
  }
};
} // namespace

std::optional<std::string> declaredTypeOfArgument(const Argument &A) {
  const Function &F = *A.getParent();
  SmallVector<std::string, 8> Types;
  if (F.isVarArg() || !declaredParameterTypes(F, Types) || A.hasStructRetAttr())
    return std::nullopt;
  SmallVector<Passing, 8> Declared;
  for (const std::string &T : Types)
    Declared.push_back(passingOf(T));
  // The IR's parameters without the returned struct's address.
  SmallVector<const Type *, 8> IR;
  unsigned Target = 0;
  for (const Argument &P : F.args()) {
    if (P.hasStructRetAttr())
      continue;
    if (&P == &A)
      Target = IR.size();
    IR.push_back(P.getType());
  }
  std::optional<int> Agreed;
  // Without `this`, and with it (a method: the first pointer).
  for (unsigned This = 0; This < 2; ++This) {
    if (This && (IR.empty() || !IR.front()->isPointerTy()))
      continue;
    // With `this`, the argument may be `this` itself (-1 throughout).
    unsigned Rest = This && Target == 0 ? ~0u : Target - This;
    Matcher M{Declared, ArrayRef(IR).drop_front(This), Rest};
    M.match(0, 0, -1);
    if (M.done() || (M.Agreed && Agreed && *M.Agreed != *Agreed))
      return std::nullopt;
    if (M.Agreed)
      Agreed = M.Agreed;
  }
  if (!Agreed || *Agreed < 0)
    return std::nullopt;
  return Types[*Agreed];
}

} // namespace enzyme
