//===- NamedDecls.h - What an expression names (private) ------*- C++ -*-===//
//
// Registrations, Enzyme calls and the rule attributes name functions and
// globals the way C programs write addresses: `f`, `&f`, `(void *)f`, or a
// template argument that stands for one.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_NAMEDDECLS_H
#define ADCC_FRONTEND_NAMEDDECLS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

namespace adcc::frontend {

/// \p E without parentheses, casts, a substituted template argument and
/// one `&`: what the address is taken of.
inline const clang::Expr *addressed(const clang::Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *Subst =
          llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(E))
    E = Subst->getReplacement()->IgnoreParenCasts();
  if (const auto *Addr = llvm::dyn_cast<clang::UnaryOperator>(E);
      Addr && Addr->getOpcode() == clang::UO_AddrOf)
    E = Addr->getSubExpr()->IgnoreParenCasts();
  return E;
}

/// The declaration \p E names (after addressed()), if it is a \p D.
template <typename D> const D *namedBy(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(addressed(E));
  return Ref ? llvm::dyn_cast<D>(Ref->getDecl()) : nullptr;
}
/// (The same, for Sema, which works on mutable declarations.)
template <typename D> D *namedBy(clang::Expr *E) {
  return const_cast<D *>(namedBy<D>(static_cast<const clang::Expr *>(E)));
}

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_NAMEDDECLS_H
