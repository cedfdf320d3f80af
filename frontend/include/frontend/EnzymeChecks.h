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
//    wrong shape.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_ENZYMECHECKS_H
#define ADCC_FRONTEND_ENZYMECHECKS_H

namespace clang {
class CompilerInstance;
} // namespace clang

namespace adcc::frontend {

/// Adds the checks to the compile that \p CI will run.
void enableEnzymeChecks(clang::CompilerInstance &CI);

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_ENZYMECHECKS_H
