//===- MathRules.cpp - Derivative rules of math functions -----------------===//
//
// The rule table. Each partial builder emits one partial derivative with the
// math in its comment: x, y, z are the primal arguments, r the primal result.
// Builders use only elementwise operations (fadd, fcmp, select, intrinsics),
// so the same row serves float, double and fixed vectors of either; constants
// come from ConstantFP::get(Ty, C), which splats over vectors.
//
// At a non-smooth or singular point where a formula would give 0 * inf or
// 0 / 0, the partial is defined as 0 (see zeroIf): a NaN there would poison
// every derivative that merely passes through with a zero tangent. The
// roots (sqrt, cbrt, pow with 0 < y < 1), whose slope at 0 is infinite,
// have the partial 0 there too. fabs follows the sign of a zero; fmin and
// fmax select (MathCombine::Select) and break ties towards x. The
// conventions are listed in docs/rules.md, "Non-differentiable points".
//
// A partial is itself differentiated when derivatives are nested (forward
// over reverse, reverse over forward, ...). So the formula a zeroIf
// discards is computed from a safe operand there (safeIf): its reverse
// sweep multiplies the zero adjoint it gets by finite factors, where 0 * inf
// would be NaN. For the same reason no partial has an infinite or NaN
// intermediate where the partial itself is finite (tanh's sech^2 is not
// 1 / cosh^2, whose derivative is inf / inf beyond |x| = 355).
//
//===----------------------------------------------------------------------===//

#include "adcore/MathRules.h"
#include "rules/DeviceMath.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

using Args = ArrayRef<Value *>;

constexpr double Ln2 = 0.693147180559945309417232121458176568;
constexpr double Ln10 = 2.30258509299404568401799145468436421;
constexpr double TwoOverSqrtPi = 1.12837916709551257389615890312154517;

//===----------------------------------------------------------------------===//
// Helpers: small elementwise IR idioms
//===----------------------------------------------------------------------===//

/// The constant \p C of \p Like's type, splat over vectors.
Constant *fp(Value *Like, double C) {
  return ConstantFP::get(Like->getType(), C);
}

Value *call(IRBuilderBase &B, Intrinsic::ID ID, Value *X) {
  return B.CreateUnaryIntrinsic(ID, X);
}

Value *sq(IRBuilderBase &B, Value *X) { return B.CreateFMul(X, X); }

/// 1 / x
Value *rcp(IRBuilderBase &B, Value *X) { return B.CreateFDiv(fp(X, 1), X); }

/// c * x
Value *scale(IRBuilderBase &B, double C, Value *X) {
  return B.CreateFMul(fp(X, C), X);
}

/// (1 - x)(1 + x) = 1 - x^2, without the cancellation of 1 - x*x near
/// |x| = 1 (1 - x is exact there).
Value *oneMinusSq(IRBuilderBase &B, Value *X) {
  return B.CreateFMul(B.CreateFSub(fp(X, 1), X), B.CreateFAdd(fp(X, 1), X));
}

Value *isZero(IRBuilderBase &B, Value *X) {
  return B.CreateFCmpOEQ(X, fp(X, 0));
}

/// 0 where \p Cond holds, \p V elsewhere.
Value *zeroIf(IRBuilderBase &B, Value *Cond, Value *V) {
  return B.CreateSelect(Cond, fp(V, 0), V);
}

/// \p X, or the harmless \p Safe where \p Cond holds: the operand of a
/// formula that zeroIf(Cond, ...) discards, so that the formula and its
/// own derivatives stay finite there.
Value *safeIf(IRBuilderBase &B, Value *Cond, Value *X, double Safe) {
  return B.CreateSelect(Cond, fp(X, Safe), X);
}

/// 1.0 where \p Cond holds, 0.0 elsewhere, of \p Like's type.
Value *indicator(IRBuilderBase &B, Value *Cond, Value *Like) {
  return B.CreateUIToFP(Cond, Like->getType());
}

/// sign(x) as copysign(1, x): +1 or -1, following the sign bit.
Value *signBit(IRBuilderBase &B, Value *X) {
  return B.CreateBinaryIntrinsic(Intrinsic::copysign, fp(X, 1), X);
}

/// The integer \p N converted to \p Like's floating-point type; a scalar
/// integer is splat over a vector type.
Value *intToFP(IRBuilderBase &B, Value *N, Value *Like) {
  auto *VecTy = dyn_cast<FixedVectorType>(Like->getType());
  if (!VecTy || N->getType()->isVectorTy())
    return B.CreateSIToFP(N, Like->getType());
  Value *S = B.CreateSIToFP(N, VecTy->getElementType());
  return B.CreateVectorSplat(VecTy->getNumElements(), S);
}

