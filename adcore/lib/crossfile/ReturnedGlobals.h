//===- crossfile/ReturnedGlobals.h - Globals getters return -----*- C++ -*-===//
//
// See ReturnedGlobals.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CROSSFILE_RETURNEDGLOBALS_H
#define ADCORE_CROSSFILE_RETURNEDGLOBALS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace llvm {
class GlobalVariable;
class Module;
} // namespace llvm

namespace adcore {

/// The global variables whose addresses the functions of \p M return that
/// \p Symbols (the derivatives made at link time) ask for the shadow of the
/// pointer they return, with no argument with a derivative: a getter of
/// another file's data, `get_state()`, whose caller stores values with
/// derivatives into that memory or gives it to another file's function
/// with such values (analysis/OtherFileResults.cpp). Added to \p Written:
/// those get shadow globals as the globals the differentiated code writes
/// do (analysis/GlobalShadows.h). A constant one, which nothing may store
/// into, is made a variable here, so that its shadow can take the adjoints
/// of its reads (dropped: adcc zeroes its shadows after each call).
void addReturnedGlobals(llvm::Module &M, llvm::ArrayRef<std::string> Symbols,
                        llvm::DenseSet<const llvm::GlobalVariable *> &Written);

} // namespace adcore

#endif // ADCORE_CROSSFILE_RETURNEDGLOBALS_H
