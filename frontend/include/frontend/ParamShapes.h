//===- frontend/ParamShapes.h - Source parameters for adcore --*- C++ -*-===//
//
// What the AD engine cannot see in IR: which IR parameters of a function
// hold one source parameter (adcore/ParamShapes.h). The frontend describes
// the functions that Enzyme calls and derivative attributes name, when one
// of their parameters is not exactly one IR parameter on the target.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_PARAMSHAPES_H
#define ADCC_FRONTEND_PARAMSHAPES_H

#include "adcore/ParamShapes.h"

#include <memory>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class QualType;
} // namespace clang

namespace adcc::frontend {

/// The table of the compile that installHooks set up last (cc1 jobs run
/// one after another in a process); adcore reads it through its Options.
void setParamShapeTable(std::shared_ptr<adcore::ParamShapeTable> Table);

/// Records the shapes of \p FD's parameters when one of them is not one
/// IR parameter. Returns false when it would be needed and cannot be
/// recorded (no table).
bool recordParamShapes(clang::ASTContext &Ctx, const clang::FunctionDecl &FD);

/// The name \p FD has in IR (mangled, or its asm label).
std::string irName(clang::ASTContext &Ctx, const clang::FunctionDecl &FD);

/// Whether the target's C ABI may pass a value of type \p T as two IR
/// arguments (x86-64: a struct or complex value of 9 to 16 bytes).
bool mayBeSplitByABI(clang::ASTContext &Ctx, clang::QualType T);

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_PARAMSHAPES_H
