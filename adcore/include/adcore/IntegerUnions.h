//===- adcore/IntegerUnions.h - Unions that hold only integers -*- C++ -*-===//
//
// Clang gives a union the IR type of one member (`union { struct { char a,
// b, c, d; } cf; unsigned key; }` is `{ i32 }`): the IR does not say
// whether another member is a float. The frontend does: it records, by the
// IR name Clang gives each union (`union.b2ContactID`, `union.anon`),
// whether every member holds integers only (no float, no pointer). Bytes
// of such a union carry no derivative and no shadow: a copy moves them
// with no adjoint work, like an int's.
//
// The table travels as named metadata (`adcc.integer.unions`: pairs of a
// name and whether it holds integers only), attached when the AD pass
// starts, so that the IR carried for link time has it; modules linked
// together append their pairs. A name whose unions disagree (two files
// with different `union u`, anonymous unions numbered `union.anon.3`)
// counts as holding integers only where every pair for it says so.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_INTEGERUNIONS_H
#define ADCORE_INTEGERUNIONS_H

#include <map>
#include <string>

namespace llvm {
class Module;
class StructType;
} // namespace llvm

namespace adcore {

/// Per IR name of a union (without Clang's `.N` suffix), whether every
/// union of that name holds integers only.
using IntegerUnionTable = std::map<std::string, bool>;

/// Adds \p Table to the named metadata of \p M.
void attachIntegerUnions(llvm::Module &M, const IntegerUnionTable &Table);

/// Whether \p ST is a union that holds integers only, by \p M's metadata.
bool isIntegerUnion(const llvm::Module &M, const llvm::StructType *ST);

} // namespace adcore

#endif // ADCORE_INTEGERUNIONS_H
