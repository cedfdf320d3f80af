//===- adcore/InactiveFunctions.h - Functions without derivatives -*- C++ -*-//
//
// Library functions that never carry derivatives, whatever their arguments:
// output (printf), process control (exit, abort), timing, string and memory
// comparisons, and the C++ library's strings, string streams and output
// streams (by mangled-name prefix). A call to one is kept as is in a
// derivative.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_INACTIVEFUNCTIONS_H
#define ADCORE_INACTIVEFUNCTIONS_H

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

bool isKnownInactiveFunction(const llvm::Function &F);

} // namespace adcore

#endif // ADCORE_INACTIVEFUNCTIONS_H
