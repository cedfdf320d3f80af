//===- analysis/OffsetChoices.h - Pointers chosen among offsets -*- C++ -*-===//
//
// A pointer that is one of several places in one object (`c ? x1 : x2`
// over two member arrays: a select or phi of pointers at constant offsets
// from one base, or a GEP whose index is a select or phi of constants) is
// typed within the distance between the places: joined whole at each of
// them, the object's layout would fold onto itself (its flags onto its
// doubles). The type analysis (TypeAnalysis.cpp) uses these to find such
// pointers and the window to join them in.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_OFFSETCHOICES_H
#define ADCORE_OFFSETCHOICES_H

#include "TypeAnalysis.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class DataLayout;
class GEPOperator;
class Value;
} // namespace llvm

namespace adcore {

/// \p L as seen within \p Window bytes of its pointer (Window >= 0): what
/// lies beyond is dropped, and "every element" of floating-point numbers
/// (-1) becomes each element within the window (up to 64), so that it
/// does not spread to the rest of the object. With Window < 0, L
/// unchanged.
MemoryLayout windowed(MemoryLayout L, int64_t Window);

/// The smallest positive distance between two of \p Offsets, or -1.
int64_t smallestGap(llvm::SmallVector<int64_t, 4> Offsets);

/// The byte offsets of a GEP with one index that is a select or a phi of
/// constants (at most four), into \p Offsets.
bool constantOffsetChoices(const llvm::GEPOperator &GEP,
                           const llvm::DataLayout &DL,
                           llvm::SmallVectorImpl<int64_t> &Offsets);

/// The smallest distance between the pointers \p Ins where all are
/// constant offsets from one base and at least two differ; else -1.
int64_t choiceWindow(llvm::ArrayRef<const llvm::Value *> Ins,
                     const llvm::DataLayout &DL);

} // namespace adcore

#endif // ADCORE_OFFSETCHOICES_H
