//===- WarpShuffles.cpp - Derivatives of CUDA's warp shuffles -------------===//
//
// y = shuffle(mask, x, b, width) gives lane l the value of lane src(l), or
// its own where src(l) falls outside its segment of `width` lanes (PTX's
// shfl.sync, whose predicate says which):
//
//   down  src(l) = l + b      up    src(l) = l - b
//   xor   src(l) = l ^ b      idx   src(l) = the segment's lane b
//
// Forward mode shuffles the tangent the same way. In reverse mode lane j
// gets the adjoints of every lane whose value came from j:
//
//   x̄_j = sum over l with src(l) = j of ȳ_l
//
// For down, up and xor at most one other lane read j: l = j - b, j + b,
// j ^ b. Each lane sends m_l = (p_l ? ȳ_l : 0), its adjoint where its own
// shuffle read another lane (p_l, the primal's predicate), by the inverse
// shuffle over the whole warp (up <-> down with the same delta, xor its
// own inverse); lane j keeps what it received where that lane exists and
// is in the mask, and adds its own ȳ_j where its shuffle kept its own
// value (!p_j). For idx the lanes that read j may be many (a broadcast):
// for each lane k of the mask in turn, every lane reads k's adjoint and
// source, and the lane that is the source adds it (32 rounds, unrolled at
// -O1 and above).
//
// A double is shuffled as two 32-bit halves with one predicate, as the
// header does.
//
// The raw NVVM intrinsics of a float (`__nvvm_shfl_sync_down_f32(mask, x,
// b, c)`, PTX's `c` operand given by the program) take the same rules: at
// the start of the pipeline each call becomes a call of a function that
// holds the intrinsic (`adcc.nvvm.shfl.sync.down.f32`), kept
// out of line and inlined after the AD pass as the header's shuffles are.
//
//===----------------------------------------------------------------------===//

#include "WarpShuffles.h"
#include "RuleWrappers.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

enum class Mode { Idx, Up, Down, Xor };

/// A shuffle of the CUDA header, by the start of its mangled name (the
/// parameter after the mask is the value: `f` or `d`), or the function
/// that holds a raw NVVM intrinsic of a float, by its name.
struct ShuffleRow {
  const char *Prefix;
  Mode How;
  /// The low bits of PTX's `c` operand the header passes (the clamp).
  unsigned Clamp;
  /// The last parameter is PTX's `c` itself (a raw intrinsic), not the
  /// header's width.
  bool RawC = false;
  /// The raw intrinsic of a float that the function holds.
  const char *Intrinsic = nullptr;
};

constexpr ShuffleRow ShuffleTable[] = {
    {"_Z11__shfl_syncj", Mode::Idx, 0x1f},
    {"_Z14__shfl_up_syncj", Mode::Up, 0},
    {"_Z16__shfl_down_syncj", Mode::Down, 0x1f},
    {"_Z15__shfl_xor_syncj", Mode::Xor, 0x1f},
    {"adcc.nvvm.shfl.sync.idx.f32", Mode::Idx, 0, true,
     "llvm.nvvm.shfl.sync.idx.f32"},
    {"adcc.nvvm.shfl.sync.up.f32", Mode::Up, 0, true,
     "llvm.nvvm.shfl.sync.up.f32"},
    {"adcc.nvvm.shfl.sync.down.f32", Mode::Down, 0, true,
     "llvm.nvvm.shfl.sync.down.f32"},
    {"adcc.nvvm.shfl.sync.bfly.f32", Mode::Xor, 0, true,
     "llvm.nvvm.shfl.sync.bfly.f32"},
};

