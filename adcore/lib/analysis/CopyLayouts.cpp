//===- CopyLayouts.cpp - What the bytes of a copy hold -------------------===//
//
// A memcpy or memmove moves bytes; which of them are floating-point numbers
// (whose adjoints move back in the reverse sweep), pointers (whose shadows
// move with them) or integers (nothing) the type analysis says of the
// memory at either end, and Clang's !tbaa.struct of the copied aggregate.
// The reverse sweep's adjoint copy and the augmented sweep's shadow copy
// read it the same way (TypeAnalysis.h). Where the analysis finds two
// kinds in the copied bytes, a copy of exactly one scalar variable is
// typed by that variable.
//
//===----------------------------------------------------------------------===//

#include "ErasedStorage.h"
#include "SourceTypes.h"
#include "adcore/IntegerUnions.h"
#include "TypeAnalysis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {

/// True when the integer variable \p Var is only read and written as an
/// integer, besides one copy (the primal of the copy asked about, which
/// may be a clone): no float is stored into it nor read out of its bits,
/// and no other copy moves its bytes.
static bool usedAsInteger(const Value *Var) {
  auto FromFloatBits = [](const Value *V) {
    auto *BC = dyn_cast<BitCastInst>(V);
    return BC && BC->getSrcTy()->isFPOrFPVectorTy();
  };
  unsigned Copies = 0;
  for (const User *U : Var->users()) {
    if (isa<MemTransferInst>(U) && ++Copies == 1)
      continue;
    if (auto *LI = dyn_cast<LoadInst>(U)) {
      if (!LI->getType()->isIntegerTy() ||
          any_of(LI->users(), [](const User *R) {
            return isa<BitCastInst>(R) && R->getType()->isFPOrFPVectorTy();
          }))
        return false;
      continue;
    }
    if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getPointerOperand() != Var ||
          !SI->getValueOperand()->getType()->isIntegerTy() ||
          FromFloatBits(SI->getValueOperand()))
        return false;
      continue;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      continue;
    return false;
  }
  return true;
}

/// The kind of the variable (a local or a global of a scalar type) that
/// \p Ptr is the address of, when the copy \p MT moves exactly its bytes:
/// a floating-point variable's number, or an integer variable used only
/// as an integer; Unknown otherwise.
static Kind variableKind(const Value *Ptr, const MemTransferInst &MT) {
  auto *Len = dyn_cast<ConstantInt>(MT.getLength());
  if (!Ptr || !Len)
    return Kind::Unknown;
  Ptr = Ptr->stripPointerCasts();
  Type *T = nullptr;
  if (auto *AI = dyn_cast<AllocaInst>(Ptr); AI && !AI->isArrayAllocation())
    T = AI->getAllocatedType();
  else if (auto *GV = dyn_cast<GlobalVariable>(Ptr))
    T = GV->getValueType();
  if (!T || MT.getModule()->getDataLayout().getTypeStoreSize(T) !=
                Len->getZExtValue())
    return Kind::Unknown;
  if (T->isIntegerTy())
    return usedAsInteger(Ptr) ? Kind::Integer : Kind::Unknown;
  Kind K = T->isFloatingPointTy() ? kindOfType(T) : Kind::Unknown;
  return K == Kind::Double || K == Kind::Float ? K : Kind::Unknown;
}

