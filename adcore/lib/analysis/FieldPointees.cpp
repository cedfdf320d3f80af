//===- FieldPointees.cpp - What a pointer read from an argument points to -===//
//
// A helper that is not inlined and copies through an untyped pointer it
// reads from its argument (CoMD's copyAtom with `void *r`:
// `memcpy((double *)c->r + to, (double *)c->r + from, 8)`, an i64 load and
// store at -O2) says nothing of the bytes: the field is a `void *` (or a
// `char *`, a union member, a row of a `void **` table), and the copy has
// no TBAA. The callers do say it: they store doubles through the pointer
// they read from the same field of the object they pass.
//
// A pointer the function reads from memory reached from one of its
// arguments, by a path of at most three reads (`c->r`: field 0 of the
// argument; `c->rows[i]`: any element of what field 0 points to), whose
// memory the function copies as integers or with a memory copy, is seeded
// with what every caller in the module reads and writes through the
// pointers it reads by the same path from what it passes (through local
// slots at -O0, and from its own callers where it passes its argument on,
// up to 4 callers deep). Only one floating-point kind, and nothing else, by
// every caller, seeds it; anything else (integers at one call site,
// doubles at another: a copy helper used for several types, a function
// whose address escapes) leaves the pointer untyped, and an untyped copy
// with a derivative stays an error.
//
// A pointer argument the function copies so is seeded the same way from
// what every caller does through the pointer it passes, and, where the
// caller read that pointer from memory, through the caller's other reads
// of the same address: at -O3 argument promotion hands copyAtom `c->r`
// itself, and the caller writes the doubles through another read of it.
//
//===----------------------------------------------------------------------===//

#include "TypeAnalysis.h"
#include "support/SlotValues.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <algorithm>
#include <map>
#include <numeric>

using namespace llvm;

