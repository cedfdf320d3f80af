//===- ComplexRuntime.cpp - Differentiable bodies of complex helpers -----===//
//
// Complex multiplication and division compile to calls of the compiler
// runtime (__muldc3, __divsc3, ...) that add infinity and NaN recovery to
// the textbook formulas; std::abs, std::arg, std::exp, std::log, std::sqrt,
// std::pow and the trigonometric and hyperbolic functions of complex
// numbers call C99's cabs, carg, cexp, clog, csqrt, cpow, csin, ... None
// has a body in the module. For differentiation each gets an internal body
// built here: the formula itself (Smith's algorithm for division, hypot and
// atan2 for abs and arg, exp, log, sin, cos, sinh and cosh of the parts for
// the others), which the engine then differentiates like any user function.
// On finite values of moderate size the formulas give the runtime's
// results up to rounding; the runtime's care for overflow, infinities and
// NaN (cexp of a huge real part, csin of a huge imaginary part) is not
// reproduced.
//
//===----------------------------------------------------------------------===//

#include "support/CallSites.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

enum class ComplexOp {
  Mul,
  Div,
  Pow,
  Abs,
  Arg,
  Exp,
  Log,
  Sqrt,
  Sin,
  Cos,
  Tan,
  Sinh,
  Cosh,
  Tanh
};

struct ComplexRow {
  const char *Name;
  ComplexOp Op;
  bool Single; ///< float (…sc3, cabsf) rather than double
};

constexpr ComplexRow ComplexTable[] = {
    {"__muldc3", ComplexOp::Mul, false}, {"__mulsc3", ComplexOp::Mul, true},
    {"__divdc3", ComplexOp::Div, false}, {"__divsc3", ComplexOp::Div, true},
    {"cabs", ComplexOp::Abs, false},     {"cabsf", ComplexOp::Abs, true},
    {"carg", ComplexOp::Arg, false},     {"cargf", ComplexOp::Arg, true},
    {"cpow", ComplexOp::Pow, false},     {"cpowf", ComplexOp::Pow, true},
    {"cexp", ComplexOp::Exp, false},     {"cexpf", ComplexOp::Exp, true},
    {"clog", ComplexOp::Log, false},     {"clogf", ComplexOp::Log, true},
    {"csqrt", ComplexOp::Sqrt, false},   {"csqrtf", ComplexOp::Sqrt, true},
    {"csin", ComplexOp::Sin, false},     {"csinf", ComplexOp::Sin, true},
    {"ccos", ComplexOp::Cos, false},     {"ccosf", ComplexOp::Cos, true},
    {"ctan", ComplexOp::Tan, false},     {"ctanf", ComplexOp::Tan, true},
    {"csinh", ComplexOp::Sinh, false},   {"csinhf", ComplexOp::Sinh, true},
    {"ccosh", ComplexOp::Cosh, false},   {"ccoshf", ComplexOp::Cosh, true},
    {"ctanh", ComplexOp::Tanh, false},   {"ctanhf", ComplexOp::Tanh, true},
};

/// Two complex operands (four parts) rather than one.
bool isBinary(ComplexOp Op) {
  return Op == ComplexOp::Mul || Op == ComplexOp::Div || Op == ComplexOp::Pow;
}

/// A real result (abs, arg) rather than a complex one.
bool isRealValued(ComplexOp Op) {
  return Op == ComplexOp::Abs || Op == ComplexOp::Arg;
}

/// The real and imaginary parts of the complex parameters of \p F: four
/// scalars (binary operations), two scalars or one <2 x T> (the others).
void complexParts(IRBuilder<> &B, Function &F, SmallVectorImpl<Value *> &Out) {
  for (Argument &A : F.args()) {
    if (auto *VT = dyn_cast<FixedVectorType>(A.getType())) {
      Out.push_back(B.CreateExtractElement(&A, uint64_t(0)));
      Out.push_back(B.CreateExtractElement(&A, uint64_t(1)));
    } else {
      Out.push_back(&A);
    }
  }
}