/// The scalars of the declared type \p T at byte \p At and on, into \p Out
/// (floating-point numbers, pointers, integers of 16 bits or more), for
/// the bytes [Begin, End); false for a type that does not say (bytes, a
/// vector, a type too large to list).
static bool declaredScalars(const DataLayout &DL, Type *T, int64_t At,
                            int64_t Begin, int64_t End, MemoryLayout &Out) {
  int64_t Size = int64_t(DL.getTypeAllocSize(T));
  if (At + Size <= Begin || At >= End)
    return true;
  if (Out.size() > 256)
    return false;
  if (T->isFloatTy() || T->isDoubleTy() || T->isPointerTy()) {
    if (At < Begin || At + Size > End)
      return false; // a scalar cut by the copy
    Out[At - Begin] = kindOfType(T);
    return true;
  }
  if (T->isIntegerTy()) {
    if (T->getIntegerBitWidth() < 16)
      return true; // a flag: nothing to move
    if (At < Begin || At + Size > End)
      return false;
    Out[At - Begin] = Kind::Integer;
    return true;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    if (AT->getElementType()->isIntegerTy(8))
      return AT->getNumElements() <= 8; // an empty member's padding, flags
    int64_t E = int64_t(DL.getTypeAllocSize(AT->getElementType()));
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      if (!declaredScalars(DL, AT->getElementType(), At + int64_t(I) * E,
                           Begin, End, Out))
        return false;
    return true;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (!declaredScalars(DL, ST->getElementType(I),
                           At + int64_t(SL->getElementOffset(I)), Begin, End,
                           Out))
        return false;
    return true;
  }
  return false;
}

/// What the declared type of the variable \p Ptr points into says of the
/// \p Len bytes from \p Ptr; empty where it does not say.
static MemoryLayout declaredLayout(const Value *Ptr, uint64_t Len,
                                   const DataLayout &DL) {
  if (!Ptr)
    return {};
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base =
      Ptr->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true);
  Type *T = nullptr;
  if (auto *AI = dyn_cast<AllocaInst>(Base); AI && !AI->isArrayAllocation())
    T = AI->getAllocatedType();
  else if (auto *GV = dyn_cast<GlobalVariable>(Base))
    T = GV->getValueType();
  if (!T || !isa<StructType>(T) || Offset.isNegative())
    return {};
  int64_t Begin = Offset.getSExtValue(), End = Begin + int64_t(Len);
  if (End > int64_t(DL.getTypeAllocSize(T)))
    return {};
  MemoryLayout L;
  if (!declaredScalars(DL, T, 0, Begin, End, L))
    return {};
  return L;
}

/// The floating-point kind of the elements that \p Ptr, an element address
/// (`&x[i]`, `a->r[i]`, an array decayed), points to, from the element type
/// its address computation names: `double`, `float`, or arrays of them;
/// Unknown otherwise. (At -O0 a copy through such pointers of a struct
/// field, `memcpy(a->r[j], a->r[i], sizeof(real3))`, is the only place the
/// analysis sees them.)
static Kind elementKind(const Value *Ptr) {
  // (No primal pointer: a copy in code the derivative made.)
  const auto *GEP = dyn_cast_or_null<GEPOperator>(Ptr);
  if (!GEP)
    return Kind::Unknown;
  Type *T = GEP->getResultElementType();
  while (auto *AT = dyn_cast<ArrayType>(T))
    T = AT->getElementType();
  if (T->isDoubleTy())
    return Kind::Double;
  if (T->isFloatTy())
    return Kind::Float;
  return Kind::Unknown;
}

static std::optional<std::pair<const Type *, uint64_t>>
fieldOf(const Value *Ptr);

/// The array of integers that a struct declares as a field and whose first
/// element \p Ptr addresses, the array decayed (`dst->d` of `int32_t
/// d[4]` in a struct, as -O0 computes it); null otherwise (a union's
/// member, integers narrower than 16 bits).
static const ArrayType *declaredIntegerField(const Value *Ptr) {
  const auto *GEP = dyn_cast_or_null<GEPOperator>(Ptr);
  auto *AT = GEP ? dyn_cast<ArrayType>(GEP->getSourceElementType()) : nullptr;
  if (!AT || !AT->getElementType()->isIntegerTy() ||
      AT->getElementType()->getIntegerBitWidth() < 16 ||
      !GEP->hasAllZeroIndices())
    return nullptr;
  auto Field = fieldOf(GEP->getPointerOperand());
  const auto *ST = Field ? dyn_cast<StructType>(Field->first) : nullptr;
  if (!ST || (ST->hasName() && ST->getName().contains("union.")) ||
      ST->getElementType(Field->second) != AT)
    return nullptr;
  return AT;
}