namespace adcore {
namespace {

constexpr int64_t AnyElement = -1;
constexpr unsigned MaxReads = 3;
constexpr unsigned MaxCallers = 4;

/// The offsets of the reads that lead from an argument to a pointer, the
/// argument's first (AnyElement: at a variable index).
using ReadPath = SmallVector<int64_t, MaxReads>;

/// \p V without constant offsets and variable indices: its base, with the
/// offset from it in \p Offset (AnyElement where an index varies).
const Value *baseOf(const Value *V, int64_t &Offset, const DataLayout &DL) {
  Offset = 0;
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    auto *GEP = dyn_cast<GEPOperator>(V);
    if (!GEP)
      break;
    APInt C(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
    if (Offset != AnyElement && GEP->accumulateConstantOffset(DL, C))
      Offset += C.getSExtValue();
    else
      Offset = AnyElement;
    V = GEP->getPointerOperand();
  }
  return V;
}

/// onlyStoredValue of \p Slot when it is the local slot itself (every
/// variable at -O0), not a cast of one.
const Value *onlyStored(const Value *Slot) {
  return isa<AllocaInst>(Slot) ? onlyStoredValue(Slot) : nullptr;
}

/// The argument \p V is, directly or through its local slot (-O0).
const Argument *argumentOf(const Value *V) {
  if (auto *LI = dyn_cast<LoadInst>(V))
    if (const Value *S = onlyStored(LI->getPointerOperand()))
      V = S;
  return dyn_cast<Argument>(V);
}

/// How \p P is reached from an argument of its function by reads of
/// pointers: the argument, and the reads' offsets in \p Path.
const Argument *pathOf(const LoadInst &P, ReadPath &Path) {
  const LoadInst *Read = &P;
  for (unsigned N = 0; N < MaxReads; ++N) {
    // (A pointer kept in a local variable at -O0: the read stored there.)
    for (unsigned Slots = 0; Slots < 4; ++Slots) {
      auto *Stored = dyn_cast_or_null<LoadInst>(
          onlyStored(Read->getPointerOperand()));
      if (!Stored)
        break;
      Read = Stored;
    }
    int64_t Offset;
    const Value *Base = baseOf(Read->getPointerOperand(), Offset,
                               P.getDataLayout());
    Path.insert(Path.begin(), Offset);
    if (const Argument *A = argumentOf(Base))
      return A;
    Read = dyn_cast<LoadInst>(Base);
    // (A pointer kept in a local slot at -O0 is not a read of memory.)
    if (!Read || isa<AllocaInst>(Read->getPointerOperand()))
      return nullptr;
  }
  return nullptr;
}

/// The kind of a load or store of \p T through the pointer.
Kind accessKind(Type *T) {
  if (T->isIntegerTy())
    return T->getIntegerBitWidth() >= 16 ? Kind::Integer : Kind::Unknown;
  return kindOfType(T);
}

/// Whether the function copies the memory \p P points to as integers of a
/// float's or a double's width, or by a memory copy.
bool copiedUntyped(const Value *P) {
  SmallVector<const Value *, 8> Work{P};
  SmallPtrSet<const Value *, 16> Seen{P};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<MemTransferInst>(U))
        return true;
      Type *T = nullptr;
      if (auto *LI = dyn_cast<LoadInst>(U))
        T = LI->getType();
      else if (auto *SI = dyn_cast<StoreInst>(U);
               SI && SI->getPointerOperand() == V)
        T = SI->getValueOperand()->getType();
      if (T) {
        if (T->isIntegerTy(32) || T->isIntegerTy(64))
          return true;
        continue;
      }
      if (isa<GEPOperator, PHINode, SelectInst>(U) && Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return false;
}

/// A place in memory relative to a pointer: \p Offset into elements of
/// \p Step bytes (0: no array).
struct Place {
  int64_t Offset = 0;
  uint64_t Step = 0;
  bool Known = true;
};

/// The fields that the accesses \p Placed show in one element, where they
/// agree: all at known places in elements of one step (or at constant
/// offsets into them), no two of
/// different kinds or sizes overlapping, one at least a floating-point
/// number (a struct holding a union of floats and an integer, which the
/// callers read as floats). Empty where they do not.
template <typename E>
std::map<int64_t, std::pair<Kind, uint64_t>> agreedFields(ArrayRef<E> Placed,
                                                          uint64_t &Step) {
  std::map<int64_t, std::pair<Kind, uint64_t>> Fields;
  if (Placed.empty())
    return Fields;
  // (Accesses at constant offsets, a loop unrolled, fall in the elements
  // that the others step through.)
  Step = 0;
  for (const E &P : Placed) {
    if (!P.At.Known || (P.At.Step && Step && P.At.Step != Step))
      return {};
    Step = std::max(Step, P.At.Step);
  }
  bool AnyFloat = false;
  for (const E &P : Placed) {
    int64_t Offset = Step ? P.At.Offset % int64_t(Step) : P.At.Offset;
    if (Offset < 0 || (Step && Offset + int64_t(P.Size) > int64_t(Step)))
      return {};
    auto [It, New] = Fields.insert({Offset, {P.K, P.Size}});
    if (!New && It->second != std::make_pair(P.K, P.Size))
      return {};
    AnyFloat |= P.K == Kind::Double || P.K == Kind::Float;
  }
  int64_t End = INT64_MIN;
  for (auto &[Offset, KS] : Fields) {
    if (Offset < End)
      return {};
    End = Offset + int64_t(KS.second);
  }
  if (!AnyFloat)
    return {};
  return Fields;
}

/// What the callers read and write through the pointers they reach by a
/// path from what they pass: the kinds seen, in Kinds.
class CallerEvidence {
public:
  explicit CallerEvidence(const DataLayout &DL) : DL(DL) {}

  /// Every caller of the function of \p A; false when one is not a direct
  /// call.
  bool fromCallers(const Argument &A, ArrayRef<int64_t> Path,
                   unsigned Depth) {
    const Function *F = A.getParent();
    // (A simplified copy of an -O0 function, SimplifiedCopies.h, is called
    // where the function is.)
    if (StringRef Name = F->getName();
        F->use_empty() && Name.consume_back(".simplified"))
      if (const Function *Program = F->getParent()->getFunction(Name);
          Program && Program->arg_size() == F->arg_size())
        F = Program;
    if (Depth > MaxCallers || F->use_empty())
      return false;
    for (const Use &U : F->uses()) {
      auto *Call = dyn_cast<CallBase>(U.getUser());
      if (!Call || !Call->isCallee(&U) || Call->arg_size() <= A.getArgNo())
        return false;
      along(Call->getArgOperand(A.getArgNo()), Path, Depth);
    }
    return true;
  }

