// PTX's shfl.sync for the host models of warps (warp_emulation.h,
// grid_emulation.cpp): modes, segments, clamps and the predicate.
#ifndef ADCC_TESTS_PTX_SHUFFLE_H
#define ADCC_TESTS_PTX_SHUFFLE_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>

/// shfl.sync of lane \p Lane of a warp whose lanes exchange their values
/// through \p Slots (one per lane) between two calls of \p Wait (a barrier
/// of the warp): mode 0 idx, 1 up, 2 down, 3 bfly. The value read, and in
/// bit 32 whether it came from another lane. Every lane must be in the
/// mask.
template <typename W>
uint64_t ptxShuffle(unsigned Lane, uint32_t *Slots, W &&Wait, uint32_t Mode,
                    uint32_t Mask, uint32_t V, uint32_t B, uint32_t C) {
  if (!(Mask >> Lane & 1)) {
    std::fprintf(stderr, "emulation: lane %u not in the mask\n", Lane);
    std::abort();
  }
  int L = int(Lane), BVal = int(B & 31), CVal = int(C & 31);
  int SegMask = int((C >> 8) & 31);
  int MaxLane = (L & SegMask) | (CVal & ~SegMask), MinLane = L & SegMask;
  int J = 0;
  bool P = false;
  switch (Mode) {
  case 1: J = L - BVal; P = J >= MaxLane; break;
  case 2: J = L + BVal; P = J <= MaxLane; break;
  case 3: J = L ^ BVal; P = J <= MaxLane; break;
  default: J = MinLane | (BVal & ~SegMask); P = J <= MaxLane; break;
  }
  if (!P)
    J = L;
  Slots[L] = V;
  Wait();
  uint32_t R = Mask >> J & 1 ? Slots[J] : 0xdeadbeefu; // (undefined)
  Wait();
  return R | uint64_t(P) << 32;
}

#endif // ADCC_TESTS_PTX_SHUFFLE_H