static bool holdsUnion(const Module *M, const Type *T);
static bool unionWithin(Type *T, int64_t Begin, int64_t End,
                        const DataLayout &DL);

/// What the struct type \p ST says of the bytes [\p Begin, \p Begin +
/// \p Len); empty where it does not say or they overlap a union.
static MemoryLayout structLayout(StructType *ST, int64_t Begin, uint64_t Len,
                                 const DataLayout &DL) {
  int64_t End = Begin + int64_t(Len);
  if (!ST->isSized() || Begin < 0 || End > int64_t(DL.getTypeAllocSize(ST)) ||
      unionWithin(ST, Begin, End, DL))
    return {};
  MemoryLayout L;
  if (!declaredScalars(DL, ST, 0, Begin, End, L))
    return {};
  return L;
}

/// What the struct that the C++ parameter type of the argument \p Ptr
/// points into names (`Controller const&`, SourceTypes.h) says of the
/// \p Len bytes from \p Ptr; empty where it does not say.
static MemoryLayout parameterLayout(const Value *Ptr, uint64_t Len,
                                    const DataLayout &DL) {
  if (!Ptr || !Ptr->getType()->isPointerTy())
    return {};
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const auto *A = dyn_cast<Argument>(
      Ptr->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true));
  if (!A)
    return {};
  for (auto [ArgNo, ST] : seedsFromSignature(*A->getParent()).Structs)
    if (ArgNo == A->getArgNo())
      return structLayout(ST, Offset.getSExtValue(), Len, DL);
  return {};
}

/// Whether the bytes [\p Begin, \p End) of the type \p T overlap a union.
static bool unionWithin(Type *T, int64_t Begin, int64_t End,
                        const DataLayout &DL) {
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsUnion(nullptr, AT->getElementType());
  auto *ST = dyn_cast<StructType>(T);
  if (!ST)
    return false;
  if (ST->hasName() && ST->getName().contains("union."))
    return true;
  const StructLayout *SL = DL.getStructLayout(ST);
  for (unsigned I = 0; I < ST->getNumElements(); ++I) {
    int64_t From = int64_t(SL->getElementOffset(I));
    int64_t To = From + int64_t(DL.getTypeAllocSize(ST->getElementType(I)));
    if (From < End && Begin < To &&
        unionWithin(ST->getElementType(I), Begin - From, End - From, DL))
      return true;
  }
  return false;
}

/// What the struct type that the address computation \p Ptr names
/// (`&s->f`, constant indices) says of the \p Len bytes from \p Ptr;
/// empty where it does not say.
static MemoryLayout fieldLayout(const Value *Ptr, uint64_t Len,
                                const DataLayout &DL) {
  const auto *GEP = dyn_cast_or_null<GEPOperator>(Ptr);
  auto *ST = GEP ? dyn_cast<StructType>(GEP->getSourceElementType()) : nullptr;
  if (!ST)
    return {};
  // (A union elsewhere in the struct, std::function's storage beside the
  // copied fields, says nothing of these bytes: structLayout.)
  APInt Offset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
  if (!GEP->accumulateConstantOffset(DL, Offset))
    return {};
  return structLayout(ST, Offset.getSExtValue(), Len, DL);
}