/// ldexp(1, e) = 2^e, with \p Like's floating-point type.
Value *exp2Int(IRBuilderBase &B, Value *E, Value *Like) {
  return B.CreateIntrinsic(Intrinsic::ldexp, {Like->getType(), E->getType()},
                           {fp(Like, 1), E});
}

/// A declaration of the pure runtime function `Ty Name(Ty)`.
FunctionCallee pureRuntimeFunction(Module &M, StringRef Name, Type *Ty) {
  FunctionCallee FC = M.getOrInsertFunction(Name, Ty, Ty);
  auto *F = dyn_cast<Function>(FC.getCallee());
  if (F && F->isDeclaration() && F->getFunctionType() == FC.getFunctionType()) {
    F->setDoesNotAccessMemory();
    F->setDoesNotThrow();
    F->setWillReturn();
  }
  return FC;
}

/// psi(x) = d/dx ln Gamma(x), from the adcc runtime (libm has none):
/// adcc_digamma for double, adcc_digammaf for float; in device code, a
/// function of the module (DeviceDigamma.cpp). Vectors are scalarized.
Value *digamma(IRBuilderBase &B, Value *X) {
  Type *Ty = X->getType();
  Type *ElemTy = Ty->getScalarType();
  StringRef Name = ElemTy->isFloatTy() ? "adcc_digammaf" : "adcc_digamma";
  Module &M = *B.GetInsertBlock()->getModule();
  // (Device code cannot call the runtime: its module gets its own.)
  FunctionCallee Fn = isDeviceModule(M) ? deviceDigamma(M, ElemTy)
                                        : pureRuntimeFunction(M, Name, ElemTy);
  auto *VecTy = dyn_cast<FixedVectorType>(Ty);
  if (!VecTy)
    return B.CreateCall(Fn, X);
  Value *V = PoisonValue::get(Ty);
  for (unsigned I = 0, E = VecTy->getNumElements(); I != E; ++I)
    V = B.CreateInsertElement(V, B.CreateCall(Fn, B.CreateExtractElement(X, I)),
                              I);
  return V;
}

//===----------------------------------------------------------------------===//
// Partials. A, R: the primal arguments and result.
//===----------------------------------------------------------------------===//

// The derivative 0 (rounding functions, copysign's sign argument).
Value *dZero(IRBuilderBase &, Args A, Value *) { return fp(A[0], 0); }
// 1 (fma's addend, fmod's dividend).
Value *dOne(IRBuilderBase &, Args A, Value *) { return fp(A[0], 1); }

// --- Powers and roots

// sqrt: 1 / (2 r), and 0 at x = 0 (r = 0), where the slope is +inf: a
// zero tangent or adjoint gives 0 there, not 0 * inf (Enzyme's convention;
// so |v| = sqrt(v . v) has the derivative 0 at v = 0 in both modes).
Value *dSqrt(IRBuilderBase &B, Args, Value *R) {
  Value *Zero = isZero(B, R);
  return zeroIf(B, Zero, B.CreateFDiv(fp(R, 0.5), safeIf(B, Zero, R, 1)));
}
// cbrt: 1 / (3 r^2), and 0 at x = 0 as for sqrt.
Value *dCbrt(IRBuilderBase &B, Args, Value *R) {
  Value *Zero = isZero(B, R);
  Value *SafeR = safeIf(B, Zero, R, 1);
  return zeroIf(B, Zero, B.CreateFDiv(fp(R, 1.0 / 3), sq(B, SafeR)));
}
// pow, d/dx: y x^(y-1), and 0 where y = 0 (there 0 * x^-1 is 0 * inf at 0)
// and where x = 0 with 0 < y < 1, a root's infinite slope as for sqrt.
Value *dPowX(IRBuilderBase &B, Args A, Value *) {
  Value *X = A[0], *Y = A[1];
  Value *Root =
      B.CreateAnd(B.CreateFCmpOGT(Y, fp(Y, 0)), B.CreateFCmpOLT(Y, fp(Y, 1)));
  Value *Zero = B.CreateOr(isZero(B, Y), B.CreateAnd(isZero(B, X), Root));
  Value *XPow = B.CreateBinaryIntrinsic(Intrinsic::pow, safeIf(B, Zero, X, 1),
                                        B.CreateFSub(Y, fp(Y, 1)));
  return zeroIf(B, Zero, B.CreateFMul(Y, XPow));
}
// pow, d/dy: r ln x, and 0 where x <= 0: at x = 0 the limit from x > 0
// for y > 0; for x < 0 pow is real only at integer y, where it has no
// derivative in y (so a constant y with a zero tangent gives no NaN).
Value *dPowY(IRBuilderBase &B, Args A, Value *R) {
  Value *NotPositive =
      B.CreateFCmpOLE(A[0], Constant::getNullValue(A[0]->getType()));
  Value *Log = call(B, Intrinsic::log, safeIf(B, NotPositive, A[0], 1));
  return zeroIf(B, NotPositive, B.CreateFMul(R, Log));
}
// powi, d/dx: n x^(n-1), and 0 where n = 0.
Value *dPowi(IRBuilderBase &B, Args A, Value *) {
  Value *NMinus1 = B.CreateSub(A[1], ConstantInt::get(A[1]->getType(), 1));
  Value *N = intToFP(B, A[1], A[0]);
  Value *Zero = isZero(B, N);
  Value *XPow =
      B.CreateIntrinsic(Intrinsic::powi, {A[0]->getType(), A[1]->getType()},
                        {safeIf(B, Zero, A[0], 1), NMinus1});
  return zeroIf(B, Zero, B.CreateFMul(N, XPow));
}
// hypot(x, y), d/dx: x / r, and 0 at the origin (r = 0).
Value *dHypotX(IRBuilderBase &B, Args A, Value *R) {
  Value *Zero = isZero(B, R);
  return zeroIf(B, Zero, B.CreateFDiv(A[0], safeIf(B, Zero, R, 1)));
}
// hypot(x, y), d/dy: y / r, and 0 at the origin.
Value *dHypotY(IRBuilderBase &B, Args A, Value *R) {
  Value *Zero = isZero(B, R);
  return zeroIf(B, Zero, B.CreateFDiv(A[1], safeIf(B, Zero, R, 1)));
}