/// Whether \p FT is the x86-64 / generic form of \p Row's function: T for
/// the parts, {T, T} or <2 x T> for a complex result, a complex parameter
/// as two T or one <2 x T>.
bool expectedType(const ComplexRow &Row, FunctionType *FT, Type *T) {
  auto IsComplex = [&](Type *C) {
    if (auto *VT = dyn_cast<FixedVectorType>(C))
      return VT->getNumElements() == 2 && VT->getElementType() == T;
    auto *ST = dyn_cast<StructType>(C);
    return ST && ST->getNumElements() == 2 && ST->getElementType(0) == T &&
           ST->getElementType(1) == T;
  };
  unsigned Parts = 0;
  for (Type *P : FT->params()) {
    if (P == T)
      ++Parts;
    else if (isa<FixedVectorType>(P) && IsComplex(P))
      Parts += 2;
    else
      return false;
  }
  return Parts == (isBinary(Row.Op) ? 4u : 2u) &&
         (isRealValued(Row.Op) ? FT->getReturnType() == T
                               : IsComplex(FT->getReturnType()));
}

Value *packComplex(IRBuilder<> &B, Type *RetTy, Value *Re, Value *Im) {
  Value *R = PoisonValue::get(RetTy);
  if (isa<FixedVectorType>(RetTy))
    return B.CreateInsertElement(B.CreateInsertElement(R, Re, uint64_t(0)), Im,
                                 uint64_t(1));
  return B.CreateInsertValue(B.CreateInsertValue(R, Re, 0), Im, 1);
}

/// A call of the libm function \p Name (its float form with \p Single) on
/// \p Args: functions with derivative rules.
Value *callMath(IRBuilder<> &B, StringRef Name, bool Single,
                ArrayRef<Value *> Args) {
  Type *T = Args.front()->getType();
  SmallVector<Type *, 2> Params(Args.size(), T);
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Fn = M.getOrInsertFunction(
      (Name + (Single ? "f" : "")).str(), FunctionType::get(T, Params, false));
  return B.CreateCall(Fn, Args);
}

/// The principal square root of \p A + i \p Bi, returned from \p F: with
/// r = |z|, t = sqrt((r + |a|) / 2), it is t + i b / 2t for a >= 0 and
/// |b| / 2t + i copysign(t, b) for a < 0. Branches, not selects: the reverse
/// sweep must not propagate through the side not taken (a division by
/// zero there). At 0 the result is 0 with the sign of b, whose derivative
/// is 0 (the convention of sqrt at 0).
void buildSqrt(IRBuilder<> &B, Function &F, Type *T, Value *A, Value *Bi) {
  LLVMContext &C = F.getContext();
  Type *RetTy = F.getReturnType();
  bool Single = T->isFloatTy();
  Value *R = callMath(B, "hypot", Single, {A, Bi});
  BasicBlock *Zero = BasicBlock::Create(C, "zero", &F);
  BasicBlock *Other = BasicBlock::Create(C, "nonzero", &F);
  BasicBlock *Pos = BasicBlock::Create(C, "re.nonneg", &F);
  BasicBlock *Neg = BasicBlock::Create(C, "re.neg", &F);
  B.CreateCondBr(B.CreateFCmpOEQ(R, ConstantFP::get(T, 0.0)), Zero, Other);
  B.SetInsertPoint(Zero);
  B.CreateRet(
      packComplex(B, RetTy, ConstantFP::get(T, 0.0),
                  B.CreateBinaryIntrinsic(Intrinsic::copysign,
                                          ConstantFP::get(T, 0.0), Bi)));
  B.SetInsertPoint(Other);
  B.CreateCondBr(B.CreateFCmpOGE(A, ConstantFP::get(T, 0.0)), Pos, Neg);
  Value *Half = ConstantFP::get(T, 0.5);
  B.SetInsertPoint(Pos);
  Value *TP =
      callMath(B, "sqrt", Single, {B.CreateFMul(B.CreateFAdd(R, A), Half)});
  B.CreateRet(
      packComplex(B, RetTy, TP, B.CreateFDiv(Bi, B.CreateFAdd(TP, TP))));
  B.SetInsertPoint(Neg);
  Value *TN =
      callMath(B, "sqrt", Single, {B.CreateFMul(B.CreateFSub(R, A), Half)});
  Value *AbsB = B.CreateUnaryIntrinsic(Intrinsic::fabs, Bi);
  B.CreateRet(
      packComplex(B, RetTy, B.CreateFDiv(AbsB, B.CreateFAdd(TN, TN)),
                  B.CreateBinaryIntrinsic(Intrinsic::copysign, TN, Bi)));
}

