//===- DeclaredPointees.cpp - Pointee types of struct fields --------------===//
//
// An AST consumer that runs before code generation's: each struct or class
// whose definition is completed (not a union: its IR type names one member
// only) and that has a pointer or reference field is recorded, at the end
// of the translation unit, under the IR name Clang's code generation gives
// its type (RecordNames.h), with the byte offset of each such field and
// what the field's declared type points to.
//
//===----------------------------------------------------------------------===//

#include "frontend/DeclaredPointees.h"

#include "RecordNames.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>
#include <vector>

using namespace clang;
using adcore::DeclaredPointee;

namespace adcc::frontend {
namespace {

constexpr const char *ActionName = "adcc-declared-pointees";

/// The table of the compile that set it last (cc1 jobs run one after
/// another in a process).
std::shared_ptr<adcore::DeclaredPointeeTable> &currentTable() {
  static std::shared_ptr<adcore::DeclaredPointeeTable> Table;
  return Table;
}

/// What a pointer to \p T points to, as the type analysis counts kinds:
/// integers of 16 bits or more (not characters or bools: bytes hold
/// anything), float, double, pointers; else Unknown (`void`, records,
/// functions, long double).
DeclaredPointee kindOfPointee(const ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType();
  if (T->isDependentType() || T->isIncompleteType())
    return DeclaredPointee::Unknown;
  if (const auto *B = T->getAs<BuiltinType>()) {
    if (B->getKind() == BuiltinType::Double)
      return DeclaredPointee::Double;
    if (B->getKind() == BuiltinType::Float)
      return DeclaredPointee::Float;
  }
  if (T->isPointerType())
    return DeclaredPointee::Pointer;
  if (T->isIntegralOrEnumerationType() && !T->isAnyCharacterType() &&
      !T->isBooleanType() && Ctx.getTypeSize(T) >= 16)
    return DeclaredPointee::Integer;
  return DeclaredPointee::Unknown;
}

/// The most offsets recorded of the pointers an object may hold (more:
/// none recorded).
constexpr size_t MaxPointerOffsets = 64;

/// Adds to \p Out the byte offsets (from \p Base) at which an object of
/// the type \p T may hold a pointer: pointer and reference fields, union
/// members, a class's vtable pointer, nested records and array elements.
/// False where there are more than MaxPointerOffsets or the type is not
/// known whole.
bool addPointerOffsets(const ASTContext &Ctx, QualType T, uint64_t Base,
                       std::map<uint64_t, DeclaredPointee> &Out,
                       unsigned Depth = 8) {
  T = T.getCanonicalType();
  if (T->isDependentType() || T->isIncompleteType() || Depth == 0)
    return false;
  if (T->isPointerType() || T->isReferenceType()) {
    Out.try_emplace(Base, DeclaredPointee::Pointer);
    return Out.size() <= MaxPointerOffsets;
  }
  if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
    uint64_t Size = Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();
    std::map<uint64_t, DeclaredPointee> First;
    if (!addPointerOffsets(Ctx, AT->getElementType(), 0, First, Depth - 1))
      return false;
    for (uint64_t I = 0; !First.empty() && I < AT->getZExtSize(); ++I)
      for (auto [Offset, K] : First)
        if (Out.try_emplace(Base + I * Size + Offset, K).second &&
            Out.size() > MaxPointerOffsets)
          return false;
    return true;
  }
  const auto *RD = T->getAsRecordDecl();
  if (!RD)
    return true;
  RD = RD->getDefinition();
  if (!RD || RD->isInvalidDecl())
    return false;
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD)) {
    if (CXX->isDynamicClass())
      Out.try_emplace(Base, DeclaredPointee::Pointer);
    for (const CXXBaseSpecifier &B : CXX->bases())
      if (const CXXRecordDecl *BD = B.getType()->getAsCXXRecordDecl();
          !B.isVirtual() && BD &&
          !addPointerOffsets(Ctx, B.getType(),
                             Base + Layout.getBaseClassOffset(BD).getQuantity(),
                             Out, Depth - 1))
        return false;
  }
  for (const FieldDecl *F : RD->fields()) {
    uint64_t Bits = Layout.getFieldOffset(F->getFieldIndex());
    if (F->isBitField() || Bits % 8 != 0)
      continue;
    if (!addPointerOffsets(Ctx, F->getType(), Base + Bits / 8, Out, Depth - 1))
      return false;
  }
  return Out.size() <= MaxPointerOffsets;
}

