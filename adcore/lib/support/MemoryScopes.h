//===- MemoryScopes.h - Alias scopes of generated code (private) -*- C++
//-*-===//
//
// The memory a derivative touches is of three kinds that never overlap: the
// primal's memory, shadow memory (derivatives) and the tape. Its loads and
// stores say which with scoped-noalias metadata (one scope per kind, each
// access noalias with the other two), so that LLVM may keep a primal value
// in a register across a store into a shadow (the reverse of
// `c[j] += a * b[j]` reads a once; a shadow zeroed and written again is
// written once) and vectorize reverse loops without run-time alias checks
// between the kinds. That shadows do not overlap primal memory is what an
// AD tool assumes of its arguments anyway (docs/api.md).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_MEMORYSCOPES_H
#define ADCORE_MEMORYSCOPES_H

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

namespace adcore {

enum class MemoryClass { Primal, Shadow, Tape };

/// Marks a tape push or pop whose block is a shadow stack slot (shadow
/// memory on the tape, not a record).
constexpr const char *ShadowBlockMetadata = "adcc.shadow.block";

/// Declares the load or store \p I an access of \p Class (keeping scopes it
/// already has), unless it already has a class. Other instructions are left
/// alone.
void tagMemoryClass(llvm::Instruction &I, MemoryClass Class);
/// Marks an access that tagPrimalCopy moved from the shadow class to the
/// primal one: still memory the derivatives made (their records' shadows,
/// a shadow slot), which requests/DenseViews.cpp follows.
constexpr const char *EarlierShadowMetadata = "adcc.shadow.earlier";

/// Declares the load or store \p I, in the copy of a function being
/// differentiated, an access of that derivative's primal memory. A function
/// differentiated again is itself a derivative (forward over forward,
/// forward over reverse): its shadow accesses touch memory that is primal
/// memory of the new derivative, which its caller (tagged primal too) writes
/// and reads, so their shadow class no longer holds there. Tape accesses
/// keep their class (records are never the user's memory). Marks the
/// accesses it moves (EarlierShadowMetadata).
void tagPrimalCopy(llvm::Instruction &I);
/// Whether the load or store \p I is declared an access of \p Class.
bool hasMemoryClass(const llvm::Instruction &I, MemoryClass Class);
/// Declares the load or store \p I an access of lane \p Lane of a batched
/// derivative of width \p Width (> 1): the lanes' shadows are separate
/// memory, each lane noalias with the others (a second scope domain).
void tagLane(llvm::Instruction &I, unsigned Lane, unsigned Width);
/// Tags every load and store of \p F (generated code, before optimization)
/// whose address is in the tape: records and the runtime's tape fields.
void tagTapeAccesses(llvm::Function &F);

} // namespace adcore

#endif // ADCORE_MEMORYSCOPES_H