  SmallVector<Kind, 4> Kinds;

private:
  /// What is accessed through \p V and what the function follows by
  /// \p Path from it.
  void along(const Value *V, ArrayRef<int64_t> Path, unsigned Depth) {
    if (!Visited.insert({V, Path.size()}).second || Visited.size() > 256)
      return;
    // (The same pointer read again from its local slot at -O0; the
    // callers of a function passing its argument on.)
    SmallVector<const Value *, 4> Same{V};
    if (auto *LI = dyn_cast<LoadInst>(V)) {
      const Value *S = onlyStored(LI->getPointerOperand());
      // (The field's pointer passed on alone, read for the call: at -O3 an
      // argument promoted from `c` to `c->r`. What the caller does through
      // the same field's other reads.)
      if (S || (Depth == 0 && Path.empty()))
        for (const User *U : LI->getPointerOperand()->users())
          if (isa<LoadInst>(U) && U != LI && U->getType()->isPointerTy())
            Same.push_back(U);
      if (S)
        V = S;
    }
    // (An array passed by its first element's address, `copy(out, ...)`
    // at -O0: what is done through the array.)
    if (auto *GEP = dyn_cast<GEPOperator>(V);
        GEP && GEP->hasAllZeroIndices() &&
        isa<AllocaInst>(GEP->getPointerOperand()))
      Same.push_back(GEP->getPointerOperand());
    // (What callers that can be seen do; a derivative request's own
    // function has none.)
    if (auto *A = dyn_cast<Argument>(V->stripPointerCasts()))
      fromCallers(*A, Path, Depth + 1);
    for (const Value *S : Same)
      walk(S, 0, Path, Depth);
  }

  /// The uses of \p V, \p Offset past the pointer that \p Path starts at.
  void walk(const Value *V, int64_t Offset, ArrayRef<int64_t> Path,
            unsigned Depth) {
    if (!Walked.insert({V, Path.size()}).second || Walked.size() > 512)
      return;
    auto Matches = [&](int64_t At) {
      return !Path.empty() &&
             (Path.front() == AnyElement || At == AnyElement ||
              At == Path.front());
    };
    for (const User *U : V->users()) {
      if (auto *LI = dyn_cast<LoadInst>(U)) {
        if (Path.empty())
          note(accessKind(LI->getType()), V, LI->getType());
        else if (LI->getType()->isPointerTy() && Matches(Offset))
          along(LI, Path.drop_front(), Depth);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        const Value *Stored = SI->getValueOperand();
        if (SI->getPointerOperand() != V) {
          // (Kept in a local slot and read back: -O0.)
          if (auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand()))
            for (const User *SU : Slot->users())
              if (isa<LoadInst>(SU) && SU->getType()->isPointerTy())
                walk(SU, Offset, Path, Depth);
        } else if (Path.empty()) {
          note(accessKind(Stored->getType()), V, Stored->getType());
        } else if (Stored->getType()->isPointerTy() && Matches(Offset)) {
          walk(Stored, 0, Path.drop_front(), Depth);
        }
      } else if (auto *GEP = dyn_cast<GEPOperator>(U)) {
        APInt C(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        walk(GEP,
             Offset != AnyElement && GEP->accumulateConstantOffset(DL, C)
                 ? Offset + C.getSExtValue()
                 : AnyElement,
             Path, Depth);
      } else if (isa<PHINode, SelectInst>(U)) {
        walk(U, Offset, Path, Depth);
      }
    }
  }

