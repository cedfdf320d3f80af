//===- RecordNames.h - IR names of records (private) -----------*- C++ -*-===//
//
// The tables the frontend hands the engine by record (IntegerUnions.cpp,
// DeclaredPointees.cpp) name each record as Clang's code generation names
// its IR type.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_RECORDNAMES_H
#define ADCC_FRONTEND_RECORDNAMES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace adcc::frontend {

/// The name Clang's code generation gives the IR type of \p RD (`struct.`,
/// `class.` or `union.` and its qualified name, or its typedef's, or
/// `anon`), without the suffix that makes it unique.
inline std::string irTypeName(const clang::ASTContext &Ctx,
                              const clang::RecordDecl &RD) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  OS << RD.getKindName() << '.';
  clang::PrintingPolicy Policy = Ctx.getPrintingPolicy();
  if (RD.getIdentifier())
    RD.printQualifiedName(OS, Policy);
  else if (const clang::TypedefNameDecl *TD = RD.getTypedefNameForAnonDecl())
    TD->printQualifiedName(OS, Policy);
  else
    OS << "anon";
  return Name;
}

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_RECORDNAMES_H
