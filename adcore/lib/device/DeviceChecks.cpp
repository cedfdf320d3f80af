//===- DeviceChecks.cpp - Device code adcc cannot differentiate -----------===//
//
// Before a derivative of device code is made, the code it reaches is
// searched for what has no derivative there, each a located error:
//
//   inline assembly       `asm("...")` (PTX or AMDGPU instructions)
//   dynamic parallelism   a kernel launch from device code
//   grid synchronization  cooperative groups' grid.sync() (and, since
//                         CUDA 12, cg::this_grid(): inline assembly in
//                         <cooperative_groups.h>, reported where the
//                         program calls it)
//   float bits shuffled   a cross-lane operation (NVVM shuffle, AMDGPU
//                         ds_bpermute, DPP, readlane) of integers made of
//                         a float's bits (CUDA's and HIP's shuffles of
//                         floats and doubles have rules:
//                         rules/WarpShuffles.cpp, rules/HipShuffles.cpp)
//
// Barriers of a block (__syncthreads(), __syncwarp(), AMDGPU's s_barrier
// and the fences around it) are no error: in forward mode a barrier stays
// where it is (the tangents of shared memory are written beside its
// values, before the same barrier); in reverse mode the reverse sweep runs
// a mirror of it at the mirrored place (reverse/DeviceUpdates.cpp), so
// that adjoints other threads added before it are complete after it.
//
//===----------------------------------------------------------------------===//

#include "device/DeviceCode.h"
#include "rules/WarpShuffles.h"
#include "adcore/MathRules.h"
#include "Synthesis.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr unsigned SharedAddressSpace = 3; // NVPTX shared, AMDGPU LDS

/// A call adcc cannot differentiate in device code, by the start of the
/// callee's name, and what it is.
struct DeviceCallRow {
  const char *Prefix;
  const char *What;
  /// A barrier: mirrored in the reverse sweep, not an error.
  bool Barrier;
};

constexpr DeviceCallRow DeviceCallTable[] = {
    {"cudaLaunchDevice", "dynamic parallelism (a kernel launch in device "
                         "code)", false},
    {"cudaGetParameterBuffer", "dynamic parallelism (a kernel launch in "
                               "device code)", false},
    {"__cudaCDP", "dynamic parallelism (a kernel launch in device code)",
     false},
    {"cudaCGSynchronizeGrid", "grid-wide synchronization (grid.sync())",
     false},
    {"cudaCGSynchronize", "grid-wide synchronization (grid.sync())", false},
    {"__ockl_grid_sync", "grid-wide synchronization (grid.sync())", false},
    {"__ockl_multi_grid_sync", "grid-wide synchronization (grid.sync())",
     false},
    {"llvm.nvvm.barrier", "__syncthreads()", true},
    {"llvm.nvvm.bar.", "__syncwarp()", true},
    {"llvm.amdgcn.s.barrier", "__syncthreads()", true},
};

const DeviceCallRow *deviceCallRow(const Function &F) {
  for (const DeviceCallRow &Row : DeviceCallTable)
    if (F.getName().starts_with(Row.Prefix))
      return &Row;
  return nullptr;
}

bool fromFloatBits(const Value *V, unsigned Depth = 16);

/// Whether what is stored into the stack slot \p Slot (at -O0, where a bit
/// cast goes through memory) may be made of a float's bits.
bool slotHoldsFloatBits(const Value *Slot, unsigned Depth) {
  SmallVector<const Value *, 8> Work{Slot};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst>(U))
        Work.push_back(U);
      else if (const auto *SI = dyn_cast<StoreInst>(U);
               SI && SI->getPointerOperand() == P &&
               fromFloatBits(SI->getValueOperand(), Depth - 1))
        return true;
      else if (const auto *MT = dyn_cast<MemTransferInst>(U);
               MT && MT->getRawDest() == P)
        if (const auto *From =
                dyn_cast<AllocaInst>(getUnderlyingObject(MT->getRawSource()));
            From && slotHoldsFloatBits(From, Depth - 1))
          return true;
    }
  }
  return false;
}

/// Whether \p V is made of the bits of a floating-point value (through
/// casts, shifts, masks, and stack slots).
bool fromFloatBits(const Value *V, unsigned Depth) {
  if (V->getType()->isFPOrFPVectorTy())
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0)
    return false;
  if (const auto *LI = dyn_cast<LoadInst>(I)) {
    const auto *Slot =
        dyn_cast<AllocaInst>(getUnderlyingObject(LI->getPointerOperand()));
    return Slot && slotHoldsFloatBits(Slot, Depth);
  }
  if (!(isa<CastInst>(I) || isa<ExtractElementInst>(I) ||
        (isa<BinaryOperator>(I) &&
         is_contained({Instruction::LShr, Instruction::AShr, Instruction::Shl,
                       Instruction::And, Instruction::Or},
                      I->getOpcode()))))
    return false;
  return any_of(I->operands(), [&](const Use &Op) {
    return fromFloatBits(Op.get(), Depth - 1);
  });
}

