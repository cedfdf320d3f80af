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
  Type *I64 = B.getInt64Ty();
  Value *At = P;
  Align A(1);
  if (Bytes == 4) {
    At = B.CreateIntrinsic(Intrinsic::ptrmask,
                           {P->getType(), B.getIntPtrTy(
                                              B.GetInsertBlock()
                                                  ->getModule()
                                                  ->getDataLayout(),
                                              P->getType()
                                                  ->getPointerAddressSpace())},
                           {P, B.getIntN(64, ~uint64_t(7))});
    A = Align(8);
  }
  LoadInst *L = B.CreateAlignedLoad(I64, At, A);
  tagMemoryClass(*L, Class);
  return L;
}

/// Whether the word \p W reads as a user-space address: 2^32 <= W < 2^52.
static Value *userAddress(IRBuilder<> &B, Value *W) {
  Value *High = B.CreateLShr(W, 32);
  return B.CreateAnd(B.CreateICmpNE(High, B.getInt64(0)),
                     B.CreateICmpULT(W, B.getInt64(uint64_t(1) << 52)));
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
  // (The primal's word before the store overwrites it.)
  IRBuilder<> PB(&SI);
  PB.SetCurrentDebugLocation(SI.getDebugLoc());
  Value *PrimalWord =
      wordAt(PB, SI.getPointerOperand(), Bytes, MemoryClass::Primal);
  Value *ShadowWord = wordAt(B, Shadow, Bytes, MemoryClass::Shadow);
  Value *Low = B.CreateICmpEQ(B.CreateLShr(ShadowWord, 32), B.getInt64(0));
  Value *Link = B.CreateOr(userAddress(B, ShadowWord),
                           B.CreateAnd(Low, userAddress(B, PrimalWord)),
                           "unread.link");
  LoadInst *Old = B.CreateAlignedLoad(VT, Shadow, A);
  tagMemoryClass(*Old, MemoryClass::Shadow);
  tagMemoryClass(*B.CreateAlignedStore(B.CreateSelect(Link, Zero, Old), Shadow,
                                       A),
                 MemoryClass::Shadow);
}

} // namespace adcore
