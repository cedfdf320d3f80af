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
#include "clang/AST/RecordLayout.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

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
    Add("@" + Name, pointerOffsets(*Ctx, Ctx->getCanonicalTagType(&RD)));
    const ASTRecordLayout &Layout = Ctx->getASTRecordLayout(&RD);
    for (const FieldDecl *F : RD.fields()) {
      QualType T = F->getType().getCanonicalType();
      uint64_t Bits = Layout.getFieldOffset(F->getFieldIndex());
      if (F->isBitField() || Bits % 8 != 0 || !T->isPointerType())
        continue;
      Add(Name + "@" + llvm::utostr(Bits / 8),
          pointerOffsets(*Ctx, T->getPointeeType()));
    }
  }

  ASTContext *Ctx = nullptr;
  std::vector<const RecordDecl *> Records;
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
