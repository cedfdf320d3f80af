//===- SharedShadows.cpp - Zeroing the shadows of __shared__ arrays -------===//
//
// A `__shared__` array that differentiated device code names itself gets a
// shadow `__shared__` array (`tile_shadow`, GlobalShadows.cpp). In reverse
// mode the adjoints of its reads accumulate there, so it must start at
// zero; shared memory has no initial value, and each block has its own.
// The function that runs a gradient's two sweeps (`gradient_f`, or the
// body of an ADCC_REVERSE declaration) therefore begins with the block
// zeroing every shadow array the sweeps reach, cooperatively:
//
//   for (i = linear thread id in block; i < words; i += threads in block)
//     shadow[i] = 0;
//   __syncthreads();
//   ... forward sweep, reverse sweep ...
//   __syncthreads();
//
// The first barrier orders the zeroing before any thread's first use; the
// last one keeps a thread that calls the gradient again (in a loop) from
// zeroing what another thread's reverse sweep still reads. So every
// thread of the block must reach the gradient, as every thread must reach
// a barrier. Adjoint updates into the shadow are atomic unless each thread
// touches only its own element (DeviceMemory.cpp).
//
//===----------------------------------------------------------------------===//

#include "device/DeviceCode.h"
#include "Synthesis.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace adcore {
namespace {

/// The shadow `__shared__` arrays that \p V names (through constant
/// expressions) into \p Out.
void collectSharedShadows(const Value *V, SetVector<GlobalVariable *> &Out,
                          unsigned Depth = 4) {
  if (auto *G = dyn_cast<GlobalVariable>(V)) {
    if (isSharedShadow(*G))
      Out.insert(const_cast<GlobalVariable *>(G));
    return;
  }
  if (auto *CE = dyn_cast<ConstantExpr>(V); CE && Depth > 0)
    for (const Use &Op : CE->operands())
      collectSharedShadows(Op.get(), Out, Depth - 1);
}

/// The shadow `__shared__` arrays the code \p Roots reach (through the
/// functions they call) uses.
SetVector<GlobalVariable *> sharedShadowsOf(ArrayRef<const Function *> Roots) {
  SetVector<GlobalVariable *> Out;
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work(Roots.begin(), Roots.end());
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second || F->isDeclaration())
      continue;
    for (const Instruction &I : instructions(*F)) {
      for (const Use &Op : I.operands())
        collectSharedShadows(Op.get(), Out);
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction())
          Work.push_back(Callee);
    }
  }
  return Out;
}

} // namespace

std::pair<Value *, Value *> threadInBlock(IRBuilder<> &B, Module &M) {
  Type *I32 = B.getInt32Ty();
  Value *Id[3], *Size[3];
  if (M.getTargetTriple().isNVPTX()) {
    const Intrinsic::ID Tid[3] = {Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                  Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                  Intrinsic::nvvm_read_ptx_sreg_tid_z};
    const Intrinsic::ID Ntid[3] = {Intrinsic::nvvm_read_ptx_sreg_ntid_x,
                                   Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                                   Intrinsic::nvvm_read_ptx_sreg_ntid_z};
    for (int D = 0; D < 3; ++D) {
      Id[D] = B.CreateIntrinsic(Tid[D], {});
      Size[D] = B.CreateIntrinsic(Ntid[D], {});
    }
  } else {
    // AMDGPU: the work-group's sizes are the i16 fields at bytes 4, 6 and
    // 8 of the dispatch packet.
    const Intrinsic::ID Tid[3] = {Intrinsic::amdgcn_workitem_id_x,
                                  Intrinsic::amdgcn_workitem_id_y,
                                  Intrinsic::amdgcn_workitem_id_z};
    Value *Packet = B.CreateIntrinsic(Intrinsic::amdgcn_dispatch_ptr, {});
    for (int D = 0; D < 3; ++D) {
      Id[D] = B.CreateIntrinsic(Tid[D], {});
      Value *At = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Packet, 4 + 2 * D);
      auto *L = B.CreateAlignedLoad(B.getInt16Ty(), At, Align(2));
      L->setMetadata(LLVMContext::MD_invariant_load,
                     MDNode::get(M.getContext(), {}));
      Size[D] = B.CreateZExt(L, I32);
    }
  }
  Value *Linear =
      B.CreateAdd(Id[0], B.CreateMul(Size[0], B.CreateAdd(Id[1], B.CreateMul(
                                                                   Size[1],
                                                                   Id[2]))));
  Value *Count = B.CreateMul(B.CreateMul(Size[0], Size[1]), Size[2]);
  return {Linear, Count};
}

