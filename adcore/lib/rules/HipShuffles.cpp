//===- HipShuffles.cpp - Derivatives of HIP's warp shuffles on AMDGPU -----===//
//
// HIP's `__shfl`, `__shfl_up`, `__shfl_down` and `__shfl_xor` of a float or
// a double (its header's functions: `float __shfl_down(float var, unsigned
// delta, int width)`, ...) move the value's bits between the lanes of the
// wavefront with ds_bpermute, a double as two 32-bit halves. Each gives lane
// l the value of one lane src(l), which the header computes from the lane
// id, the delta or source and the width (its own lane where the source
// falls outside l's segment):
//
//   y_l = x_src(l)     forward:  dy_l = dx_src(l)  (the same shuffle)
//                      reverse:  x̄_j = sum over l with src(l) = j of ȳ_l
//
// The rules treat the header's function as a black box: the reverse sweep
// learns src(l) by shuffling the lane's own id (a small integer, exact as
// a float or double) with the same function and arguments, so whatever the
// header's version computes, the adjoint goes back where the value came
// from. Several lanes may read one (`__shfl` of a fixed lane: a broadcast;
// a lane past its segment's end reads itself while its neighbour reads it
// too), so the adjoints are gathered in one round per lane of the
// wavefront: in round k every lane reads lane k's adjoint and source
// (readlane, k uniform), and the lane that is the source adds it, where
// lane k is active (the ballot of the lanes that run the sweep). No atomic
// adds, no LDS. The functions are kept out of line until derivatives are
// made, then inlined (DeviceLibraries.cpp), as CUDA's shuffles are.
//
//===----------------------------------------------------------------------===//

#include "WarpShuffles.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// HIP's shuffles of a float or double, by the start of their mangled
/// names: the value's type (`f` or `d`) follows.
constexpr const char *HipShufflePrefixes[] = {
    "_Z6__shfl",
    "_Z9__shfl_up",
    "_Z11__shfl_down",
    "_Z10__shfl_xor",
};

} // namespace

Value *amdgpuLaneId(IRBuilderBase &B) {
  Value *Lo = B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                {B.getInt32(-1), B.getInt32(0)});
  return B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_hi, {},
                           {B.getInt32(-1), Lo});
}

Value *gatheredAdjoint(IRBuilderBase &B, Value *Adjoint, Value *Source) {
  Function *F = B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = F->getContext();
  Type *T = Adjoint->getType(), *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Value *Lane = amdgpuLaneId(B);
  Value *Active =
      B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {I64}, {B.getTrue()});
  Value *Lanes = B.CreateIntrinsic(I32, Intrinsic::amdgcn_wavefrontsize, {});
  BasicBlock *Entry = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "round", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "gathered", F);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(I32, 2, "k");
  PHINode *Sum = B.CreatePHI(T, 2, "sum");
  K->addIncoming(B.getInt32(0), Entry);
  Sum->addIncoming(Constant::getNullValue(T), Entry);
  Value *Its = B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {T}, {Adjoint, K});
  Value *ItsSource =
      B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {I32}, {Source, K});
  Value *Runs =
      B.CreateTrunc(B.CreateLShr(Active, B.CreateZExt(K, I64)), B.getInt1Ty());
  Value *Mine = B.CreateAnd(Runs, B.CreateICmpEQ(ItsSource, Lane));
  Value *Next =
      B.CreateFAdd(Sum, B.CreateSelect(Mine, Its, Constant::getNullValue(T)));
  Value *K1 = B.CreateAdd(K, B.getInt32(1));
  K->addIncoming(K1, Loop);
  Sum->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpULT(K1, Lanes), Loop, Done);
  B.SetInsertPoint(Done);
  return Next;
}

bool isHipShuffle(const Function &F) {
  if (!F.getParent() || !F.getParent()->getTargetTriple().isAMDGPU())
    return false;
  FunctionType *FT = F.getFunctionType();
  Type *T = FT->getReturnType();
  if (!(T->isFloatTy() || T->isDoubleTy()) || FT->getNumParams() != 3 ||
      FT->getParamType(0) != T || !FT->getParamType(1)->isIntegerTy(32) ||
      !FT->getParamType(2)->isIntegerTy(32))
    return false;
  StringRef Name = F.getName();
  for (StringRef Prefix : HipShufflePrefixes)
    if (Name.starts_with(Prefix) &&
        Name.drop_front(Prefix.size()).starts_with(T->isFloatTy() ? "f" : "d"))
      return true;
  return false;
}

Function *hipShuffleForwardRule(const Function &F) {
  if (!isHipShuffle(F))
    return nullptr;
  // (x, dx, b, width) -> the tangent: dx shuffled as x is.
  Type *T = F.getReturnType();
  Type *I32 = Type::getInt32Ty(F.getContext());
  Function *W =
      shuffleRuleFunction(F, "fwd", FunctionType::get(T, {T, T, I32, I32}, false));
  if (!W->empty())
    return W;
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", W));
  B.CreateRet(B.CreateCall(const_cast<Function *>(&F),
                           {W->getArg(1), W->getArg(2), W->getArg(3)}));
  return W;
}

bool hipShuffleGradientRule(const Function &F, Function *&Augmented,
                            Function *&Reverse) {
  if (!isHipShuffle(F))
    return false;
  Type *T = F.getReturnType();
  LLVMContext &Ctx = F.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  Augmented = shuffleRuleFunction(F, "aug", F.getFunctionType());
  // (x, b, width, the adjoint of the result) -> the adjoint of x.
  Reverse =
      shuffleRuleFunction(F, "rev", FunctionType::get(T, {T, I32, I32, T}, false));
  auto *Shuffle = const_cast<Function *>(&F);
  if (Augmented->empty()) {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Augmented));
    SmallVector<Value *, 3> Args;
    for (Argument &A : Augmented->args())
      Args.push_back(&A);
    B.CreateRet(B.CreateCall(Shuffle, Args));
  }
  if (!Reverse->empty())
    return true;
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Reverse));
  Value *Delta = Reverse->getArg(1), *Width = Reverse->getArg(2);
  Value *Adjoint = Reverse->getArg(3);
  // The lane this lane's value came from: its id, shuffled as the value.
  Value *Source = B.CreateFPToSI(
      B.CreateCall(Shuffle, {B.CreateSIToFP(amdgpuLaneId(B), T), Delta, Width}),
      I32);
  B.CreateRet(gatheredAdjoint(B, Adjoint, Source));
  return true;
}

} // namespace adcore
