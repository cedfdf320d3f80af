//===- KnownAsm.cpp - Inline assembly adcc can read ----------------------===//
//
// Eigen computes packet min and max with inline assembly when the compiler
// claims to be GCC older than 6.3, which Clang does (GCC 4.2):
//
//   asm("minpd %[a], %[res]" : [res] "+x" (res) : [a] "x" (a));
//
// Its vectorized exp, maxCoeff and cwiseMax go through it; with AVX and
// FMA (-mfma, -march=native) its packet multiply-add is
//
//   asm("vfmadd231pd %[a], %[b], %[c]" : [c] "+x" (res) : [a] "x" (a), ...);
//
// Assembly cannot be differentiated, but these few instructions are
// comparisons and a fused multiply-add: each is rewritten in the primal as
// the IR that means the same, lane by lane (x86's MINPD: dest < src ? dest
// : src, so a NaN gives the source; VFMADD231PD: llvm.fma, one rounding),
// which the backend turns back into the same instruction. One table row per
// instruction form. Eigen's optimization barrier, an empty string tied to
// a value, becomes llvm.arithmetic.fence (rewriteBarrier), which passes no
// derivative in lanes of integers too large for a fraction (the rounding
// tricks the barrier protects).
//
//===----------------------------------------------------------------------===//

#include "PrimalRewrites.h"

#include "Prepare.h"
#include "support/IRMarks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"

#include <cmath>

using namespace llvm;

