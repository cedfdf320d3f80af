//===- adcore/DeclaredPointees.h - Pointee types of struct fields -*- C++ -*-//
//
// At -O0 (and with -fno-strict-aliasing) Clang writes no TBAA: a pointer
// loaded from a struct field (`a->p` with `long long *p`) does not say
// what it points to, and the integers read through it could be a double's
// bits for all the IR says. The frontend knows the field's declared type:
// it records, by the IR name Clang gives each struct or class (`struct.A`,
// without the `.N` suffixes that make names unique) and the byte offset of
// each pointer field in it, what the field's declared pointee is: an
// integer of 16 bits or more, a float, a double, a pointer, or nothing
// known (`void *`, `char *`, a struct, a function). The type analysis uses
// it as it uses the pointer TBAA tag of an optimized load (`p1 long long`),
// no further: C code may store other types through casts in either case.
//
// The table travels as named metadata (`adcc.declared.pointees`: triples
// of a name, an offset and a kind), attached when the AD pass starts, so
// that the IR carried for link time has it; modules linked together append
// their triples. Where triples for the same name and offset disagree (two
// files with different `struct A`s), nothing is known there.
//
// Pseudo entries, whose names no IR type has, say where records may hold
// pointers (their links): `@struct.node` lists the byte offsets of the
// pointers an object of `struct node` may hold (union members, nested
// records and arrays included), `struct.pool@0` those of the record that
// the pointer field at byte 0 of `struct pool` points to (`struct node
// *head`), each with the record's size (an offset and `s`); `struct.pool@8`
// says `0b` where the field is a `void *` or `char *` (any byte it points
// to may hold a pointer); an array field of pointers has the entry of its
// first element. `=g_block` says the same of the global variable whose IR
// name is `g_block`, a pointer or an array of pointers. A record's entry
// includes the offsets of the records whose pointers the translation unit
// converts to pointers to it (`pl->obj = (void *)&nodes[1]`: a `struct obj`
// may be a `struct node`, whose link it holds). A number stored through a pointer read from such
// memory may overwrite a link (LinkedStores.h).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_DECLAREDPOINTEES_H
#define ADCORE_DECLAREDPOINTEES_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace llvm {
class Module;
class StringRef;
class StructType;
} // namespace llvm

namespace adcore {

/// What a pointer field is declared to point to.
enum class DeclaredPointee : unsigned char {
  Unknown, ///< `void *`, `char *`, a struct, or fields that disagree
  Integer,
  Pointer,
  Float,
  Double,
  /// In a pseudo entry, the record's size, at its offset: objects of it
  /// lie one after the other in an array (a pool's blocks).
  Size,
  /// In a pseudo entry of a pointer field, at offset 0: the field points
  /// to bytes (`void *`, `char *`), any of which may hold a pointer.
  Bytes
};

/// Per IR name of a struct (without Clang's `.N` suffix), per byte offset
/// of a pointer field, its declared pointee.
using DeclaredPointeeTable =
    std::map<std::string, std::map<uint64_t, DeclaredPointee>>;

/// Adds \p Table to the named metadata of \p M.
void attachDeclaredPointees(llvm::Module &M, const DeclaredPointeeTable &Table);

/// The declared pointee of the pointer field at byte \p Offset of \p ST,
/// by \p M's metadata (Unknown where none is said, or the sayings differ,
/// or \p ST holds no pointer there).
DeclaredPointee declaredPointee(const llvm::Module &M,
                                const llvm::StructType *ST, uint64_t Offset);

/// Bytes addressed from a pointer to a record: \p Bytes of them at the
/// byte offset \p Offset, or, where \p Variable, at an offset that is not
/// constant (\p Offset its constant part).
struct RecordBytes {
  int64_t Offset = 0;
  uint64_t Bytes = 0;
  bool Variable = false;
};

/// Whether \p At, from a pointer to an object of the record type \p ST,
/// may hold a pointer, by the pseudo entry of its name in \p M's metadata
/// (offsets beyond the record, or before it, in the records next to it, an
/// array of them; any pointer of the record where the offset is not
/// constant); nullopt where none is recorded.
std::optional<bool> recordMayHoldPointer(const llvm::Module &M,
                                         const llvm::StructType *ST,
                                         RecordBytes At);

/// The same for what the pointer field at byte \p Offset of \p ST is
/// declared to point to (true at any bytes for a `void *` or `char *`).
std::optional<bool> fieldPointeeMayHoldPointer(const llvm::Module &M,
                                               const llvm::StructType *ST,
                                               uint64_t Offset, RecordBytes At);

/// The same for what the global variable named \p Name in \p M (a
/// pointer, or an array of pointers: its elements alike) is declared to
/// point to.
std::optional<bool> globalPointeeMayHoldPointer(const llvm::Module &M,
                                                llvm::StringRef Name,
                                                RecordBytes At);

} // namespace adcore

#endif // ADCORE_DECLAREDPOINTEES_H
