//===- analysis/LibraryObjects.h - Objects of inactive classes --*- C++ -*-===//
//
// The C++ library's streams, stream buffers and locales hold no derivatives
// (rules/InactiveFunctions.cpp lists their classes and their functions).
// Their virtual functions (a stream buffer's setbuf, xsputn, overflow, its
// deleting destructor) are defined in the library, not in the translation
// unit, so a call of one through the object's virtual table has no target
// adcc can differentiate. Such a call is a call of an inactive function as
// the direct calls of the same class are: kept as it is in a derivative.
//
// The object is recognized by what made it: a local variable of one of
// those classes, or a block (`new std::filebuf`) whose constructor is one
// of the library's, that no store gives a virtual table defined in this
// translation unit (a class derived from std::streambuf by the program has
// its own virtual functions, and its calls are dispatched as any other).
//
// A call of the library's own function (sputn, std::ostream::write) that
// reaches such a class's virtual functions is found by where its object
// comes from: one of the program's class (a local, a `new`), a library
// stream made over one (its constructor's, basic_ios::init's or rdbuf's
// argument), or one adcc cannot trace (a parameter, a pointer read from
// memory or returned by a call) in a module whose virtual tables show a
// class deriving a library stream buffer with functions of its own.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_LIBRARYOBJECTS_H
#define ADCORE_LIBRARYOBJECTS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class CallBase;
class Value;
} // namespace llvm

namespace adcore {

/// True when \p Ptr points into an object of a library class that holds no
/// derivatives, as the header says.
bool isInactiveLibraryObject(const llvm::Value *Ptr);

/// True when \p Call is a call through the virtual table of such an object
/// (its first argument, `this`).
bool isInactiveLibraryVirtualCall(const llvm::CallBase &Call);

/// How a call of a known inactive function of the library may reach the
/// program's virtual functions of a stream buffer (xsputn, overflow,
/// underflow), which a derivative flowing through it would then miss.
enum class OverrideReach {
  None,
  /// Made on an object of a class the program derives from a library class
  /// (a local `struct Tee : std::streambuf`, a `new Tee`), seen at -O0,
  /// where the library's function (sputn) is not inlined.
  DerivedObject,
  /// Made on a library stream made over such a buffer (`std::ostream
  /// os(&tee); os.write(...)`): the stream's functions are never inlined.
  StreamOverDerived,
  /// Made on a stream or stream buffer whose class is not known (a
  /// parameter, a pointer read from memory or returned by a call), in a
  /// module that derives a stream buffer with virtual functions of its own.
  UntracedObject,
};

/// How \p Call, a call of a known inactive function of the library
/// (`std::streambuf::sputn`, `std::ostream::write`), may reach the
/// program's virtual functions: only where one of its arguments has a
/// derivative (\p HasDerivative); for a stream over a buffer and an object
/// of unknown class, one given by address (a number given by value is
/// written as text, which has no derivative).
OverrideReach callsProgramOverrides(
    const llvm::CallBase &Call,
    llvm::function_ref<bool(const llvm::Value *)> HasDerivative);

/// The error for such a call of the function displayed as \p Callee.
std::string programOverridesError(OverrideReach Reach, llvm::StringRef Callee);

} // namespace adcore

#endif // ADCORE_LIBRARYOBJECTS_H