/// The byte offsets at which an object of the record type \p T may hold a
/// pointer, with its size (the stride of an array of them); empty where it
/// holds none, or where they are not known. For bytes (`void`, characters,
/// `std::byte`): any of them may hold one.
std::map<uint64_t, DeclaredPointee> pointerOffsets(const ASTContext &Ctx,
                                                   QualType T) {
  T = T.getCanonicalType();
  if (T->isVoidType() || T->isCharType() || T->isStdByteType())
    return {{0, DeclaredPointee::Bytes}};
  std::map<uint64_t, DeclaredPointee> Out;
  if (!T->isRecordType() || !addPointerOffsets(Ctx, T, 0, Out) || Out.empty())
    return {};
  Out.try_emplace(Ctx.getTypeSizeInChars(T).getQuantity(),
                  DeclaredPointee::Size);
  return Out;
}

const RecordDecl *canonical(const RecordDecl *RD) {
  return cast<RecordDecl>(RD->getCanonicalDecl());
}

/// The record a pointer of the type \p T points to (not a union); null
/// for other types.
const RecordDecl *pointeeRecord(QualType T) {
  T = T.getCanonicalType();
  if (!T->isPointerType())
    return nullptr;
  const auto *RD = T->getPointeeType()->getAsRecordDecl();
  return RD && !RD->isUnion() ? RD : nullptr;
}

/// The records whose pointers the translation unit converts to pointers
/// to another record, by bits (a C cast, `reinterpret_cast`, through a
/// `void *` or not: `pl->obj = (void *)&nodes[1]`), by the record they
/// are converted to: an object of it may be one of those.
class ConvertedRecords : public RecursiveASTVisitor<ConvertedRecords> {
public:
  std::map<const RecordDecl *, std::set<const RecordDecl *>> Sources;

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCastExpr(CastExpr *E) {
    const RecordDecl *To = pointeeRecord(E->getType());
    if (!To || E->getCastKind() != CK_BitCast)
      return true;
    // (The innermost of the casts: a `void *` in between says nothing.)
    const Expr *From = E->getSubExpr();
    while (const auto *Inner = dyn_cast<CastExpr>(From->IgnoreParens())) {
      if (Inner->getCastKind() != CK_BitCast &&
          Inner->getCastKind() != CK_NoOp)
        break;
      From = Inner->getSubExpr();
    }
    const RecordDecl *Source = pointeeRecord(From->IgnoreParens()->getType());
    if (Source && canonical(Source) != canonical(To))
      Sources[canonical(To)].insert(canonical(Source));
    return true;
  }
};

/// pointerOffsets, with those of the records whose pointers the
/// translation unit converts to pointers to \p T (\p Converted): a
/// pointer found where a size is recorded wins.
std::map<uint64_t, DeclaredPointee>
linkOffsets(const ASTContext &Ctx, QualType T,
            const std::map<const RecordDecl *, std::set<const RecordDecl *>>
                &Converted) {
  std::map<uint64_t, DeclaredPointee> Out = pointerOffsets(Ctx, T);
  const RecordDecl *RD = T->getAsRecordDecl();
  auto It = RD ? Converted.find(canonical(RD)) : Converted.end();
  if (It == Converted.end() || (!Out.empty() && Out.begin()->second ==
                                                    DeclaredPointee::Bytes))
    return Out;
  for (const RecordDecl *Source : It->second) {
    const RecordDecl *Def = Source->getDefinition();
    if (!Def)
      continue;
    std::map<uint64_t, DeclaredPointee> More =
        pointerOffsets(Ctx, Ctx.getCanonicalTagType(Def));
    if (More.empty())
      continue;
    // (An object of the record itself, of its own size.)
    if (Out.empty() && !T->isIncompleteType())
      Out.try_emplace(Ctx.getTypeSizeInChars(T).getQuantity(),
                      DeclaredPointee::Size);
    for (auto [Offset, K] : More) {
      auto [At, New] = Out.try_emplace(Offset, K);
      if (!New && K == DeclaredPointee::Pointer)
        At->second = K;
    }
  }
  return Out;
}

