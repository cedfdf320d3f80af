//===- analysis/TypeAnalysis.h - What values and memory hold ----*- C++ -*-===//
//
// LLVM IR types say little about memory (every pointer is `ptr`) and not
// always what an integer is (SROA turns a memcpy of doubles into i64 loads
// and stores). The type analysis infers, for each value, its underlying
// kind — integer, pointer, float, double — and, for each pointer, the kind
// of what it points to at each byte offset. It starts from what the
// frontend wrote into the IR (the types of loads and stores, TBAA access
// tags such as "double" or "any pointer") and propagates through GEPs,
// phis, selects, casts and memcpy to a fixed point.
//
// Derivative code needs it where the IR type does not decide: an integer
// that carries a double's bits must carry its derivative too, and a memcpy
// must know which bytes are floating-point numbers.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_TYPEANALYSIS_H
#define ADCORE_TYPEANALYSIS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

namespace llvm {
class AllocaInst;
class CallBase;
class DataLayout;
class Function;
class GEPOperator;
class Instruction;
class MemTransferInst;
class Module;
class StoreInst;
class StructType;
class Type;
class Value;
class raw_ostream;
} // namespace llvm

namespace adcore {

/// The lattice of underlying kinds: Unknown below everything, Conflict
/// (e.g. a union read as int and as double) above.
enum class Kind : unsigned char {
  Unknown,
  Integer,
  Pointer,
  Float,
  Double,
  Conflict
};

llvm::StringRef kindName(Kind K);

/// The meet of two kinds in the lattice: Unknown gives the other, two
/// different known kinds give Conflict.
Kind meet(Kind A, Kind B);

/// Kind of each byte offset of the memory a pointer points to. Offset -1
/// stands for "every element" of an array indexed by a variable.
using MemoryLayout = std::map<int64_t, Kind>;

class TypeAnalysis {
public:
  explicit TypeAnalysis(llvm::Function &F);

  /// The underlying kind of the (scalar) value \p V.
  Kind kindOf(const llvm::Value *V) const;
  /// What \p Ptr points to at byte \p Offset.
  Kind memoryKind(const llvm::Value *Ptr, int64_t Offset = 0) const;
  /// True when the integer \p V holds the bits of a float or double.
  bool isFloatBits(const llvm::Value *V) const {
    Kind K = kindOf(V);
    return K == Kind::Float || K == Kind::Double;
  }

  /// What \p Ptr points to, offset by offset (empty when unknown).
  const MemoryLayout &layout(const llvm::Value *Ptr) const;

  /// The size of the elements of the array of structs \p Ptr points into,
  /// where a GEP over a declared struct type says it (0: unknown). A copy
  /// of such an array whose length is not a constant needs it to find the
  /// floating-point fields of each element.
  uint64_t elementSize(const llvm::Value *Ptr) const {
    auto It = Strides.find(Ptr);
    return It == Strides.end() || It->second == ConflictingSizes ? 0
                                                                 : It->second;
  }

