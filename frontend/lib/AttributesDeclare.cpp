//===- AttributesDeclare.cpp - Declare the derivative of a marked function ===//
//
// Forward mode, width W, for a primal `R f(T1 p1, ..., Tn pn)`:
//   parameters  Const p: `T p`; Dual / DualOnly p: `T p, S d_p` (W = 1) or
//               `T p, S d_p_0, ..., S d_p_{W-1}`, where the shadow type S
//               is T, or for `const U *` (`const U &`) `U *` (`U &`)
//   return      void: void; Const: R; DualOnly: R (W = 1) or
//               struct { R d_return[W]; }; Dual: struct { R primal;
//               R d_return; } (W = 1) or struct { R primal; R d_return[W]; }
// Reverse mode, width W:
//   parameters  Const p and Active p: `T p`; Duplicated / DuplicatedOnly p:
//               `T p, S d_p` (W = 1) or `T p, S d_p_0, ..., S d_p_{W-1}`;
//               then, for an Active return, `R seed` (the adjoint of the
//               result), or `R seed_0, ..., R seed_{W-1}`
//   return      the results in order: the primal's result (unless void),
//               then the adjoint of each Active parameter (`T d_p`, or
//               `T d_p[W]`); none: void; one scalar: its type; otherwise
//               struct { R primal; T d_p; ... }
// The struct is declared beside the derivative as `__adcc_<name>_result`.
// The derivative is declared in f's scope and linkage language, static if f
// is; a declaration the user wrote is adopted when its type is the expected
// one, and is an error otherwise.
//
//===----------------------------------------------------------------------===//

#include "AttributesInternal.h"
#include "frontend/ParamShapes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace clang;