/// The type of the elements of \p T, where it is an array (of arrays)
/// whose elements are not arrays; \p T itself otherwise.
QualType innermostElement(const ASTContext &Ctx, QualType T) {
  while (const auto *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType().getCanonicalType();
  return T;
}

/// The pointer and reference fields of \p RD by byte offset.
std::map<uint64_t, DeclaredPointee> pointerFields(const ASTContext &Ctx,
                                                  const RecordDecl &RD) {
  std::map<uint64_t, DeclaredPointee> Fields;
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(&RD);
  for (const FieldDecl *F : RD.fields()) {
    QualType T = F->getType().getCanonicalType();
    if (F->isBitField() || !(T->isPointerType() || T->isReferenceType()))
      continue;
    uint64_t Bits = Layout.getFieldOffset(F->getFieldIndex());
    if (Bits % 8 != 0)
      continue;
    Fields[Bits / 8] = kindOfPointee(Ctx, T->getPointeeType());
  }
  return Fields;
}

class PointeeConsumer : public ASTConsumer {
public:
  void Initialize(ASTContext &C) override { Ctx = &C; }
  void HandleTagDeclDefinition(TagDecl *D) override {
    auto *RD = dyn_cast<RecordDecl>(D);
    if (RD && !RD->isUnion() && !RD->isDependentType() &&
        !RD->isInvalidDecl() && RD->isCompleteDefinition())
      Records.push_back(RD);
  }
  // (At the end of the translation unit, before code generation's
  // consumer runs the pipeline: a typedef of an anonymous struct, which
  // names its IR type, is declared after the struct's definition.)
  void HandleTranslationUnit(ASTContext &) override {
    auto &Table = currentTable();
    if (!Ctx || !Table)
      return;
    ConvertedRecords Converted;
    Converted.TraverseDecl(Ctx->getTranslationUnitDecl());
    Sources = std::move(Converted.Sources);
    addGlobalLinks(*Table);
    for (const RecordDecl *RD : Records) {
      addPointeeLinks(Table, *RD);
      std::map<uint64_t, DeclaredPointee> Fields = pointerFields(*Ctx, *RD);
      if (Fields.empty())
        continue;
      // (Two records of one IR name, in different scopes: where they
      // disagree, nothing is known.)
      auto [It, New] = Table->try_emplace(irTypeName(*Ctx, *RD), Fields);
      if (New)
        continue;
      for (auto [Offset, K] : Fields) {
        auto [FIt, FNew] = It->second.try_emplace(Offset, K);
        if (!FNew && FIt->second != K)
          FIt->second = DeclaredPointee::Unknown;
      }
    }
  }

private:
  /// The pseudo entries of linked records (adcore/DeclaredPointees.h):
  /// `@` and \p RD's IR name, the offsets of the pointers its objects
  /// may hold; its IR name, `@` and a pointer field's offset, those of the
  /// record the field points to.
  void
  addPointeeLinks(const std::shared_ptr<adcore::DeclaredPointeeTable> &Table,
                  const RecordDecl &RD) {
    auto Add = [&](std::string Key,
                   std::map<uint64_t, DeclaredPointee> Offsets) {
      // (Records of one IR name that differ: the offsets of either.)
      if (!Offsets.empty())
        (*Table)[Key].insert(Offsets.begin(), Offsets.end());
    };
    std::string Name = irTypeName(*Ctx, RD);
    Add("@" + Name,
        linkOffsets(*Ctx, Ctx->getCanonicalTagType(&RD), Sources));
    const ASTRecordLayout &Layout = Ctx->getASTRecordLayout(&RD);
    for (const FieldDecl *F : RD.fields()) {
      // (An array of pointers: its first element's, all alike.)
      QualType T = innermostElement(*Ctx, F->getType().getCanonicalType());
      uint64_t Bits = Layout.getFieldOffset(F->getFieldIndex());
      if (F->isBitField() || Bits % 8 != 0 || !T->isPointerType())
        continue;
      Add(Name + "@" + llvm::utostr(Bits / 8),
          linkOffsets(*Ctx, T->getPointeeType(), Sources));
    }
  }

  /// The pseudo entries of global variables that are pointers or arrays
  /// of them: `=` and the variable's IR name, the offsets of the pointers
  /// the record (or bytes) it points to may hold.
  void addGlobalLinks(adcore::DeclaredPointeeTable &Table) {
    ASTNameGenerator Names(*Ctx);
    for (const Decl *D : Ctx->getTranslationUnitDecl()->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->hasGlobalStorage() || VD->getType()->isDependentType())
        continue;
      QualType T = innermostElement(*Ctx, VD->getType().getCanonicalType());
      if (!T->isPointerType())
        continue;
      std::map<uint64_t, DeclaredPointee> Offsets =
          linkOffsets(*Ctx, T->getPointeeType(), Sources);
      if (!Offsets.empty())
        Table["=" + Names.getName(VD)].insert(Offsets.begin(), Offsets.end());
    }
  }

  ASTContext *Ctx = nullptr;
  std::vector<const RecordDecl *> Records;
  std::map<const RecordDecl *, std::set<const RecordDecl *>> Sources;
};

class PointeeAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<PointeeConsumer>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return CmdlineBeforeMainAction; }
};

FrontendPluginRegistry::Add<PointeeAction>
    RegisterPointees(ActionName,
                     "record what structs' pointer fields point to");

} // namespace

void recordDeclaredPointees(
    clang::CompilerInstance &CI,
    std::shared_ptr<adcore::DeclaredPointeeTable> Table) {
  currentTable() = std::move(Table);
  std::vector<std::string> &Actions = CI.getFrontendOpts().AddPluginActions;
  if (!llvm::is_contained(Actions, ActionName))
    Actions.push_back(ActionName);
}

} // namespace adcc::frontend
