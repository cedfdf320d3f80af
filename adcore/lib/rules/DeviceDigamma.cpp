//===- DeviceDigamma.cpp - The digamma function in device code ------------===//
//
// The derivatives of lgamma (psi) and tgamma (Gamma psi) need the digamma
// function psi = Gamma' / Gamma, which libm lacks: on the host adcc's
// runtime has it (runtime/lib/special.c); device code cannot call the
// host runtime, so a device module gets its own, as an internal function
// made here in IR by the same method:
//
//   x < 0:   reflection, psi(x) = psi(1 - x) - pi cot(pi x), with x
//            reduced by its nearest integer first (cot has period pi);
//   x < 10:  recurrence, psi(x) = psi(x + 1) - 1/x, until x >= 10 (at most
//            ten steps after the reflection);
//   x >= 10: the asymptotic series
//            psi(x) = ln x - 1/(2x) - sum_{k=1..7} B_2k / (2k x^2k);
//   NaN for NaN and at the poles 0, -1, -2, ...
//
// cot(pi r), |r| <= 1/2, is cos / sin of their Taylor series; log is
// LLVM's intrinsic, which the device library provides once derivatives
// are made (DeviceLibraries.cpp). A float argument is computed in double,
// as the runtime's adcc_digammaf does.
//
//===----------------------------------------------------------------------===//

#include "DeviceMath.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// B_2k / (2k) for k = 1..7 (Bernoulli numbers 1/6, -1/30, 1/42, -1/30,
/// 5/66, -691/2730, 7/6).
constexpr double TailCoefficients[] = {1.0 / 12,  -1.0 / 120,     1.0 / 252,
                                       -1.0 / 240, 1.0 / 132, -691.0 / 32760,
                                       1.0 / 12};

constexpr double Pi = 3.14159265358979323846264338327950288;

/// cos(y) / sin(y) for |y| <= pi/2, by their Taylor series to the terms
/// of degree 26 and 25 (the first omitted below 1e-19 there): no call of
/// the device library's tan, whose argument reduction for large arguments
/// the series do not need.
Value *cotOfHalfTurn(IRBuilder<> &B, Value *Y) {
  Type *D = Y->getType();
  Value *Y2 = B.CreateFMul(Y, Y);
  // sin y = y sum_k (-1)^k y^2k / (2k+1)!, cos y = sum_k (-1)^k y^2k / (2k)!
  Value *Sin = ConstantFP::get(D, 0.0), *Cos = ConstantFP::get(D, 0.0);
  for (int Kth = 13; Kth >= 0; --Kth) {
    double Even = 1, Odd = 1;
    for (int I = 1; I <= 2 * Kth; ++I)
      Even *= I;
    Odd = Even * (2 * Kth + 1);
    double Sign = Kth % 2 ? -1.0 : 1.0;
    Sin = B.CreateFAdd(B.CreateFMul(Sin, Y2), ConstantFP::get(D, Sign / Odd));
    Cos = B.CreateFAdd(B.CreateFMul(Cos, Y2), ConstantFP::get(D, Sign / Even));
  }
  return B.CreateFDiv(Cos, B.CreateFMul(Sin, Y));
}

/// The body of psi over doubles in \p F (one double parameter).
void buildDigamma(Function &F) {
  LLVMContext &C = F.getContext();
  Type *D = Type::getDoubleTy(C);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", &F);
  BasicBlock *Loop = BasicBlock::Create(C, "recurrence", &F);
  BasicBlock *Series = BasicBlock::Create(C, "series", &F);
  IRBuilder<> B(Entry);
  Value *X = F.getArg(0);
  auto K = [&](double V) { return ConstantFP::get(D, V); };
  // Reflection for x < 0.
  Value *Neg = B.CreateFCmpOLT(X, K(0));
  Value *R = B.CreateFSub(X, B.CreateUnaryIntrinsic(Intrinsic::round, X));
  Value *Cot = B.CreateFMul(K(-Pi), cotOfHalfTurn(B, B.CreateFMul(K(Pi), R)));
  Value *Acc0 = B.CreateSelect(Neg, Cot, K(0));
  Value *X0 = B.CreateSelect(Neg, B.CreateFSub(K(1), X), X);
  B.CreateCondBr(B.CreateFCmpOLT(X0, K(10)), Loop, Series);
  // {x, acc} where control reaches from Entry and Loop.
  Value *XN = nullptr, *AccN = nullptr;
  auto Merge = [&](BasicBlock *At) {
    B.SetInsertPoint(At);
    PHINode *XP = B.CreatePHI(D, 2, "x"), *AccP = B.CreatePHI(D, 2, "acc");
    XP->addIncoming(X0, Entry);
    AccP->addIncoming(Acc0, Entry);
    return std::pair{XP, AccP};
  };
  // The recurrence up to 10.
  auto [XL, AccL] = Merge(Loop);
  AccN = B.CreateFSub(AccL, B.CreateFDiv(K(1), XL));
  XN = B.CreateFAdd(XL, K(1));
  B.CreateCondBr(B.CreateFCmpOLT(XN, K(10)), Loop, Series);
  // The series at x >= 10 (or NaN).
  auto [XS, AccS] = Merge(Series);
  for (auto [P, V] : {std::pair{XL, XN}, {AccL, AccN}, {XS, XN}, {AccS, AccN}})
    P->addIncoming(V, Loop);
  Value *T = B.CreateFDiv(K(1), B.CreateFMul(XS, XS));
  Value *Sum = K(0);
  for (int I = 6; I >= 0; --I)
    Sum = B.CreateFAdd(B.CreateFMul(Sum, T), K(TailCoefficients[I]));
  Value *Psi = B.CreateFSub(
      B.CreateFSub(B.CreateFAdd(AccS, B.CreateUnaryIntrinsic(Intrinsic::log,
                                                             XS)),
                   B.CreateFDiv(K(0.5), XS)),
      B.CreateFMul(Sum, T));
  // NaN at the poles (x <= 0 and an integer; -inf too) and for NaN.
  Value *Pole = B.CreateAnd(
      B.CreateFCmpOLE(X, K(0)),
      B.CreateFCmpOEQ(X, B.CreateUnaryIntrinsic(Intrinsic::floor, X)));
  Value *Undefined = B.CreateOr(Pole, B.CreateFCmpUNO(X, X));
  B.CreateRet(B.CreateSelect(Undefined, ConstantFP::getNaN(D), Psi));
}

Function *digammaFunction(Module &M, Type *Ty) {
  LLVMContext &C = M.getContext();
  StringRef Name = Ty->isFloatTy() ? "adcc.device.digammaf"
                                   : "adcc.device.digamma";
  if (Function *F = M.getFunction(Name))
    return F;
  Function *F = Function::Create(FunctionType::get(Ty, {Ty}, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->setDoesNotAccessMemory();
  F->setDoesNotThrow();
  F->setWillReturn();
  if (Ty->isFloatTy()) {
    // In double, as the runtime's adcc_digammaf.
    Function *Double = digammaFunction(M, Type::getDoubleTy(C));
    IRBuilder<> B(BasicBlock::Create(C, "entry", F));
    B.CreateRet(B.CreateFPTrunc(
        B.CreateCall(Double, B.CreateFPExt(F->getArg(0), Double->getReturnType())),
        Ty));
  } else {
    buildDigamma(*F);
  }
  return F;
}

} // namespace

FunctionCallee deviceDigamma(Module &M, Type *Ty) {
  return digammaFunction(M, Ty);
}

} // namespace adcore