void buildBody(const ComplexRow &Row, Function &F, Type *T) {
  LLVMContext &C = F.getContext();
  IRBuilder<> B(BasicBlock::Create(C, "entry", &F));
  SmallVector<Value *, 4> P;
  complexParts(B, F, P);
  Type *RetTy = F.getReturnType();
  auto Math = [&](StringRef Name, ArrayRef<Value *> Args) {
    return callMath(B, Name, Row.Single, Args);
  };
  switch (Row.Op) {
  case ComplexOp::Mul: {
    Value *Re =
        B.CreateFSub(B.CreateFMul(P[0], P[2]), B.CreateFMul(P[1], P[3]));
    Value *Im =
        B.CreateFAdd(B.CreateFMul(P[0], P[3]), B.CreateFMul(P[1], P[2]));
    B.CreateRet(packComplex(B, RetTy, Re, Im));
    return;
  }
  case ComplexOp::Div: {
    // Smith's algorithm, with a branch (not a select: the reverse sweep
    // must not propagate through the side not taken).
    Value *A = P[0], *Bi = P[1], *Cr = P[2], *D = P[3];
    Value *WideC = B.CreateFCmpOGE(B.CreateUnaryIntrinsic(Intrinsic::fabs, Cr),
                                   B.CreateUnaryIntrinsic(Intrinsic::fabs, D));
    BasicBlock *CBig = BasicBlock::Create(C, "c.big", &F);
    BasicBlock *DBig = BasicBlock::Create(C, "d.big", &F);
    BasicBlock *Done = BasicBlock::Create(C, "done", &F);
    B.CreateCondBr(WideC, CBig, DBig);
    B.SetInsertPoint(CBig);
    Value *R1 = B.CreateFDiv(D, Cr);
    Value *Den1 = B.CreateFAdd(Cr, B.CreateFMul(D, R1));
    Value *Re1 = B.CreateFDiv(B.CreateFAdd(A, B.CreateFMul(Bi, R1)), Den1);
    Value *Im1 = B.CreateFDiv(B.CreateFSub(Bi, B.CreateFMul(A, R1)), Den1);
    B.CreateBr(Done);
    B.SetInsertPoint(DBig);
    Value *R2 = B.CreateFDiv(Cr, D);
    Value *Den2 = B.CreateFAdd(B.CreateFMul(Cr, R2), D);
    Value *Re2 = B.CreateFDiv(B.CreateFAdd(B.CreateFMul(A, R2), Bi), Den2);
    Value *Im2 = B.CreateFDiv(B.CreateFSub(B.CreateFMul(Bi, R2), A), Den2);
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
    PHINode *Re = B.CreatePHI(T, 2), *Im = B.CreatePHI(T, 2);
    Re->addIncoming(Re1, CBig);
    Re->addIncoming(Re2, DBig);
    Im->addIncoming(Im1, CBig);
    Im->addIncoming(Im2, DBig);
    B.CreateRet(packComplex(B, RetTy, Re, Im));
    return;
  }
  case ComplexOp::Abs:
    // |z| = hypot(re, im), arg z = atan2(im, re): libm functions with
    // rules.
    B.CreateRet(Math("hypot", {P[0], P[1]}));
    return;
  case ComplexOp::Arg:
    B.CreateRet(Math("atan2", {P[1], P[0]}));
    return;
  case ComplexOp::Exp:
  case ComplexOp::Log:
  case ComplexOp::Pow: {
    // exp(a + ib) = e^a (cos b + i sin b); log z = log|z| + i arg z;
    // pow(z, w) = exp(w log z), as C's cpow defines it.
    Value *Re = P[0], *Im = P[1];
    if (Row.Op != ComplexOp::Exp) {
      Value *LogAbs = Math("log", {Math("hypot", {Re, Im})});
      Im = Math("atan2", {Im, Re});
      Re = LogAbs;
    }
    if (Row.Op == ComplexOp::Log) {
      B.CreateRet(packComplex(B, RetTy, Re, Im));
      return;
    }
    if (Row.Op == ComplexOp::Pow) {
      Value *WRe = P[2], *WIm = P[3];
      Value *ProdRe =
          B.CreateFSub(B.CreateFMul(WRe, Re), B.CreateFMul(WIm, Im));
      Im = B.CreateFAdd(B.CreateFMul(WRe, Im), B.CreateFMul(WIm, Re));
      Re = ProdRe;
    }
    Value *E = Math("exp", {Re});
    B.CreateRet(packComplex(B, RetTy, B.CreateFMul(E, Math("cos", {Im})),
                            B.CreateFMul(E, Math("sin", {Im}))));
    return;
  }
  case ComplexOp::Sqrt:
    buildSqrt(B, F, T, P[0], P[1]);
    return;
  case ComplexOp::Sin:
  case ComplexOp::Cos:
  case ComplexOp::Sinh:
  case ComplexOp::Cosh: {
    // sin(a + ib) = sin a cosh b + i cos a sinh b,
    // cos(a + ib) = cos a cosh b - i sin a sinh b,
    // sinh(a + ib) = sinh a cos b + i cosh a sin b,
    // cosh(a + ib) = cosh a cos b + i sinh a sin b.
    bool Trig = Row.Op == ComplexOp::Sin || Row.Op == ComplexOp::Cos;
    bool Odd = Row.Op == ComplexOp::Sin || Row.Op == ComplexOp::Sinh;
    const char *Even = Trig ? "cos" : "cosh", *OddFn = Trig ? "sin" : "sinh";
    const char *OtherEven = Trig ? "cosh" : "cos";
    const char *OtherOdd = Trig ? "sinh" : "sin";
    Value *A = P[0], *Bi = P[1];
    Value *Re =
        B.CreateFMul(Math(Odd ? OddFn : Even, {A}), Math(OtherEven, {Bi}));
    Value *Im =
        B.CreateFMul(Math(Odd ? Even : OddFn, {A}), Math(OtherOdd, {Bi}));
    if (Row.Op == ComplexOp::Cos)
      Im = B.CreateFNeg(Im);
    B.CreateRet(packComplex(B, RetTy, Re, Im));
    return;
  }
  case ComplexOp::Tan:
  case ComplexOp::Tanh: {
    // tan(a + ib) = (sin 2a + i sinh 2b) / (cos 2a + cosh 2b),
    // tanh(a + ib) = (sinh 2a + i sin 2b) / (cosh 2a + cos 2b).
    bool Trig = Row.Op == ComplexOp::Tan;
    Value *A2 = B.CreateFAdd(P[0], P[0]), *B2 = B.CreateFAdd(P[1], P[1]);
    Value *Den = B.CreateFAdd(Math(Trig ? "cos" : "cosh", {A2}),
                              Math(Trig ? "cosh" : "cos", {B2}));
    Value *Re = B.CreateFDiv(Math(Trig ? "sin" : "sinh", {A2}), Den);
    Value *Im = B.CreateFDiv(Math(Trig ? "sinh" : "sin", {B2}), Den);
    B.CreateRet(packComplex(B, RetTy, Re, Im));
    return;
  }
  }
}

} // namespace

Function *complexRuntimeBody(Function &Callee) {
  if (!Callee.isDeclaration())
    return nullptr;
  const ComplexRow *Row = nullptr;
  for (const ComplexRow &R : ComplexTable)
    if (Callee.getName() == R.Name)
      Row = &R;
  if (!Row)
    return nullptr;
  LLVMContext &C = Callee.getContext();
  Type *T = Row->Single ? Type::getFloatTy(C) : Type::getDoubleTy(C);
  FunctionType *FT = Callee.getFunctionType();
  if (!expectedType(*Row, FT, T))
    return nullptr;
  Module &M = *Callee.getParent();
  std::string Name = ("__adcc_body_" + Callee.getName()).str();
  if (Function *Body = M.getFunction(Name))
    return Body->getFunctionType() == FT ? Body : nullptr;
  Function *Body = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  Body->addFnAttr(Attribute::NoUnwind);
  Body->addFnAttr(Attribute::AlwaysInline);
  buildBody(*Row, *Body, T);
  return Body;
}

} // namespace adcore
