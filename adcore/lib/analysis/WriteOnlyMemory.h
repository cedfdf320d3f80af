//===- analysis/WriteOnlyMemory.h - Memory only written ---------*- C++ -*-===//
//
// A global variable without a shadow (one that holds pointers: a log of
// calls kept in a vector of records, `calls.push_back({x, y, n})`) may be
// written by the differentiated code with values that have derivatives
// (the pointers it was given, a scalar argument). Where no differentiated
// code ever reads a floating-point value or an address to read through
// back from that memory, the derivative of what it holds flows nowhere:
// the stores are kept in the primal and need no shadow. Anything else
// stays an error at the store.
//
// The memory of such a global is the global and what its pointers reach:
// pointers read from it (a vector's data), blocks reallocated from them.
// Within the functions the requests reach, every use of that memory must
// be a store into it, an integer read (a length, a capacity), a read of a
// pointer into it again, a comparison, a memory copy or set into it, the
// block given to realloc or free, or an argument of a function that uses
// its parameter the same way. One use of any other kind (a floating-point
// read, a copy out of it, its address stored elsewhere or returned)
// leaves the global as it was.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_WRITEONLYMEMORY_H
#define ADCORE_WRITEONLYMEMORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace adcore {

class CustomRules;

/// The pointers of the functions \p Reached (the global itself, values and
/// arguments) into the memory of globals without a shadow that those
/// functions only write, as the header says.
llvm::DenseSet<const llvm::Value *>
collectWriteOnlyMemory(llvm::ArrayRef<const llvm::Function *> Reached,
                       const CustomRules &Rules);

} // namespace adcore

#endif
