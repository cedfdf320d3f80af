//===- TypeJoins.cpp - Joining kinds into values and memory --------------===//
//
// How the type analysis grows its facts: a value's kind, a byte of memory
// behind a pointer, strides of arrays, and whole layouts copied from one
// pointer to another (memcpy, pointers that alias) are met with what was
// known, and each join says whether it changed anything so that the
// analysis runs until nothing does. Layouts joined from a pointer are
// cached by version: an unchanged source is not joined twice.
//
//===----------------------------------------------------------------------===//

#include "TypeAnalysis.h"
#include "OffsetChoices.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Value.h"

using namespace llvm;

namespace adcore {

bool TypeAnalysis::join(const Value *V, Kind K) {
  if (K == Kind::Unknown)
    return false;
  Kind &Slot = Kinds[V];
  Kind New = meet(Slot, K);
  if (New == Slot)
    return false;
  Slot = New;
  return true;
}

bool TypeAnalysis::joinMemory(const Value *Ptr, int64_t Offset, Kind K) {
  if (K == Kind::Unknown)
    return false;
  // Null (and undef) point to nothing: one key shared by every unrelated
  // use in the function would tie them all together (every phi of a
  // pointer that starts null).
  if (isa<ConstantPointerNull, UndefValue>(Ptr))
    return false;
  Kind &Slot = Layouts[Ptr][Offset];
  Kind New = meet(Slot, K);
  if (New == Slot)
    return false;
  Slot = New;
  ++LayoutVersions[Ptr];
  return true;
}

bool TypeAnalysis::joinStride(const Value *Ptr, uint64_t Size) {
  if (Size == 0 ||
      isa<Constant>(Ptr)) // null, globals: shared by unrelated uses
    return false;
  auto [It, New] = Strides.try_emplace(Ptr, Size);
  if (New || It->second == Size || It->second == ConflictingSizes)
    return New;
  It->second = ConflictingSizes;
  return true;
}

bool TypeAnalysis::joinStrides(const Value *A, const Value *B) {
  bool Changed = false;
  for (auto [From, To] : {std::pair{A, B}, std::pair{B, A}})
    if (auto It = Strides.find(From); It != Strides.end())
      Changed |= joinStride(To, It->second);
  return Changed;
}

bool TypeAnalysis::joinBothWays(const Value *A, const Value *B, int64_t Limit) {
  bool Changed = joinStrides(A, B);
  for (auto [From, To] : {std::pair{A, B}, std::pair{B, A}}) {
    Changed |= joinLayoutOf(To, From, 0, Limit);
  }
  return Changed;
}

namespace {

/// Where offset \p Offset of a layout (-1: every element) lands in a layout
/// it is joined into at \p Shift; false where it is left out: before the
/// start, or at or past \p Limit where that is not negative.
bool shiftedOffset(int64_t Offset, int64_t Shift, int64_t Limit,
                   int64_t &At) {
  At = Offset < 0 ? -1 : Offset + Shift;
  return !(Offset >= 0 && At < 0) && !(At >= 0 && Limit >= 0 && At >= Limit);
}

} // namespace

bool TypeAnalysis::joinLayoutOf(const Value *To, const Value *From,
                                int64_t Shift, int64_t Limit, int64_t Window) {
  auto It = Layouts.find(From);
  if (It == Layouts.end() || isa<ConstantPointerNull, UndefValue>(To))
    return false;
  if (To == From && Shift == 0 && Window < 0)
    return false; // every kind meets itself
  // A join whose source has not changed since it last ran (same shift,
  // limit and window) adds nothing: the layouts only rise.
  auto Key = std::make_tuple(To, From, Shift, Limit, Window);
  unsigned Now = LayoutVersions.lookup(From) + 1;
  if (auto Done = JoinedVersions.find(Key);
      Done != JoinedVersions.end() && Done->second == Now)
    return false;
  JoinedVersions[Key] = Now;
  if (To == From || Window >= 0) {
    MemoryLayout Copy = windowed(It->second, Window);
    return joinLayout(To, Copy, Shift, Limit);
  }
  auto Kept = [&](int64_t Offset, Kind K, int64_t &At) {
    return K != Kind::Unknown && shiftedOffset(Offset, Shift, Limit, At);
  };
  // To's layout is made (as joinMemory makes it) only where something is
  // joined into it; making it may move From's in the map, so From's is
  // looked up again after.
  if (!Layouts.count(To)) {
    int64_t At;
    if (llvm::none_of(It->second,
                      [&](auto &E) { return Kept(E.first, E.second, At); }))
      return false;
    Layouts.try_emplace(To);
    It = Layouts.find(From);
  }
  const MemoryLayout &Src = It->second;
  MemoryLayout &Dst = Layouts.find(To)->second;
  bool Changed = false;
  for (auto [Offset, K] : Src) {
    int64_t At;
    if (!Kept(Offset, K, At))
      continue;
    auto [Slot, New] = Dst.try_emplace(At, K);
    if (New) {
      Changed = true;
      continue;
    }
    Kind Met = meet(Slot->second, K);
    Changed |= Met != Slot->second;
    Slot->second = Met;
  }
  if (Changed)
    ++LayoutVersions[To];
  return Changed;
}

bool TypeAnalysis::joinLayout(const Value *Ptr, const MemoryLayout &L,
                              int64_t Shift, int64_t Limit) {
  bool Changed = false;
  for (auto [Offset, K] : L)
    if (int64_t At; shiftedOffset(Offset, Shift, Limit, At))
      Changed |= joinMemory(Ptr, At, K);
  return Changed;
}

} // namespace adcore