// --- Exponentials and logarithms

// exp: r
Value *dExp(IRBuilderBase &, Args, Value *R) { return R; }
// exp2: r ln 2
Value *dExp2(IRBuilderBase &B, Args, Value *R) { return scale(B, Ln2, R); }
// exp10: r ln 10
Value *dExp10(IRBuilderBase &B, Args, Value *R) { return scale(B, Ln10, R); }
// expm1: e^x (not r + 1, which cancels for x << 0)
Value *dExpm1(IRBuilderBase &B, Args A, Value *) {
  return call(B, Intrinsic::exp, A[0]);
}
// log: 1 / x
Value *dLog(IRBuilderBase &B, Args A, Value *) { return rcp(B, A[0]); }
// log2: 1 / (x ln 2)
Value *dLog2(IRBuilderBase &B, Args A, Value *) {
  return rcp(B, scale(B, Ln2, A[0]));
}
// log10: 1 / (x ln 10)
Value *dLog10(IRBuilderBase &B, Args A, Value *) {
  return rcp(B, scale(B, Ln10, A[0]));
}
// log1p: 1 / (1 + x)
Value *dLog1p(IRBuilderBase &B, Args A, Value *) {
  return rcp(B, B.CreateFAdd(fp(A[0], 1), A[0]));
}
// ldexp(x, e) = x 2^e, d/dx: 2^e
Value *dLdexp(IRBuilderBase &B, Args A, Value *) {
  return exp2Int(B, A[1], A[0]);
}
// frexp(x) = m with x = m 2^e, d/dx: 2^-e = m / x (exact: a power of two),
// and 1 = 2^-e(0) at x = 0. m is the result, or field 0 of llvm.frexp's
// {m, e}. Neither the libm form's `int *` (which the caller may overwrite
// before a reverse pass) nor e is read: LLVM 22's x86 backend crashes on
// the exponent of a <2 x double> llvm.frexp fed to ldexp or sitofp.
Value *dFrexp(IRBuilderBase &B, Args A, Value *R) {
  Value *M = R->getType()->isStructTy() ? B.CreateExtractValue(R, 0) : R;
  Value *X = A[0], *Zero = isZero(B, X);
  return B.CreateSelect(Zero, fp(X, 1),
                        B.CreateFDiv(M, safeIf(B, Zero, X, 1)));
}

// --- Trigonometric functions