MemoryLayout copyLayout(const TypeAnalysis &Types, const MemTransferInst &MT,
                        const Value *Dest, const Value *Source) {
  MemoryLayout L = copiedFields(MT);
  if (!L.empty())
    return L;
  // A type-erasure manager's clone of the object it keeps (std::any's
  // `new T(*p)` out of storage typed as pointers): the object's fields.
  if (auto *CL = dyn_cast<ConstantInt>(MT.getLength()))
    if (Type *T = erasedObjectType(MT)) {
      const DataLayout &DL = MT.getModule()->getDataLayout();
      MemoryLayout D;
      if (CL->getZExtValue() == DL.getTypeAllocSize(T) &&
          declaredScalars(DL, T, 0, 0, int64_t(CL->getZExtValue()), D))
        return D;
    }
  // A struct an inlined callee's C++ parameter type named at one end (a
  // lambda's closure of doubles and an int, cloned by std::function's
  // manager into storage that holds pointers on its other paths), copied
  // whole: its declared fields.
  if (auto *CL = dyn_cast<ConstantInt>(MT.getLength()))
    for (const Value *P : {Source, Dest})
      if (StructType *ST = P ? markedPointeeStruct(P->stripPointerCasts())
                             : nullptr) {
        const DataLayout &DL = MT.getModule()->getDataLayout();
        MemoryLayout D;
        if (CL->getZExtValue() == DL.getTypeAllocSize(ST) &&
            declaredScalars(DL, ST, 0, 0, int64_t(CL->getZExtValue()), D))
          return D;
      }
  L = Types.layout(Dest);
  for (auto [Offset, K] : Types.layout(Source))
    L.emplace(Offset, K);
  // (A copy of a few bytes out of a struct variable whose other part is an
  // array read at a variable index, Eigen's product evaluator holding a
  // vector beside a Map: the analysis says "doubles everywhere"; the
  // variable's declared type says which bytes the copy moves.)
  if (auto *CL = dyn_cast<ConstantInt>(MT.getLength()); CL && L.count(-1)) {
    const DataLayout &DL = MT.getModule()->getDataLayout();
    // (Where it names every floating-point number the analysis found at a
    // fixed offset among the copied bytes: those after them, the rest of
    // the object, are not its to name.)
    auto Agrees = [&](const MemoryLayout &D) {
      return all_of(L, [&](const auto &E) {
        bool Float = E.second == Kind::Double || E.second == Kind::Float;
        auto It = D.find(E.first);
        return E.first < 0 || uint64_t(E.first) >= CL->getZExtValue() ||
               !Float || (It != D.end() && It->second == E.second);
      });
    };
    for (const Value *P : {Dest, Source})
      if (MemoryLayout D = declaredLayout(P, CL->getZExtValue(), DL);
          !D.empty() && Agrees(D))
        return D;
  }
  if (auto *CL = dyn_cast<ConstantInt>(MT.getLength()))
    for (auto It = L.begin(); It != L.end();)
      It = It->first >= 0 && uint64_t(It->first) >= CL->getZExtValue()
               ? L.erase(It)
               : std::next(It);
  // A run-time count of the integers of an array that a struct declares
  // as a field, into it or out of it (KANN's kad_copy_dim1 and
  // kann_new_leaf_array at -O0, `memcpy(dst->d, src->d, src->n_d *
  // sizeof(int))`, `memcpy(p->d, d, n_d * sizeof(int32_t))`): integers,
  // where the analysis finds nothing else in the array's bytes at either
  // end; the struct's next fields, which it finds after the array, the
  // copy does not reach.
  const ArrayType *AT = declaredIntegerField(Dest);
  if (!AT)
    AT = declaredIntegerField(Source);
  if (AT && !isa<ConstantInt>(MT.getLength())) {
    uint64_t Bytes = MT.getModule()->getDataLayout().getTypeAllocSize(
        const_cast<ArrayType *>(AT));
    if (all_of(L, [&](const auto &E) {
          return E.second == Kind::Integer ||
                 (E.first >= 0 && uint64_t(E.first) >= Bytes);
        }))
      return MemoryLayout{{-1, Kind::Integer}};
  }
  // Doubles and integers serialized into one byte buffer (`memcpy(buf +
  // off, &t, sizeof t)`, read back the same way): the analysis finds both
  // kinds at the buffer's variable offsets and gives the copies, and the
  // variables at their ends, a conflict. The bytes of one variable copied
  // whole are that variable's: a floating-point number, or an integer
  // where the variable is only used as one. (Variables of two kinds at the
  // two ends, bits moved between a double and an integer: no answer.)
  bool Untyped = L.empty() || any_of(L, [](const auto &E) {
                   return E.second == Kind::Conflict;
                 });
  if (!Untyped)
    return L;
  // A union of several kinds at both ends (std::function's storage, where
  // its manager stores pointers on some paths and clones a lambda's
  // captured doubles on another), one end the pointer an inlined callee's
  // C++ parameter type named (`$_0 const&`, a closure of doubles): that
  // callee's copy is of its kind.
  for (const Value *P : {Source, Dest})
    if (Kind K = P ? markedPointeeKind(P->stripPointerCasts()) : Kind::Unknown;
        K == Kind::Double || K == Kind::Float)
      if (auto *CL = dyn_cast<ConstantInt>(MT.getLength());
          CL && CL->getZExtValue() % (K == Kind::Double ? 8 : 4) == 0)
        return MemoryLayout{{-1, K}};
  // Nothing known of the bytes: the declared fields of the struct type the
  // address computation at one end names (an implicit copy constructor at
  // -O0 copying `&this->beta` and the array after it, 48 bytes beside a
  // std::function), or of the struct a C++ parameter's type names (a
  // constructor taking `Controller const&`, not inlined, copying its
  // fields addressed in bytes). Nothing in the function reads them as
  // numbers; a copy that overlaps a union stays unknown.
  if (auto *CL = dyn_cast<ConstantInt>(MT.getLength()); CL && L.empty()) {
    const DataLayout &DL = MT.getModule()->getDataLayout();
    auto HasFloats = [](const MemoryLayout &D) {
      return any_of(D, [](const auto &E) {
        return E.second == Kind::Double || E.second == Kind::Float;
      });
    };
    for (const Value *P : {Source, Dest})
      if (MemoryLayout D = fieldLayout(P, CL->getZExtValue(), DL); HasFloats(D))
        return D;
    for (const Value *P : {Source, Dest})
      if (MemoryLayout D = parameterLayout(P, CL->getZExtValue(), DL);
          HasFloats(D))
        return D;
  }
  Kind D = variableKind(Dest, MT), S = variableKind(Source, MT);
  if (D != Kind::Unknown && S != Kind::Unknown && D != S)
    return L;
  if (Kind K = D != Kind::Unknown ? D : S; K != Kind::Unknown)
    return MemoryLayout{{0, K}};
  // Nothing known of the bytes: the element types both addresses name,
  // where they agree and the length is a whole number of elements.
  if (L.empty())
    if (Kind ED = elementKind(Dest), ES = elementKind(Source);
        ED != Kind::Unknown && ED == ES)
      if (auto *CL = dyn_cast<ConstantInt>(MT.getLength());
          !CL || CL->getZExtValue() % (ED == Kind::Double ? 8 : 4) == 0)
        return MemoryLayout{{-1, ED}};
  return L;
}

