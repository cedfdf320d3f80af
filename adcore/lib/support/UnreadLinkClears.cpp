//===- UnreadLinkClears.cpp - A caller's unread link or seed --------------===//
//
// See UnreadLinkClears.h.
//
//===----------------------------------------------------------------------===//

#include "UnreadLinkClears.h"
#include "MemoryScopes.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

/// The 8 bytes at \p P (8 bytes wide), or the 8-byte aligned word that
/// holds \p P (4 bytes wide), loaded at \p B as an integer of \p Class.
static Value *wordAt(IRBuilder<> &B, Value *P, uint64_t Bytes,
                     MemoryClass Class) {
  Value *At = P;
  Align A(1);
  if (Bytes == 4) {
    At = B.CreateIntrinsic(Intrinsic::ptrmask, {P->getType(), B.getInt64Ty()},
                           {P, B.getInt64(~uint64_t(7))});
    A = Align(8);
  }
  LoadInst *L = B.CreateAlignedLoad(B.getInt64Ty(), At, A);
  tagMemoryClass(*L, Class);
  return L;
}

/// Whether the word \p W reads as a user-space address: 2^40 <= W < 2^52
/// (x86-64 and AArch64 Linux place the heap, the stack and mappings of a
/// program built as PIE there; a normal double, or a normal float in the
/// word's high half, lies above; an integer below 256 beside a float,
/// below).
static Value *userAddress(IRBuilder<> &B, Value *W) {
  return B.CreateICmpULT(B.CreateSub(W, B.getInt64(uint64_t(1) << 40)),
                         B.getInt64((uint64_t(1) << 52) - (uint64_t(1) << 40)));
}

void clearUnreadLink(IRBuilder<> &B, StoreInst &SI, Value *Shadow, Align A) {
  Type *VT = SI.getValueOperand()->getType();
  const DataLayout &DL = SI.getModule()->getDataLayout();
  uint64_t Bytes = DL.getTypeStoreSize(VT);
  Constant *Zero = Constant::getNullValue(VT);
  if (!VT->isFloatingPointTy() || (Bytes != 4 && Bytes != 8) ||
      DL.getPointerSizeInBits(
          SI.getPointerOperandType()->getPointerAddressSpace()) != 64) {
    tagMemoryClass(*B.CreateAlignedStore(Zero, Shadow, A), MemoryClass::Shadow);
    return;
  }
  // (Only the shadow's word: where it is small, the primal's word says
  // nothing of what the shadow holds. A float seed beside an integer in
  // the primal, `struct { float x; int id; }` with id >= 256 reached
  // through a pointer read from memory, read so and had its seed zeroed.)
  Value *ShadowWord = wordAt(B, Shadow, Bytes, MemoryClass::Shadow);
  Value *Link = userAddress(B, ShadowWord);
  Link->setName("unread.link");
  LoadInst *Old = B.CreateAlignedLoad(VT, Shadow, A);
  tagMemoryClass(*Old, MemoryClass::Shadow);
  tagMemoryClass(*B.CreateAlignedStore(B.CreateSelect(Link, Zero, Old), Shadow,
                                       A),
                 MemoryClass::Shadow);
}

} // namespace adcore