const ShuffleRow *rowFor(const Function &F) {
  if (!F.getParent() || !F.getParent()->getTargetTriple().isNVPTX())
    return nullptr;
  FunctionType *FT = F.getFunctionType();
  Type *T = FT->getReturnType();
  if (!(T->isFloatTy() || T->isDoubleTy()) || FT->getNumParams() != 4 ||
      FT->getParamType(1) != T)
    return nullptr;
  for (unsigned I : {0u, 2u, 3u})
    if (!FT->getParamType(I)->isIntegerTy(32))
      return nullptr;
  StringRef Name = F.getName();
  for (const ShuffleRow &Row : ShuffleTable) {
    StringRef Prefix(Row.Prefix);
    if (Row.RawC ? Name == Prefix && T->isFloatTy()
                 : Name.starts_with(Prefix) &&
                       Name.drop_front(Prefix.size())
                           .starts_with(T->isFloatTy() ? "f" : "d"))
      return &Row;
  }
  return nullptr;
}

Intrinsic::ID shuffleIntrinsic(Mode How, bool Float) {
  switch (How) {
  case Mode::Idx:
    return Float ? Intrinsic::nvvm_shfl_sync_idx_f32p
                 : Intrinsic::nvvm_shfl_sync_idx_i32p;
  case Mode::Up:
    return Float ? Intrinsic::nvvm_shfl_sync_up_f32p
                 : Intrinsic::nvvm_shfl_sync_up_i32p;
  case Mode::Down:
    return Float ? Intrinsic::nvvm_shfl_sync_down_f32p
                 : Intrinsic::nvvm_shfl_sync_down_i32p;
  case Mode::Xor:
    return Float ? Intrinsic::nvvm_shfl_sync_bfly_f32p
                 : Intrinsic::nvvm_shfl_sync_bfly_i32p;
  }
  llvm_unreachable("shuffle mode");
}

/// PTX's shuffle of \p V (a float, a double as two halves, or an i32):
/// {the value read, whether it came from another lane}.
std::pair<Value *, Value *> shuffle(IRBuilder<> &B, Mode How, Value *Mask,
                                    Value *V, Value *Lane, Value *C) {
  Type *T = V->getType();
  auto One = [&](Value *X) {
    Value *R = B.CreateIntrinsic(shuffleIntrinsic(How, X->getType()->isFloatTy()),
                                 {}, {Mask, X, Lane, C});
    return std::pair{B.CreateExtractValue(R, 0), B.CreateExtractValue(R, 1)};
  };
  if (!T->isDoubleTy())
    return One(V);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Value *Bits = B.CreateBitCast(V, I64);
  auto [Lo, P] = One(B.CreateTrunc(Bits, I32));
  auto [Hi, PHi] = One(B.CreateTrunc(B.CreateLShr(Bits, 32), I32));
  (void)PHi; // (the same lanes)
  Value *Joined = B.CreateOr(B.CreateShl(B.CreateZExt(Hi, I64), 32),
                             B.CreateZExt(Lo, I64));
  return {B.CreateBitCast(Joined, T), P};
}

/// PTX's `c` operand of the header's shuffle of width \p Width (a raw
/// intrinsic's own).
Value *clampOperand(IRBuilder<> &B, const ShuffleRow &Row, Value *Width) {
  if (Row.RawC)
    return Width;
  return B.CreateOr(B.CreateShl(B.CreateSub(B.getInt32(32), Width), 8),
                    B.getInt32(Row.Clamp));
}

