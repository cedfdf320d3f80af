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
// having reached it so; whatever the bytes' declared type where the
// pointer was read as a `void *` or `char *`, by the function or by a
// caller that passed it on (a constructor run by placement `new` on a
// pool's block), or as a pointer to a record that may hold a pointer where
// the callee stores a number through it (`init_obj((struct obj
// *)pl->head, x)`). The type a pointer was read as is its TBAA type, at
// -O0 the declared type of the struct field, array element or global
// variable it was read from (a local array: the pointers stored into it);
// a record's includes those whose pointers the file converts to it
// (adcore/DeclaredPointees.h). A pointer whose type says nothing (read
// from a local variable a call may have written, `get(pl, (void **)&o)`;
// made from an integer; at -O0 read from memory of no declared type that
// an entry records, a heap array of `void *`), or one to a record of which
// the file records no pointer (another file may convert a linked record's
// pointer to it), may reach a link in any byte. A number's bytes given by
// the request's argument keep the seed the caller put in their shadow
// (`*out = x * x` with `dout->value = 1`, a union too); elsewhere the
// clear tests what the bytes hold (support/UnreadLinkClears.h).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_LINKEDSTORES_H
#define ADCORE_ANALYSIS_LINKEDSTORES_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace llvm {
class Argument;
class Function;
class StoreInst;
class Value;
} // namespace llvm

namespace adcore {

class TypeAnalysis;

/// DerivativeKey::LinkedArgs holds two bits for each pointer argument i
/// below this: bit i, the caller reached the memory it addresses through a
/// pointer read from memory or returned by a call (a number stored there
/// over bytes whose declared type may hold a pointer starts its adjoint
/// from zero); bit LinkedBytesBit + i, it read that pointer as a `void *`
/// or `char *` (any of the bytes may hold a link: every number stored
/// there does, whatever its declared type: `init_obj((struct obj
/// *)pl->any, x)`, a constructor run by placement `new` on such a block).
constexpr unsigned LinkedBytesBit = 32;

/// The error of a call whose pointer argument from LinkedBytesBit on would
/// need a bit of DerivativeKey::LinkedArgs (calleeLinkedArgs).
constexpr const char *TooManyLinkedArgsError =
    "the callee may store a number over a link of the caller's memory that "
    "its pointer argument 33 or later reaches (its derivative would read the "
    "link's shadow as the number's adjoint), and only the first 32 pointer "
    "arguments can be told so; pass that memory among the first 32 "
    "arguments";

/// Bit i of \p LinkedArgs for the argument \p A, i its number.
bool linkedArgument(const llvm::Argument &A, uint64_t LinkedArgs);

/// Bit LinkedBytesBit + i of \p LinkedArgs for the argument \p A.
bool linkedBytesArgument(const llvm::Argument &A, uint64_t LinkedArgs);

/// Whether the pointer \p Ptr of the primal function may address memory
/// that the function reached through a pointer read from memory (not a
/// local variable of its own) or returned by a call other than an
/// allocation's, or through its pointer parameter i with bit i (or
/// LinkedBytesBit + i) of \p LinkedArgs (its caller passed such memory:
/// DerivativeKey): at -O0 through the stores into its local slots too.
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
/// adcore/DeclaredPointees.h's pseudo entries), or where it is a parameter
/// i with bit LinkedBytesBit + i of \p LinkedArgs.
bool mayHoldPointerBytes(const llvm::StoreInst &SI, const TypeAnalysis &Types,
                         uint64_t LinkedArgs);

/// Whether the pointer \p Ptr of the primal function was read (here, or in
/// a function whose result it is, 3 calls deep; through a pointer variable
/// at -O0) as a `void *` or `char *`, or is its parameter i with bit
/// LinkedBytesBit + i of \p LinkedArgs: a caller's link may lie in any
/// of the bytes it addresses.
bool readAsLinkedBytes(const llvm::Value *Ptr, uint64_t LinkedArgs);

/// Whether \p F, or a function of the module it calls (3 calls deep),
/// stores a number over bytes whose declared type says they may hold a
/// pointer (a union member, bytes; at -O0 a struct member with a pointer
/// there): a callee worth telling which of its pointer arguments reach
/// a caller's links (DerivativeKey::LinkedArgs; other callees keep one
/// derivative for every caller).
bool storesNumbersOverPointers(const llvm::Function &F);

/// Whether \p F, or a function of the module it calls (3 calls deep),
/// stores a number (of a floating-point type) at all: a callee worth
/// telling which of its pointer arguments the caller read as a `void *`
/// or `char *` (bit LinkedBytesBit + i of DerivativeKey::LinkedArgs).
bool storesNumbers(const llvm::Function &F);

/// DerivativeKey::LinkedArgs of a call of \p Callee from a function whose
/// own key has \p CallerLinked: \p Primals[i] is pointer argument i in
/// the caller's primal where it has a shadow, null otherwise. Bit i where
/// the callee may store a number over a link it reaches (reachedThroughLink),
/// bits i and LinkedBytesBit + i where the caller read it as a `void *` or
/// `char *` and the callee stores numbers, or as a pointer to a record that
/// may hold a pointer at bytes where the callee stores a number through it
/// (`init_obj((struct obj *)pl->head, x)`). Nullopt where an argument from
/// LinkedBytesBit on would need a bit (no key says it: the caller refuses
/// the call).
std::optional<uint64_t>
calleeLinkedArgs(const llvm::Function &Callee,
                 llvm::ArrayRef<const llvm::Value *> Primals,
                 uint64_t CallerLinked);

} // namespace adcore

#endif // ADCORE_ANALYSIS_LINKEDSTORES_H
