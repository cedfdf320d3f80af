//===- AmdgpuCrossLane.cpp - Derivatives of AMDGPU cross-lane reads -------===//
//
// The program's own cross-lane operations of AMDGPU on floating-point
// values: `llvm.amdgcn.readlane` and `llvm.amdgcn.readfirstlane` of a float
// or a double (what `__builtin_amdgcn_readlane` of a float's bits becomes
// once the optimizer folds the bit casts, a double's two halves included),
// `llvm.amdgcn.ds.bpermute` of a float's bits (a bit cast, the permute,
// a bit cast back) and `llvm.amdgcn.update.dpp` (`mov_dpp`) of a float's or
// a double's bits with a constant old value. Before the AD pass each such call
// becomes a call of a holder function (`adcc.amdgcn.readlane.f64`, ...) that
// does the same, a shuffle with rules (WarpShuffles.h); the holders are inlined
// after.
//
//   readlane(x, k):      y_l = x_k     forward: readlane(dx, k)
//                                      reverse: x̄_k += sum over active l of ȳ_l
//   readfirstlane(x):    the same, k the first active lane
//   ds_bpermute(a, x):   y_l = x_src(l), src(l) = a_l / 4 mod 64
//                                      forward: ds_bpermute(a, dx)
//                                      reverse: x̄_j = sum over active l with
//                                               src(l) = j of ȳ_l
//   update_dpp(c, x), mov_dpp(x) of a float's or double's bits, c a
//   constant:            y_l = x_src(l), or c where lane l keeps its old
//                        value (row and bank masks, a source out of range)
//                                      forward: update_dpp(0, dx)
//                                      reverse: as ds_bpermute; src(l) is
//                                      update_dpp(-1, l + 1) - 1
//
// The sums are gathered in one round per lane of the wavefront (readlane
// of the adjoint and of the source, k uniform), where lane k runs the
// sweep (the ballot of the lanes that do), as HIP's shuffles' are
// (HipShuffles.cpp). The same operations of integers made of a float's
// bits at -O0 (through stack slots), DPP with an old value that is not a
// constant, ds_swizzle and permlane stay the located error of
// device/DeviceChecks.cpp.
//
//===----------------------------------------------------------------------===//

#include "WarpShuffles.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr StringLiteral HolderPrefix = "adcc.amdgcn.";

enum class Op { ReadLane, ReadFirstLane, Permute, Dpp };

/// The operation a holder does, by its name.
std::optional<Op> holderOp(const Function &F) {
  StringRef Name = F.getName();
  if (!Name.consume_front(HolderPrefix) || !F.getParent() ||
      !F.getParent()->getTargetTriple().isAMDGPU())
    return std::nullopt;
  if (Name.starts_with("readlane."))
    return Op::ReadLane;
  if (Name.starts_with("readfirstlane."))
    return Op::ReadFirstLane;
  if (Name.starts_with("ds.bpermute."))
    return Op::Permute;
  if (Name.starts_with("update.dpp."))
    return Op::Dpp;
  return std::nullopt;
}

/// The holder \p Name of type \p FT, made with \p Body the first time.
Function *holder(Module &M, StringRef Name, FunctionType *FT,
                 function_ref<Value *(IRBuilder<> &, Function &)> Body) {
  if (Function *F = M.getFunction(Name))
    return F;
  Function *F = Function::Create(FT, GlobalValue::LinkOnceODRLinkage, Name, M);
  F->setVisibility(GlobalValue::HiddenVisibility);
  F->addFnAttr(Attribute::Convergent);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  B.CreateRet(Body(B, *F));
  return F;
}

/// The lane each lane reads from.
Value *sourceLane(IRBuilder<> &B, Op What, Value *K, Value *Address) {
  switch (What) {
  case Op::ReadLane:
    return K;
  case Op::ReadFirstLane: {
    Value *Active = B.CreateIntrinsic(Intrinsic::amdgcn_ballot,
                                      {B.getInt64Ty()}, {B.getTrue()});
    return B.CreateTrunc(
        B.CreateBinaryIntrinsic(Intrinsic::cttz, Active, B.getTrue()),
        B.getInt32Ty());
  }
  case Op::Permute:
    return B.CreateAnd(B.CreateLShr(Address, 2), B.getInt32(63));
  case Op::Dpp:
    break;
  }
  llvm_unreachable("an operation of the table");
}

/// The index of the floating-point operand of the holder.
unsigned valueArg(Op What) { return What == Op::Permute ? 1 : 0; }

/// A float bit-cast to i32 whose only use is \p Call, or null.
Value *floatBitsOf(Value *V) {
  auto *Cast = dyn_cast<BitCastInst>(V);
  if (!Cast || !Cast->getSrcTy()->isFloatTy() || !Cast->hasOneUse())
    return nullptr;
  return Cast->getOperand(0);
}

/// The update_dpp call in the holder \p F of a DPP move.
CallInst *dppCall(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallInst>(&I))
        if (Call->getIntrinsicID() == Intrinsic::amdgcn_update_dpp)
          return const_cast<CallInst *>(Call);
  return nullptr;
}