uint64_t copyStride(const TypeAnalysis &Types, const Value *Dest,
                    const Value *Source) {
  uint64_t D = Types.elementSize(Dest), S = Types.elementSize(Source);
  uint64_t Stride = D ? D : S;
  return S && S != Stride ? 0 : Stride;
}

static bool holdsFloats(const Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsFloats(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), [](const Type *E) { return holdsFloats(E); });
  return false;
}

bool declaredWithFloats(const Value *Ptr) {
  if (!Ptr || !Ptr->getType()->isPointerTy())
    return false;
  const Value *Base = getUnderlyingObject(Ptr);
  if (auto *AI = dyn_cast<AllocaInst>(Base))
    return holdsFloats(AI->getAllocatedType());
  if (auto *GV = dyn_cast<GlobalVariable>(Base))
    return holdsFloats(GV->getValueType());
  return false;
}

/// The struct element types that address computations with a variable
/// first index on \p Ptr name, into \p Out; false where such a
/// computation names another type (bytes, a scalar).
static bool elementStructs(const Value *Ptr,
                           SmallPtrSetImpl<const StructType *> &Out,
                           bool &Integers) {
  for (const User *U : Ptr->users()) {
    const auto *GEP = dyn_cast<GEPOperator>(U);
    if (!GEP || GEP->getPointerOperand() != Ptr || GEP->getNumIndices() == 0 ||
        isa<Constant>(*GEP->idx_begin()))
      continue;
    // (An array of integers, `int32 *`, indexed as such: Box2D's move
    // buffer, grown by memcpy.)
    Type *E = GEP->getSourceElementType();
    if (E->isIntegerTy() && E->getIntegerBitWidth() >= 16 &&
        GEP->getNumIndices() == 1) {
      Integers = true;
      continue;
    }
    const auto *ST = dyn_cast<StructType>(E);
    if (!ST)
      return false;
    Out.insert(ST);
  }
  return true;
}