/// The adjoint of the value of a down, up or xor shuffle (the file's
/// comment).
Value *exchangedAdjoint(IRBuilder<> &B, const ShuffleRow &Row, Value *Mask,
                        Value *Delta, Value *Adjoint, Value *Moved,
                        Value *LaneId) {
  Value *Zero = Constant::getNullValue(Adjoint->getType());
  Value *Sent = B.CreateSelect(Moved, Adjoint, Zero);
  Value *D = B.CreateAnd(Delta, B.getInt32(31));
  // The inverse shuffle over the whole warp (segment mask 0): up reads
  // lanes >= delta (clamp 0), down and xor lanes <= 31.
  Mode Inverse = Row.How == Mode::Down ? Mode::Up
                 : Row.How == Mode::Up ? Mode::Down
                                       : Mode::Xor;
  Value *From = Row.How == Mode::Down ? B.CreateSub(LaneId, D)
                : Row.How == Mode::Up ? B.CreateAdd(LaneId, D)
                                      : B.CreateXor(LaneId, D);
  Value *Got =
      shuffle(B, Inverse, Mask, Sent, Delta,
              B.getInt32(Inverse == Mode::Up ? 0 : 0x1f))
          .first;
  Value *InWarp = B.CreateICmpULT(From, B.getInt32(32));
  Value *Shift = B.CreateSelect(InWarp, From, B.getInt32(0));
  Value *InMask = B.CreateTrunc(B.CreateLShr(Mask, Shift), B.getInt1Ty());
  Value *Valid = B.CreateAnd(InWarp, InMask);
  return B.CreateFAdd(B.CreateSelect(Valid, Got, Zero),
                      B.CreateSelect(Moved, Zero, Adjoint));
}

/// The adjoint of the value of an idx shuffle: 32 rounds (the file's
/// comment). Ends \p B in a new block.
Value *gatheredAdjoint(IRBuilder<> &B, Value *Mask, Value *SrcLane,
                       Value *Adjoint, Value *Moved, Value *LaneId,
                       Value *C) {
  // The lane this lane read: the segment's lane b where the primal's
  // shuffle read another lane, else itself.
  Value *SegMask = B.CreateAnd(B.CreateLShr(C, 8), B.getInt32(31));
  Value *Source = B.CreateOr(
      B.CreateAnd(LaneId, SegMask),
      B.CreateAnd(SrcLane, B.CreateXor(SegMask, B.getInt32(31))));
  Source = B.CreateSelect(Moved, Source, LaneId);
  Type *T = Adjoint->getType();
  Function *F = B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = F->getContext();
  BasicBlock *Entry = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "round", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "gathered", F);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(B.getInt32Ty(), 2, "k");
  PHINode *Sum = B.CreatePHI(T, 2, "sum");
  K->addIncoming(B.getInt32(0), Entry);
  Sum->addIncoming(Constant::getNullValue(T), Entry);
  Value *Full = B.getInt32(0x1f);
  Value *Its = shuffle(B, Mode::Idx, Mask, Adjoint, K, Full).first;
  Value *ItsSource = shuffle(B, Mode::Idx, Mask, Source, K, Full).first;
  Value *InMask = B.CreateTrunc(B.CreateLShr(Mask, K), B.getInt1Ty());
  Value *Mine = B.CreateAnd(InMask, B.CreateICmpEQ(ItsSource, LaneId));
  Value *Next =
      B.CreateFAdd(Sum, B.CreateSelect(Mine, Its, Constant::getNullValue(T)));
  Value *K1 = B.CreateAdd(K, B.getInt32(1));
  K->addIncoming(K1, Loop);
  Sum->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpULT(K1, B.getInt32(32)), Loop, Done);
  B.SetInsertPoint(Done);
  return Next;
}

} // namespace

bool isWarpShuffle(const Function &F) {
  return rowFor(F) != nullptr || isHipShuffle(F) || isAmdgpuCrossLane(F);
}