// sin: cos x
Value *dSin(IRBuilderBase &B, Args A, Value *) {
  return call(B, Intrinsic::cos, A[0]);
}
// cos: -sin x
Value *dCos(IRBuilderBase &B, Args A, Value *) {
  return B.CreateFNeg(call(B, Intrinsic::sin, A[0]));
}
// tan: 1 + r^2
Value *dTan(IRBuilderBase &B, Args, Value *R) {
  return B.CreateFAdd(fp(R, 1), sq(B, R));
}
// asin: 1 / sqrt(1 - x^2)
Value *dAsin(IRBuilderBase &B, Args A, Value *) {
  return rcp(B, call(B, Intrinsic::sqrt, oneMinusSq(B, A[0])));
}
// acos: -1 / sqrt(1 - x^2)
Value *dAcos(IRBuilderBase &B, Args A, Value *R) {
  return B.CreateFNeg(dAsin(B, A, R));
}
// atan: 1 / (1 + x^2)
Value *dAtan(IRBuilderBase &B, Args A, Value *) {
  return rcp(B, B.CreateFAdd(fp(A[0], 1), sq(B, A[0])));
}
/// x^2 + y^2 of atan2(y, x) = atan2(A[0], A[1]).
Value *atan2Denominator(IRBuilderBase &B, Args A) {
  return B.CreateFAdd(sq(B, A[0]), sq(B, A[1]));
}
// atan2(y, x), d/dy: x / (x^2 + y^2), and 0 at the origin.
Value *dAtan2Y(IRBuilderBase &B, Args A, Value *) {
  Value *D = atan2Denominator(B, A), *Zero = isZero(B, D);
  return zeroIf(B, Zero, B.CreateFDiv(A[1], safeIf(B, Zero, D, 1)));
}
// atan2(y, x), d/dx: -y / (x^2 + y^2), and 0 at the origin.
Value *dAtan2X(IRBuilderBase &B, Args A, Value *) {
  Value *D = atan2Denominator(B, A), *Zero = isZero(B, D);
  return zeroIf(B, Zero,
                B.CreateFDiv(B.CreateFNeg(A[0]), safeIf(B, Zero, D, 1)));
}

// --- Hyperbolic functions

// sinh: cosh x
Value *dSinh(IRBuilderBase &B, Args A, Value *) {
  return call(B, Intrinsic::cosh, A[0]);
}
// cosh: sinh x
Value *dCosh(IRBuilderBase &B, Args A, Value *) {
  return call(B, Intrinsic::sinh, A[0]);
}
// tanh: sech^2 x = 4u / (1 + u)^2 with u = e^(-2|x|) in (0, 1]. Not
// 1 - r^2, which cancels for large |x|, nor 1 / cosh^2 x, whose own
// derivative (nested derivatives) is inf / inf = NaN once cosh^2 x
// overflows (|x| > 355): every intermediate here is finite.
Value *dTanh(IRBuilderBase &B, Args A, Value *) {
  Value *U =
      call(B, Intrinsic::exp, scale(B, -2, call(B, Intrinsic::fabs, A[0])));
  return B.CreateFDiv(scale(B, 4, U), sq(B, B.CreateFAdd(fp(U, 1), U)));
}
// asinh: 1 / sqrt(x^2 + 1)
Value *dAsinh(IRBuilderBase &B, Args A, Value *) {
  Value *S = B.CreateFAdd(sq(B, A[0]), fp(A[0], 1));
  return rcp(B, call(B, Intrinsic::sqrt, S));
}
// acosh: 1 / sqrt((x - 1)(x + 1))
Value *dAcosh(IRBuilderBase &B, Args A, Value *) {
  Value *X = A[0];
  Value *S = B.CreateFMul(B.CreateFSub(X, fp(X, 1)), B.CreateFAdd(X, fp(X, 1)));
  return rcp(B, call(B, Intrinsic::sqrt, S));
}
// atanh: 1 / (1 - x^2)
Value *dAtanh(IRBuilderBase &B, Args A, Value *) {
  return rcp(B, oneMinusSq(B, A[0]));
}

// --- Special functions

// erf: 2/sqrt(pi) e^(-x^2)
Value *dErf(IRBuilderBase &B, Args A, Value *) {
  Value *E = call(B, Intrinsic::exp, B.CreateFNeg(sq(B, A[0])));
  return scale(B, TwoOverSqrtPi, E);
}
// erfc: -2/sqrt(pi) e^(-x^2)
Value *dErfc(IRBuilderBase &B, Args A, Value *R) {
  return B.CreateFNeg(dErf(B, A, R));
}
// tgamma: r psi(x)
Value *dTgamma(IRBuilderBase &B, Args A, Value *R) {
  return B.CreateFMul(R, digamma(B, A[0]));
}
// lgamma = ln |Gamma(x)|: psi(x), for negative x too.
Value *dLgamma(IRBuilderBase &B, Args A, Value *) { return digamma(B, A[0]); }

// --- Multiply-add, remainder

// fma(x, y, z) = x y + z, d/dx: y
Value *dFmaX(IRBuilderBase &, Args A, Value *) { return A[1]; }
// fma(x, y, z), d/dy: x
Value *dFmaY(IRBuilderBase &, Args A, Value *) { return A[0]; }
// fmod(x, y) = x - trunc(x / y) y, d/dy: -trunc(x / y). Jumps where x / y
// crosses an integer; d/dx is 1.
Value *dFmodY(IRBuilderBase &B, Args A, Value *) {
  return B.CreateFNeg(call(B, Intrinsic::trunc, B.CreateFDiv(A[0], A[1])));
}

