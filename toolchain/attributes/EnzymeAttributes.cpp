//===- EnzymeAttributes.cpp - Enzyme's source attributes ------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Teaches clang the attributes Enzyme users write:
///
///   enzyme_inactive                  a function or global without derivative
///   enzyme("augment"|"gradient"|"forward", fn)   custom derivatives
///   enzyme_function_like("name")     a function that behaves like `name`
///   enzyme_shadow(var)               the shadow of a global variable
///
/// each as `__attribute__((X))` and as `[[enzyme::X]]`. The handlers check the
/// subject and the arguments and record the attribute; RegistrationEmitter
/// lowers the records to registration globals at the end of the TU.
///
//===----------------------------------------------------------------------===//

#include "AttributeRecords.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <memory>
#include <optional>

using namespace clang;

namespace enzyme::attributes {

// One cc1 job at a time runs in a process, but several run one after the
// other (clang's integrated cc1), so the records are keyed by AST context.
static llvm::DenseMap<const ASTContext *,
                      std::unique_ptr<std::vector<AttributeRecord>>> &
recordTable() {
  static llvm::DenseMap<const ASTContext *,
                        std::unique_ptr<std::vector<AttributeRecord>>>
      Table;
  return Table;
}

std::vector<AttributeRecord> &recordsFor(const ASTContext &Ctx) {
  auto &Slot = recordTable()[&Ctx];
  if (!Slot)
    Slot = std::make_unique<std::vector<AttributeRecord>>();
  return *Slot;
}

void forgetRecords(const ASTContext &Ctx) { recordTable().erase(&Ctx); }

namespace {

/// Reports an error; every misuse of an attribute is an error, since a
/// silently dropped registration makes the engine compute wrong derivatives
/// or none.
template <unsigned N>
DiagnosticBuilder error(Sema &S, SourceLocation Loc, const char (&Format)[N]) {
  DiagnosticsEngine &Diags = S.getDiagnostics();
  return Diags.Report(Loc,
                      Diags.getCustomDiagID(DiagnosticsEngine::Error, Format));
}

/// The attribute's name as the user wrote it (`enzyme_inactive`,
/// `enzyme::inactive`).
std::string spelledName(const ParsedAttr &A) {
  return A.getNormalizedFullName();
}

bool isGlobalVariable(const Decl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  return VD && !isa<ParmVarDecl>(VD) && VD->hasGlobalStorage();
}

/// Checks what every subject needs, whatever the attribute: registration
/// globals take the subject's address at namespace scope.
bool checkSubject(Sema &S, const ParsedAttr &A, const Decl *D) {
  if (D->getDeclContext()->isDependentContext()) {
    error(S, A.getLoc(),
          "enzyme attributes on members of class templates are not "
          "supported; write '%0' on a namespace-scope function or variable")
        << spelledName(A);
    return false;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(D); MD && !MD->isStatic()) {
    error(S, A.getLoc(),
          "enzyme attributes on non-static member functions are not "
          "supported");
    return false;
  }
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (VD->getTLSKind() != VarDecl::TLS_None) {
      error(S, A.getLoc(),
            "'%0' cannot be applied to the thread-local "
            "variable %1")
          << spelledName(A) << VD;
      return false;
    }
    if (VD->getType()->isReferenceType()) {
      error(S, A.getLoc(),
            "'%0' cannot be applied to the reference %1; "
            "apply it to the variable it refers to")
          << spelledName(A) << VD;
      return false;
    }
  }
  return true;
}

bool appertainsToFunction(Sema &S, const ParsedAttr &A, const Decl *D) {
  if (isa<FunctionDecl>(D))
    return true;
  error(S, A.getLoc(), "'%0' attribute only applies to functions")
      << spelledName(A);
  return false;
}

bool appertainsToGlobal(Sema &S, const ParsedAttr &A, const Decl *D) {
  if (isGlobalVariable(D))
    return true;
  error(S, A.getLoc(),
        "'%0' attribute only applies to global and static variables")
      << spelledName(A);
  return false;
}

/// The string literal argument \p I, if it is one.
std::optional<StringRef> stringArgument(const ParsedAttr &A, unsigned I) {
  if (!A.isArgExpr(I) || !A.getArgAsExpr(I))
    return std::nullopt;
  const auto *Literal =
      dyn_cast<StringLiteral>(A.getArgAsExpr(I)->IgnoreParenImpCasts());
  if (!Literal || Literal->getCharByteWidth() != 1)
    return std::nullopt;
  return Literal->getString();
}

/// What argument \p I names: a declaration, or an expression that the
/// caller resolves (an overload set, a template-id). Clang's parser keeps a
/// lone identifier argument as an identifier, so that is looked up here.
struct Reference {
  NamedDecl *Decl = nullptr;
  Expr *E = nullptr;
  SourceLocation Loc;
};

std::optional<Reference> referenceArgument(Sema &S, const ParsedAttr &A,
                                           unsigned I) {
  if (A.isArgIdent(I)) {
    IdentifierLoc *Ident = A.getArgAsIdent(I);
    LookupResult Lookup(S, Ident->Ident, Ident->Loc, Sema::LookupOrdinaryName);
    S.LookupName(Lookup, S.getCurScope());
    if (Lookup.empty()) {
      error(S, Ident->Loc, "use of undeclared identifier '%0'")
          << Ident->Ident->getName();
      return std::nullopt;
    }
    if (!Lookup.isSingleResult()) {
      error(S, Ident->Loc,
            "'%0' does not name exactly one function; declare "
            "a function with its own name for '%1'")
          << Ident->Ident->getName() << spelledName(A);
      return std::nullopt;
    }
    NamedDecl *D = Lookup.getFoundDecl()->getUnderlyingDecl();
    // Named here is used, as if the program took its address.
    if (auto *FD = dyn_cast<FunctionDecl>(D))
      S.MarkFunctionReferenced(Ident->Loc, FD);
    else if (auto *VD = dyn_cast<VarDecl>(D))
      S.MarkVariableReferenced(Ident->Loc, VD);
    return Reference{D, nullptr, Ident->Loc};
  }
  if (!A.isArgExpr(I) || !A.getArgAsExpr(I)) {
    error(S, A.getLoc(), "argument %0 of '%1' is missing")
        << I + 1 << spelledName(A);
    return std::nullopt;
  }
  Expr *E = A.getArgAsExpr(I)->IgnoreParenImpCasts();
  if (auto *AddrOf = dyn_cast<UnaryOperator>(E);
      AddrOf && AddrOf->getOpcode() == UO_AddrOf)
    E = AddrOf->getSubExpr()->IgnoreParenImpCasts();
  Reference R{nullptr, E, E->getExprLoc()};
  if (auto *Ref = dyn_cast<DeclRefExpr>(E))
    R.Decl = Ref->getDecl();
  return R;
}

/// The one function that argument \p I names: a plain name, a qualified
/// name or a template-id such as `grad<double>`.
FunctionDecl *functionArgument(Sema &S, const ParsedAttr &A, unsigned I) {
  std::optional<Reference> Ref = referenceArgument(S, A, I);
  if (!Ref)
    return nullptr;
  FunctionDecl *FD = dyn_cast_or_null<FunctionDecl>(Ref->Decl);
  if (auto *Overloads = dyn_cast_or_null<UnresolvedLookupExpr>(Ref->E);
      Overloads && !Overloads->isTypeDependent()) {
    if (Overloads->hasExplicitTemplateArgs())
      FD = S.ResolveSingleFunctionTemplateSpecialization(Overloads);
    else if (Overloads->getNumDecls() == 1)
      FD = dyn_cast<FunctionDecl>(
          (*Overloads->decls_begin())->getUnderlyingDecl());
    if (!FD) {
      error(S, Ref->Loc,
            "%0 does not name exactly one function; declare a "
            "function with its own name for '%1'")
          << Overloads->getName() << spelledName(A);
      return nullptr;
    }
    // A template specialization named here is instantiated like one that
    // is called.
    S.MarkFunctionReferenced(Ref->Loc, FD);
  }
  if (!FD) {
    error(S, Ref->Loc, "argument %0 of '%1' must name a function")
        << I + 1 << spelledName(A);
    return nullptr;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !MD->isStatic()) {
    error(S, Ref->Loc,
          "enzyme attributes on non-static member functions "
          "are not supported");
    return nullptr;
  }
  return FD;
}

void record(Sema &S, AttributeRecord R) {
  // The registration takes the subject's address: a static function that
  // nothing calls is still used, and emitted.
  R.Subject->markUsed(S.getASTContext());
  recordsFor(S.getASTContext()).push_back(std::move(R));
}

/// Spellings: `__attribute__((Name))` and `[[enzyme::Name]]`. Clang 19
/// parses the arguments of a `[[scope::name(...)]]` plugin attribute only
/// when the plugin also knows the unscoped `[[name]]` spelling, so that is
/// accepted too.
#define ENZYME_SPELLINGS(Name)                                                 \
  {ParsedAttr::AS_GNU, Name}, {ParsedAttr::AS_CXX11, "enzyme::" Name},         \
      {ParsedAttr::AS_C23, "enzyme::" Name}, {ParsedAttr::AS_CXX11, Name}, {   \
    ParsedAttr::AS_C23, Name                                                   \
  }

constexpr ParsedAttrInfo::Spelling InactiveSpellings[] = {
    ENZYME_SPELLINGS("enzyme_inactive")};
constexpr ParsedAttrInfo::Spelling DerivativeSpellings[] = {
    ENZYME_SPELLINGS("enzyme")};
constexpr ParsedAttrInfo::Spelling FunctionLikeSpellings[] = {
    ENZYME_SPELLINGS("enzyme_function_like")};
constexpr ParsedAttrInfo::Spelling ShadowSpellings[] = {
    ENZYME_SPELLINGS("enzyme_shadow")};

#undef ENZYME_SPELLINGS

/// enzyme_inactive: on a function or a global variable.
struct InactiveAttrInfo : ParsedAttrInfo {
  InactiveAttrInfo() { Spellings = InactiveSpellings; }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D) || isGlobalVariable(D))
      return true;
    error(S, A.getLoc(),
          "'%0' attribute only applies to functions and global variables")
        << spelledName(A);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    if (!checkSubject(S, A, D))
      return AttributeNotApplied;
    RecordKind Kind = isa<FunctionDecl>(D) ? RecordKind::InactiveFunction
                                           : RecordKind::InactiveGlobal;
    record(S, {Kind, cast<NamedDecl>(D), A.getLoc()});
    return AttributeApplied;
  }
};

