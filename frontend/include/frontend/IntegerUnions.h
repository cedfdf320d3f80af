//===- frontend/IntegerUnions.h - Unions that hold only integers -*- C++ -*-//
//
// What the AD engine cannot see in IR: whether a union holds integers only
// (adcore/IntegerUnions.h). The frontend records every union it completes
// while parsing.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_INTEGERUNIONS_H
#define ADCC_FRONTEND_INTEGERUNIONS_H

#include "adcore/IntegerUnions.h"

#include <memory>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace adcc::frontend {

/// Records the unions of the compile of \p CI into \p Table.
void recordIntegerUnions(clang::CompilerInstance &CI,
                         std::shared_ptr<adcore::IntegerUnionTable> Table);

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_INTEGERUNIONS_H