  void note(Kind K, const Value *At, Type *T) {
    if (K == Kind::Unknown)
      return;
    Kinds.push_back(K);
    Place P = placeOf(At);
    // (A vector of floats, two fields stored at once: each lane.)
    auto *VT = dyn_cast<FixedVectorType>(T);
    if (!VT || !VT->getElementType()->isFloatingPointTy()) {
      Placed.push_back({P, K, DL.getTypeStoreSize(T)});
      return;
    }
    uint64_t Lane = DL.getTypeStoreSize(VT->getElementType());
    for (unsigned I = 0; I < VT->getNumElements(); ++I) {
      Place L = P;
      L.Offset += int64_t(I * Lane);
      Placed.push_back({L, K, Lane});
    }
  }

  /// Where \p At points in an element of an array of structs: the constant
  /// offset past its GEPs' base, reduced by the step that their variable
  /// indices move by (0 where none does).
  Place placeOf(const Value *At) const {
    Place P;
    uint64_t Step = 0;
    int64_t Offset = 0;
    unsigned Bits = DL.getIndexTypeSizeInBits(At->getType());
    for (unsigned N = 0; N < 8; ++N) {
      auto *GEP = dyn_cast<GEPOperator>(At);
      if (!GEP)
        break;
      SmallMapVector<Value *, APInt, 4> Variable;
      APInt C(Bits, 0);
      if (!GEP->collectOffset(DL, Bits, Variable, C)) {
        P.Known = false;
        return P;
      }
      Offset += C.getSExtValue();
      for (auto &[V, Scale] : Variable)
        Step = std::gcd(Step, Scale.abs().getZExtValue());
      At = GEP->getPointerOperand();
    }
    P.Step = Step;
    P.Offset = Step ? ((Offset % int64_t(Step)) + int64_t(Step)) % int64_t(Step)
                    : Offset;
    return P;
  }

public:
  /// An access the callers make: its place, kind and size.
  struct Evidence {
    Place At;
    Kind K;
    uint64_t Size;
  };
  SmallVector<Evidence, 8> Placed;

private:

