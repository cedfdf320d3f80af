//===- frontend/TemplateRecords.h - Layouts of class templates -*- C++ -*-===//
//
// What the AD engine cannot see in IR: which IR type holds the fields of a
// class template's specialization (adcore/TemplateRecords.h). The frontend
// records the layout of each one it completes while parsing.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_TEMPLATERECORDS_H
#define ADCC_FRONTEND_TEMPLATERECORDS_H

#include "adcore/TemplateRecords.h"

#include <memory>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace adcc::frontend {

/// Records the class templates' specializations of the compile of \p CI
/// into \p Table.
void recordTemplateRecords(clang::CompilerInstance &CI,
                           std::shared_ptr<adcore::TemplateRecordTable> Table);

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_TEMPLATERECORDS_H
