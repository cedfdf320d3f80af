//===- ParamShapes.cpp - Source parameters for adcore --------------------===//

#include "frontend/ParamShapes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/TargetInfo.h"

using namespace clang;

namespace adcc::frontend {
namespace {

std::shared_ptr<adcore::ParamShapeTable> &currentTable() {
  static std::shared_ptr<adcore::ParamShapeTable> Table;
  return Table;
}

/// The System V x86-64 ABI (Windows passes such values by reference).
bool isX86_64(const ASTContext &Ctx) {
  const llvm::Triple &T = Ctx.getTargetInfo().getTriple();
  return T.getArch() == llvm::Triple::x86_64 && !T.isOSWindows();
}

/// A struct the ABI passes in registers (a C++ class with a non-trivial
/// copy or destructor goes by pointer instead).
const RecordDecl *registerRecord(QualType T) {
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD)
    return nullptr;
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
      CXX && !CXX->canPassInRegisters())
    return nullptr;
  return RD;
}

/// A struct that the x86-64 ABI drops from the argument list.
bool isEmptyRecord(ASTContext &Ctx, QualType T) {
  const RecordDecl *RD = registerRecord(T);
  if (!RD || !RD->isCompleteDefinition())
    return false;
  if (Ctx.getTypeSize(T) == 0)
    return true;
  const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
  return CXX && CXX->isEmpty();
}

char shapeOf(ASTContext &Ctx, QualType T) {
  if (mayBeSplitByABI(Ctx, T))
    return 'p';
  if (isX86_64(Ctx) && isEmptyRecord(Ctx, T))
    return 'e';
  return 'v';
}

} // namespace

std::string irName(ASTContext &Ctx, const FunctionDecl &FD) {
  std::unique_ptr<MangleContext> Mangler(Ctx.createMangleContext());
  if (!Mangler->shouldMangleDeclName(&FD))
    return FD.getName().str();
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Mangler->mangleName(GlobalDecl(&FD), OS);
  // An asm label's name is marked as not to be mangled further.
  if (!Name.empty() && Name.front() == '\1')
    Name.erase(0, 1);
  return Name;
}

void setParamShapeTable(std::shared_ptr<adcore::ParamShapeTable> Table) {
  currentTable() = std::move(Table);
}

bool mayBeSplitByABI(ASTContext &Ctx, QualType T) {
  if (!isX86_64(Ctx) || T->isIncompleteType() || T->isDependentType())
    return false;
  T = T.getCanonicalType();
  if (!T->isAnyComplexType() && !registerRecord(T))
    return false;
  uint64_t Bits = Ctx.getTypeSize(T);
  return Bits > 64 && Bits <= 128;
}

bool recordParamShapes(ASTContext &Ctx, const FunctionDecl &Named) {
  // The parameters the IR function has: its definition's (a C declaration
  // named first may have no prototype).
  const FunctionDecl *Def = Named.getDefinition();
  const FunctionDecl &FD = Def ? *Def : *Named.getMostRecentDecl();
  std::string Shapes;
  for (const ParmVarDecl *P : FD.parameters())
    Shapes += shapeOf(Ctx, P->getType());
  if (Shapes.find_first_not_of('v') == std::string::npos)
    return true;
  if (!currentTable())
    return false;
  if (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD).isStatic())
    Shapes.insert(Shapes.begin(), 'v'); // `this`
  (*currentTable())[irName(Ctx, FD)] = Shapes;
  // Also on the definition, for code generation to emit with the function
  // where it emits it after this (templates, inline functions, lambdas):
  // the mangled name above numbers local lambdas' types on its own, and
  // may name another function than the one code generation makes.
  if (Def) {
    std::string Text = std::string(adcore::ParamShapesAnnotation) + Shapes;
    auto *Mutable = const_cast<FunctionDecl *>(Def);
    if (llvm::none_of(
            Mutable->specific_attrs<AnnotateAttr>(),
            [&](const AnnotateAttr *A) { return A->getAnnotation() == Text; }))
      Mutable->addAttr(AnnotateAttr::CreateImplicit(
          Ctx, Text, nullptr, 0, SourceRange(Def->getLocation())));
  }
  return true;
}

} // namespace adcc::frontend