// remainder(x, y) = x - n y with n the integer nearest x / y (ties to
// even): d/dy = -n, piecewise constant like fmod's. d/dx is 1 (dOne).
Value *dRemainderY(IRBuilderBase &B, Args A, Value *) {
  return B.CreateFNeg(call(B, Intrinsic::roundeven, B.CreateFDiv(A[0], A[1])));
}
// fdim(x, y) = x - y where x > y, else +0: d/dx = [x > y], d/dy = -[x > y].
Value *dFdimX(IRBuilderBase &B, Args A, Value *) {
  return indicator(B, B.CreateFCmpOGT(A[0], A[1]), A[0]);
}
Value *dFdimY(IRBuilderBase &B, Args A, Value *R) {
  return B.CreateFNeg(dFdimX(B, A, R));
}

// --- Sign, minimum and maximum

// fabs: sign(x) = copysign(1, x), also at the kink: +1 at +0, -1 at -0
// (the one-sided derivative on the zero's side).
Value *dFabs(IRBuilderBase &B, Args A, Value *) { return signBit(B, A[0]); }
// copysign(x, y) = |x| sign(y), d/dx: sign(x) sign(y), with the signs of
// zeros as for fabs. d/dy is 0 (dZero).
Value *dCopysignX(IRBuilderBase &B, Args A, Value *R) {
  return B.CreateFMul(dFabs(B, A, R), signBit(B, A[1]));
}
/// Whether fmin(x, y) returns x: x <= y, or y is NaN. Ties go to x.
Value *minPicksX(IRBuilderBase &B, Args A) {
  return B.CreateOr(B.CreateFCmpOLE(A[0], A[1]), B.CreateFCmpUNO(A[1], A[1]));
}
/// Whether fmax(x, y) returns x: x >= y, or y is NaN. Ties go to x.
Value *maxPicksX(IRBuilderBase &B, Args A) {
  return B.CreateOr(B.CreateFCmpOGE(A[0], A[1]), B.CreateFCmpUNO(A[1], A[1]));
}
// fmin, d/dx: [x is chosen]; d/dy: [y is chosen]. Ties go to x. The row
// selects (MathCombine::Select): these are not multiplied by tangents.
Value *dFminX(IRBuilderBase &B, Args A, Value *) {
  return indicator(B, minPicksX(B, A), A[0]);
}
Value *dFminY(IRBuilderBase &B, Args A, Value *) {
  return indicator(B, B.CreateNot(minPicksX(B, A)), A[0]);
}
// fmax, likewise.
Value *dFmaxX(IRBuilderBase &B, Args A, Value *) {
  return indicator(B, maxPicksX(B, A), A[0]);
}
Value *dFmaxY(IRBuilderBase &B, Args A, Value *) {
  return indicator(B, B.CreateNot(maxPicksX(B, A)), A[0]);
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

constexpr unsigned Arg = UsesArgs;
constexpr unsigned Res = UsesResult;
constexpr MathArgKind Int = MathArgKind::Int;
constexpr MathArgKind ScalarInt = MathArgKind::ScalarInt;
constexpr MathArgKind IntOut = MathArgKind::IntOut;
constexpr MathArgKind Long = MathArgKind::Long;
constexpr MathArgKind Flt = MathArgKind::Float;
constexpr MathCombine Select = MathCombine::Select;

// clang-format off
// Name, #args, partials, test domains, uses, intrinsic[, intrinsic only,
// argument kinds, combine]. Domains avoid poles and jumps; integer
// arguments are sampled at integers.
const MathRule Rules[] = {
  // Powers and roots
  {"sqrt",  1, {dSqrt},         {{0.1, 10}},            Res,       Intrinsic::sqrt},
  {"cbrt",  1, {dCbrt},         {{0.1, 10}},            Res,       0},
  {"pow",   2, {dPowX, dPowY},  {{0.2, 3}, {-2, 2}},    Arg | Res, Intrinsic::pow},
  {"powi",  2, {dPowi, nullptr}, {{0.2, 3}, {-3, 4}},   Arg,       Intrinsic::powi, true, {Flt, ScalarInt}},
  {"hypot", 2, {dHypotX, dHypotY}, {{0.2, 3}, {-3, 3}}, Arg | Res, 0},
  // Exponentials and logarithms
  {"exp",   1, {dExp},          {{-5, 5}},              Res,       Intrinsic::exp},
  {"exp2",  1, {dExp2},         {{-5, 5}},              Res,       Intrinsic::exp2},
  {"exp10", 1, {dExp10},        {{-3, 3}},              Res,       Intrinsic::exp10},
  {"expm1", 1, {dExpm1},        {{-5, 5}},              Arg,       0},
  {"log",   1, {dLog},          {{0.1, 10}},            Arg,       Intrinsic::log},
  {"log2",  1, {dLog2},         {{0.1, 10}},            Arg,       Intrinsic::log2},
  {"log10", 1, {dLog10},        {{0.1, 10}},            Arg,       Intrinsic::log10},
  {"log1p", 1, {dLog1p},        {{-0.9, 5}},            Arg,       0},
  {"ldexp", 2, {dLdexp, nullptr}, {{-3, 3}, {-4, 4}},   Arg,       Intrinsic::ldexp, false, {Flt, Int}},
  {"scalbn", 2, {dLdexp, nullptr}, {{-3, 3}, {-4, 4}},  Arg,       0, false, {Flt, Int}},
  {"scalbln", 2, {dLdexp, nullptr}, {{-3, 3}, {-4, 4}}, Arg,       0, false, {Flt, Long}},
  {"frexp", 2, {dFrexp, nullptr}, {{2.2, 3.8}, {0, 0}}, Arg | Res, Intrinsic::frexp, false, {Flt, IntOut}},
  // Trigonometric functions
  {"sin",   1, {dSin},          {{-3, 3}},              Arg,       Intrinsic::sin},
  {"cos",   1, {dCos},          {{-3, 3}},              Arg,       Intrinsic::cos},
  {"tan",   1, {dTan},          {{-1.2, 1.2}},          Res,       Intrinsic::tan},
  {"asin",  1, {dAsin},         {{-0.9, 0.9}},          Arg,       Intrinsic::asin},
  {"acos",  1, {dAcos},         {{-0.9, 0.9}},          Arg,       Intrinsic::acos},
  {"atan",  1, {dAtan},         {{-3, 3}},              Arg,       Intrinsic::atan},
  {"atan2", 2, {dAtan2Y, dAtan2X}, {{-2, 2}, {0.2, 2}}, Arg,       Intrinsic::atan2},
  // Hyperbolic functions
  {"sinh",  1, {dSinh},         {{-3, 3}},              Arg,       Intrinsic::sinh},
  {"cosh",  1, {dCosh},         {{-3, 3}},              Arg,       Intrinsic::cosh},
  {"tanh",  1, {dTanh},         {{-3, 3}},              Arg,       Intrinsic::tanh},
  {"asinh", 1, {dAsinh},        {{-3, 3}},              Arg,       0},
  {"acosh", 1, {dAcosh},        {{1.1, 5}},             Arg,       0},
  {"atanh", 1, {dAtanh},        {{-0.9, 0.9}},          Arg,       0},
  // Special functions
  {"erf",   1, {dErf},          {{-2, 2}},              Arg,       0},
  {"erfc",  1, {dErfc},         {{-2, 2}},              Arg,       0},
  {"tgamma", 1, {dTgamma},      {{0.3, 5}},             Arg | Res, 0},
  {"lgamma", 1, {dLgamma},      {{0.3, 8}},             Arg,       0},
  // Multiply-add and remainder
  {"fma",   3, {dFmaX, dFmaY, dOne}, {{-3, 3}, {-3, 3}, {-3, 3}}, Arg, Intrinsic::fma},
  {"fmuladd", 3, {dFmaX, dFmaY, dOne}, {{-3, 3}, {-3, 3}, {-3, 3}}, Arg, Intrinsic::fmuladd, true},
  {"fmod",  2, {dOne, dFmodY},  {{5.2, 5.8}, {2.1, 2.4}}, Arg,     0},
  {"remainder", 2, {dOne, dRemainderY}, {{5.2, 5.5}, {2.3, 2.4}}, Arg, 0},
  {"fdim",  2, {dFdimX, dFdimY}, {{2, 3}, {-1, 1}},     Arg,       0},
  // The neighbouring representable number: x moved by one unit in the last
  // place, with x's slope
  {"nextafter", 2, {dOne, dZero}, {{1, 2}, {3, 4}},     UsesNothing, 0},
  // A fence against reassociation (also Eigen's optimization barrier, see
  // KnownAsm.cpp): the value passes through
  {"arithmetic.fence", 1, {dOne}, {{-3, 3}},            UsesNothing, Intrinsic::arithmetic_fence, true},
  // Sign, minimum and maximum (llvm.minimum, llvm.minimumnum and their max
  // counterparts map to fmin and fmax too: see IntrinsicAliases)
  {"fabs",  1, {dFabs},         {{-3, 2.5}},            Arg,       Intrinsic::fabs},
  {"copysign", 2, {dCopysignX, dZero}, {{-3, 2.5}, {-2, 2.2}}, Arg, Intrinsic::copysign},
  {"fmin",  2, {dFminX, dFminY}, {{-2, 2}, {-1.5, 2.5}}, Arg,      Intrinsic::minnum, false, {Flt, Flt}, Select},
  {"fmax",  2, {dFmaxX, dFmaxY}, {{-2, 2}, {-1.5, 2.5}}, Arg,      Intrinsic::maxnum, false, {Flt, Flt}, Select},
  // Rounding: piecewise constant, derivative 0 (also at the jumps)
  {"floor", 1, {dZero},         {{0.1, 0.4}},           UsesNothing, Intrinsic::floor},
  {"ceil",  1, {dZero},         {{0.1, 0.4}},           UsesNothing, Intrinsic::ceil},
  {"round", 1, {dZero},         {{0.1, 0.4}},           UsesNothing, Intrinsic::round},
  {"trunc", 1, {dZero},         {{0.1, 0.4}},           UsesNothing, Intrinsic::trunc},
  {"rint",  1, {dZero},         {{0.1, 0.4}},           UsesNothing, Intrinsic::rint},
  {"nearbyint", 1, {dZero},     {{0.1, 0.4}},           UsesNothing, Intrinsic::nearbyint},
  {"roundeven", 1, {dZero},     {{0.1, 0.4}},           UsesNothing, Intrinsic::roundeven},
  // The exponent as a floating-point value (ilogb's, an integer, is inactive)
  {"logb",  1, {dZero},         {{2.1, 3.9}},           UsesNothing, 0},
};
// clang-format on

/// x86's approximate reciprocal square roots and reciprocals (12 or 14
/// bits: `_mm_rsqrt_ps`, `_mm512_rsqrt14_pd`, `_mm_rcp_ps`, ...), which the
/// code using them refines by Newton steps (Eigen's sqrt with AVX-512):
/// the derivative of the function they approximate, written with their
/// result, -r^3 / 2 and -r^2. Not rows of the table: they have no libm or
/// generic spelling, and finite differences of an approximation are not
/// its derivative; e2e rev_x86_intrinsics.c checks them through a Newton
/// step. The AVX-512 forms take (x, passthrough, mask); masks that are not
/// all ones are rewritten as selects first (X86Intrinsics.cpp).
Value *dRsqrtApprox(IRBuilderBase &B, Args, Value *R) {
  return B.CreateFMul(fp(R, -0.5), B.CreateFMul(R, sq(B, R)));
}
Value *dRcpApprox(IRBuilderBase &B, Args, Value *R) {
  return B.CreateFNeg(sq(B, R));
}

// clang-format off
const MathRule ApproximationRules[] = {
  {"x86.rsqrt",        1, {dRsqrtApprox},                   {{0.1, 10}}, Res, 0, true},
  {"x86.rcp",          1, {dRcpApprox},                     {{0.1, 10}}, Res, 0, true},
  {"x86.rsqrt.masked", 3, {dRsqrtApprox, nullptr, nullptr}, {{0.1, 10}}, Res, 0, true, {Flt, Flt, ScalarInt}},
  {"x86.rcp.masked",   3, {dRcpApprox, nullptr, nullptr},   {{0.1, 10}}, Res, 0, true, {Flt, Flt, ScalarInt}},
};
// clang-format on

const MathRule *approximationRule(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::x86_sse_rsqrt_ps:
  case Intrinsic::x86_avx_rsqrt_ps_256:
    return &ApproximationRules[0];
  case Intrinsic::x86_sse_rcp_ps:
  case Intrinsic::x86_avx_rcp_ps_256:
    return &ApproximationRules[1];
  case Intrinsic::x86_avx512_rsqrt14_pd_128:
  case Intrinsic::x86_avx512_rsqrt14_pd_256:
  case Intrinsic::x86_avx512_rsqrt14_pd_512:
  case Intrinsic::x86_avx512_rsqrt14_ps_128:
  case Intrinsic::x86_avx512_rsqrt14_ps_256:
  case Intrinsic::x86_avx512_rsqrt14_ps_512:
    return &ApproximationRules[2];
  case Intrinsic::x86_avx512_rcp14_pd_128:
  case Intrinsic::x86_avx512_rcp14_pd_256:
  case Intrinsic::x86_avx512_rcp14_pd_512:
  case Intrinsic::x86_avx512_rcp14_ps_128:
  case Intrinsic::x86_avx512_rcp14_ps_256:
  case Intrinsic::x86_avx512_rcp14_ps_512:
    return &ApproximationRules[3];
  default:
    return nullptr;
  }
}