namespace adcc::frontend::attrs {
namespace {

struct Field {
  llvm::StringRef Name;
  QualType Type;
};

/// The derivative's signature, before it is declared.
struct Signature {
  QualType Return;
  llvm::SmallVector<QualType, 8> Params;
  llvm::SmallVector<IdentifierInfo *, 8> Names;
  QualType Type;
};

const FunctionProtoType &protoOf(const FunctionDecl &FD) {
  return *FD.getType()->castAs<FunctionProtoType>();
}

Activity returnActivity(const FunctionDecl &FD, const DerivativeSpec &Spec) {
  return protoOf(FD).getReturnType()->isVoidType() ? Activity::Const
                                                   : Spec.Activities.back().A;
}

/// The name of the adjoint of parameter \p I in a reverse-mode result:
/// `d_<name>`, or `d_<I+1>` for an unnamed parameter.
llvm::StringRef adjointName(ASTContext &Ctx, const FunctionDecl &Primal,
                            unsigned I) {
  const IdentifierInfo *Id = Primal.getParamDecl(I)->getIdentifier();
  std::string Name = "d_" + (Id ? Id->getName().str() : std::to_string(I + 1));
  return Ctx.Idents.get(Name).getName();
}

/// The fields of the result struct, or none when the derivative returns
/// the primal's return type (or void) directly.
llvm::SmallVector<Field, 2> resultFields(ASTContext &Ctx,
                                         const FunctionDecl &Primal,
                                         const DerivativeSpec &Spec) {
  llvm::SmallVector<Field, 2> Fields;
  QualType R = protoOf(Primal).getReturnType().getUnqualifiedType();
  Activity A = returnActivity(Primal, Spec);
  unsigned W = Spec.Width;
  if (Spec.Kind.M == Mode::Reverse) {
    if (!R->isVoidType())
      Fields.push_back({"primal", R});
    const FunctionProtoType &FPT = protoOf(Primal);
    for (unsigned I = 0; I < FPT.getNumParams(); ++I) {
      if (Spec.Activities[I].A != Activity::Active)
        continue;
      QualType T = FPT.getParamType(I).getUnqualifiedType();
      if (W > 1) // one adjoint per lane
        T = Ctx.getConstantArrayType(T, llvm::APInt(32, W), nullptr,
                                     ArraySizeModifier::Normal, 0);
      Fields.push_back({adjointName(Ctx, Primal, I), T});
    }
    return Fields;
  }
  if (A == Activity::Const || (A == Activity::DualOnly && W == 1))
    return Fields;
  QualType Tangent =
      W == 1 ? R
             : Ctx.getConstantArrayType(R, llvm::APInt(32, W), nullptr,
                                        ArraySizeModifier::Normal, 0);
  if (A == Activity::Dual)
    Fields.push_back({"primal", R});
  Fields.push_back({"d_return", Tangent});
  return Fields;
}

std::string fieldsString(Sema &S, llvm::StringRef Tag,
                         llvm::ArrayRef<Field> Fields) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << (S.getLangOpts().CPlusPlus ? "" : "struct ") << Tag << " {";
  for (const Field &F : Fields) {
    OS << ' ';
    F.Type.print(OS, S.getPrintingPolicy(), F.Name);
    OS << ';';
  }
  OS << " }";
  return Out;
}

bool sameFields(ASTContext &Ctx, const RecordDecl &RD,
                llvm::ArrayRef<Field> Fields) {
  unsigned I = 0;
  for (const FieldDecl *FD : RD.fields()) {
    if (I == Fields.size() || FD->getName() != Fields[I].Name ||
        !Ctx.hasSameType(FD->getType(), Fields[I].Type))
      return false;
    ++I;
  }
  return I == Fields.size();
}

/// Makes \p ND, a new declaration in \p DC, visible to name lookup. C++
/// finds namespace-scope names through their context; C through the
/// identifier chains of the translation unit's scope. (Not through
/// Sema::PushOnScopeChains, which would warn that adcc's own names are
/// reserved identifiers.)
void makeVisible(Sema &S, NamedDecl &ND, DeclContext &DC) {
  DC.addDecl(&ND);
  if (S.getLangOpts().CPlusPlus || !S.TUScope)
    return;
  S.TUScope->AddDecl(&ND);
  S.IdResolver.AddDecl(&ND);
}

RecordDecl *lookupTag(Sema &S, DeclContext &DC, IdentifierInfo *II,
                      SourceLocation Loc) {
  LookupResult R(S, DeclarationName(II), Loc, Sema::LookupTagName);
  R.suppressDiagnostics();
  S.LookupQualifiedName(R, DC.getRedeclContext());
  return R.getAsSingle<RecordDecl>();
}

RecordDecl *createResultRecord(Sema &S, DeclContext &DC, IdentifierInfo *II,
                               llvm::ArrayRef<Field> Fields, SourceLocation Loc,
                               RecordDecl *Prev) {
  ASTContext &Ctx = S.getASTContext();
  RecordDecl *RD;
  if (S.getLangOpts().CPlusPlus)
    RD = CXXRecordDecl::Create(Ctx, TagTypeKind::Struct, &DC, Loc, Loc, II,
                               cast_or_null<CXXRecordDecl>(Prev));
  else
    RD = RecordDecl::Create(Ctx, TagTypeKind::Struct, &DC, Loc, Loc, II, Prev);
  RD->startDefinition();
  for (const Field &F : Fields) {
    auto *FD = FieldDecl::Create(
        Ctx, RD, Loc, Loc, &Ctx.Idents.get(F.Name), F.Type,
        Ctx.getTrivialTypeSourceInfo(F.Type, Loc), /*BW=*/nullptr,
        /*Mutable=*/false, ICIS_NoInit);
    FD->setAccess(AS_public);
    RD->addDecl(FD);
  }
  RD->completeDefinition();
  makeVisible(S, *RD, DC);
  return RD;
}

/// The result struct `__adcc_<name>_result` with \p Fields: the one already
/// declared under that name if its fields are these (a user's header may
/// declare it for a hand-written prototype), else a new one. A template's
/// instantiations whose results differ get `_1`, `_2`, ... suffixes.
RecordDecl *resultRecord(Sema &S, FunctionDecl &Primal,
                         const DerivativeSpec &Spec,
                         llvm::ArrayRef<Field> Fields, bool FromTemplate) {
  ASTContext &Ctx = S.getASTContext();
  DeclContext &DC = *Primal.getDeclContext();
  std::string Base = ("__adcc_" + Spec.Name->getName() + "_result").str();
  for (unsigned K = 0;; ++K) {
    std::string Name = K == 0 ? Base : Base + "_" + std::to_string(K);
    IdentifierInfo *II = &Ctx.Idents.get(Name);
    RecordDecl *Existing = lookupTag(S, DC, II, Spec.AttrLoc);
    if (!Existing)
      return createResultRecord(S, DC, II, Fields, Spec.AttrLoc, nullptr);
    RecordDecl *Def = Existing->getDefinition();
    if (!Def)
      return createResultRecord(S, DC, II, Fields, Spec.AttrLoc, Existing);
    if (sameFields(Ctx, *Def, Fields))
      return Def;
    if (FromTemplate)
      continue;
    report(S, Spec.AttrLoc, Diag::ResultTypeMismatch)
        << Def << Spec.Spelling << fieldsString(S, Name, Fields);
    report(S, Def->getLocation(), Diag::NoteDeclaredHere) << Def;
    return nullptr;
  }
}

/// The type of a shadow of a parameter of type \p T: T itself, except that
/// a pointer or reference to const gets a pointer or reference to the
/// mutable type (shadow memory is written in reverse mode; forward mode
/// uses the same convention, so one buffer serves both).
QualType shadowType(ASTContext &Ctx, QualType T) {
  if (!T->isPointerType() && !T->isReferenceType())
    return T;
  QualType Pointee = T->getPointeeType();
  if (!Pointee.isConstQualified())
    return T;
  Qualifiers Quals = Pointee.getQualifiers();
  Quals.removeConst();
  Pointee = Ctx.getQualifiedType(Pointee.getUnqualifiedType(), Quals);
  if (T->isPointerType())
    return Ctx.getPointerType(Pointee);
  if (T->isLValueReferenceType())
    return Ctx.getLValueReferenceType(Pointee);
  return Ctx.getRValueReferenceType(Pointee);
}

IdentifierInfo *shadowName(ASTContext &Ctx, const IdentifierInfo *Param,
                           unsigned Lane, unsigned Width) {
  if (!Param)
    return nullptr;
  std::string Name = ("d_" + Param->getName()).str();
  if (Width > 1)
    Name += "_" + std::to_string(Lane);
  return &Ctx.Idents.get(Name);
}

std::optional<Signature> buildSignature(Sema &S, FunctionDecl &Primal,
                                        const DerivativeSpec &Spec,
                                        bool FromTemplate) {
  ASTContext &Ctx = S.getASTContext();
  const FunctionProtoType &FPT = protoOf(Primal);
  Signature Sig;
  for (unsigned I = 0; I < FPT.getNumParams(); ++I) {
    QualType T = FPT.getParamType(I);
    IdentifierInfo *Name = Primal.getParamDecl(I)->getIdentifier();
    Sig.Params.push_back(T);
    Sig.Names.push_back(Name);
    if (!hasShadow(Spec.Activities[I].A))
      continue;
    for (unsigned L = 0; L < Spec.Width; ++L) {
      Sig.Params.push_back(shadowType(Ctx, T));
      Sig.Names.push_back(shadowName(Ctx, Name, L, Spec.Width));
    }
  }
  bool Reverse = Spec.Kind.M == Mode::Reverse;
  if (Reverse && returnActivity(Primal, Spec) == Activity::Active)
    for (unsigned L = 0; L < Spec.Width; ++L) {
      Sig.Params.push_back(FPT.getReturnType().getUnqualifiedType());
      Sig.Names.push_back(&Ctx.Idents.get(
          Spec.Width == 1 ? "seed" : "seed_" + std::to_string(L)));
    }
  llvm::SmallVector<Field, 2> Fields = resultFields(Ctx, Primal, Spec);
  // (An array of adjoints is returned in the struct.)
  if (Reverse && Fields.size() <= 1 &&
      (Fields.empty() || !Fields.front().Type->isArrayType())) {
    Sig.Return = Fields.empty() ? Ctx.VoidTy : Fields.front().Type;
  } else if (Fields.empty()) {
    Sig.Return = FPT.getReturnType();
  } else {
    RecordDecl *RD = resultRecord(S, Primal, Spec, Fields, FromTemplate);
    if (!RD)
      return std::nullopt;
    Sig.Return = Ctx.getCanonicalTagType(RD);
  }
  FunctionProtoType::ExtProtoInfo EPI = FPT.getExtProtoInfo();
  EPI.Variadic = false;
  EPI.HasTrailingReturn = false;
  EPI.ExceptionSpec = FunctionProtoType::ExceptionSpecInfo();
  EPI.ExtParameterInfos = nullptr;
  EPI.ExtInfo = EPI.ExtInfo.withNoReturn(false);
  Sig.Type = Ctx.getFunctionType(Sig.Return, Sig.Params, EPI);
  return Sig;
}

std::string prototypeString(Sema &S, const IdentifierInfo &Name,
                            const Signature &Sig) {
  const PrintingPolicy &Policy = S.getPrintingPolicy();
  std::string Out = Sig.Return.getAsString(Policy);
  if (!Out.empty() && Out.back() != '*' && Out.back() != '&')
    Out += ' ';
  llvm::raw_string_ostream OS(Out);
  OS << Name.getName() << '(';
  for (unsigned I = 0; I < Sig.Params.size(); ++I) {
    if (I)
      OS << ", ";
    Sig.Params[I].print(
        OS, Policy, Sig.Names[I] ? Sig.Names[I]->getName() : llvm::StringRef());
  }
  if (Sig.Params.empty() && !S.getLangOpts().CPlusPlus)
    OS << "void";
  OS << ')';
  return Out;
}

/// True if \p FD has exactly the expected signature.
bool matchesSignature(ASTContext &Ctx, const FunctionDecl &FD,
                      const Signature &Sig) {
  const auto *FPT = FD.getType()->getAs<FunctionProtoType>();
  if (!FPT || FPT->isVariadic() || FPT->getNumParams() != Sig.Params.size() ||
      !Ctx.hasSameType(FPT->getReturnType(), Sig.Return))
    return false;
  for (unsigned I = 0; I < Sig.Params.size(); ++I)
    if (!Ctx.hasSameType(FPT->getParamType(I), Sig.Params[I]))
      return false;
  return FPT->getCallConv() ==
         Sig.Type->castAs<FunctionProtoType>()->getCallConv();
}

bool sameParams(ASTContext &Ctx, const FunctionDecl &FD, const Signature &Sig) {
  const auto *FPT = FD.getType()->getAs<FunctionProtoType>();
  if (!FPT || FPT->getNumParams() != Sig.Params.size())
    return false;
  for (unsigned I = 0; I < Sig.Params.size(); ++I)
    if (!Ctx.hasSameType(FPT->getParamType(I), Sig.Params[I]))
      return false;
  return true;
}

/// True if \p A and \p B declare the same function (the attribute is being
/// applied to a redeclaration, not yet linked to its previous declaration).
bool sameFunction(ASTContext &Ctx, const FunctionDecl &A,
                  const FunctionDecl &B) {
  if (A.getCanonicalDecl() == B.getCanonicalDecl())
    return true;
  // Instantiations are distinct functions even with equal types.
  if (A.getPrimaryTemplate() || B.getPrimaryTemplate())
    return false;
  return A.getDeclName() == B.getDeclName() &&
         A.getDeclContext()->getRedeclContext()->Equals(
             B.getDeclContext()->getRedeclContext()) &&
         Ctx.hasSameType(A.getType(), B.getType());
}

const DeclaredDerivative *findDeclared(const DerivativeTable &Table,
                                       const FunctionDecl &FD) {
  for (const DeclaredDerivative &D : Table.Declared)
    if (D.Derivative->getCanonicalDecl() == FD.getCanonicalDecl())
      return &D;
  return nullptr;
}

FunctionDecl *createDerivative(Sema &S, FunctionDecl &Primal,
                               const DerivativeSpec &Spec,
                               const Signature &Sig) {
  ASTContext &Ctx = S.getASTContext();
  DeclContext &DC = *Primal.getDeclContext();
  SourceLocation Loc = Spec.AttrLoc;
  StorageClass SC = Primal.getStorageClass() == SC_Static ? SC_Static : SC_None;
  TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(Sig.Type, Loc);
  auto *New = FunctionDecl::Create(
      Ctx, &DC, Loc, Loc, DeclarationName(Spec.Name), Sig.Type, TSI, SC,
      Primal.UsesFPIntrin(), /*isInlineSpecified=*/false,
      /*hasWrittenPrototype=*/true, ConstexprSpecKind::Unspecified);
  llvm::SmallVector<ParmVarDecl *, 8> Params;
  for (unsigned I = 0; I < Sig.Params.size(); ++I) {
    auto *P =
        ParmVarDecl::Create(Ctx, New, Loc, Loc, Sig.Names[I], Sig.Params[I],
                            Ctx.getTrivialTypeSourceInfo(Sig.Params[I], Loc),
                            SC_None, /*DefArg=*/nullptr);
    P->setScopeInfo(0, I);
    Params.push_back(P);
  }
  New->setParams(Params);
  if (auto FTL = TSI->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>())
    for (unsigned I = 0; I < Params.size(); ++I)
      FTL.setParam(I, Params[I]);
  makeVisible(S, *New, DC);
  return New;
}

/// The existing function \p Existing takes the derivative's parameters;
/// returns it if it can be the derivative, else reports why not.
FunctionDecl *adoptExisting(Sema &S, FunctionDecl &Primal,
                            const DerivativeSpec &Spec, const Signature &Sig,
                            const std::string &Prototype,
                            FunctionDecl &Existing) {
  ASTContext &Ctx = S.getASTContext();
  DerivativeTable &Table = derivativeTable(Ctx);
  if (const DeclaredDerivative *D = findDeclared(Table, Existing)) {
    if (!sameFunction(Ctx, *D->Primal, Primal)) {
      report(S, Spec.NameLoc, Diag::DerivativeOfOther)
          << &Existing << D->Primal;
      report(S, D->AttrLoc, Diag::NotePreviousAttribute) << D->Spelling;
      return nullptr;
    }
    if (D->Encoding != encodeDerivative(Spec, irName(Ctx, Existing))) {
      report(S, Spec.AttrLoc, Diag::ConflictingActivities)
          << &Existing << &Primal;
      report(S, D->AttrLoc, Diag::NotePreviousAttribute) << D->Spelling;
      return nullptr;
    }
    return D->Derivative;
  }
  if (!matchesSignature(Ctx, Existing, Sig)) {
    report(S, Spec.AttrLoc, Diag::PrototypeMismatch)
        << &Existing << Spec.Spelling << Prototype;
    report(S, Existing.getLocation(), Diag::NoteDeclaredHere) << &Existing;
    return nullptr;
  }
  if (const FunctionDecl *Def = Existing.getDefinition()) {
    report(S, Def->getLocation(), Diag::DerivativeDefined)
        << Def << Spec.Spelling;
    report(S, Spec.AttrLoc, Diag::NotePreviousAttribute) << Spec.Spelling;
    return nullptr;
  }
  return &Existing;
}

/// Finds the derivative among the declarations of its name in the primal's
/// scope, or declares it. In C any function of that name must be it; in
/// C++ a function with other parameters may be another overload, but only
/// when adcc declared it (another instantiation's derivative): a
/// hand-written one that differs is the user's mistake.
FunctionDecl *findOrDeclare(Sema &S, FunctionDecl &Primal,
                            const DerivativeSpec &Spec, const Signature &Sig,
                            const std::string &Prototype) {
  ASTContext &Ctx = S.getASTContext();
  bool CPlusPlus = S.getLangOpts().CPlusPlus;
  DeclContext &DC = *Primal.getDeclContext();
  LookupResult R(S, DeclarationName(Spec.Name), Spec.NameLoc,
                 Sema::LookupOrdinaryName);
  R.suppressDiagnostics();
  S.LookupQualifiedName(R, DC.getRedeclContext());
  NamedDecl *Other = nullptr;
  for (NamedDecl *ND : R) {
    auto *FD = dyn_cast<FunctionDecl>(ND->getUnderlyingDecl());
    if (FD && (!CPlusPlus || sameParams(Ctx, *FD, Sig)))
      return adoptExisting(S, Primal, Spec, Sig, Prototype, *FD);
    if (!FD || !findDeclared(derivativeTable(Ctx), *FD))
      Other = ND;
  }
  if (Other) {
    report(S, Spec.AttrLoc, Diag::PrototypeMismatch)
        << Other << Spec.Spelling << Prototype;
    report(S, Other->getLocation(), Diag::NoteDeclaredHere) << Other;
    return nullptr;
  }
  return createDerivative(S, Primal, Spec, Sig);
}

/// The annotation for the AD engine, with the derivative's address as its
/// argument.
void annotatePrimal(Sema &S, FunctionDecl &Primal, const DerivativeSpec &Spec,
                    FunctionDecl &Derivative, llvm::StringRef Encoding) {
  ASTContext &Ctx = S.getASTContext();
  for (const AnnotateAttr *A : Primal.specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Encoding)
      return;
  SourceLocation Loc = Spec.AttrLoc;
  QualType FnPtr = Ctx.getPointerType(Derivative.getType());
  Expr *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(),
                                  SourceLocation(), &Derivative,
                                  /*RefersToEnclosingVariableOrCapture=*/false,
                                  Loc, Derivative.getType(), VK_LValue);
  Expr *Decayed =
      ImplicitCastExpr::Create(Ctx, FnPtr, CK_FunctionToPointerDecay, Ref,
                               nullptr, VK_PRValue, FPOptionsOverride());
  APValue Address(APValue::LValueBase(&Derivative), CharUnits::Zero(),
                  APValue::NoLValuePath());
  Expr *Arg = ConstantExpr::Create(Ctx, Decayed, Address);
  Primal.addAttr(
      AnnotateAttr::CreateImplicit(Ctx, Encoding, &Arg, 1, SourceRange(Loc)));
  // The primal must reach the module even if nothing else uses it (a static
  // or inline function): the derivative is generated from its definition.
  if (!Primal.hasAttr<UsedAttr>())
    Primal.addAttr(UsedAttr::CreateImplicit(Ctx, SourceRange(Loc)));
}

} // namespace