bool wrapRawShuffles(Module &M) {
  if (!M.getTargetTriple().isNVPTX())
    return false;
  bool Changed = false;
  for (const ShuffleRow &Row : ShuffleTable) {
    Function *Raw = Row.RawC ? M.getFunction(Row.Intrinsic) : nullptr;
    if (!Raw || Raw->use_empty())
      continue;
    Function *W = M.getFunction(Row.Prefix);
    if (!W) {
      // (Not internal: the optimizations before the AD pass would drop its
      // parameters, constants at the call, and with them the rule's
      // signature.)
      W = Function::Create(Raw->getFunctionType(),
                           GlobalValue::LinkOnceODRLinkage, Row.Prefix, M);
      W->setVisibility(GlobalValue::HiddenVisibility);
      W->addFnAttr(Attribute::Convergent);
      W->addFnAttr(Attribute::NoUnwind);
      IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", W));
      SmallVector<Value *, 4> Args;
      for (Argument &A : W->args())
        Args.push_back(&A);
      B.CreateRet(B.CreateCall(Raw, Args));
    }
    for (User *U : make_early_inc_range(Raw->users()))
      if (auto *Call = dyn_cast<CallInst>(U);
          Call && Call->getCalledFunction() == Raw && Call->getFunction() != W) {
        Call->setCalledFunction(W);
        Changed = true;
      }
  }
  return Changed;
}

bool isRawShuffleHolder(const Function &F) {
  const ShuffleRow *Row = rowFor(F);
  return (Row && Row->RawC) || isAmdgpuCrossLane(F);
}

Function *shuffleRuleFunction(const Function &F, StringRef Kind,
                              FunctionType *FT) {
  Module &M = *const_cast<Module *>(F.getParent());
  Function *W =
      makeRuleWrapper(M, ("adcc.warp." + Kind + "." + F.getName()).str(), FT);
  W->addFnAttr(Attribute::Convergent);
  return W;
}

bool isWarpShuffleRule(const Function &F) {
  return F.hasLocalLinkage() && F.getName().starts_with("adcc.warp.");
}

Function *warpShuffleForwardRule(const Function &F) {
  if (!rowFor(F)) {
    if (Function *W = amdgpuCrossLaneForwardRule(F))
      return W;
    return hipShuffleForwardRule(F);
  }
  // (mask, x, dx, b, width) -> the tangent: dx shuffled as x is.
  Type *T = F.getReturnType();
  Type *I32 = Type::getInt32Ty(F.getContext());
  Function *W = shuffleRuleFunction(
      F, "fwd", FunctionType::get(T, {I32, T, T, I32, I32}, false));
  if (!W->empty())
    return W;
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", W));
  B.CreateRet(B.CreateCall(const_cast<Function *>(&F),
                           {W->getArg(0), W->getArg(2), W->getArg(3),
                            W->getArg(4)}));
  return W;
}

bool warpShuffleGradientRule(const Function &F, Function *&Augmented,
                             Function *&Reverse) {
  const ShuffleRow *Row = rowFor(F);
  if (!Row)
    return amdgpuCrossLaneGradientRule(F, Augmented, Reverse) ||
           hipShuffleGradientRule(F, Augmented, Reverse);
  Type *T = F.getReturnType();
  LLVMContext &Ctx = F.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  Augmented = shuffleRuleFunction(F, "aug", F.getFunctionType());
  Reverse = shuffleRuleFunction(
      F, "rev", FunctionType::get(T, {I32, T, I32, I32, T}, false));
  if (Augmented->empty()) {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Augmented));
    SmallVector<Value *, 4> Args;
    for (Argument &A : Augmented->args())
      Args.push_back(&A);
    B.CreateRet(B.CreateCall(const_cast<Function *>(&F), Args));
  }
  if (Reverse->empty()) {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Reverse));
    Value *Mask = Reverse->getArg(0), *Lane = Reverse->getArg(2);
    Value *Adjoint = Reverse->getArg(4);
    Value *C = clampOperand(B, *Row, Reverse->getArg(3));
    Value *LaneId =
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
    // (The predicate does not depend on the value shuffled.)
    Value *Moved =
        shuffle(B, Row->How, Mask, B.getInt32(0), Lane, C).second;
    Value *D = Row->How == Mode::Idx
                   ? gatheredAdjoint(B, Mask, Lane, Adjoint, Moved, LaneId, C)
                   : exchangedAdjoint(B, *Row, Mask, Lane, Adjoint, Moved,
                                      LaneId);
    B.CreateRet(D);
  }
  return true;
}

} // namespace adcore
