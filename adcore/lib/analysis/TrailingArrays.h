//===- analysis/TrailingArrays.h - Arrays allocated past a struct -*- C++ -*-===//
//
// C's trailing-array idiom: a struct whose last field is an array
// (`void *parameters[1]`, or a flexible array member), allocated with room
// for more elements past the struct's end, and filled by a memcpy of a
// run-time length (tinyexpr's expression nodes). At -O0 the copy's
// destination is the field's address and nothing in the function accesses
// the elements, so the type analysis has no layout for the bytes copied;
// the field's declared type gives it: every element is of that type.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_TRAILINGARRAYS_H
#define ADCORE_TRAILINGARRAYS_H

namespace llvm {
class Value;
} // namespace llvm

namespace adcore {

/// True when \p Ptr is the address of a struct's last field, as -O0
/// computes it (`getelementptr %struct, p, 0, last`), declared an array
/// whose elements hold no floating-point number and no union (pointers,
/// integers): a copy there of any length copies no derivative.
bool trailingArrayWithoutFloats(const llvm::Value *Ptr);

} // namespace adcore

#endif // ADCORE_TRAILINGARRAYS_H