/// The holder of a DPP move of a float or double \p T: update_dpp of its
/// bits with the constant \p Old and the controls \p Controls (dpp_ctrl,
/// row_mask, bank_mask, bound_ctrl), of type T(T).
Function *dppHolder(Module &M, Type *T, Constant *Old,
                    ArrayRef<Value *> Controls) {
  Type *Bits = IntegerType::get(M.getContext(), T->getPrimitiveSizeInBits());
  std::string Name =
      (HolderPrefix + "update.dpp." + (T->isFloatTy() ? "f32" : "f64")).str();
  for (Value *C : Controls)
    Name += "." + std::to_string(cast<ConstantInt>(C)->getZExtValue());
  if (auto *O = dyn_cast<ConstantInt>(Old))
    Name += ".o" + std::to_string(O->getZExtValue());
  else
    Name += ".p";
  return holder(
      M, Name, FunctionType::get(T, {T}, false),
      [&](IRBuilder<> &B, Function &H) {
        SmallVector<Value *, 6> Ops = {Old, B.CreateBitCast(H.getArg(0), Bits)};
        Ops.append(Controls.begin(), Controls.end());
        return B.CreateBitCast(
            B.CreateIntrinsic(Intrinsic::amdgcn_update_dpp, {Bits}, Ops), T);
      });
}

/// Each lane's source lane for the DPP move of the holder \p F: its
/// update_dpp of the lane id + 1, old -1 (a lane that keeps its old value
/// or writes 0 reads no lane: -2 or -1).
Value *dppSource(IRBuilder<> &B, const Function &F) {
  CallInst *Call = dppCall(F);
  SmallVector<Value *, 6> Ops = {B.getInt32(-1),
                                 B.CreateAdd(amdgpuLaneId(B), B.getInt32(1))};
  for (unsigned I = 2; I < 6; ++I)
    Ops.push_back(Call->getArgOperand(I));
  return B.CreateSub(
      B.CreateIntrinsic(Intrinsic::amdgcn_update_dpp, {B.getInt32Ty()}, Ops),
      B.getInt32(1));
}

/// A DPP move of a float's or double's bits with a constant old value
/// (update_dpp(c, bits), mov_dpp(bits)), cast back: its holder called
/// instead; false where \p Call is none.
bool wrapDpp(Module &M, CallInst *Call) {
  bool Mov = Call->getIntrinsicID() == Intrinsic::amdgcn_mov_dpp;
  unsigned SrcArg = Mov ? 0 : 1;
  auto *Cast = dyn_cast<BitCastInst>(Call->getArgOperand(SrcArg));
  Type *T = Cast ? Cast->getSrcTy() : nullptr;
  if (!T || !(T->isFloatTy() || T->isDoubleTy()) || !Cast->hasOneUse() ||
      !Call->hasOneUse())
    return false;
  auto *Back = dyn_cast<BitCastInst>(*Call->user_begin());
  Constant *Old = Mov ? PoisonValue::get(Call->getType())
                      : dyn_cast<Constant>(Call->getArgOperand(0));
  if (!Back || Back->getDestTy() != T || !Old ||
      !(isa<ConstantInt>(Old) || isa<UndefValue>(Old)))
    return false;
  SmallVector<Value *, 4> Controls;
  for (unsigned I = SrcArg + 1; I < Call->arg_size(); ++I)
    Controls.push_back(Call->getArgOperand(I));
  Function *H = dppHolder(M, T, Old, Controls);
  IRBuilder<> B(Back);
  CallInst *New = B.CreateCall(H, {Cast->getOperand(0)});
  New->setDebugLoc(Call->getDebugLoc());
  Back->replaceAllUsesWith(New);
  Back->eraseFromParent();
  Call->eraseFromParent();
  Cast->eraseFromParent();
  return true;
}

} // namespace

bool isAmdgpuCrossLane(const Function &F) { return holderOp(F).has_value(); }

