//===- analysis/LinkedStores.h - Floats stored over a caller's links -*- C++ -*-===//
//
// Reverse mode keeps a pointer's shadow and a number's adjoint in the same
// shadow bytes. A caller's memory that holds a pointer when the request
// begins (the link of a pool's block that `main` set up, with its shadow
// pool alike) holds the pointer's shadow; where the request stores a float
// with a derivative over it without ever reading the link (so that no mark
// of the runtime says what the bytes are), the float's reverse would read
// the link's shadow as its adjoint. Such a store starts its adjoint from
// zero: where it writes bytes whose declared type may hold a pointer (a
// union of a number and a pointer, bytes, memory of no known type), in
// memory the function reached through a pointer it read from memory or got
// from a call (a node of a linked structure), or that its caller passed it
// having reached it so. A number's bytes given by the request's argument
// keep the seed the caller put in their shadow (`*out = x * x` with
// `dout->value = 1`, a union too).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_LINKEDSTORES_H
#define ADCORE_ANALYSIS_LINKEDSTORES_H

#include <cstdint>

namespace llvm {
class Function;
class StoreInst;
class Value;
} // namespace llvm

namespace adcore {

class TypeAnalysis;

/// Whether the pointer \p Ptr of the primal function may address memory
/// that the function reached through a pointer read from memory (not a
/// local variable of its own) or returned by a call other than an
/// allocation's, or through its pointer parameter i with bit i of
/// \p LinkedArgs (its caller passed such memory: DerivativeKey): at -O0
/// through the stores into its local slots too.
bool reachedThroughLink(const llvm::Value *Ptr, uint64_t LinkedArgs);

/// Whether the bytes that the store \p SI of a number (in the primal
/// function, whose types \p Types knows) writes may hold a pointer at
/// other times, by their declared type: a union member or bytes (the
/// access tag "omnipotent char"), a struct member whose declared type
/// holds a pointer there (at -O0, where no access tag is written), memory
/// that the function accesses as something else or not by its type; or,
/// whatever the store's own type, where its pointer was read (here, or in
/// a function whose result it is) as a `void *` or `char *`, or as a
/// pointer to a record that may hold a pointer at those bytes (a pool's
/// `struct node *` cast to `struct obj *`; beyond the record, in the next
/// ones; anywhere in it at an offset that is not constant:
/// adcore/DeclaredPointees.h's pseudo entries).
bool mayHoldPointerBytes(const llvm::StoreInst &SI, const TypeAnalysis &Types);

/// Whether \p F, or a function of the module it calls (3 calls deep),
/// stores a number over bytes whose declared type says they may hold a
/// pointer (a union member, bytes; at -O0 a struct member with a pointer
/// there): a callee worth telling which of its pointer arguments reach
/// a caller's links (DerivativeKey::LinkedArgs; other callees keep one
/// derivative for every caller).
bool storesNumbersOverPointers(const llvm::Function &F);

} // namespace adcore

#endif // ADCORE_ANALYSIS_LINKEDSTORES_H