/// The (struct type, field) whose address \p Ptr is, as -O0 computes it.
static std::optional<std::pair<const Type *, uint64_t>>
fieldOf(const Value *Ptr) {
  const auto *GEP = dyn_cast<GEPOperator>(Ptr);
  if (!GEP || GEP->getNumIndices() != 2 ||
      !isa<StructType>(GEP->getSourceElementType()))
    return std::nullopt;
  const auto *Zero = dyn_cast<ConstantInt>(GEP->getOperand(1));
  const auto *Field = dyn_cast<ConstantInt>(GEP->getOperand(2));
  if (!Zero || !Zero->isZero() || !Field)
    return std::nullopt;
  return std::make_pair(GEP->getSourceElementType(), Field->getZExtValue());
}

/// The struct element types that the address computations on \p Ptr, and
/// on its reloads from the same address (or at -O0 the same field), name,
/// into \p Out; false where one names another type.
static bool declaredElements(const Value *Ptr,
                             SmallPtrSetImpl<const StructType *> &Out,
                             bool &Integers) {
  if (!Ptr)
    return false;
  Ptr = Ptr->stripPointerCasts();
  if (!elementStructs(Ptr, Out, Integers))
    return false;
  const auto *LI = dyn_cast<LoadInst>(Ptr);
  if (!LI)
    return true;
  const DataLayout &DL = LI->getModule()->getDataLayout();
  auto Address = [&](const Value *P) {
    APInt Offset(DL.getIndexTypeSizeInBits(P->getType()), 0);
    const Value *Base = P->stripAndAccumulateConstantOffsets(
        DL, Offset, /*AllowNonInbounds=*/true);
    return std::make_pair(Base, Offset.getSExtValue());
  };
  auto From = Address(LI->getPointerOperand());
  auto Field = fieldOf(LI->getPointerOperand());
  for (const Instruction &I : instructions(*LI->getFunction()))
    if (const auto *Other = dyn_cast<LoadInst>(&I);
        Other && Other != LI &&
        (Address(Other->getPointerOperand()) == From ||
         (Field && fieldOf(Other->getPointerOperand()) == Field)) &&
        !elementStructs(Other, Out, Integers))
      return false;
  return true;
}

bool declaredElementsWithoutFloats(const Value *Ptr) {
  SmallPtrSet<const StructType *, 4> Elements;
  bool Integers = false;
  return declaredElements(Ptr, Elements, Integers) &&
         (!Elements.empty() || Integers) &&
         none_of(Elements, [](const StructType *ST) { return holdsFloats(ST); });
}

/// Whether \p T is or holds a union (Clang's `union.` types name one
/// member's type only: which bytes are numbers is not said).
/// (Not one that holds integers only, IntegerUnions.h, where \p M is
/// given to say which those are.)
static bool holdsUnion(const Module *M, const Type *T) {
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return holdsUnion(M, AT->getElementType());
  const auto *ST = dyn_cast<StructType>(T);
  if (!ST)
    return false;
  if (M && isIntegerUnion(*M, ST))
    return false;
  if (ST->hasName() && ST->getName().contains("union."))
    return true;
  return any_of(ST->elements(),
                [&](const Type *E) { return holdsUnion(M, E); });
}

