//===- adcore/TemplateRecords.h - Layouts of class templates -*- C++ -*-===//
//
// Clang names the IR type of a class template's specialization after the
// template alone (`Controller<double>` and `Controller<float>` are
// `class.Controller` and `class.Controller.0`, in the order code
// generation meets them), so the C++ type that a parameter names
// (`Controller<double> const&`, SourceTypes.h) does not say which IR type
// holds its fields. The frontend does: it records, for each specialization
// the file completes that holds a floating-point number, its size and the
// scalars at each offset, keyed by the name the demangler prints for it.
// The AD engine rebuilds an IR struct of those scalars (padding as bytes,
// unions as `union.` structs of bytes) where the name alone gives none.
//
// The table travels as named metadata (`adcc.template.records`), attached
// when the AD pass starts, so that the IR carried for link time has it.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_TEMPLATERECORDS_H
#define ADCORE_TEMPLATERECORDS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class Module;
class StructType;
} // namespace llvm

namespace adcore {

/// One scalar of a record, at a byte offset: `d` double, `f` float, `p`
/// pointer, `i` integer of \c Bytes bytes, `u` the \c Bytes bytes of a
/// union (which the IR cannot type).
struct RecordPiece {
  uint64_t Offset = 0;
  char Kind = 'd';
  uint64_t Bytes = 8;
};

/// The layout of one record: its size and its scalars in offset order.
struct RecordShape {
  uint64_t Size = 0;
  std::vector<RecordPiece> Pieces;
};

/// Per demangled C++ name of a class template's specialization
/// (`Controller<double>`), its layout.
using TemplateRecordTable = std::map<std::string, RecordShape>;

/// Adds \p Table to the named metadata of \p M.
void attachTemplateRecords(llvm::Module &M, const TemplateRecordTable &Table);

/// The IR struct that holds the scalars of the record named \p Name by
/// \p M's metadata (a packed literal struct, bytes between its scalars);
/// null where the metadata has none, or two different layouts, for it.
llvm::StructType *templateRecordStruct(const llvm::Module &M,
                                       llvm::StringRef Name);

} // namespace adcore

#endif // ADCORE_TEMPLATERECORDS_H