/// enzyme("augment" | "gradient" | "forward", fn): a custom derivative.
struct DerivativeAttrInfo : ParsedAttrInfo {
  DerivativeAttrInfo() {
    NumArgs = 2;
    Spellings = DerivativeSpellings;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    return appertainsToFunction(S, A, D);
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    if (!checkSubject(S, A, D))
      return AttributeNotApplied;
    std::optional<StringRef> Key = stringArgument(A, 0);
    std::optional<RecordKind> Kind;
    if (Key)
      Kind = llvm::StringSwitch<std::optional<RecordKind>>(*Key)
                 .Case("augment", RecordKind::Augment)
                 .Case("gradient", RecordKind::Gradient)
                 .Case("forward", RecordKind::Forward)
                 .Default(std::nullopt);
    if (!Kind) {
      SourceLocation Loc = A.isArgExpr(0) && A.getArgAsExpr(0)
                               ? A.getArgAsExpr(0)->getExprLoc()
                               : A.getLoc();
      error(S, Loc,
            "the first argument of '%0' must be \"augment\", \"gradient\" "
            "or \"forward\"%select{|, not \"%2\"}1")
          << spelledName(A) << Key.has_value() << Key.value_or("");
      return AttributeNotApplied;
    }
    FunctionDecl *Target = functionArgument(S, A, 1);
    if (!Target)
      return AttributeNotApplied;
    record(S, {*Kind, cast<NamedDecl>(D), A.getLoc(), Target});
    return AttributeApplied;
  }
};

