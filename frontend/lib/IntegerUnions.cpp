//===- IntegerUnions.cpp - Unions that hold only integers ----------------===//
//
// An AST consumer that runs before code generation's: each union whose
// definition is completed (named, typedef'd, anonymous, a template's
// member once instantiated) is recorded, at the end of the translation
// unit, under the IR name Clang's code
// generation gives its type, `union.` and its qualified name, or its
// typedef's, or `anon` (the `.N` suffixes that make names unique left
// out), with whether every member holds integers only.
//
//===----------------------------------------------------------------------===//

#include "frontend/IntegerUnions.h"

#include "RecordNames.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/STLExtras.h"

#include <vector>

using namespace clang;

namespace adcc::frontend {
namespace {

constexpr const char *ActionName = "adcc-integer-unions";

/// The table of the compile that set it last (cc1 jobs run one after
/// another in a process).
std::shared_ptr<adcore::IntegerUnionTable> &currentTable() {
  static std::shared_ptr<adcore::IntegerUnionTable> Table;
  return Table;
}

/// Whether a value of type \p T holds integers only: integers, enums,
/// bools, characters, and arrays and records of them (no float, no
/// pointer, whose shadow a copy would have to move).
bool recordHoldsIntegersOnly(const ASTContext &Ctx, const RecordDecl *RD,
                             unsigned Depth);

bool holdsIntegersOnly(const ASTContext &Ctx, QualType T, unsigned Depth) {
  T = T.getCanonicalType();
  if (Depth > 16)
    return false;
  if (T->isIntegralOrEnumerationType())
    return true;
  if (const auto *AT = Ctx.getAsConstantArrayType(T))
    return holdsIntegersOnly(Ctx, AT->getElementType(), Depth + 1);
  return recordHoldsIntegersOnly(Ctx, T->getAsRecordDecl(), Depth);
}

/// The same for the record \p RD.
bool recordHoldsIntegersOnly(const ASTContext &Ctx, const RecordDecl *RD,
                             unsigned Depth) {
  if (!RD || !RD->getDefinition() || RD->isInvalidDecl())
    return false;
  RD = RD->getDefinition();
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD)) {
    if (CXX->isDynamicClass()) // (a vtable pointer)
      return false;
    for (const CXXBaseSpecifier &B : CXX->bases())
      if (!holdsIntegersOnly(Ctx, B.getType(), Depth + 1))
        return false;
  }
  return llvm::all_of(RD->fields(), [&](const FieldDecl *F) {
    return holdsIntegersOnly(Ctx, F->getType(), Depth + 1);
  });
}

class UnionConsumer : public ASTConsumer {
public:
  void Initialize(ASTContext &C) override { Ctx = &C; }
  void HandleTagDeclDefinition(TagDecl *D) override {
    auto *RD = dyn_cast<RecordDecl>(D);
    if (RD && RD->isUnion() && !RD->isDependentType() && !RD->isInvalidDecl())
      Unions.push_back(RD);
  }
  // (At the end of the translation unit, before code generation's
  // consumer runs the pipeline: a typedef of an anonymous union, which
  // names its IR type, is declared after the union's definition.)
  void HandleTranslationUnit(ASTContext &) override {
    auto &Table = currentTable();
    if (!Ctx || !Table)
      return;
    for (const RecordDecl *RD : Unions) {
      bool Integers = recordHoldsIntegersOnly(*Ctx, RD, 0);
      auto [It, New] = Table->try_emplace(irTypeName(*Ctx, *RD), Integers);
      if (!New)
        It->second = It->second && Integers;
    }
  }

private:
  ASTContext *Ctx = nullptr;
  std::vector<const RecordDecl *> Unions;
};

class UnionAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<UnionConsumer>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return CmdlineBeforeMainAction; }
};

FrontendPluginRegistry::Add<UnionAction>
    RegisterUnions(ActionName, "record the unions that hold only integers");

} // namespace

void recordIntegerUnions(CompilerInstance &CI,
                         std::shared_ptr<adcore::IntegerUnionTable> Table) {
  currentTable() = std::move(Table);
  std::vector<std::string> &Actions = CI.getFrontendOpts().AddPluginActions;
  if (!llvm::is_contained(Actions, ActionName))
    Actions.push_back(ActionName);
}

} // namespace adcc::frontend
