//===- RequestMarkers.h - The markers of an Enzyme-style request -*- C++ -*-//
//
// The `enzyme_*` globals a request passes among its arguments (enzyme_dup,
// enzyme_const, enzyme_width, ...): one row each, and the reader of an
// argument that is one.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REQUESTMARKERS_H
#define ADCORE_REQUESTMARKERS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Value;
} // namespace llvm

namespace adcore {

enum class Marker {
  None,
  Dup,
  DupNoNeed,
  Const,
  DupV,
  Out,
  Width,
  PrimalReturn,
  ConstReturn,
  NoRet,
  Interleave,
  Allocated,
  Tape,
  NoFree,
  RuntimeActivity,
  Unknown
};

/// The marker an argument is, if any: a load of (or the address of) a
/// global named `enzyme_...` (Unknown for another such name, which is set
/// into \p Name).
Marker markerOf(llvm::Value *V, llvm::StringRef &Name);

} // namespace adcore

#endif // ADCORE_REQUESTMARKERS_H
