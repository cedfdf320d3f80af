// AMDGPU's DPP (update_dpp, mov_dpp) in the host models of a wavefront
// (wave_emulation.h, grid_emulation.cpp), which define emu_wave and
// emu_read_lane: the source lane of each lane for a dpp_ctrl of GFX9
// (quad_perm, row_shl/shr/ror, wave_shl/rol/shr/ror by 1, row_mirror,
// row_half_mirror, row_bcast:15 and :31), the row and bank masks, and
// bound_ctrl (a lane whose source is out of range writes 0 with it, keeps
// its old value without). Every lane is active.
#ifndef ADCC_TESTS_DPP_LANES_H
#define ADCC_TESTS_DPP_LANES_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" uint32_t emu_wave(uint32_t Which);
extern "C" uint64_t emu_read_lane(uint64_t V, uint32_t From);

/// The lane that lane \p L reads for \p Ctrl, or -1 where out of range.
inline int dppSource(int L, unsigned Ctrl) {
  const int Row = L & ~15, InRow = L & 15;
  if (Ctrl <= 0xff)
    return (L & ~3) + int((Ctrl >> (2 * (L & 3))) & 3);
  if (Ctrl >= 0x101 && Ctrl <= 0x10f) // row_shl
    return InRow + int(Ctrl & 15) < 16 ? L + int(Ctrl & 15) : -1;
  if (Ctrl >= 0x111 && Ctrl <= 0x11f) // row_shr
    return InRow >= int(Ctrl & 15) ? L - int(Ctrl & 15) : -1;
  if (Ctrl >= 0x121 && Ctrl <= 0x12f) // row_ror
    return Row + ((InRow - int(Ctrl & 15)) & 15);
  switch (Ctrl) {
  case 0x130:
    return L < 63 ? L + 1 : -1; // wave_shl:1
  case 0x134:
    return (L + 1) & 63; // wave_rol:1
  case 0x138:
    return L > 0 ? L - 1 : -1; // wave_shr:1
  case 0x13c:
    return (L - 1) & 63; // wave_ror:1
  case 0x140:
    return Row + 15 - InRow; // row_mirror
  case 0x141:
    return (L & ~7) + 7 - (L & 7); // row_half_mirror
  case 0x142:
    return Row > 0 ? Row - 1 : -1; // row_bcast:15 (lane 15 before)
  case 0x143:
    return Row >= 32 ? 31 : -1; // row_bcast:31
  }
  std::fprintf(stderr, "emulation: no DPP control 0x%x\n", Ctrl);
  std::abort();
}

// (Defined here: the header is included once per program, by the model.)
extern "C" uint64_t emu_dpp(uint64_t Old, uint64_t Src, uint32_t Ctrl,
                            uint32_t RowMask, uint32_t BankMask,
                            bool BoundCtrl) {
  const int L = int(emu_wave(0));
  const int From = dppSource(L, Ctrl);
  // (Every lane takes part in the exchange.)
  const uint64_t Read = emu_read_lane(Src, From >= 0 ? From : L);
  const bool Writes =
      (RowMask >> (L / 16) & 1) && (BankMask >> ((L & 15) / 4) & 1);
  if (!Writes)
    return Old;
  if (From < 0)
    return BoundCtrl ? 0 : Old;
  return Read;
}

#endif // ADCC_TESTS_DPP_LANES_H