  /// Prints every value with a known kind, and every pointer's layout.
  void print(llvm::raw_ostream &OS) const;

private:
  bool join(const llvm::Value *V, Kind K);
  /// \p Ptr points to elements of \p Size bytes (or to an offset into one
  /// that is a multiple of the size).
  bool joinStride(const llvm::Value *Ptr, uint64_t Size);
  /// Strides[A] joined into B and back.
  bool joinStrides(const llvm::Value *A, const llvm::Value *B);
  bool joinMemory(const llvm::Value *Ptr, int64_t Offset, Kind K);
  bool joinLayout(const llvm::Value *Ptr, const MemoryLayout &L, int64_t Shift,
                  int64_t Limit);
  /// joinLayout of Layouts[From] (windowed by \p Window where it is not
  /// negative: OffsetChoices.h) into To: the analysis' hot path, every GEP,
  /// phi and copy of every round, which joins again only a source that has
  /// changed since (LayoutVersions) and copies no layout where it can.
  bool joinLayoutOf(const llvm::Value *To, const llvm::Value *From,
                    int64_t Shift, int64_t Limit, int64_t Window = -1);
  bool visit(llvm::Instruction &I);
  /// Whether the \p Bytes bytes at \p Ptr hold fields of more than one
  /// kind (an `int` and a `float` loaded as one i64): the loaded value is
  /// then none of them.
  bool spansMixedFields(const llvm::Value *Ptr, uint64_t Bytes) const;
  /// Such integer loads and stores, found after a run of the analysis.
  llvm::SmallPtrSet<const llvm::Instruction *, 4> MixedAccesses;
  /// One run of the analysis: the seeds, then the propagation to a fixed
  /// point.
  void analyse();
  /// What a template instance says of array elements that no access names:
  /// the fields of a copy tagged !tbaa.struct, the element size of an exact
  /// division of a pointer difference (ElementEvidence.cpp).
  bool joinElementEvidence(const llvm::Instruction &I);
  /// What \p A points to is what \p B points to, and back (a copy of
  /// \p Limit bytes, or -1 for all).
  bool joinBothWays(const llvm::Value *A, const llvm::Value *B, int64_t Limit);
  /// What the source type of a stack variable says its bytes hold, for
  /// the memory \p Ptr points to (the variable itself, or a pointer that
  /// callers pass it as).
  void seedFromAllocatedType(const llvm::Value *Ptr,
                             const llvm::AllocaInst &AI);
  /// What the declared type \p T of an object says its bytes hold, for
  /// the memory \p Ptr points to (\p WithFields: also the fields of a
  /// struct, not only the elements of an array of floats).
  void seedFromDeclaredType(const llvm::Value *Ptr, llvm::Type *T,
                            bool WithFields = true);
  /// What the source type of a GEP over a struct says its base points to.
  void seedFromStructGEP(const llvm::GEPOperator &GEP);
  /// \p Ptr points to elements of the struct \p ST, with its declared
  /// fields. Returns whether anything changed.
  bool seedStructElements(const llvm::Value *Ptr, llvm::StructType *ST);
  /// What the pointer \p Ptr, loaded or stored by \p I, points to when
  /// I's TBAA type is a pointer to a struct ("p1 _ZTS5point", "p1 point"):
  /// elements of that struct, with its declared fields. Returns whether
  /// anything changed.
  bool seedFromPointeeStruct(const llvm::Value *Ptr,
                             const llvm::Instruction &I);
  /// Per pointee name of pointer TBAA, its IR struct type (or null: none,
  /// or not known uniquely).
  llvm::DenseMap<llvm::StringRef, llvm::StructType *> TBAAStructs;
  /// What a pointer read from or written to the struct field \p Address
  /// addresses (a struct GEP) points to by the field's declared type
  /// (adcore/DeclaredPointees.h); Unknown where nothing is recorded
  /// (FieldDeclaredPointees.cpp).
  Kind declaredFieldPointee(const llvm::Value *Address);
  /// (Its answers by struct and offset.)
  llvm::DenseMap<std::pair<llvm::StructType *, uint64_t>, Kind>
      DeclaredFieldPointees;
  /// Parameters that are std::vector<double> or dynamic-size Eigen objects
  /// (SourceTypes.h): the kind of the elements their pointers point to.
  llvm::DenseMap<const llvm::Value *, Kind> VectorElements;
  /// The same for `this` of a std::vector<point>'s member function: the
  /// struct its pointers point to elements of.
  llvm::DenseMap<const llvm::Value *, llvm::StructType *> VectorStructs;
  /// Seeds the pointers marked with what the parameter types of callees
  /// inlined into a simplified copy said (PointeeMetadata).
  void seedFromPointeeMarks();
  /// Seeds pointer arguments from the stack variables that every caller in
  /// the module passes (CallerTypes.cpp).
  void seedFromCallers();
  /// Seeds untyped pointers read from memory an argument reaches with what
  /// the callers access through the same reads (FieldPointees.cpp).
  void seedFromFieldPointees();
  /// Seeds pointers passed to functions of the module with what those
  /// read and write through them (CalleeTypes.cpp).
  void seedFromCallees();

