//===- CopyAdjoints.cpp - The adjoint of a memory copy --------------------===//
//
// memcpy / memmove in the reverse sweep: the adjoints of the copied
// floating-point bytes go back to the source and the destination's are
// cleared, by the runtime's copies (adjoint.c), whole, per field, or per
// field of an array of structs with a stride; where the bytes cannot be
// typed, a located error. (The pointers' shadows moved in the augmented
// sweep: AugmentedShadows.cpp, copyPointerFields.)
//
//===----------------------------------------------------------------------===//

#include "analysis/ErasedStorage.h"
#include "analysis/TrailingArrays.h"
#include "analysis/TypeAnalysis.h"
#include "rules/InactiveFunctions.h"
#include "support/NullShadowGuards.h"
#include "ReverseEmitter.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

bool isFloatMemory(Kind K) { return K == Kind::Double || K == Kind::Float; }

/// The floating-point kind that every address computation with a variable
/// index on \p Ptr names as its element (`wh2[j * n + j]` on a double *),
/// where there is at least one and none names another type but bytes (the
/// next array carved out of the block); Unknown otherwise.
Kind indexedFloatKind(const Value *Ptr) {
  if (!Ptr)
    return Kind::Unknown;
  Kind Found = Kind::Unknown;
  for (const User *U : Ptr->users()) {
    const auto *GEP = dyn_cast<GetElementPtrInst>(U);
    if (!GEP || GEP->getPointerOperand() != Ptr || GEP->getNumIndices() != 1 ||
        isa<Constant>(*GEP->idx_begin()))
      continue;
    Type *E = GEP->getSourceElementType();
    if (E->isIntegerTy(8))
      continue;
    Kind K = E->isDoubleTy() ? Kind::Double
             : E->isFloatTy() ? Kind::Float
                              : Kind::Conflict;
    if (K == Kind::Conflict || (Found != Kind::Unknown && Found != K))
      return Kind::Unknown;
    Found = K;
  }
  return Found;
}

/// True when \p Ptr points into a block from malloc, calloc or realloc.
bool inMallocBlock(const Value *Ptr) {
  if (!Ptr)
    return false;
  const auto *Call = dyn_cast<CallBase>(getUnderlyingObject(Ptr));
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && (F->getName() == "malloc" || F->getName() == "calloc" ||
               F->getName() == "realloc");
}

} // namespace

/// The bytes of a float or double.
static uint64_t floatBytes(Kind K) { return K == Kind::Double ? 8 : 4; }

/// The adjoint of a copy: the adjoints of the copied floating-point
/// elements go back to the source, the destination's are cleared. The type
/// analysis says which bytes are doubles or floats: a homogeneous copy is
/// one runtime call over the whole range; a struct with other fields
/// ({int, double}) gets one call per floating-point field.


/// Replaces the entry of \p L at offset -1 (a kind at every offset) by
/// entries at the offsets of an element of \p Stride bytes that no other
/// entry overlaps, when that kind is floating-point; drops it otherwise.
static void spreadOverElement(MemoryLayout &L, uint64_t Stride) {
  Kind K = L.at(-1);
  L.erase(-1);
  // (Integers or pointers somewhere in every element, the int of a
  // std::pair<double, int> read at a variable index: no adjoint moves
  // there; the element's floating-point fields are at their offsets.)
  if (!isFloatMemory(K))
    return;
  MemoryLayout Spread;
  uint64_t Size = floatBytes(K);
  for (uint64_t Offset = 0; Offset + Size <= Stride; Offset += Size) {
    bool Covered = any_of(L, [&](const auto &E) {
      uint64_t Start = uint64_t(E.first);
      uint64_t End = Start + (isFloatMemory(E.second) ? floatBytes(E.second)
                                                      : 1);
      return Start < Offset + Size && Offset < End;
    });
    if (!Covered)
      Spread.emplace(int64_t(Offset), K);
  }
  L.insert(Spread.begin(), Spread.end());
}

void ReverseEmitter::emitErasedMoveAdjoint(MemTransferInst &MT, Value *SD,
                                           Value *SS, Value *Len) {
  Type *I64 = RB.getInt64Ty();
  Value *Bytes = RB.CreateZExtOrTrunc(Len, I64);
  // (A shadow that may be null, memory without one: nothing to move. A
  // move onto itself, a function swapped with itself: nothing at all.)
  if (nullable(MT.getRawDest()) || nullable(MT.getRawSource()))
    Bytes = RB.CreateSelect(
        RB.CreateOr(RB.CreateIsNull(SD), RB.CreateIsNull(SS)),
        RB.getInt64(0), Bytes);
  Value *Cleared =
      RB.CreateSelect(RB.CreateICmpEQ(SD, SS), RB.getInt64(0), Bytes);
  RB.CreateMemMove(SS, Align(1), SD, Align(1), Bytes);
  RB.CreateMemSet(SD, RB.getInt8(0), Cleared, Align(1));
}

