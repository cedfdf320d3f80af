//===- frontend/DeclaredPointees.h - Pointee types of fields ---*- C++ -*-===//
//
// What the AD engine cannot see in IR without TBAA (-O0): what a struct's
// pointer field is declared to point to (adcore/DeclaredPointees.h). The
// frontend records every struct and class it completes while parsing.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_DECLAREDPOINTEES_H
#define ADCC_FRONTEND_DECLAREDPOINTEES_H

#include "adcore/DeclaredPointees.h"

#include <memory>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace adcc::frontend {

/// Records the pointer fields of the structs of the compile of \p CI into
/// \p Table.
void recordDeclaredPointees(
    clang::CompilerInstance &CI,
    std::shared_ptr<adcore::DeclaredPointeeTable> Table);

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_DECLAREDPOINTEES_H