void copyTargetAttributes(ASTContext &Ctx, const FunctionDecl &Primal,
                          FunctionDecl &Derivative) {
  if (Primal.hasAttr<CUDADeviceAttr>() && !Derivative.hasAttr<CUDADeviceAttr>())
    Derivative.addAttr(CUDADeviceAttr::CreateImplicit(Ctx));
  if (Primal.hasAttr<CUDAHostAttr>() && !Derivative.hasAttr<CUDAHostAttr>())
    Derivative.addAttr(CUDAHostAttr::CreateImplicit(Ctx));
}

std::string encodeDerivative(const DerivativeSpec &Spec,
                             llvm::StringRef Symbol) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "adcc.derivative:"
     << (Spec.Kind.M == Mode::Forward ? "forward" : "reverse") << ':'
     << Spec.Width << ':' << Symbol << ':';
  // The parameters' activities; the last one written is the return's
  // unless the primal returns void (then there is none: Const).
  size_t NumParams = Spec.Activities.size();
  if (Spec.HasReturnActivity)
    --NumParams;
  for (size_t I = 0; I < NumParams; ++I)
    OS << (I ? "," : "") << activityName(Spec.Activities[I].A);
  OS << ':'
     << (Spec.HasReturnActivity ? activityName(Spec.Activities.back().A)
                                : activityName(Activity::Const));
  return Out;
}