bool ReverseEmitter::emitCopyAdjoint(MemTransferInst &MT, Value *SD, Value *SS,
                                     Value *Len) {
  // What Clang says of the fields of a copied aggregate first; else what
  // the type analysis says of the memory, in the bytes copied (Eigen's Map
  // copied out of an expression that holds it at -O0).
  const Value *PD = PrimalOf.lookup(MT.getRawDest()),
              *PS = PrimalOf.lookup(MT.getRawSource());
  // (A pointer the augmented sweep computes anew, the result of a call it
  // augments (Eigen's DefaultDevice::get at -O0), has no primal value of
  // its own: the primal copy's pointer is that value.)
  if (const auto *PMT = dyn_cast_or_null<MemTransferInst>(PrimalOf.lookup(&MT))) {
    if (!PD)
      PD = PMT->getRawDest();
    if (!PS)
      PS = PMT->getRawSource();
  }
  // Characters (a std::string's copy constructor inlined): no adjoint, as
  // no call of char_traits<char>::copy has one.
  if (isInlinedCharacterCode(MT))
    return true;
  // A move of std::function's untyped storage (ErasedMoves.cpp): the
  // source is not read again, so what the destination's shadow holds,
  // adjoints of a closure's doubles or the shadow of a pointer, goes back
  // to the source's as it is, and the destination's is cleared (as it was
  // before: the storage it overwrote was empty or moved on too).
  if (isErasedMove(MT, dyn_cast_or_null<Instruction>(PrimalOf.lookup(&MT)))) {
    emitErasedMoveAdjoint(MT, SD, SS, Len);
    return true;
  }
  MemoryLayout L = copyLayout(*Types, MT, PD, PS);
  bool AnyFloat = false, AllFloat = !L.empty();
  uint64_t DeclaredStride = 0;
  for (auto [Offset, K] : L) {
    AnyFloat |= isFloatMemory(K);
    AllFloat &= isFloatMemory(K);
  }
  // Fewer bytes than a float: no floating-point data (an empty struct such
  // as a comparator object is one byte).
  if (auto *CL = dyn_cast<ConstantInt>(Len); CL && CL->getZExtValue() < 4)
    return true;
  // Bytes read as two different kinds, next to floating-point data or in
  // a variable declared with floating-point numbers in it: which of them
  // are floating-point is not known, and skipping them would lose their
  // adjoints without a word. (Conflicts alone elsewhere: a std::function's
  // storage, pointers and integers.)
  bool AnyConflict =
      any_of(L, [](const auto &E) { return E.second == Kind::Conflict; });
  // Bytes used as two different types at every offset (a workspace block
  // of doubles and int pivots carved at run-time offsets, lmfit's lmmin2
  // at -O2, `memcpy(covar, wh2, n * n * sizeof(double))`), where the
  // program indexes one of the two pointers as an array of floating-point
  // numbers: the copy moves those. (Its adjoints were dropped without a
  // word until 2026-12-06.)
  if (AnyConflict && !AnyFloat && L.count(-1) &&
      all_of(L, [](const auto &E) { return E.second == Kind::Conflict; })) {
    Kind Indexed = indexedFloatKind(PS);
    if (Indexed == Kind::Unknown)
      Indexed = indexedFloatKind(PD);
    if (Indexed != Kind::Unknown) {
      L = {{-1, Indexed}};
      AnyFloat = AllFloat = true;
      AnyConflict = false;
    } else if (!isa<ConstantInt>(Len) &&
               (inMallocBlock(PS) || inMallocBlock(PD))) {
      // (Nothing says which: the source written only by a function of
      // another file. Moving no adjoint lost them without a word.)
      return unsupported(MT, "a memory copy whose contents cannot be typed "
                             "(a block used as two different types at "
                             "run-time offsets); copy the values one by "
                             "one");
    }
  }
  if (AnyConflict &&
      (AnyFloat || declaredWithFloats(PD) || declaredWithFloats(PS)))
    return unsupported(MT, "a memory copy whose contents cannot be typed "
                           "(some bytes are used as two different types); "
                           "copy the values one by one");
  // (A std::function's storage swapped by its copy assignment, where
  // nothing says what it holds on this path, in a module where some
  // std::function holds a callable with floating-point values: moving no
  // adjoint lost them without a word. ErasedStorage.h.)
  if (AnyConflict && !AnyFloat && inFunctionCopyAssignment(MT) &&
      (declaredWithErasedStorage(PD) || declaredWithErasedStorage(PS)) &&
      mayEraseFloatCallables(*MT.getModule()))
    return unsupported(MT, "a std::function holding a callable with "
                           "floating-point values (a lambda that captured "
                           "them by value) is copy-assigned where its "
                           "type is not known (code compiled at -O0); "
                           "compile this file with -O1 or higher, or "
                           "capture by reference");
  if (!AnyFloat) {
    // Pointers and integers: their shadows were copied. (Not a copy of a
    // run-time length whose elements are known only in part: the int
    // fields a comparator reads of std::stable_sort's buffer, whose
    // doubles nothing in the function reads.)
    if (!L.empty() && (isa<ConstantInt>(Len) || L.count(-1)))
      return true;
    // (An array of structs whose declared type holds no floating-point
    // number, `{int, T *}` records grown by memcpy in Box2D's block
    // allocator: nothing in it has an adjoint.)
    if (declaredElementsWithoutFloats(PD) || declaredElementsWithoutFloats(PS))
      return true;
    // (A struct's trailing array of pointers, allocated past its end and
    // filled by a copy of a run-time length: tinyexpr's nodes at -O0.)
    if (trailingArrayWithoutFloats(PD) || trailingArrayWithoutFloats(PS))
      return true;
    // (An array of structs with numbers whose accesses the analysis does
    // not see, the pointer reloaded for each: the declared element's
    // fields, strided.)
    MemoryLayout Declared;
    DeclaredStride = declaredElementLayout(PD, Declared);
    if (!DeclaredStride)
      DeclaredStride = declaredElementLayout(PS, Declared);
    if (!DeclaredStride)
      return unsupported(MT, "a memory copy whose contents cannot be typed; "
                             "copy the values one by one");
    L = std::move(Declared);
    AllFloat = all_of(L, [](const auto &E) { return isFloatMemory(E.second); });
  }
  Type *Ptr = RB.getPtrTy(), *I64 = RB.getInt64Ty();
  Module &M = *Rev.getParent();
  // (Shadows that may be null: NullShadowGuards.h.)
  bool Guarded = nullable(MT.getRawDest()) || nullable(MT.getRawSource());
  auto Runtime = [&](StringRef Name, bool Strided) {
    if (Guarded)
      return guardedAdjointCopy(M, Name, Strided);
    return Strided
               ? M.getOrInsertFunction(Name, RB.getVoidTy(), Ptr, Ptr, I64, I64)
               : M.getOrInsertFunction(Name, RB.getVoidTy(), Ptr, Ptr, I64);
  };
  auto At = [&](Value *P, int64_t Offset) {
    return shadowByteOffset(RB, P, Offset, Guarded);
  };
  // (From memory other threads copy too, in a parallel region: atomic
  // adds into the source's adjoints.)
  bool Shared = sharedCopySource(PS);
  auto Copy = [&](Kind K, Value *D, Value *S, Value *Bytes) {
    const char *Name =
        K == Kind::Double
            ? (Shared ? "adcc_adjoint_copy_shared_f64" : "adcc_adjoint_copy_f64")
            : (Shared ? "adcc_adjoint_copy_shared_f32"
                      : "adcc_adjoint_copy_f32");
    RB.CreateCall(Runtime(Name, /*Strided=*/false),
                  {D, S, RB.CreateZExtOrTrunc(Bytes, I64)});
  };
  Kind First = L.begin()->second;
  // (One call for the whole copy only where the floats lie on its grid:
  // a struct's tail that SROA keeps apart, `{int; pad; double}` copied
  // from byte 4, has its double at offset 4, not 0.)
  bool Uniform = AllFloat && all_of(L, [&](const auto &E) {
    return E.second == First &&
           (E.first == -1 || E.first % int64_t(floatBytes(First)) == 0);
  });
  if (Uniform) {
    Copy(First, SD, SS, Len);
    return true;
  }
  auto *ConstLen = dyn_cast<ConstantInt>(Len);
  // An array of such structs, whose element size a declared struct type
  // gives: one strided call per floating-point field.
  uint64_t Stride =
      DeclaredStride ? DeclaredStride : copyStride(*Types, PD, PS);
  // (Fields at every offset of an element, an array inside the struct
  // read at a variable index: the offsets of the element that no other
  // field covers.)
  if (Stride && L.count(-1))
    spreadOverElement(L, Stride);
  if (Stride && !L.count(-1) &&
      (!ConstLen || ConstLen->getZExtValue() > Stride)) {
    Value *Count = RB.CreateUDiv(RB.CreateZExtOrTrunc(Len, I64),
                                 RB.getInt64(Stride), "elements");
    for (auto [Offset, K] : L) {
      if (!isFloatMemory(K) || uint64_t(Offset) + floatBytes(K) > Stride)
        continue;
      const char *Name =
          K == Kind::Double ? (Shared ? "adcc_adjoint_copy_strided_shared_f64"
                                      : "adcc_adjoint_copy_strided_f64")
                            : (Shared ? "adcc_adjoint_copy_strided_shared_f32"
                                      : "adcc_adjoint_copy_strided_f32");
      RB.CreateCall(Runtime(Name, /*Strided=*/true),
          {At(SD, Offset), At(SS, Offset), Count, RB.getInt64(Stride)});
    }
    return true;
  }
  if (!ConstLen || L.count(-1))
    return unsupported(MT, "a copy of an array of structs that mix "
                           "floating-point and other fields, whose element "
                           "size is unknown, is not supported in reverse "
                           "mode; copy the elements one by one");
  uint64_t Bytes = ConstLen->getZExtValue();
  for (auto [Offset, K] : L) {
    uint64_t Size = floatBytes(K);
    if (!isFloatMemory(K) || Offset < 0 || uint64_t(Offset) + Size > Bytes)
      continue;
    Copy(K, At(SD, Offset), At(SS, Offset), RB.getInt64(Size));
  }
  return true;
}

} // namespace adcore