/// The cross-lane operations of the targets, by the start of their
/// names: their integers carry no derivative.
constexpr const char *CrossLanePrefixes[] = {
    "llvm.nvvm.shfl.",         "llvm.amdgcn.ds.bpermute",
    "llvm.amdgcn.ds.permute",  "llvm.amdgcn.ds.swizzle",
    "llvm.amdgcn.mov.dpp",     "llvm.amdgcn.update.dpp",
    "llvm.amdgcn.readlane",    "llvm.amdgcn.readfirstlane",
    "llvm.amdgcn.writelane",   "llvm.amdgcn.permlane",
};

/// A cross-lane operation (a warp shuffle) of integers made of a float's
/// bits: a double shuffled as two halves by the program itself, or by
/// HIP's header.
bool shufflesFloatBits(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || none_of(CrossLanePrefixes, [&](const char *Prefix) {
        return Callee->getName().starts_with(Prefix);
      }))
    return false;
  return any_of(Call.args(), [](const Use &A) {
    return A->getType()->isIntOrIntVectorTy() && fromFloatBits(A.get());
  });
}

} // namespace

bool isSharedArray(const GlobalVariable &G) {
  return G.getAddressSpace() == SharedAddressSpace &&
         isDeviceModule(*G.getParent());
}

bool isDeviceBarrier(const Function &F) {
  const DeviceCallRow *Row = deviceCallRow(F);
  return Row && Row->Barrier;
}

bool checkDeviceCode(const Function &Primal, bool Reverse,
                     SynthesisContext &Ctx) {
  // (Direct calls, not into a device library's function or a warp shuffle
  // with a rule, nor into one with a registered derivative: its body, which
  // may hold inline assembly or shuffle a double's halves, is not
  // differentiated.)
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work{&Primal};
  // (The call by which the search reached each function: an error in
  // <cooperative_groups.h>'s code is reported where the program called
  // it.)
  DenseMap<const Function *, const Instruction *> CalledFrom;
  auto InCooperativeGroups = [](const DILocation *L) {
    return L && L->getFilename().contains("cooperative_groups");
  };
  auto ProgramLocation = [&](const Instruction *I) -> const DILocation * {
    for (unsigned Depth = 0; I && Depth < 16; ++Depth) {
      for (const DILocation *L = I->getDebugLoc().get(); L;
           L = L->getInlinedAt())
        if (!InCooperativeGroups(L))
          return L;
      I = CalledFrom.lookup(I->getFunction());
    }
    return nullptr;
  };
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second || F->isDeclaration() ||
        (F != &Primal && (findMathRule(*F) || isWarpShuffle(*F) ||
                          Ctx.rules().coversDerivative(F, !Reverse))))
      continue;
    for (const Instruction &I : instructions(*F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (const Function *Callee = Call->getCalledFunction()) {
        Work.push_back(Callee);
        CalledFrom.try_emplace(Callee, &I);
      }
      std::string What;
      // (A shuffle of a header's function inlined here: reported where the
      // program's file called it, not in the header.)
      bool AtCallSite = false;
      bool Cooperative = false;
      if (Call->isInlineAsm() &&
          (Cooperative = InCooperativeGroups(I.getDebugLoc().get()))) {
        // (CUDA 12 and 13 read the grid's workspace and synchronize the
        // grid in inline assembly.)
        What = "cooperative groups' grid group (cg::this_grid(), "
               "grid.sync(): inline assembly in <cooperative_groups.h>; "
               "grid-wide synchronization has no derivative in adcc)";
      } else if (Call->isInlineAsm()) {
        What = "inline assembly";
      } else if (const Function *Callee = Call->getCalledFunction()) {
        const DeviceCallRow *Row = deviceCallRow(*Callee);
        if (Row && !Row->Barrier)
          What = Row->What;
        else if ((AtCallSite = shufflesFloatBits(*Call)))
          What = "a warp shuffle of the bits of a floating-point value (as "
                 "integers, which carry no derivative; shuffle the float or "
                 "double itself: CUDA's __shfl_sync, __shfl_up_sync, "
                 "__shfl_down_sync, __shfl_xor_sync, HIP's __shfl, "
                 "__shfl_up, __shfl_down, __shfl_xor)";
      }
      if (What.empty())
        continue;
      auto &At = const_cast<Instruction &>(I);
      DebugLoc Own = At.getDebugLoc();
      const DISubprogram *Home = Primal.getSubprogram();
      if (const DILocation *L = Own.get(); L && AtCallSite && Home) {
        while (L->getInlinedAt() && L->getFilename() != Home->getFilename())
          L = L->getInlinedAt();
        At.setDebugLoc(DebugLoc(L));
      } else if (Cooperative) {
        if (const DILocation *L = ProgramLocation(&I))
          At.setDebugLoc(DebugLoc(L));
      }
      Ctx.error(At, "cannot differentiate " + Ctx.describe(Primal) +
                        " in device code: " + What + " is not supported");
      At.setDebugLoc(Own);
      return false;
    }
  }
  return true;
}

} // namespace adcore