bool declareDerivative(Sema &S, FunctionDecl &Primal,
                       const DerivativeSpec &WrittenSpec, bool FromTemplate) {
  ASTContext &Ctx = S.getASTContext();
  DerivativeSpec Spec = WrittenSpec;
  Spec.HasReturnActivity = !protoOf(Primal).getReturnType()->isVoidType();
  std::optional<Signature> Sig = buildSignature(S, Primal, Spec, FromTemplate);
  if (!Sig)
    return false;
  std::string Prototype = prototypeString(S, *Spec.Name, *Sig);
  FunctionDecl *Derivative = findOrDeclare(S, Primal, Spec, *Sig, Prototype);
  if (!Derivative)
    return false;
  std::string Encoding = encodeDerivative(Spec, irName(Ctx, *Derivative));
  DerivativeTable &Table = derivativeTable(Ctx);
  if (!findDeclared(Table, *Derivative))
    Table.Declared.push_back({Derivative, &Primal, Encoding, Prototype,
                              Spec.Spelling, Spec.AttrLoc, FromTemplate});
  annotatePrimal(S, Primal, Spec, *Derivative, Encoding);
  copyTargetAttributes(Ctx, Primal, *Derivative);
  recordParamShapes(Ctx, Primal);
  return true;
}

void recordTemplateSpec(Sema &S, FunctionDecl &Pattern,
                        const DerivativeSpec &Spec) {
  derivativeTable(S.getASTContext()).Templates.push_back({&Pattern, Spec});
}

} // namespace adcc::frontend::attrs
