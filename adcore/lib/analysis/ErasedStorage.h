//===- ErasedStorage.h - The C++ library's type-erased storage --*- C++ -*-===//
//
// Where std::function keeps its callable (std::_Any_data), and whether the
// callables a module keeps there may hold floating-point values.
//
//===----------------------------------------------------------------------===//

#ifndef ADCORE_ANALYSIS_ERASEDSTORAGE_H
#define ADCORE_ANALYSIS_ERASEDSTORAGE_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Instruction;
class MemTransferInst;
class Module;
class Type;
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

/// Whether the function named \p Name is one whose copies of 16 bytes move
/// std::function's storage as bytes, the source not read again:
/// std::swap<std::_Any_data> (a swap through a temporary, which the
/// function's swap and assignments call), or the move constructor of a
/// std::function (`std::function<S>::function(std::function<S>&&)`).
bool movesErasedStorage(llvm::StringRef Name);

/// Whether \p Copy (or \p Primal, the program's copy it was made of, where
/// not null) is such a move: marked by prepare/ErasedMoves.cpp, or a copy
/// of 16 bytes whose debug location says it is code of one of those
/// functions (a mark SROA dropped when it remade the copy).
bool isErasedMove(const llvm::MemTransferInst &Copy,
                  const llvm::Instruction *Primal);

/// The type of the object the type-erasure manager \p I is code of keeps
/// (std::any's `_Manager_external<T>`/`_Manager_internal<T>`, std::function's
/// `_Base_manager<T>`): T's IR type where the module has it (a struct of
/// the file, a lambda's closure, double, float), else null. Such a manager
/// clones a T by copying its bytes out of storage nothing types.
llvm::Type *erasedObjectType(const llvm::Instruction &I);

} // namespace adcore

#endif // ADCORE_ANALYSIS_ERASEDSTORAGE_H
