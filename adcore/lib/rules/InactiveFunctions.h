//===- rules/InactiveFunctions.h - Functions without derivatives ---*- C++ -*-//
//
// Library functions that never carry derivatives, whatever their arguments:
// output (printf), process control (exit, abort), timing, string and memory
// comparisons, and the C++ library's strings, string streams and output
// streams (by mangled-name prefix). A call to one is kept as is in a
// derivative. Also the library's own memory that never holds derivatives:
// its globals (libstdc++ debug mode's error formatter) and what such
// functions return (the formatter again, `return *this`).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_INACTIVEFUNCTIONS_H
#define ADCORE_INACTIVEFUNCTIONS_H

namespace llvm {
class Function;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace adcore {

bool isKnownInactiveFunction(const llvm::Function &F);

/// True for the intrinsics that mark or order code and carry no value with
/// a derivative (lifetime markers, assumptions, noalias scopes, invariants,
/// prefetches, annotations, stack save and restore, is_fpclass, fake uses):
/// both modes keep them as they are.
bool isBookkeepingIntrinsic(unsigned IntrinsicID);

/// True when the object \p Obj (an underlying object) is the library's own
/// memory that holds no derivatives, whatever is stored in it: a global
/// variable named in a table (by mangled-name prefix), or what a call to a
/// known inactive function returns.
bool isKnownInactiveMemory(const llvm::Value *Obj);

/// True when \p T is a class of the C++ library whose objects never hold
/// derivatives (streams, stream buffers, locales; by IR type name): a local
/// variable of that type has no shadow.
bool isKnownInactiveType(const llvm::Type *T);

/// True when \p I is code of a known inactive function of the library
/// inlined into another (its debug location's innermost scope is in one of
/// the library headers that only handle characters: `char_traits<char>`'s
/// copy inlined into a std::string's copy constructor at -O1). A call of
/// that function would be kept as is; its inlined body moves characters,
/// whose copies have no adjoint.
bool isInlinedCharacterCode(const llvm::Instruction &I);

} // namespace adcore

#endif // ADCORE_INACTIVEFUNCTIONS_H
