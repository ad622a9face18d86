//===- RegistrationEmitter.cpp - Attributes to registration globals -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Lowers the recorded Enzyme attributes of a translation unit to the
/// registration globals that the AD engine reads by name:
///
///   __enzyme_inactivefn_*[1]          = {fn}
///   __enzyme_inactive_global_*[1]     = {&var}
///   __enzyme_register_gradient_*[3]   = {fn, augment, gradient}
///   __enzyme_register_derivative_*[2] = {fn, forward}
///   __enzyme_function_like_*[2]       = {fn, "name"}
///   __enzyme_shadow_global_*[2]       = {&var, &shadow}
///
/// Each is a `static void *[N]` marked `used`, so it reaches the object file
/// at every optimisation level. The emitter runs before the main action's
/// consumer and hands the globals to it at the end of the TU, when every
/// redeclaration is known and before code generation finishes.
///
//===----------------------------------------------------------------------===//

#include "AttributeRecords.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <set>
#include <tuple>

using namespace clang;

namespace enzyme::attributes {
namespace {

template <unsigned N>
DiagnosticBuilder error(DiagnosticsEngine &Diags, SourceLocation Loc,
                        const char (&Format)[N]) {
  return Diags.Report(Loc,
                      Diags.getCustomDiagID(DiagnosticsEngine::Error, Format));
}

template <unsigned N>
DiagnosticBuilder note(DiagnosticsEngine &Diags, SourceLocation Loc,
                       const char (&Format)[N]) {
  return Diags.Report(Loc,
                      Diags.getCustomDiagID(DiagnosticsEngine::Note, Format));
}

const char *keyOf(RecordKind Kind) {
  switch (Kind) {
  case RecordKind::Augment:
    return "augment";
  case RecordKind::Gradient:
    return "gradient";
  case RecordKind::Forward:
    return "forward";
  default:
    return "";
  }
}

/// One registration global: the addresses of \p Decls in order, then the
/// string \p Name when it is not empty.
struct Registration {
  const char *Prefix;
  SmallVector<NamedDecl *, 3> Decls;
  std::string Name;
  SourceLocation Loc;
};

/// The prefix of a global's shadow registration (compared by address).
constexpr const char *ShadowGlobalPrefix = "__enzyme_shadow_global";

/// Which compilations of a CUDA program a function or variable exists in.
enum Side : unsigned { HostSide = 1, DeviceSide = 2 };

unsigned sidesOf(const Decl *D) {
  if (!D->getASTContext().getLangOpts().CUDA)
    return HostSide;
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    // A kernel's host-side symbol is a launch stub, not the kernel.
    if (FD->hasAttr<CUDAGlobalAttr>() || !FD->hasAttr<CUDADeviceAttr>())
      return FD->hasAttr<CUDAGlobalAttr>() ? DeviceSide : HostSide;
    return DeviceSide | (FD->hasAttr<CUDAHostAttr>() ? HostSide : 0);
  }
  // A device variable's host-side symbol is only a handle for the runtime.
  if (D->hasAttr<CUDADeviceAttr>() || D->hasAttr<CUDAConstantAttr>() ||
      D->hasAttr<CUDASharedAttr>())
    return DeviceSide;
  return HostSide;
}

/// Builds the registration globals of one TU and hands them to the
/// compilation's consumer.
class RegistrationBuilder {
public:
  explicit RegistrationBuilder(Sema &S)
      : S(S), Ctx(S.getASTContext()), Diags(S.getDiagnostics()) {}

  void run(std::vector<AttributeRecord> &Records);

private:
  void collectDerivatives(std::vector<AttributeRecord> &Records);
  void collect(const AttributeRecord &R);
  void add(Registration R);
  void emit(const Registration &R);
  Expr *addressOf(NamedDecl *D, SourceLocation Loc);
  Expr *stringAddress(StringRef Text, SourceLocation Loc);
  Expr *toVoidPointer(Expr *E, SourceLocation Loc);
  std::string uniqueName(const Registration &R);