  llvm::Function &F;
  llvm::DenseMap<const llvm::Value *, Kind> Kinds;
  llvm::DenseMap<const llvm::Value *, MemoryLayout> Layouts;
  /// How many times each layout has changed, and the version of its
  /// source each join of joinLayoutOf (to, from, shift, limit, window) last
  /// read.
  llvm::DenseMap<const llvm::Value *, unsigned> LayoutVersions;
  llvm::DenseMap<std::tuple<const llvm::Value *, const llvm::Value *, int64_t,
                            int64_t, int64_t>,
                 unsigned>
      JoinedVersions;
  static constexpr uint64_t ConflictingSizes = ~uint64_t(0);
  llvm::DenseMap<const llvm::Value *, uint64_t> Strides;
};

/// The argument \p Call returns, if its callee returns that one argument
/// on every path (std::move, std::forward, Eigen's DefaultDevice::get),
/// through its local slot at -O0 too (CallerTypes.cpp).
std::optional<unsigned> returnedArgument(const llvm::CallBase &Call);

/// True when an integer \p F returns holds the bits of a float or double
/// (`memcpy(&u, &x, 8); return u;`): such a result carries a derivative.
bool returnsFloatBits(llvm::Function &F);

/// The fields of the aggregate a memcpy copies, by Clang's !tbaa.struct
/// (empty without it, or when a field's type says nothing, such as bytes).
MemoryLayout copiedFields(const llvm::MemTransferInst &MT);

/// The kind of memory the PointeeMetadata mark on \p P (an instruction, or
/// an argument marked on its function) names: what the C++ parameter type
/// of a callee inlined into a simplified copy said \p P points to;
/// Unknown where none (PointeeMarks.cpp).
Kind markedPointeeKind(const llvm::Value *P);

/// The struct the PointeeMetadata mark on \p P names (a closure of doubles
/// and integers passed by `const&` to an inlined callee); null where none.
llvm::StructType *markedPointeeStruct(const llvm::Value *P);

/// What the bytes the copy \p MT moves hold: copiedFields(MT), else what
/// \p Types says of the memory at \p Dest and \p Source (the copy's
/// pointers in the analysed function), limited to the copied bytes when
/// the length is a constant (the memory may be part of a larger object
/// whose other fields are used otherwise). Offset -1: every element.
MemoryLayout copyLayout(const TypeAnalysis &Types,
                        const llvm::MemTransferInst &MT,
                        const llvm::Value *Dest, const llvm::Value *Source);

/// The size of the structs of an array that a copy from \p Source to
/// \p Dest moves, where the type analysis knows it for both pointers that
/// it knows it for; 0 when unknown or different.
uint64_t copyStride(const TypeAnalysis &Types, const llvm::Value *Dest,
                    const llvm::Value *Source);

/// The kind the TBAA access tag of the load or store \p I names (Clang's
/// scalar type names; Unknown without a tag and for "omnipotent char").
Kind kindOfTBAA(const llvm::Instruction &I);

/// What the pointer the load or store \p I accesses points to, by the
/// pointer's TBAA type: a `double *` ("p1 double") points to doubles, a
/// `double **` to pointers. Unknown for `void *`, `char *` and pointers to
/// structs.
Kind pointeeKindOfTBAA(const llvm::Instruction &I);

/// The struct that the pointer the load or store \p I accesses points to,
/// by the pointer's TBAA type ("p1 _ZTS4node", "p1 node"); null where it
/// names none, or none uniquely.
llvm::StructType *pointeeStructOfTBAA(const llvm::Instruction &I);

/// Whether the pointer the load or store \p I accesses points to bytes by
/// its TBAA type: a `void *` ("any pointer"), a `char *` ("p1 omnipotent
/// char").
bool pointsToBytesByTBAA(const llvm::Instruction &I);

/// The struct whose pointer field the struct GEP \p Address addresses
/// (the innermost one its indices step into) and the field's byte offset
/// in it; nullopt where the last index names no pointer field of a struct
/// (FieldDeclaredPointees.cpp).
std::optional<std::pair<llvm::StructType *, uint64_t>>
addressedStructField(const llvm::Value *Address, const llvm::DataLayout &DL);

/// The struct whose array field of pointers (of arrays of them) the
/// struct GEP \p Address addresses, and the field's byte offset in it;
/// nullopt for other addresses. Its elements are alike: the frontend
/// records the first one's pointee (FieldDeclaredPointees.cpp).
std::optional<std::pair<llvm::StructType *, uint64_t>>
addressedArrayField(const llvm::Value *Address, const llvm::DataLayout &DL);

/// The kind of a first-class IR type (floats, pointers; integers are
/// Unknown: an integer type alone does not say what the bits are).
Kind kindOfType(const llvm::Type *T);

/// The floating-point scalars and pointers of the declared type \p T, and
/// the integers (of 16 bits or more) of its structs, at their byte offsets
/// from \p At, appended to \p Out; false when it holds a union (whose IR
/// type names one member only) or is too large to list
/// (DeclaredTypes.cpp).
bool declaredFields(const llvm::Module *M, const llvm::DataLayout &DL,
                    llvm::Type *T, int64_t At,
                    llvm::SmallVectorImpl<std::pair<int64_t, Kind>> &Out,
                    bool InStruct = false);

/// True when \p Ptr points into a local or global variable whose declared
/// type holds floating-point numbers (a double, a struct or an array with
/// one).
bool declaredWithFloats(const llvm::Value *Ptr);

/// True when the address computations on \p Ptr, the start of an array of
/// structs (`p + i`, `&p[i].f`), name a struct element type, and every
/// element type they name holds no floating-point number (an allocator's
/// array of `{int, T *}` records, grown by memcpy), or index integers only
/// (an `int *` buffer grown by memcpy). For a pointer loaded
/// from memory, also those on the other loads of the same address, or at
/// -O0 (each use reloads the pointer) of the same field of the same struct
/// type, in the function.
bool declaredElementsWithoutFloats(const llvm::Value *Ptr);

/// Where the address computations on \p Ptr (as for
/// declaredElementsWithoutFloats) name one struct element type, which
/// holds floating-point numbers and no union: its scalars into \p L and
/// its size (the stride of the array); 0 otherwise. (An array of structs
/// grown by memcpy at -O0, where the type analysis does not see the
/// accesses through the reloaded pointer.)
uint64_t declaredElementLayout(const llvm::Value *Ptr, MemoryLayout &L);

/// What the callers of the function of \p Ptr say of the memory it points
/// to, where \p Ptr is, past constant and variable offsets, a pointer read
/// from memory reached from an argument (a field: `c->r`, `c->u.v`,
/// `(char *)c->r + 8 * to`): the one kind every caller reads and writes
/// through the pointers it reaches by the same path (FieldPointees.cpp);
/// Conflict where they say several, or where a caller cannot be seen or
/// says nothing. std::nullopt where \p Ptr is no such pointer.
std::optional<Kind> fieldPointeeEvidence(const llvm::Value *Ptr);

/// True when \p SI stores an integer over a part of a floating-point
/// variable or field, by the declared type of the local or global it
/// writes (fdlibm's SET_HIGH_WORD through a union, a byte of a double
/// changed through a `char *`): what it does to the number's derivative is
/// not known.
bool storesIntoPartOfFloat(const llvm::StoreInst &SI);

/// The error for such a store into memory with derivatives.
inline constexpr const char *PartOfFloatStoreError =
    "an integer is stored over a part of a floating-point value with a "
    "derivative (its high word or a byte, through a union or a char "
    "pointer); adcc cannot follow the derivative through the bits; use "
    "floating-point operations (fabs, copysign, -x, ldexp) instead";

/// True when the type analysis knows integers in the \p Length bytes at
/// \p Ptr (a pointer of the analysed function) and nothing else (no
/// pointer, no float): numbers, whose shadow bytes are never written (the
/// shadow may be the primal's own table). A run-time length needs an array
/// of integers (every element known).
bool holdsOnlyIntegers(const TypeAnalysis &Types, const llvm::Value *Ptr,
                       const llvm::Value *Length);

/// True when the type analysis knows a float or a double in the \p Length
/// bytes at \p Ptr (a pointer of the analysed function).
bool holdsFloatingPoint(const TypeAnalysis &Types, const llvm::Value *Ptr,
                        const llvm::Value *Length);

/// True when the type analysis knows integers in the bytes the primal copy
/// \p Copy moves, at its destination or its source, and nothing else (no
/// pointer, no float): the copy carries no derivatives and no shadows.
bool copiesOnlyIntegers(const TypeAnalysis &Types,
                        const llvm::MemTransferInst &Copy);

} // namespace adcore

#endif // ADCORE_TYPEANALYSIS_H
