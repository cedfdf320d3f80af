//===- TemplateRecords.cpp - Layouts of class templates -------------------===//
//
// An AST consumer that runs before code generation's: each class (or
// struct) that is, or is declared inside, a class template's
// specialization and that holds a floating-point number is recorded at
// the end of the translation unit, under the name the demangler prints for
// it (from its mangled type name, so that it reads as the parameter types
// of demangled function names do), with its size and the scalars at each
// byte offset (adcore/TemplateRecords.h).
//
//===----------------------------------------------------------------------===//

#include "frontend/TemplateRecords.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace clang;

namespace adcc::frontend {
namespace {

constexpr const char *ActionName = "adcc-template-records";

/// The table of the compile that set it last (cc1 jobs run one after
/// another in a process).
std::shared_ptr<adcore::TemplateRecordTable> &currentTable() {
  static std::shared_ptr<adcore::TemplateRecordTable> Table;
  return Table;
}

/// Whether \p RD is, or is declared inside, a class template's
/// specialization: Clang's IR name for it leaves the template's arguments
/// out.
bool inSpecialization(const RecordDecl *RD) {
  for (const DeclContext *DC = RD; DC; DC = DC->getParent())
    if (isa<ClassTemplateSpecializationDecl>(DC))
      return true;
  return false;
}

/// Builds the layout of one record.
class ShapeBuilder {
public:
  explicit ShapeBuilder(const ASTContext &Ctx) : Ctx(Ctx) {}

  /// Adds the scalars of a value of type \p T at byte \p At; false for a
  /// type this file does not describe (the record then goes unrecorded).
  bool add(QualType T, uint64_t At, unsigned Depth) {
    T = T.getCanonicalType();
    if (Depth > 16 || Shape.Pieces.size() > 1024)
      return false;
    uint64_t Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
    if (const auto *BT = T->getAs<BuiltinType>()) {
      switch (BT->getKind()) {
      case BuiltinType::Double:
        return piece(At, 'd', 8, /*Float=*/true);
      case BuiltinType::Float:
        return piece(At, 'f', 4, /*Float=*/true);
      default:
        break;
      }
      if (!BT->isInteger())
        return false; // (long double, half, __float128, ...)
      return piece(At, Bytes == 1 ? 'b' : 'i', Bytes);
    }
    if (T->isEnumeralType())
      return piece(At, Bytes == 1 ? 'b' : 'i', Bytes);
    if (T->isPointerType() || T->isReferenceType() ||
        T->isBlockPointerType())
      return piece(At, 'p', Bytes);
    // (A pointer to member: integers in the IR, an offset, or a function's
    // address or vtable offset and an adjustment of `this`.)
    if (T->isMemberFunctionPointerType())
      return piece(At, 'i', Bytes / 2) && piece(At + Bytes / 2, 'i', Bytes / 2);
    if (T->isMemberDataPointerType())
      return piece(At, 'i', Bytes);
    if (const auto *CT = T->getAs<ComplexType>()) {
      uint64_t Half = Bytes / 2;
      return add(CT->getElementType(), At, Depth + 1) &&
             add(CT->getElementType(), At + Half, Depth + 1);
    }
    if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
      uint64_t N = AT->getZExtSize();
      if (N == 0)
        return true;
      uint64_t E = Bytes / N;
      for (uint64_t I = 0; I < N; ++I)
        if (!add(AT->getElementType(), At + I * E, Depth + 1))
          return false;
      return true;
    }
    if (const RecordDecl *RD = T->getAsRecordDecl())
      return addRecord(RD, At, Depth);
    return false; // (vectors, ...)
  }