bool wrapAmdgpuCrossLane(Module &M) {
  if (!M.getTargetTriple().isAMDGPU())
    return false;
  bool Changed = false;
  SmallVector<CallInst *, 8> Calls;
  for (Function &F : M)
    if (F.isIntrinsic() &&
        is_contained({Intrinsic::amdgcn_readlane,
                      Intrinsic::amdgcn_readfirstlane,
                      Intrinsic::amdgcn_ds_bpermute,
                      Intrinsic::amdgcn_update_dpp, Intrinsic::amdgcn_mov_dpp},
                     F.getIntrinsicID()))
      for (User *U : F.users())
        if (auto *Call = dyn_cast<CallInst>(U);
            Call && Call->getCalledFunction() == &F &&
            !Call->getFunction()->getName().starts_with(HolderPrefix))
          Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    Function *Raw = Call->getCalledFunction();
    Type *T = Call->getType();
    if (Raw->getIntrinsicID() == Intrinsic::amdgcn_update_dpp ||
        Raw->getIntrinsicID() == Intrinsic::amdgcn_mov_dpp) {
      Changed |= wrapDpp(M, Call);
      continue;
    }
    if (Raw->getIntrinsicID() != Intrinsic::amdgcn_ds_bpermute) {
      // (readlane, readfirstlane of a float or a double: the optimizer's
      // form of a float's bits read from another lane.)
      if (!T->isFloatTy() && !T->isDoubleTy())
        continue;
      std::string Name =
          (HolderPrefix + Raw->getName().drop_front(strlen("llvm.amdgcn.")))
              .str();
      Call->setCalledFunction(holder(M, Name, Raw->getFunctionType(),
                                     [&](IRBuilder<> &B, Function &H) {
                                       SmallVector<Value *, 2> Args;
                                       for (Argument &A : H.args())
                                         Args.push_back(&A);
                                       return B.CreateCall(Raw, Args);
                                     }));
      Changed = true;
      continue;
    }
    // ds_bpermute of a float's bits: bitcast, permute, bitcast back.
    Value *X = floatBitsOf(Call->getArgOperand(1));
    if (!X || !Call->hasOneUse())
      continue;
    auto *Back = dyn_cast<BitCastInst>(*Call->user_begin());
    if (!Back || !Back->getDestTy()->isFloatTy())
      continue;
    LLVMContext &Ctx = M.getContext();
    Type *F32 = Type::getFloatTy(Ctx), *I32 = Type::getInt32Ty(Ctx);
    Function *H = holder(
        M, (HolderPrefix + "ds.bpermute.f32").str(),
        FunctionType::get(F32, {I32, F32}, false),
        [&](IRBuilder<> &B, Function &H) {
          Value *Bits = B.CreateBitCast(H.getArg(1), I32);
          return B.CreateBitCast(B.CreateCall(Raw, {H.getArg(0), Bits}), F32);
        });
    IRBuilder<> B(Back);
    CallInst *New = B.CreateCall(H, {Call->getArgOperand(0), X});
    New->setDebugLoc(Call->getDebugLoc());
    Back->replaceAllUsesWith(New);
    Back->eraseFromParent();
    auto *Cast = cast<Instruction>(Call->getArgOperand(1));
    Call->eraseFromParent();
    Cast->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

Function *amdgpuCrossLaneForwardRule(const Function &F) {
  std::optional<Op> What = holderOp(F);
  if (!What)
    return nullptr;
  // (each operand, the tangent after the value) -> the tangent: the same
  // operation on it.
  Type *T = F.getReturnType();
  SmallVector<Type *, 4> Params;
  for (const Argument &A : F.args()) {
    Params.push_back(A.getType());
    if (A.getArgNo() == valueArg(*What))
      Params.push_back(T);
  }
  Function *W =
      shuffleRuleFunction(F, "fwd", FunctionType::get(T, Params, false));
  if (!W->empty())
    return W;
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", W));
  SmallVector<Value *, 3> Args;
  for (unsigned I = 0; I < W->arg_size(); ++I)
    if (I != valueArg(*What))
      Args.push_back(W->getArg(I));
  // (the tangent where the value was; a DPP move's lanes that keep the
  // old value, a constant, get a zero tangent)
  Function *Callee = const_cast<Function *>(&F);
  if (*What == Op::Dpp) {
    CallInst *Call = dppCall(F);
    SmallVector<Value *, 4> Controls;
    for (unsigned I = 2; I < 6; ++I)
      Controls.push_back(Call->getArgOperand(I));
    Callee = dppHolder(*Callee->getParent(), T,
                       ConstantInt::get(Call->getType(), 0), Controls);
  }
  B.CreateRet(B.CreateCall(Callee, Args));
  return W;
}

bool amdgpuCrossLaneGradientRule(const Function &F, Function *&Augmented,
                                 Function *&Reverse) {
  std::optional<Op> What = holderOp(F);
  if (!What)
    return false;
  Type *T = F.getReturnType();
  LLVMContext &Ctx = F.getContext();
  Augmented = shuffleRuleFunction(F, "aug", F.getFunctionType());
  // (the operands, the adjoint of the result) -> the adjoint of the value
  SmallVector<Type *, 4> Params(F.getFunctionType()->params());
  Params.push_back(T);
  Reverse = shuffleRuleFunction(F, "rev", FunctionType::get(T, Params, false));
  auto *Self = const_cast<Function *>(&F);
  if (Augmented->empty()) {
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Augmented));
    SmallVector<Value *, 3> Args;
    for (Argument &A : Augmented->args())
      Args.push_back(&A);
    B.CreateRet(B.CreateCall(Self, Args));
  }
  if (!Reverse->empty())
    return true;
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Reverse));
  Value *Adjoint = Reverse->getArg(Reverse->arg_size() - 1);
  Value *K = *What == Op::ReadLane ? Reverse->getArg(1) : nullptr;
  Value *Address = *What == Op::Permute ? Reverse->getArg(0) : nullptr;
  Value *Source =
      *What == Op::Dpp ? dppSource(B, F) : sourceLane(B, *What, K, Address);
  B.CreateRet(gatheredAdjoint(B, Adjoint, Source));
  return true;
}

} // namespace adcore