uint64_t declaredElementLayout(const Value *Ptr, MemoryLayout &L) {
  SmallPtrSet<const StructType *, 4> Elements;
  bool Integers = false;
  if (!declaredElements(Ptr, Elements, Integers) || Elements.size() != 1 ||
      Integers)
    return 0;
  auto *ST = const_cast<StructType *>(*Elements.begin());
  const Value *Base = Ptr->stripPointerCasts();
  const Module *M = nullptr;
  if (const auto *I = dyn_cast<Instruction>(Base))
    M = I->getModule();
  else if (const auto *A = dyn_cast<Argument>(Base))
    M = A->getParent()->getParent();
  if (!M || ST->isOpaque() || holdsUnion(M, ST) || !holdsFloats(ST))
    return 0;
  const DataLayout &DL = M->getDataLayout();
  int64_t Size = int64_t(DL.getTypeAllocSize(ST));
  MemoryLayout D;
  if (!declaredScalars(DL, ST, 0, 0, Size, D) || D.empty())
    return 0;
  L = std::move(D);
  return uint64_t(Size);
}

/// The floating-point scalar of the declared type \p T that holds the byte
/// at \p Offset, and in \p Start the offset where it begins; null where
/// that byte is not part of one.
static Type *floatHolding(Type *T, uint64_t Offset, uint64_t &Start,
                          const DataLayout &DL) {
  if (T->isFloatingPointTy()) {
    Start = 0;
    return T;
  }
  uint64_t Base = 0;
  Type *F = nullptr;
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    if (Offset >= SL->getSizeInBytes())
      return nullptr;
    unsigned I = SL->getElementContainingOffset(Offset);
    Base = SL->getElementOffset(I);
    F = floatHolding(ST->getElementType(I), Offset - Base, Start, DL);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
    if (!Size || Offset >= Size * AT->getNumElements())
      return nullptr;
    Base = Offset / Size * Size;
    F = floatHolding(AT->getElementType(), Offset - Base, Start, DL);
  }
  Start += Base;
  return F;
}

/// The one pointer stored into the stack slot \p P is loaded from (a
/// pointer variable at -O0, `unsigned char *b = (unsigned char *)&y`), or
/// null.
static const Value *slotValue(const Value *P) {
  auto *LI = dyn_cast<LoadInst>(P);
  auto *Slot = LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()) : nullptr;
  if (!Slot)
    return nullptr;
  const Value *Stored = nullptr;
  for (const User *U : Slot->users()) {
    if (auto *St = dyn_cast<StoreInst>(U)) {
      if (St->getPointerOperand() != Slot || Stored)
        return nullptr;
      Stored = St->getValueOperand();
    } else if (!isa<LoadInst>(U) && !isa<IntrinsicInst>(U)) {
      return nullptr;
    }
  }
  return Stored;
}

/// The local \p P points into past offsets that may vary (a pointer
/// stepped through the words of a union: Cephes' `*p++ = 0`, merged by a
/// phi at -O2, a pointer variable at -O0), or null.
static const AllocaInst *localOfSteppedPointer(const Value *P) {
  SmallVector<const Value *, 8> Work{P};
  SmallPtrSet<const Value *, 8> Seen;
  const AllocaInst *Local = nullptr;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val()->stripPointerCasts();
    if (!Seen.insert(V).second)
      continue;
    if (Seen.size() > 16)
      return nullptr;
    if (const auto *GEP = dyn_cast<GEPOperator>(V)) {
      Work.push_back(GEP->getPointerOperand());
    } else if (const auto *Phi = dyn_cast<PHINode>(V)) {
      append_range(Work, Phi->incoming_values());
    } else if (const auto *LI = dyn_cast<LoadInst>(V)) {
      // (-O0: the pointer is a variable; what is stored into it.)
      const auto *Slot = dyn_cast<AllocaInst>(LI->getPointerOperand());
      if (!Slot || !LI->getType()->isPointerTy())
        return nullptr;
      for (const User *U : Slot->users())
        if (const auto *St = dyn_cast<StoreInst>(U)) {
          if (St->getPointerOperand() != Slot)
            return nullptr;
          Work.push_back(St->getValueOperand());
        }
    } else if (const auto *A = dyn_cast<AllocaInst>(V)) {
      if (Local && Local != A)
        return nullptr;
      Local = A;
    } else {
      return nullptr;
    }
  }
  return Local;
}