namespace adcore {
namespace {

struct KnownAsmRow {
  const char *Text;        // the assembly string
  const char *Constraints; // its constraints, up to the clobbers
  CmpInst::Predicate Keep; // dest is kept when `dest Keep src`; FCMP_FALSE:
                           // a multiply-add, op0 * op1 + op2
  unsigned Dest, Src;      // the operands that are dest and src
};

constexpr CmpInst::Predicate MultiplyAdd = CmpInst::FCMP_FALSE;

// AT&T syntax: the last operand is the destination. "=x,x,0": operand 0
// ($1) is the source and operand 1 is tied to the result (the
// destination); "=x,x,x" (AVX): `vminpd $1, $2, $0` computes
// min($2, $1).
const KnownAsmRow KnownAsmTable[] = {
    {"minpd $1, $0", "=x,x,0", CmpInst::FCMP_OLT, 1, 0},
    {"maxpd $1, $0", "=x,x,0", CmpInst::FCMP_OGT, 1, 0},
    {"minps $1, $0", "=x,x,0", CmpInst::FCMP_OLT, 1, 0},
    {"maxps $1, $0", "=x,x,0", CmpInst::FCMP_OGT, 1, 0},
    {"vminpd $1, $2, $0", "=x,x,x", CmpInst::FCMP_OLT, 1, 0},
    {"vmaxpd $1, $2, $0", "=x,x,x", CmpInst::FCMP_OGT, 1, 0},
    {"vminps $1, $2, $0", "=x,x,x", CmpInst::FCMP_OLT, 1, 0},
    {"vmaxps $1, $2, $0", "=x,x,x", CmpInst::FCMP_OGT, 1, 0},
    // `vfmadd231pd $1, $2, $0` with $0 tied to the third operand:
    // $0 = $2 * $1 + $0.
    {"vfmadd231pd $1, $2, $0", "=x,x,x,0", MultiplyAdd, 0, 0},
    {"vfmadd231ps $1, $2, $0", "=x,x,x,0", MultiplyAdd, 0, 0},
};

const KnownAsmRow *knownRow(const CallInst &Call) {
  const auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  if (!Asm || !Call.getType()->isFPOrFPVectorTy())
    return nullptr;
  for (const KnownAsmRow &Row : KnownAsmTable) {
    if (Call.arg_size() != (Row.Keep == MultiplyAdd ? 3u : 2u))
      continue;
    StringRef Constraints = Asm->getConstraintString();
    if (Asm->getAsmString() != Row.Text ||
        !Constraints.starts_with(Row.Constraints))
      continue;
    // (Only clobbers of flags may follow.)
    StringRef Rest = Constraints.drop_front(strlen(Row.Constraints));
    SmallVector<StringRef, 4> Clobbers;
    Rest.split(Clobbers, ',', -1, /*KeepEmpty=*/false);
    if (all_of(Clobbers, [](StringRef C) { return C.starts_with("~{"); }) &&
        all_of(Call.args(),
               [&](const Use &A) { return A->getType() == Call.getType(); }))
      return &Row;
  }
  return nullptr;
}

/// `|x| + 2^52` (2^23 for floats) kept from being folded by the barrier:
/// Eigen's rint, whose subtraction of the constant afterwards leaves |x|
/// rounded to an integer. Its derivative is zero, but one of the sum's is
/// one; writing the sum as `rint(|x|) + 2^52` gives the same bits (|x| is
/// below 2^52 and rounds to the integer the sum holds, or is an integer
/// already) and the derivative of rint.
void roundMagicSum(Value *In) {
  // (At -O0 the sum is stored into the variable and loaded again just
  // before the barrier.)
  auto *Sum = dyn_cast<BinaryOperator>(lastStoredValue(In));
  if (!Sum || Sum->getOpcode() != Instruction::FAdd)
    return;
  unsigned Mantissa = In->getType()->getScalarType()->isDoubleTy()  ? 52
                      : In->getType()->getScalarType()->isFloatTy() ? 23
                                                                    : 0;
  for (unsigned K = 0; K < 2 && Mantissa; ++K) {
    auto *C = dyn_cast<Constant>(Sum->getOperand(1 - K));
    if (C && C->getType()->isVectorTy())
      C = C->getSplatValue();
    auto *CF = dyn_cast_or_null<ConstantFP>(C);
    auto *Abs = dyn_cast<IntrinsicInst>(Sum->getOperand(K));
    if (!CF || !Abs || Abs->getIntrinsicID() != Intrinsic::fabs ||
        !CF->getValueAPF().isExactlyValue(std::ldexp(1.0, int(Mantissa))))
      continue;
    IRBuilder<> B(Sum);
    Sum->setOperand(K, B.CreateUnaryIntrinsic(Intrinsic::rint, Abs));
    return;
  }
}

/// \p X, where the derivative passes only in lanes below 2^52 (2^23 for
/// floats) in magnitude. At and above that every value is an integer: a
/// barrier there keeps a rounding trick, `(|x| + 2^52) - 2^52` (Eigen's
/// print, pfloor and psin), whose sum roundMagicSum could not see (at -O0
/// it is a call of padd): the trick's derivative is zero, not the sum's.
/// The value is the same in every lane (a freeze without derivative,
/// NoDerivativeMetadata, in the others).
Value *integerLanes(IRBuilder<> &B, Value *X) {
  Type *T = X->getType();
  unsigned Mantissa = T->getScalarType()->isDoubleTy()  ? 52
                      : T->getScalarType()->isFloatTy() ? 23
                                                        : 0;
  if (!Mantissa)
    return X;
  auto *Frozen = cast<Instruction>(B.CreateFreeze(X));
  Frozen->setMetadata(NoDerivativeMetadata, MDNode::get(X->getContext(), {}));
  Value *Big =
      B.CreateFCmpOGE(B.CreateUnaryIntrinsic(Intrinsic::fabs, X),
                      ConstantFP::get(T, std::ldexp(1.0, int(Mantissa))));
  return B.CreateSelect(Big, Frozen, X);
}

/// An optimization barrier: an empty assembly string whose one output
/// (returned, or written through a pointer) is tied to its one input, a
/// floating-point value (Eigen's EIGEN_OPTIMIZATION_BARRIER in its
/// vectorized rint and exp). It is rewritten as llvm.arithmetic.fence of
/// the input, which keeps reassociation out as the barrier did, and a store
/// when the output is written through a pointer.
bool rewriteBarrier(CallInst &Call) {
  const auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  if (!Asm || !StringRef(Asm->getAsmString()).trim().empty())
    return false;
  InlineAsm::ConstraintInfoVector Info = Asm->ParseConstraints();
  SmallVector<const InlineAsm::ConstraintInfo *, 2> Ops;
  for (const InlineAsm::ConstraintInfo &C : Info)
    if (C.Type != InlineAsm::isClobber)
      Ops.push_back(&C);
  if (Ops.size() != 2 || Ops[0]->Type != InlineAsm::isOutput ||
      Ops[1]->Type != InlineAsm::isInput || !Ops[0]->hasMatchingInput() ||
      Ops[1]->Codes.size() != 1 || Ops[1]->Codes[0] != "0")
    return false;
  bool Indirect = Ops[0]->isIndirect;
  Value *In = Call.getArgOperand(Indirect ? 1 : 0);
  if (!In->getType()->isFPOrFPVectorTy() ||
      Call.arg_size() != (Indirect ? 2u : 1u) ||
      (!Indirect && Call.getType() != In->getType()) ||
      (Indirect && (!Call.getType()->isVoidTy() ||
                    Call.getParamElementType(0) != In->getType())))
    return false;
  roundMagicSum(In);
  IRBuilder<> B(&Call);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  Value *Fenced =
      B.CreateUnaryIntrinsic(Intrinsic::arithmetic_fence, integerLanes(B, In));
  if (Indirect)
    B.CreateStore(Fenced, Call.getArgOperand(0));
  else
    Call.replaceAllUsesWith(Fenced);
  Call.eraseFromParent();
  return true;
}

} // namespace

bool rewriteKnownAsm(Function &F) {
  SmallVector<std::pair<CallInst *, const KnownAsmRow *>, 8> Calls;
  SmallVector<CallInst *, 8> Barriers;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->isInlineAsm()) {
        if (const KnownAsmRow *Row = knownRow(*Call))
          Calls.push_back({Call, Row});
        else
          Barriers.push_back(Call);
      }
  bool Changed = !Calls.empty();
  for (CallInst *Call : Barriers)
    Changed |= rewriteBarrier(*Call);
  for (auto [Call, Row] : Calls) {
    IRBuilder<> B(Call);
    B.SetCurrentDebugLocation(Call->getDebugLoc());
    Value *R;
    if (Row->Keep == MultiplyAdd) {
      R = B.CreateIntrinsic(Intrinsic::fma, {Call->getType()},
                            {Call->getArgOperand(0), Call->getArgOperand(1),
                             Call->getArgOperand(2)},
                            nullptr, Call->getName());
    } else {
      Value *Dest = Call->getArgOperand(Row->Dest);
      Value *Src = Call->getArgOperand(Row->Src);
      Value *Keep = B.CreateFCmp(Row->Keep, Dest, Src);
      R = B.CreateSelect(Keep, Dest, Src, Call->getName());
    }
    Call->replaceAllUsesWith(R);
    Call->eraseFromParent();
  }
  return Changed;
}

} // namespace adcore