/// Intrinsics that share another intrinsic's row. They differ from it only
/// in NaN or signed-zero handling, where the derivative is a convention.
struct IntrinsicAlias {
  Intrinsic::ID ID;
  const char *Row;
};
const IntrinsicAlias IntrinsicAliases[] = {
    {Intrinsic::minimum, "fmin"},
    {Intrinsic::minimumnum, "fmin"},
    {Intrinsic::maximum, "fmax"},
    {Intrinsic::maximumnum, "fmax"},
};

/// float or double, alone or in a fixed-width vector, or a scalar long
/// double (x86's 80-bit or a 128-bit IEEE format): the partials are written
/// for any floating-point type.
bool isSupportedFPType(Type *Ty) {
  if (auto *VecTy = dyn_cast<FixedVectorType>(Ty))
    Ty = VecTy->getElementType();
  else if (Ty->isX86_FP80Ty() || Ty->isFP128Ty())
    return true;
  return Ty->isFloatTy() || Ty->isDoubleTy();
}

const MathRule *findIntrinsicRule(const Function &Callee) {
  Intrinsic::ID ID = Callee.getIntrinsicID();
  if (ID == Intrinsic::not_intrinsic || Callee.arg_empty() ||
      !isSupportedFPType(Callee.getFunctionType()->getParamType(0)))
    return nullptr;
  for (const MathRule &R : Rules)
    if (R.Intrinsic == ID)
      return &R;
  for (const IntrinsicAlias &A : IntrinsicAliases)
    if (A.ID == ID)
      return findMathRule(A.Row);
  return approximationRule(ID);
}

