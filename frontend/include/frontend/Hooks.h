//===- frontend/Hooks.h - adcc's hooks into a Clang compile ---*- C++ -*-===//
#ifndef ADCC_FRONTEND_HOOKS_H
#define ADCC_FRONTEND_HOOKS_H

#include "adcore/Options.h"

namespace clang {
class CompilerInstance;
} // namespace clang

namespace adcc::frontend {

/// Prepares \p CI, whose invocation is already parsed, to compile with AD:
///  - registers adcore's passes with the optimization pipeline Clang builds
///    (optimizer-early extension point, at every -O level);
///  - asks Clang to keep source locations on instructions even without -g
///    (location tracking only: no debug info is emitted) when the main file
///    mentions AD, so that AD diagnostics name the file, line and column.
void installHooks(clang::CompilerInstance &CI, const adcore::Options &Opts);

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_HOOKS_H
