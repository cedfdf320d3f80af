//===- frontend/EnzymeChecks.h - Source checks of Enzyme-style code -*- C++
//-*-//
//
// What only the source shows about Enzyme-compatible code, checked with
// source locations before code generation:
//  - a struct or complex value passed by value to an `__enzyme_*` entry
//    point, which the C ABI may split into two IR arguments: the callee's
//    parameters are described for adcore (frontend/ParamShapes.h), and
//    where there is no callee to describe (a function pointer) it is an
//    error;
//  - `__enzyme_register_*` / `__enzyme_function_like` registrations of the
//    wrong shape;
//  - Enzyme's marks (adcore/EnzymeMarks.h) written as annotations
//    (`annotate("enzyme_inactive")`): unknown ones, or in the wrong place;
//    and, as attributes, every `enzyme_*` attribute adcc does not know,
//    which Clang would ignore with a warning.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_ENZYMECHECKS_H
#define ADCC_FRONTEND_ENZYMECHECKS_H

namespace clang {
class CompilerInstance;
class Decl;
class DiagnosticsEngine;
} // namespace clang

namespace adcc::frontend {

/// Adds the checks to the compile that \p CI will run.
void enableEnzymeChecks(clang::CompilerInstance &CI);

/// Reports the `enzyme_*` annotations written on \p D that adcc does not
/// know or that do not apply to \p D (EnzymeAttributes.cpp).
void checkEnzymeAnnotations(clang::DiagnosticsEngine &Diags,
                            const clang::Decl &D);

/// Makes every attribute spelled `enzyme_*` or `enzyme::*` that Clang does
/// not know an error instead of Clang's "unknown attribute ignored"
/// warning, even where that warning is off (UnknownEnzymeAttributes.cpp).
void rejectUnknownEnzymeAttributes(clang::CompilerInstance &CI);

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_ENZYMECHECKS_H