/// Whether every \p Size bytes at any offset of the local \p A lie in a
/// float wider than them (a union of a double and its 16-bit words).
static bool onlyWiderFloats(const AllocaInst &A, uint64_t Size,
                            const DataLayout &DL) {
  Type *T = A.getAllocatedType();
  uint64_t Bytes = DL.getTypeStoreSize(T);
  if (!Size || !Bytes || Bytes > 64)
    return false;
  for (uint64_t Offset = 0; Offset < Bytes; Offset += Size) {
    uint64_t Start = 0;
    Type *F = floatHolding(T, Offset, Start, DL);
    if (!F || DL.getTypeStoreSize(F) <= Size)
      return false;
  }
  return true;
}

bool storesIntoPartOfFloat(const StoreInst &SI) {
  Type *VT = SI.getValueOperand()->getType();
  if (!VT->isIntegerTy())
    return false;
  const DataLayout &DL = SI.getModule()->getDataLayout();
  if (const AllocaInst *Local =
          localOfSteppedPointer(SI.getPointerOperand()))
    if (onlyWiderFloats(*Local, DL.getTypeStoreSize(VT), DL))
      return true;
  APInt Offset(DL.getIndexTypeSizeInBits(SI.getPointerOperandType()), 0);
  const Value *Base = SI.getPointerOperand();
  for (unsigned Depth = 0; Base && Depth < 4; ++Depth) {
    Base = Base->stripAndAccumulateConstantOffsets(DL, Offset,
                                                   /*AllowNonInbounds=*/true);
    if (isa<AllocaInst>(Base) || isa<GlobalVariable>(Base))
      break;
    Base = slotValue(Base);
  }
  if (!Base)
    return false;
  Type *T = nullptr;
  if (auto *AI = dyn_cast<AllocaInst>(Base))
    T = AI->getAllocatedType();
  else if (auto *GV = dyn_cast<GlobalVariable>(Base))
    T = GV->getValueType();
  if (!T || Offset.isNegative())
    return false;
  uint64_t Start = 0;
  Type *F = floatHolding(T, Offset.getZExtValue(), Start, DL);
  // (Not the padding after an x86 long double's 10 bytes.)
  return F && Offset.getZExtValue() - Start < DL.getTypeStoreSize(F) &&
         DL.getTypeStoreSize(VT) < DL.getTypeStoreSize(F);
}

bool holdsOnlyIntegers(const TypeAnalysis &Types, const Value *Ptr,
                       const Value *Length) {
  if (!Ptr)
    return false;
  const MemoryLayout &L = Types.layout(Ptr);
  auto *Len = dyn_cast<ConstantInt>(Length);
  if (!Len && !L.count(-1))
    return false;
  int64_t End = Len ? int64_t(Len->getZExtValue()) : INT64_MAX;
  bool Any = false;
  for (auto [Offset, K] : L) {
    if (Offset >= End)
      continue;
    if (K != Kind::Integer)
      return false;
    Any = true;
  }
  return Any;
}

bool holdsFloatingPoint(const TypeAnalysis &Types, const Value *Ptr,
                        const Value *Length) {
  if (!Ptr)
    return false;
  auto *Len = dyn_cast<ConstantInt>(Length);
  return any_of(Types.layout(Ptr), [&](const auto &E) {
    return (!Len || E.first < int64_t(Len->getZExtValue())) &&
           (E.second == Kind::Float || E.second == Kind::Double);
  });
}

bool copiesOnlyIntegers(const TypeAnalysis &Types,
                        const MemTransferInst &Copy) {
  return holdsOnlyIntegers(Types, Copy.getRawDest(), Copy.getLength()) ||
         holdsOnlyIntegers(Types, Copy.getRawSource(), Copy.getLength());
}

} // namespace adcore