/// enzyme_function_like("name"): the function behaves like a known one.
struct FunctionLikeAttrInfo : ParsedAttrInfo {
  FunctionLikeAttrInfo() {
    NumArgs = 1;
    Spellings = FunctionLikeSpellings;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    return appertainsToFunction(S, A, D);
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    if (!checkSubject(S, A, D))
      return AttributeNotApplied;
    std::optional<StringRef> Name = stringArgument(A, 0);
    if (!Name || Name->empty() || Name->contains('\0')) {
      error(S, A.getLoc(),
            "the argument of '%0' must be a string literal naming a "
            "function, such as \"sin\"")
          << spelledName(A);
      return AttributeNotApplied;
    }
    AttributeRecord R{RecordKind::FunctionLike, cast<NamedDecl>(D), A.getLoc()};
    R.Name = Name->str();
    record(S, std::move(R));
    return AttributeApplied;
  }
};

/// enzyme_shadow(var): \p var holds the derivative of the global.
struct ShadowAttrInfo : ParsedAttrInfo {
  ShadowAttrInfo() {
    NumArgs = 1;
    Spellings = ShadowSpellings;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    return appertainsToGlobal(S, A, D);
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    if (!checkSubject(S, A, D))
      return AttributeNotApplied;
    auto *Global = cast<VarDecl>(D);
    std::optional<Reference> Ref = referenceArgument(S, A, 0);
    if (!Ref)
      return AttributeNotApplied;
    auto *Shadow = dyn_cast_or_null<VarDecl>(Ref->Decl);
    if (!Shadow || !isGlobalVariable(Shadow)) {
      error(S, Ref->Loc, "the argument of '%0' must name a global variable")
          << spelledName(A);
      return AttributeNotApplied;
    }
    ASTContext &Ctx = S.getASTContext();
    if (!Ctx.hasSameUnqualifiedType(Global->getType(), Shadow->getType())) {
      error(S, Ref->Loc,
            "the shadow %0 has type %1, but %2 has type %3; a shadow "
            "must have the type of its variable")
          << Shadow << Shadow->getType() << Global << Global->getType();
      return AttributeNotApplied;
    }
    if (Shadow->getTLSKind() != VarDecl::TLS_None) {
      error(S, Ref->Loc, "the shadow %0 cannot be thread-local") << Shadow;
      return AttributeNotApplied;
    }
    Shadow->markUsed(S.getASTContext());
    record(S, {RecordKind::ShadowGlobal, Global, A.getLoc(), Shadow});
    return AttributeApplied;
  }
};

} // namespace
} // namespace enzyme::attributes

using namespace enzyme::attributes;

static ParsedAttrInfoRegistry::Add<InactiveAttrInfo>
    RegisterInactive("enzyme_inactive", "enzyme_inactive");
static ParsedAttrInfoRegistry::Add<DerivativeAttrInfo>
    RegisterDerivative("enzyme", "enzyme(\"augment\"|\"gradient\"|"
                                 "\"forward\", fn)");
static ParsedAttrInfoRegistry::Add<FunctionLikeAttrInfo>
    RegisterFunctionLike("enzyme_function_like",
                         "enzyme_function_like(\"name\")");
static ParsedAttrInfoRegistry::Add<ShadowAttrInfo>
    RegisterShadow("enzyme_shadow", "enzyme_shadow(var)");