  bool addRecord(const RecordDecl *RD, uint64_t At, unsigned Depth) {
    RD = RD->getDefinition();
    if (!RD || RD->isInvalidDecl() || RD->isDependentType())
      return false;
    uint64_t Bytes = Ctx.getTypeSizeInChars(Ctx.getCanonicalTagType(RD))
                         .getQuantity();
    if (RD->isUnion())
      return piece(At, 'u', Bytes);
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
    if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD)) {
      if (CXX->getNumVBases())
        return false;
      if (L.hasOwnVFPtr() && !piece(At, 'p', 8))
        return false;
      for (const CXXBaseSpecifier &B : CXX->bases()) {
        const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
        if (!Base || !addRecord(Base,
                                At + L.getBaseClassOffset(Base).getQuantity(),
                                Depth + 1))
          return false;
      }
    }
    for (const FieldDecl *F : RD->fields()) {
      // (Bit-fields hold integers: their bytes stay unnamed. An empty
      // member takes no bytes of its own.)
      if (F->isBitField() || F->isZeroSize(Ctx))
        continue;
      uint64_t Bits = L.getFieldOffset(F->getFieldIndex());
      if (Bits % 8 || !add(F->getType(), At + Bits / 8, Depth + 1))
        return false;
    }
    return true;
  }

  adcore::RecordShape Shape;
  bool HasFloat = false;

private:
  bool piece(uint64_t At, char Kind, uint64_t Bytes, bool Float = false) {
    if (Bytes == 0)
      return true;
    Shape.Pieces.push_back({At, Kind, Bytes});
    HasFloat |= Float;
    return true;
  }

  const ASTContext &Ctx;
};

/// The name the demangler prints for \p RD (`Controller<double>`), from
/// its type's mangled name; empty where it prints none.
std::string demangledName(MangleContext &MC, const ASTContext &Ctx,
                          const RecordDecl *RD) {
  std::string Mangled;
  llvm::raw_string_ostream OS(Mangled);
  MC.mangleCXXRTTIName(Ctx.getCanonicalTagType(RD), OS);
  std::string D = llvm::demangle(Mangled);
  llvm::StringRef Prefix = "typeinfo name for ";
  return llvm::StringRef(D).starts_with(Prefix) ? D.substr(Prefix.size())
                                                : std::string();
}

class RecordConsumer : public ASTConsumer {
public:
  void Initialize(ASTContext &C) override { Ctx = &C; }
  void HandleTagDeclDefinition(TagDecl *D) override {
    auto *RD = dyn_cast<CXXRecordDecl>(D);
    if (RD && !RD->isUnion() && !RD->isDependentType() &&
        !RD->isInvalidDecl() && inSpecialization(RD))
      Records.push_back(RD);
  }
  void HandleTranslationUnit(ASTContext &) override {
    auto &Table = currentTable();
    if (!Ctx || !Table || Records.empty())
      return;
    std::unique_ptr<MangleContext> MC(Ctx->createMangleContext());
    for (const CXXRecordDecl *RD : Records) {
      if (!RD->getDefinition() || RD->isInvalidDecl())
        continue;
      ShapeBuilder B(*Ctx);
      if (!B.addRecord(RD, 0, 0) || !B.HasFloat)
        continue;
      llvm::sort(B.Shape.Pieces, [](const auto &X, const auto &Y) {
        return X.Offset < Y.Offset;
      });
      B.Shape.Size = Ctx->getTypeSizeInChars(Ctx->getCanonicalTagType(RD))
                         .getQuantity();
      std::string Name = demangledName(*MC, *Ctx, RD);
      if (!Name.empty())
        Table->emplace(std::move(Name), std::move(B.Shape));
    }
  }

private:
  ASTContext *Ctx = nullptr;
  std::vector<const CXXRecordDecl *> Records;
};

class RecordAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<RecordConsumer>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return CmdlineBeforeMainAction; }
};

FrontendPluginRegistry::Add<RecordAction>
    RegisterRecords(ActionName,
                    "record the layouts of class templates' specializations");

} // namespace

void recordTemplateRecords(
    CompilerInstance &CI, std::shared_ptr<adcore::TemplateRecordTable> Table) {
  currentTable() = std::move(Table);
  std::vector<std::string> &Actions = CI.getFrontendOpts().AddPluginActions;
  if (!llvm::is_contained(Actions, ActionName))
    Actions.push_back(ActionName);
}

} // namespace adcc::frontend
