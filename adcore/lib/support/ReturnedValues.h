//===- support/ReturnedValues.h - Values a function only returns -*- C++ -*-===//
//
// A value whose only use is to be returned: directly, or at -O0 through
// the stack slot clang keeps the result in (`store v, %tmp; %r = load
// %tmp; ret %r`, HIP's __hip_atomic_fetch_add). Where the caller takes no
// derivative of the result, such a value needs none either (the old value
// of CUDA's and HIP's atomicAdd, which programs drop).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_RETURNEDVALUES_H
#define ADCORE_SUPPORT_RETURNEDVALUES_H

namespace llvm {
class Value;
} // namespace llvm

namespace adcore {

/// Whether \p V is used, and only to be returned.
bool onlyReturned(const llvm::Value &V);

} // namespace adcore

#endif // ADCORE_SUPPORT_RETURNEDVALUES_H