  Sema &S;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  std::vector<Registration> Registrations;
  /// Prefix, canonical decls and name of each registration, so that an
  /// attribute repeated on several redeclarations registers once.
  std::set<std::tuple<std::string, SmallVector<const Decl *, 3>, std::string>>
      Seen;
  unsigned Counter = 0;
};

void RegistrationBuilder::run(std::vector<AttributeRecord> &Records) {
  collectDerivatives(Records);
  for (const AttributeRecord &R : Records)
    collect(R);
  // An error anywhere in the TU stops code generation; the globals would
  // only repeat it.
  if (Diags.hasErrorOccurred())
    return;
  for (const Registration &R : Registrations)
    emit(R);
}

/// Pairs enzyme("augment") with enzyme("gradient") per function, across
/// redeclarations, and checks that each key names one derivative.
void RegistrationBuilder::collectDerivatives(
    std::vector<AttributeRecord> &Records) {
  struct Derivatives {
    const AttributeRecord *ByKind[3] = {nullptr, nullptr, nullptr};
  };
  llvm::DenseMap<const Decl *, Derivatives> ByFunction;
  SmallVector<const Decl *, 8> Order;

  for (const AttributeRecord &R : Records) {
    if (R.Kind != RecordKind::Augment && R.Kind != RecordKind::Gradient &&
        R.Kind != RecordKind::Forward)
      continue;
    auto *FD = cast<FunctionDecl>(R.Subject);
    if (FD->getDescribedFunctionTemplate()) {
      error(Diags, R.Loc,
            "enzyme(\"%0\") on a function template is not supported; write "
            "it on an explicit specialization")
          << keyOf(R.Kind);
      continue;
    }
    const Decl *Key = FD->getCanonicalDecl();
    auto [It, Inserted] = ByFunction.try_emplace(Key);
    if (Inserted)
      Order.push_back(Key);
    const AttributeRecord *&Slot =
        It->second.ByKind[static_cast<unsigned>(R.Kind) -
                          static_cast<unsigned>(RecordKind::Augment)];
    if (!Slot) {
      Slot = &R;
      continue;
    }
    if (Slot->Target->getCanonicalDecl() != R.Target->getCanonicalDecl()) {
      error(Diags, R.Loc,
            "conflicting enzyme(\"%0\") attributes on %1: %2 here, %3 before")
          << keyOf(R.Kind) << FD << R.Target << Slot->Target;
      note(Diags, Slot->Loc, "previous enzyme(\"%0\") attribute is here")
          << keyOf(R.Kind);
    }
  }

  for (const Decl *Key : Order) {
    const Derivatives &D = ByFunction[Key];
    const AttributeRecord *Augment = D.ByKind[0], *Gradient = D.ByKind[1],
                          *Forward = D.ByKind[2];
    if (Augment && Gradient)
      add({"__enzyme_register_gradient",
           {Augment->Subject, Augment->Target, Gradient->Target},
           "",
           Augment->Loc});
    else if (Augment || Gradient) {
      const AttributeRecord *Given = Augment ? Augment : Gradient;
      error(Diags, Given->Loc,
            "enzyme(\"%0\") needs a matching enzyme(\"%1\") on %2")
          << keyOf(Given->Kind) << (Augment ? "gradient" : "augment")
          << cast<NamedDecl>(Key);
    }
    if (Forward)
      add({"__enzyme_register_derivative",
           {Forward->Subject, Forward->Target},
           "",
           Forward->Loc});
  }
}

void RegistrationBuilder::collect(const AttributeRecord &R) {
  switch (R.Kind) {
  case RecordKind::InactiveFunction:
  case RecordKind::FunctionLike: {
    const char *Prefix = R.Kind == RecordKind::FunctionLike
                             ? "__enzyme_function_like"
                             : "__enzyme_inactivefn";
    auto *FD = cast<FunctionDecl>(R.Subject);
    // A template has no address; each of its specializations does.
    if (FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate()) {
      for (FunctionDecl *Spec : Template->specializations())
        if (Spec->isReferenced() || Spec->isThisDeclarationADefinition())
          add({Prefix, {Spec}, R.Name, R.Loc});
      return;
    }
    add({Prefix, {FD}, R.Name, R.Loc});
    return;
  }
  case RecordKind::InactiveGlobal:
    add({"__enzyme_inactive_global", {R.Subject}, "", R.Loc});
    return;
  case RecordKind::ShadowGlobal:
    add({ShadowGlobalPrefix, {R.Subject, R.Target}, "", R.Loc});
    return;
  case RecordKind::Augment:
  case RecordKind::Gradient:
  case RecordKind::Forward:
    return; // Paired up by collectDerivatives.
  }
}

void RegistrationBuilder::add(Registration R) {
  SmallVector<const Decl *, 3> Key;
  for (NamedDecl *D : R.Decls) {
    if (D->isInvalidDecl())
      return;
    Key.push_back(D->getCanonicalDecl());
  }
  if (!Seen.insert({R.Prefix, Key, R.Name}).second)
    return;
  // Known only once the declaration is complete (`= delete` follows the
  // attributes), so checked here rather than in the attribute handlers.
  for (NamedDecl *D : R.Decls)
    if (auto *FD = dyn_cast<FunctionDecl>(D->getMostRecentDecl());
        FD && (FD->isDeleted() || FD->isConsteval())) {
      error(Diags, R.Loc,
            "%0 is %select{deleted|consteval}1 and has no address to "
            "register")
          << FD << FD->isConsteval();
      return;
    }

  // In CUDA, register only in the compilations that have the subject, and
  // there everything it names must exist too. The shadow of a __device__
  // variable is registered in host code as well, between the two host-side
  // handles: the derivatives of cudaMemcpyToSymbol and cudaMemcpyFromSymbol
  // copy through the shadow's.
  const LangOptions &LangOpts = Ctx.getLangOpts();
  unsigned Here = LangOpts.CUDAIsDevice ? DeviceSide : HostSide;
  auto SidesOf = [&](const Decl *D) {
    unsigned Sides = sidesOf(D);
    if (R.Prefix == ShadowGlobalPrefix && isa<VarDecl>(D) &&
        (D->hasAttr<CUDADeviceAttr>() || D->hasAttr<CUDAConstantAttr>()))
      Sides |= HostSide;
    return Sides;
  };
  if (!(SidesOf(R.Decls.front()) & Here))
    return;
  for (NamedDecl *D : ArrayRef(R.Decls).drop_front())
    if (!(SidesOf(D) & Here)) {
      error(Diags, R.Loc,
            "%0 is not available in %select{host|device}1 code, where %2 "
            "is; give both the same __host__/__device__ attributes")
          << D << LangOpts.CUDAIsDevice << R.Decls.front();
      return;
    }
  Registrations.push_back(std::move(R));
}

Expr *RegistrationBuilder::toVoidPointer(Expr *E, SourceLocation Loc) {
  return CStyleCastExpr::Create(
      Ctx, Ctx.VoidPtrTy, VK_PRValue, CK_BitCast, E, /*BasePath=*/nullptr,
      FPOptionsOverride(), Ctx.getTrivialTypeSourceInfo(Ctx.VoidPtrTy, Loc),
      Loc, Loc);
}

/// `(void *)&D`, built the way Sema builds it for a function or a variable.
Expr *RegistrationBuilder::addressOf(NamedDecl *D, SourceLocation Loc) {
  auto *Value = cast<ValueDecl>(D);
  QualType Type = Value->getType();
  if (auto *FD = dyn_cast<FunctionDecl>(D)) {
    // Functions are lvalues in C++ and rvalues in C.
    auto *Ref = DeclRefExpr::Create(
        Ctx, NestedNameSpecifierLoc(), SourceLocation(), FD,
        /*RefersToEnclosingVariableOrCapture=*/false, Loc, Type,
        Ctx.getLangOpts().CPlusPlus ? VK_LValue : VK_PRValue);
    Expr *Pointer = ImplicitCastExpr::Create(
        Ctx, Ctx.getPointerType(Type), CK_FunctionToPointerDecay, Ref,
        /*BasePath=*/nullptr, VK_PRValue, FPOptionsOverride());
    return toVoidPointer(Pointer, Loc);
  }
  auto *Ref = DeclRefExpr::Create(
      Ctx, NestedNameSpecifierLoc(), SourceLocation(), Value,
      /*RefersToEnclosingVariableOrCapture=*/false, Loc, Type, VK_LValue);
  Expr *Pointer = UnaryOperator::Create(
      Ctx, Ref, UO_AddrOf, Ctx.getPointerType(Type), VK_PRValue, OK_Ordinary,
      Loc, /*CanOverflow=*/false, FPOptionsOverride());
  return toVoidPointer(Pointer, Loc);
}

/// `(void *)"Text"`: a pointer to a NUL-terminated string constant.
Expr *RegistrationBuilder::stringAddress(StringRef Text, SourceLocation Loc) {
  QualType ArrayType = Ctx.getStringLiteralArrayType(Ctx.CharTy, Text.size());
  Expr *Literal = StringLiteral::Create(Ctx, Text, StringLiteralKind::Ordinary,
                                        /*Pascal=*/false, ArrayType, Loc);
  Expr *Pointer = ImplicitCastExpr::Create(
      Ctx, Ctx.getArrayDecayedType(ArrayType), CK_ArrayToPointerDecay, Literal,
      /*BasePath=*/nullptr, VK_PRValue, FPOptionsOverride());
  return toVoidPointer(Pointer, Loc);
}

/// `<prefix>_<subject>_<n>`: the engine matches the prefix; the subject's
/// name helps a reader of the IR; the counter keeps names unique in the TU.
std::string RegistrationBuilder::uniqueName(const Registration &R) {
  std::string Subject = R.Decls.front()->getDeclName().getAsString();
  for (char &C : Subject)
    if (!llvm::isAlnum(C) && C != '_')
      C = '_';
  return (Twine(R.Prefix) + "_" + Subject + "_" + Twine(Counter++)).str();
}

void RegistrationBuilder::emit(const Registration &R) {
  SmallVector<Expr *, 3> Elements;
  for (NamedDecl *D : R.Decls)
    Elements.push_back(addressOf(D, R.Loc));
  if (!R.Name.empty())
    Elements.push_back(stringAddress(R.Name, R.Loc));

  QualType ArrayType = Ctx.getConstantArrayType(
      Ctx.VoidPtrTy, llvm::APInt(32, Elements.size()), /*SizeExpr=*/nullptr,
      ArraySizeModifier::Normal, /*IndexTypeQuals=*/0);
  auto *Init = new (Ctx) InitListExpr(Ctx, R.Loc, Elements, R.Loc);
  Init->setType(ArrayType);

  TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  std::string Name = uniqueName(R);
  auto *Global = VarDecl::Create(
      Ctx, TU, R.Loc, R.Loc, &Ctx.Idents.get(Name), ArrayType,
      Ctx.getTrivialTypeSourceInfo(ArrayType, R.Loc), SC_Static);
  Global->setInit(Init);
  Global->setImplicit();
  // The same symbol name in C and C++ (no `_ZL` mangling), so the IR reads
  // the same whatever the language.
  Global->addAttr(
      AsmLabelAttr::CreateImplicit(Ctx, Name, /*IsLiteralLabel=*/false));
  // `used` puts the global in @llvm.used: no optimisation may drop it.
  Global->addAttr(UsedAttr::CreateImplicit(Ctx));
  if (Ctx.getLangOpts().CUDAIsDevice)
    Global->addAttr(CUDADeviceAttr::CreateImplicit(Ctx));
  // Hidden from name lookup: the user's code cannot see or clash with it.
  TU->addHiddenDecl(Global);
  S.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(Global));
}

/// Runs before the main action's consumer (code generation), so the
/// globals it hands over at the end of the TU are still generated.
class RegistrationEmitter : public SemaConsumer {
public:
  ~RegistrationEmitter() override {
    if (Ctx)
      forgetRecords(*Ctx);
  }

  void InitializeSema(Sema &TheSema) override {
    S = &TheSema;
    Ctx = &TheSema.getASTContext();
  }
  void ForgetSema() override { S = nullptr; }

  void HandleTranslationUnit(ASTContext &Context) override {
    std::vector<AttributeRecord> Records = std::move(recordsFor(Context));
    forgetRecords(Context);
    // A precompiled header or module is not a TU of its own; the
    // registrations belong to the TUs that use it.
    if (!S || Records.empty() || S->TUKind != TU_Complete)
      return;
    RegistrationBuilder(*S).run(Records);
  }

private:
  Sema *S = nullptr;
  const ASTContext *Ctx = nullptr;
};

class RegistrationAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<RegistrationEmitter>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace
} // namespace enzyme::attributes

static FrontendPluginRegistry::Add<enzyme::attributes::RegistrationAction>
    RegisterAction("enzyme-attributes",
                   "lower Enzyme's attributes to registration globals");
