//===- ErasedStorage.h - The C++ library's type-erased storage --*- C++ -*-===//
//
// Where std::function keeps its callable (std::_Any_data), and whether the
// callables a module keeps there may hold floating-point values.
//
//===----------------------------------------------------------------------===//

#ifndef ADCORE_ANALYSIS_ERASEDSTORAGE_H
#define ADCORE_ANALYSIS_ERASEDSTORAGE_H

namespace llvm {
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace adcore {

/// Whether the variable \p Ptr points into (an alloca, a global) is or
/// holds a std::function's storage, std::_Any_data, or \p Ptr points into
/// a parameter declared as one (`std::_Any_data&`: a manager's).
bool declaredWithErasedStorage(const llvm::Value *Ptr);

/// Whether some std::function of \p M may hold a callable with
/// floating-point values in it (a lambda that captured doubles by value, a
/// function object with double fields, or one whose type is not found).
bool mayEraseFloatCallables(const llvm::Module &M);

/// Whether \p I is code of std::function's copy assignment (in it, or
/// inlined from it: its debug location says), which clones the callable
/// through the manager and swaps the clone in.
bool inFunctionCopyAssignment(const llvm::Instruction &I);

} // namespace adcore

#endif // ADCORE_ANALYSIS_ERASEDSTORAGE_H
