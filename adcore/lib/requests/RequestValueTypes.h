//===- RequestValueTypes.h - Types of a request's values -----*- C++ -*-===//
//
// An Enzyme-style request is a variadic call whose arguments and result the
// program declares as it likes: lowering it compares the IR types adcc
// needs with those the call has (the same scalars in the same places, or
// not), reads a value as another type of the same layout, and names types
// in messages as a C programmer would.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REQUESTVALUETYPES_H
#define ADCORE_REQUESTVALUETYPES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <string>

namespace adcore {

/// The scalar types of \p T in memory order (vectors and aggregates
/// flattened).
void scalarsOf(llvm::Type *T, llvm::SmallVectorImpl<llvm::Type *> &Out);
/// Whether \p T is an aggregate that holds floating-point values.
bool holdsFloats(llvm::Type *T);
/// Whether \p T is an aggregate that holds floating-point values beside
/// pointers or integers (`struct { double *p; double v; }`, `struct {
/// double v; long n; }`): split mode seeds its floating-point fields one
/// by one, and an augmented sweep returns the shadows of its pointers.
bool mixesFloats(llvm::Type *T);
/// The index paths of the floating-point fields of the aggregate \p T,
/// in order (nested structs and arrays followed).
void floatFieldPaths(llvm::Type *T,
                     llvm::SmallVectorImpl<llvm::SmallVector<unsigned, 4>> &Out);
/// The shadow \p Shadow of an aggregate with its pointer fields kept and
/// the others zero (a struct that mixes numbers and pointers: only its
/// pointers' shadows mean something).
llvm::Value *onlyPointerFields(llvm::IRBuilder<> &B, llvm::Value *Shadow);
/// True when \p A and \p B hold the same sequence of scalar types.
bool sameScalars(llvm::Type *A, llvm::Type *B);
/// \p V read as \p To, a type of the same size: through memory, as a C
/// union would ({double, double} as [2 x double]). The slot goes in the
/// entry block of \p B's function.
llvm::Value *reinterpretAs(llvm::IRBuilder<> &B, llvm::Value *V,
                           llvm::Type *To);
/// The `enzyme_*` marker global the request argument \p V loads (or is
/// the address of), or empty.
llvm::StringRef markerName(llvm::Value *V);
/// \p V as the parameter type \p To, undoing C's promotions of a
/// variadic call (float to double, narrow integers to int) and passing an
/// address given as an integer; null when no such conversion exists.
llvm::Value *convertArgument(llvm::IRBuilder<> &B, llvm::Value *V,
                             llvm::Type *To);
/// \p T in words a C programmer reads (messages speak of the source, and
/// IR types such as `ptr` or `x86_fp80` would not).
std::string typeName(llvm::Type *T);

} // namespace adcore

#endif // ADCORE_REQUESTVALUETYPES_H