  const DataLayout &DL;
  DenseSet<std::pair<const Value *, size_t>> Visited, Walked;
};

/// Whether the fields \p Fields (offset: kind, size) agree with what the
/// declared types say of the same memory, \p Declared: nothing of an
/// element at every offset, and each declared place either outside every
/// field or at one's start with its kind.
bool fitsDeclared(const MemoryLayout &Declared,
                  const std::map<int64_t, std::pair<Kind, uint64_t>> &Fields) {
  for (auto [At, K] : Declared) {
    if (At < 0)
      return false;
    // (A declared double or pointer covers 8 bytes, a float 4.)
    int64_t Size = K == Kind::Double || K == Kind::Pointer ? 8
                   : K == Kind::Float                      ? 4
                                                           : 1;
    for (auto &[Offset, KS] : Fields)
      if ((At >= Offset && At < Offset + int64_t(KS.second) &&
           (At != Offset || K != KS.first)) ||
          (Offset > At && Offset < At + Size))
        return false;
  }
  return true;
}

} // namespace

void TypeAnalysis::seedFromFieldPointees() {
  // One floating-point kind everywhere: every element. Several kinds: the
  // fields of an array of structs (accessed at a variable index), where every caller's accesses agree on
  // them (a union of floats and an integer that the callers read as
  // floats), typed by what is read. Anything else leaves the pointer
  // untyped.
  // (Not where declared types said something already, a struct whose
  // union holds integers only (IntegerUnions.h), for the kinds of
  // several fields, or of an argument reloaded from its slot at -O0.)
  auto Declared = [&](const Value *P) {
    const Argument *Spilled = argumentOf(P);
    return !layout(P).empty() || (Spilled && !layout(Spilled).empty());
  };
  auto Seed = [&](const Value *P, const CallerEvidence &E, bool Reloaded) {
    Kind K = E.Kinds.front();
    if (any_of(E.Kinds, [&](Kind O) { return O != K; })) {
      uint64_t Step = 0;
      auto Fields = agreedFields(ArrayRef(E.Placed), Step);
      if (Fields.empty())
        return;
      // One struct (no array): its fields where the declared types say
      // nothing else of them (`dst->p = src->p` of a union of floats and
      // a long beside a double, which the declared types know).
      if (!Step) {
        const Argument *Spilled = argumentOf(P);
        if (!fitsDeclared(layout(P), Fields) ||
            (Spilled && !fitsDeclared(layout(Spilled), Fields)))
          return;
        for (auto &[Offset, KS] : Fields)
          joinMemory(P, Offset, KS.first);
        return;
      }
      if (Declared(P))
        return;
      for (auto &[Offset, KS] : Fields)
        joinMemory(P, Offset, KS.first);
      joinStride(P, Step);
      return;
    }
    if (Reloaded && Declared(P))
      return;
    if (K != Kind::Double && K != Kind::Float)
      return;
    joinMemory(P, 0, K);
    joinMemory(P, AnyElement, K);
  };
  for (Instruction &I : instructions(F)) {
    auto *LI = dyn_cast<LoadInst>(&I);
    if (!LI || !LI->getType()->isPointerTy() ||
        pointeeKindOfTBAA(*LI) != Kind::Unknown || !copiedUntyped(LI))
      continue;
    ReadPath Path;
    // (An argument itself, reloaded from the slot it was spilled to at
    // -O0: no read of memory.)
    const Argument *A = argumentOf(LI);
    bool Reloaded = A;
    if (!A)
      A = pathOf(*LI, Path);
    CallerEvidence E(F.getDataLayout());
    if (!A || !E.fromCallers(*A, Path, 0) || E.Kinds.empty())
      continue;
    Seed(LI, E, Reloaded);
  }
  // A pointer argument copied untyped: what the callers do through the
  // pointers they pass (the field `c->r` passed alone, as -O3's argument
  // promotion makes CoMD's copyAtom).
  for (Argument &A : F.args()) {
    if (!A.getType()->isPointerTy() || !copiedUntyped(&A))
      continue;
    CallerEvidence E(F.getDataLayout());
    if (!E.fromCallers(A, {}, 0) || E.Kinds.empty())
      continue;
    Seed(&A, E, /*Reloaded=*/false);
  }
}

/// fieldPointeeEvidence, for what the callers pass for the argument \p A
/// (the pointer a helper is given: `move(c->r, to, from)`), up to \p Depth
/// callers deep: std::nullopt where no caller passes a field's pointer.
static std::optional<Kind> passedFieldEvidence(const Argument &A,
                                               unsigned Depth);

static std::optional<Kind> fieldEvidence(const Value *Ptr, unsigned Depth) {
  const DataLayout *DL = nullptr;
  if (auto *I = dyn_cast<Instruction>(Ptr))
    DL = &I->getDataLayout();
  else if (auto *A = dyn_cast<Argument>(Ptr))
    DL = &A->getParent()->getDataLayout();
  if (!DL)
    return std::nullopt;
  int64_t Offset;
  const Value *Base = baseOf(Ptr, Offset, *DL);
  if (const Argument *A = argumentOf(Base))
    return Depth ? passedFieldEvidence(*A, Depth - 1) : std::nullopt;
  auto *Read = dyn_cast<LoadInst>(Base);
  const DataLayout &DLRef = *DL;
  ReadPath Path;
  const Argument *A =
      Read && Read->getType()->isPointerTy() ? pathOf(*Read, Path) : nullptr;
  if (!A)
    return std::nullopt;
  CallerEvidence E(DLRef);
  if (!E.fromCallers(*A, Path, 0) || E.Kinds.empty() ||
      any_of(E.Kinds, [&](Kind K) { return K != E.Kinds.front(); }))
    return Kind::Conflict;
  return E.Kinds.front();
}

static std::optional<Kind> passedFieldEvidence(const Argument &A,
                                               unsigned Depth) {
  std::optional<Kind> Said;
  for (const Use &U : A.getParent()->uses()) {
    auto *Call = dyn_cast<CallBase>(U.getUser());
    if (!Call || !Call->isCallee(&U) || Call->arg_size() <= A.getArgNo())
      continue;
    std::optional<Kind> K =
        fieldEvidence(Call->getArgOperand(A.getArgNo()), Depth);
    if (K)
      Said = !Said || *Said == *K ? *K : Kind::Conflict;
  }
  return Said;
}

std::optional<Kind> fieldPointeeEvidence(const Value *Ptr) {
  return fieldEvidence(Ptr, 2);
}

} // namespace adcore