void blockBarrier(IRBuilder<> &B, Module &M) {
  if (M.getTargetTriple().isNVPTX()) {
    B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
                      {B.getInt32(0)});
    return;
  }
  SyncScope::ID Group = M.getContext().getOrInsertSyncScopeID("workgroup");
  B.CreateFence(AtomicOrdering::Release, Group);
  B.CreateIntrinsic(Intrinsic::amdgcn_s_barrier, {});
  B.CreateFence(AtomicOrdering::Acquire, Group);
}

namespace {

/// Zeroes \p Shadow with the threads of the block, before \p At.
void zeroCooperatively(GlobalVariable &Shadow, Instruction *At, Value *Linear,
                       Value *Count) {
  Module &M = *Shadow.getParent();
  const DataLayout &DL = M.getDataLayout();
  uint64_t Bytes = DL.getTypeAllocSize(Shadow.getValueType());
  uint64_t Alignment = Shadow.getAlign().valueOrOne().value();
  unsigned Word = Bytes % 8 == 0 && Alignment >= 8   ? 8
                  : Bytes % 4 == 0 && Alignment >= 4 ? 4
                                                     : 1;
  uint64_t Words = Bytes / Word;
  if (Words == 0)
    return;
  // entry: br (Linear < Words) ? loop : done
  // loop:  i = phi [Linear, entry], [i + Count, loop]; shadow[i] = 0;
  //        br (i + Count < Words) ? loop : done
  BasicBlock *Entry = At->getParent();
  BasicBlock *Done = SplitBlock(Entry, At);
  Done->setName("shared.shadow.zeroed");
  LLVMContext &C = M.getContext();
  BasicBlock *Loop =
      BasicBlock::Create(C, "shared.shadow.zero", Entry->getParent(), Done);
  IRBuilder<> B(Entry->getTerminator());
  Type *I32 = B.getInt32Ty();
  Constant *End = ConstantInt::get(I32, Words);
  B.CreateCondBr(B.CreateICmpULT(Linear, End), Loop, Done);
  Entry->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I32, 2, "shared.shadow.i");
  I->addIncoming(Linear, Entry);
  Type *WordTy = B.getIntNTy(8 * Word);
  Value *P = B.CreateInBoundsGEP(WordTy, &Shadow, I);
  B.CreateAlignedStore(ConstantInt::get(WordTy, 0), P, Align(Word));
  Value *Next = B.CreateAdd(I, Count);
  I->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpULT(Next, End), Loop, Done);
}

} // namespace

bool isSharedShadow(const GlobalVariable &G) {
  // (The mark analysis/GlobalShadows.cpp puts on the shadow globals it
  // makes; that stage comes after this one.)
  return isSharedArray(G) && G.hasMetadata("adcc.shadow.global");
}

void zeroSharedShadows(SynthesisContext &Ctx) {
  Module &M = Ctx.module();
  for (const CombinedSweeps &S : Ctx.combined()) {
    SetVector<GlobalVariable *> Shadows = sharedShadowsOf({S.Aug, S.Rev});
    if (Shadows.empty())
      continue;
    CallInst *AugCall = nullptr, *RevCall = nullptr;
    for (Instruction &I : instructions(*S.Caller))
      if (auto *Call = dyn_cast<CallInst>(&I)) {
        if (Call->getCalledFunction() == S.Aug && !AugCall)
          AugCall = Call;
        else if (Call->getCalledFunction() == S.Rev)
          RevCall = Call;
      }
    if (!AugCall || !RevCall)
      continue;
    IRBuilder<> B(AugCall);
    auto [Linear, Count] = threadInBlock(B, M);
    for (GlobalVariable *G : Shadows)
      zeroCooperatively(*G, AugCall, Linear, Count);
    B.SetInsertPoint(AugCall);
    blockBarrier(B, M);
    B.SetInsertPoint(RevCall->getNextNode());
    blockBarrier(B, M);
  }
  // (A launch's reverse kernel: its shadows, those it names and those
  // whose addresses the augmented kernel records, begin at zero, before
  // any thread's reverse sweep adds into them.)
  for (Function &F : M) {
    MDNode *Mark = F.getMetadata(LaunchReverseMetadata);
    if (F.isDeclaration() || !Mark)
      continue;
    SmallVector<const Function *, 2> Roots = {&F};
    if (Mark->getNumOperands() > 0)
      if (auto *Aug =
              mdconst::dyn_extract_or_null<Function>(Mark->getOperand(0)))
        Roots.push_back(Aug);
    SetVector<GlobalVariable *> Shadows = sharedShadowsOf(Roots);
    if (Shadows.empty())
      continue;
    Instruction *At = &*F.getEntryBlock().getFirstInsertionPt();
    IRBuilder<> B(At);
    auto [Linear, Count] = threadInBlock(B, M);
    for (GlobalVariable *G : Shadows)
      zeroCooperatively(*G, At, Linear, Count);
    B.SetInsertPoint(At);
    blockBarrier(B, M);
  }
}

} // namespace adcore