const MathRule *findLibmRule(const Function &Callee) {
  if (Callee.hasLocalLinkage())
    return nullptr;
  StringRef Name = Callee.getName();
  const MathRule *R = findMathRule(Name);
  if (!R || R->IntrinsicOnly)
    return nullptr;
  LLVMContext &Ctx = Callee.getContext();
  // sinl: long double, whatever the target makes of it (x86_fp80 on x86-64,
  // double on NVPTX).
  Type *FPTy = Name == R->Name ? Type::getDoubleTy(Ctx)
               : Name.back() == 'f' ? Type::getFloatTy(Ctx)
                                    : Callee.getReturnType();
  if (Callee.getFunctionType() != mathRuleLibmType(*R, FPTy))
    return nullptr;
  return R;
}

} // namespace

ArrayRef<MathRule> mathRules() { return Rules; }

const MathRule *findMathRule(StringRef Name) {
  for (const MathRule &R : Rules) {
    StringRef Canonical(R.Name);
    if (Name == Canonical)
      return &R;
    // The float and long double variants: "sinf", "sinl".
    if (!R.IntrinsicOnly && Name.size() == Canonical.size() + 1 &&
        Name.starts_with(Canonical) && (Name.back() == 'f' || Name.back() == 'l'))
      return &R;
  }
  return nullptr;
}

const MathRule *findMathRule(const Function &Callee) {
  if (const MathRule *R = findDeviceMathRule(Callee))
    return R;
  if (Callee.isIntrinsic())
    return findIntrinsicRule(Callee);
  return findLibmRule(Callee);
}

bool isDifferentiableArg(const MathRule &Rule, unsigned ArgNo) {
  return ArgNo < Rule.NumArgs && ArgNo < MaxMathArgs &&
         Rule.ArgKinds[ArgNo] == MathArgKind::Float &&
         Rule.Partials[ArgNo] != nullptr;
}

FunctionType *mathRuleLibmType(const MathRule &Rule, Type *FPTy) {
  if (Rule.IntrinsicOnly || FPTy->isVectorTy() || !isSupportedFPType(FPTy))
    return nullptr;
  LLVMContext &Ctx = FPTy->getContext();
  SmallVector<Type *, MaxMathArgs> Params;
  for (unsigned I = 0; I < Rule.NumArgs && I < MaxMathArgs; ++I) {
    switch (Rule.ArgKinds[I]) {
    case MathArgKind::Float:
      Params.push_back(FPTy);
      break;
    case MathArgKind::Int:
    case MathArgKind::ScalarInt:
      Params.push_back(Type::getInt32Ty(Ctx)); // C int on adcc's targets
      break;
    case MathArgKind::Long:
      Params.push_back(Type::getInt64Ty(Ctx)); // C long on adcc's targets
      break;
    case MathArgKind::IntOut:
      Params.push_back(PointerType::getUnqual(Ctx));
      break;
    }
  }
  return FunctionType::get(FPTy, Params, /*isVarArg=*/false);
}

std::vector<std::string> mathRuleNames(const MathRule &Rule) {
  std::vector<std::string> Names;
  if (!Rule.IntrinsicOnly) {
    Names.push_back(Rule.Name);
    Names.push_back(std::string(Rule.Name) + "f");
  }
  if (Rule.Intrinsic != Intrinsic::not_intrinsic)
    Names.push_back(Intrinsic::getBaseName(Rule.Intrinsic).str());
  for (const IntrinsicAlias &A : IntrinsicAliases)
    if (StringRef(A.Row) == Rule.Name)
      Names.push_back(Intrinsic::getBaseName(A.ID).str());
  return Names;
}

} // namespace adcore
