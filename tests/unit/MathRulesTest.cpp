//===- MathRulesTest.cpp - Math rules against finite differences ---------===//
//
// Every row of the rule table, in double, float, <2 x double> and
// <4 x float>, through its libm and its intrinsic spelling: a JIT-compiled
// function calls the primal and returns the row's partial, which is compared
// with central differences of a C++ reference at points spread over the
// row's domain, and at a few points with known values. A row without a
// reference in the test table below fails the test.
//
//===----------------------------------------------------------------------===//

#include "adcore/MathRules.h"

#include "adcc_runtime.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

using namespace adcore;
using namespace llvm;

namespace {

//===----------------------------------------------------------------------===//
// The test table: the primal of every row in C++ double, one row each.
//===----------------------------------------------------------------------===//

using Primal = double (*)(const double *A);

struct Reference {
  const char *Name;
  Primal F;
};

// clang-format off
const Reference References[] = {
  {"sqrt",      [](const double *A) { return std::sqrt(A[0]); }},
  {"cbrt",      [](const double *A) { return std::cbrt(A[0]); }},
  {"pow",       [](const double *A) { return std::pow(A[0], A[1]); }},
  {"powi",      [](const double *A) { return std::pow(A[0], A[1]); }},
  {"hypot",     [](const double *A) { return std::hypot(A[0], A[1]); }},
  {"exp",       [](const double *A) { return std::exp(A[0]); }},
  {"exp2",      [](const double *A) { return std::exp2(A[0]); }},
  {"exp10",     [](const double *A) { return std::pow(10.0, A[0]); }},
  {"expm1",     [](const double *A) { return std::expm1(A[0]); }},
  {"log",       [](const double *A) { return std::log(A[0]); }},
  {"log2",      [](const double *A) { return std::log2(A[0]); }},
  {"log10",     [](const double *A) { return std::log10(A[0]); }},
  {"log1p",     [](const double *A) { return std::log1p(A[0]); }},
  {"ldexp",     [](const double *A) { return std::ldexp(A[0], int(A[1])); }},
  {"scalbn",    [](const double *A) { return std::scalbn(A[0], int(A[1])); }},
  {"scalbln",   [](const double *A) { return std::scalbln(A[0], long(A[1])); }},
  {"frexp",     [](const double *A) { int E; return std::frexp(A[0], &E); }},
  {"sin",       [](const double *A) { return std::sin(A[0]); }},
  {"cos",       [](const double *A) { return std::cos(A[0]); }},
  {"tan",       [](const double *A) { return std::tan(A[0]); }},
  {"asin",      [](const double *A) { return std::asin(A[0]); }},
  {"acos",      [](const double *A) { return std::acos(A[0]); }},
  {"atan",      [](const double *A) { return std::atan(A[0]); }},
  {"atan2",     [](const double *A) { return std::atan2(A[0], A[1]); }},
  {"sinh",      [](const double *A) { return std::sinh(A[0]); }},
  {"cosh",      [](const double *A) { return std::cosh(A[0]); }},
  {"tanh",      [](const double *A) { return std::tanh(A[0]); }},
  {"asinh",     [](const double *A) { return std::asinh(A[0]); }},
  {"acosh",     [](const double *A) { return std::acosh(A[0]); }},
  {"atanh",     [](const double *A) { return std::atanh(A[0]); }},
  {"erf",       [](const double *A) { return std::erf(A[0]); }},
  {"erfc",      [](const double *A) { return std::erfc(A[0]); }},
  {"tgamma",    [](const double *A) { return std::tgamma(A[0]); }},
  {"lgamma",    [](const double *A) { return std::lgamma(A[0]); }},
  {"fma",       [](const double *A) { return std::fma(A[0], A[1], A[2]); }},
  {"fmuladd",   [](const double *A) { return A[0] * A[1] + A[2]; }},
  {"fmod",      [](const double *A) { return std::fmod(A[0], A[1]); }},
  {"remainder", [](const double *A) { return std::remainder(A[0], A[1]); }},
  {"fdim",      [](const double *A) { return std::fdim(A[0], A[1]); }},
  {"nextafter", [](const double *A) { return std::nextafter(A[0], A[1]); }},
  {"logb",      [](const double *A) { return std::logb(A[0]); }},
  {"arithmetic.fence", [](const double *A) { return A[0]; }},
  {"fabs",      [](const double *A) { return std::fabs(A[0]); }},
  {"copysign",  [](const double *A) { return std::copysign(A[0], A[1]); }},
  {"fmin",      [](const double *A) { return std::fmin(A[0], A[1]); }},
  {"fmax",      [](const double *A) { return std::fmax(A[0], A[1]); }},
  {"floor",     [](const double *A) { return std::floor(A[0]); }},
  {"ceil",      [](const double *A) { return std::ceil(A[0]); }},
  {"round",     [](const double *A) { return std::round(A[0]); }},
  {"trunc",     [](const double *A) { return std::trunc(A[0]); }},
  {"rint",      [](const double *A) { return std::rint(A[0]); }},
  {"nearbyint", [](const double *A) { return std::nearbyint(A[0]); }},
  {"roundeven", [](const double *A) { return std::nearbyint(A[0]); }},
};
// clang-format on

Primal referenceOf(const MathRule &R) {
  for (const Reference &Ref : References)
    if (StringRef(Ref.Name) == R.Name)
      return Ref.F;
  return nullptr;
}

const MathRule &rule(StringRef Name) {
  const MathRule *R = findMathRule(Name);
  INFO("rule " << Name.str());
  REQUIRE(R);
  return *R;
}

//===----------------------------------------------------------------------===//
// Test functions: void f(const double *In, double *Out) evaluates the partial
// of one argument in every lane; In[Lane * MaxMathArgs + Arg] holds the
// arguments (integers as doubles), Out[Lane] receives the partial.
//===----------------------------------------------------------------------===//

using TestFn = void (*)(const double *In, double *Out);

struct TypeCase {
  const char *Label;
  bool IsFloat;
  unsigned Lanes;
};

const TypeCase TypeCases[] = {{"double", false, 1},
                              {"float", true, 1},
                              {"<2 x double>", false, 2},
                              {"<4 x float>", true, 4}};

enum class Spelling { Libm, Intrinsic };

/// One way of calling a row's function.
struct Case {
  const MathRule *Rule;
  Spelling How;
  TypeCase Ty;
};

std::string describe(const Case &C) {
  return std::string(C.Rule->Name) +
         (C.How == Spelling::Libm ? " (libm, " : " (intrinsic, ") + C.Ty.Label +
         ")";
}

/// The spellings of \p R: libm (scalarized for vectors) and intrinsic.
std::vector<Spelling> spellingsOf(const MathRule &R) {
  std::vector<Spelling> S;
  if (!R.IntrinsicOnly)
    S.push_back(Spelling::Libm);
  if (R.Intrinsic)
    S.push_back(Spelling::Intrinsic);
  return S;
}

/// Builds the test functions of one case in one module.
class CaseBuilder {
public:
  CaseBuilder(Module &M, const Case &C) : M(M), C(C), Ctx(M.getContext()) {
    ElemTy = C.Ty.IsFloat ? Type::getFloatTy(Ctx) : Type::getDoubleTy(Ctx);
    Ty = vectorType(ElemTy);
    IntTy = vectorType(Type::getInt32Ty(Ctx));
  }

  /// Defines `void Name(const double *In, double *Out)` returning the
  /// partial with respect to argument \p ArgNo.
  void build(const Twine &Name, unsigned ArgNo) {
    Type *PtrTy = PointerType::getUnqual(Ctx);
    auto *FnTy = FunctionType::get(Type::getVoidTy(Ctx), {PtrTy, PtrTy}, false);
    Function *Fn =
        Function::Create(FnTy, GlobalValue::ExternalLinkage, Name, M);
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Fn));

    const MathRule &R = *C.Rule;
    std::vector<std::vector<Value *>> Lanes(R.NumArgs);
    for (unsigned I = 0; I < R.NumArgs; ++I)
      for (unsigned L = 0; L < C.Ty.Lanes; ++L)
        Lanes[I].push_back(loadArg(B, Fn->getArg(0), L, I));
    std::vector<Value *> CallArgs;
    Value *Result = C.How == Spelling::Intrinsic
                        ? callIntrinsic(B, Lanes, CallArgs)
                        : callLibm(B, Lanes, CallArgs);

    // What the row says it does not use is replaced by decoys, so that a
    // row whose Uses lies computes a wrong partial.
    if (!(R.Uses & UsesArgs))
      for (Value *&A : CallArgs)
        A = decoy(A->getType());
    if (!(R.Uses & UsesResult))
      Result = decoy(Result->getType());

    Value *P = R.Partials[ArgNo](B, CallArgs, Result);
    REQUIRE(P);
    REQUIRE(P->getType() == Ty);
    for (unsigned L = 0; L < C.Ty.Lanes; ++L) {
      Value *V = C.Ty.Lanes == 1 ? P : B.CreateExtractElement(P, L);
      V = B.CreateFPExt(V, B.getDoubleTy());
      B.CreateStore(V, B.CreateConstGEP1_32(B.getDoubleTy(), Fn->getArg(1), L));
    }
    B.CreateRetVoid();
  }

private:
  Type *vectorType(Type *Elem) const {
    if (C.Ty.Lanes == 1)
      return Elem;
    return FixedVectorType::get(Elem, C.Ty.Lanes);
  }

  /// Argument \p ArgNo of lane \p Lane, as the scalar call takes it.
  Value *loadArg(IRBuilderBase &B, Value *In, unsigned Lane, unsigned ArgNo) {
    MathArgKind Kind = C.Rule->ArgKinds[ArgNo];
    if (Kind == MathArgKind::IntOut)
      return B.CreateAlloca(B.getInt32Ty());
    Value *Ptr =
        B.CreateConstGEP1_32(B.getDoubleTy(), In, Lane * MaxMathArgs + ArgNo);
    Value *V = B.CreateLoad(B.getDoubleTy(), Ptr);
    if (Kind == MathArgKind::Long)
      return B.CreateFPToSI(V, B.getInt64Ty());
    if (Kind != MathArgKind::Float)
      return B.CreateFPToSI(V, B.getInt32Ty());
    return B.CreateFPTrunc(V, ElemTy);
  }

  Value *vectorOf(IRBuilderBase &B, ArrayRef<Value *> Lanes) {
    if (Lanes.size() == 1)
      return Lanes[0];
    Value *V = PoisonValue::get(
        FixedVectorType::get(Lanes[0]->getType(), Lanes.size()));
    for (unsigned L = 0; L < Lanes.size(); ++L)
      V = B.CreateInsertElement(V, Lanes[L], L);
    return V;
  }

  /// The argument as a (vector) call takes it.
  Value *argValue(IRBuilderBase &B, unsigned ArgNo, ArrayRef<Value *> Lanes) {
    MathArgKind Kind = C.Rule->ArgKinds[ArgNo];
    if (Kind == MathArgKind::ScalarInt || Kind == MathArgKind::IntOut)
      return Lanes[0];
    return vectorOf(B, Lanes);
  }

  Value *callIntrinsic(IRBuilderBase &B, ArrayRef<std::vector<Value *>> Lanes,
                       std::vector<Value *> &CallArgs) {
    const MathRule &R = *C.Rule;
    Type *RetTy = Ty;
    for (unsigned I = 0; I < R.NumArgs; ++I) {
      if (R.ArgKinds[I] == MathArgKind::IntOut)
        RetTy = StructType::get(Ty, IntTy);
      else
        CallArgs.push_back(argValue(B, I, Lanes[I]));
    }
    CallInst *Call = B.CreateIntrinsic(RetTy, R.Intrinsic, CallArgs);
    CHECK(findMathRule(*Call->getCalledFunction()) == &R);
    return Call;
  }

  /// Calls the libm function, lane by lane for a vector type.
  Value *callLibm(IRBuilderBase &B, ArrayRef<std::vector<Value *>> Lanes,
                  std::vector<Value *> &CallArgs) {
    const MathRule &R = *C.Rule;
    std::string Name = std::string(R.Name) + (C.Ty.IsFloat ? "f" : "");
    FunctionType *FnTy = mathRuleLibmType(R, ElemTy);
    REQUIRE(FnTy);
    FunctionCallee Callee = M.getOrInsertFunction(Name, FnTy);
    CHECK(findMathRule(*cast<Function>(Callee.getCallee())) == &R);
    std::vector<Value *> Results;
    for (unsigned L = 0; L < C.Ty.Lanes; ++L) {
      std::vector<Value *> LaneArgs;
      for (unsigned I = 0; I < R.NumArgs; ++I)
        LaneArgs.push_back(Lanes[I][L]);
      Results.push_back(B.CreateCall(Callee, LaneArgs));
    }
    for (unsigned I = 0; I < R.NumArgs; ++I)
      CallArgs.push_back(argValue(B, I, Lanes[I]));
    return vectorOf(B, Results);
  }

  /// A value of \p T that no partial should see.
  static Value *decoy(Type *T) {
    if (T->isFPOrFPVectorTy())
      return ConstantFP::get(T, 1234.5);
    if (T->isIntOrIntVectorTy())
      return ConstantInt::get(T, 7);
    return PoisonValue::get(T);
  }

  Module &M;
  const Case &C;
  LLVMContext &Ctx;
  Type *ElemTy;
  Type *Ty;
  Type *IntTy;
};

//===----------------------------------------------------------------------===//
// The JIT
//===----------------------------------------------------------------------===//

template <typename T> T orFail(Expected<T> V) {
  if (!V)
    FAIL(toString(V.takeError()));
  return std::move(*V);
}

void orFail(Error E) {
  if (E)
    FAIL(toString(std::move(E)));
}

class Jit {
public:
  Jit() {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    J = orFail(orc::LLJITBuilder().create());
    orc::JITDylib &JD = J->getMainJITDylib();
    // libm, from the process.
    JD.addGenerator(
        orFail(orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
            J->getDataLayout().getGlobalPrefix())));
    // The runtime is linked into this binary with hidden visibility, out of
    // the dynamic symbol table: define its special functions by address.
    orc::MangleAndInterner Mangle(J->getExecutionSession(), J->getDataLayout());
    auto Flags = JITSymbolFlags::Exported | JITSymbolFlags::Callable;
    orFail(JD.define(orc::absoluteSymbols(
        {{Mangle("adcc_digamma"),
          {orc::ExecutorAddr::fromPtr(&adcc_digamma), Flags}},
         {Mangle("adcc_digammaf"),
          {orc::ExecutorAddr::fromPtr(&adcc_digammaf), Flags}}})));
  }

  /// A module in a context of its own, laid out for this JIT.
  std::unique_ptr<Module> newModule(std::unique_ptr<LLVMContext> &Ctx) {
    Ctx = std::make_unique<LLVMContext>();
    auto M = std::make_unique<Module>("mathrules", *Ctx);
    M->setDataLayout(J->getDataLayout());
    M->setTargetTriple(J->getTargetTriple());
    return M;
  }

  void add(std::unique_ptr<Module> M, std::unique_ptr<LLVMContext> Ctx) {
    std::string Errors;
    raw_string_ostream OS(Errors);
    bool Broken = verifyModule(*M, &OS);
    INFO(Errors);
    REQUIRE(!Broken);
    orFail(J->addIRModule(orc::ThreadSafeModule(std::move(M), std::move(Ctx))));
  }

  TestFn lookup(StringRef Name) {
    return orFail(J->lookup(Name)).toPtr<TestFn>();
  }

  /// A symbol name not used before in this JIT.
  std::string uniqueName(StringRef Stem) {
    return (Stem + "." + Twine(NameCount++)).str();
  }

private:
  std::unique_ptr<orc::LLJIT> J;
  unsigned NameCount = 0;
};

/// JIT-compiled partials of one row: one function per case and
/// differentiable argument.
class CompiledRow {
public:
  CompiledRow(Jit &J, const MathRule &R, ArrayRef<TypeCase> Types)
      : J(J), Stem(J.uniqueName(R.Name)) {
    std::unique_ptr<LLVMContext> Ctx;
    std::unique_ptr<Module> M = J.newModule(Ctx);
    for (const TypeCase &T : Types)
      for (Spelling S : spellingsOf(R))
        Cases.push_back({&R, S, T});
    for (unsigned K = 0; K < Cases.size(); ++K) {
      CaseBuilder Builder(*M, Cases[K]);
      for (unsigned A = 0; A < R.NumArgs; ++A)
        if (isDifferentiableArg(R, A))
          Builder.build(name(K, A), A);
    }
    J.add(std::move(M), std::move(Ctx));
  }

  ArrayRef<Case> cases() const { return Cases; }
  TestFn function(unsigned CaseNo, unsigned ArgNo) {
    return J.lookup(name(CaseNo, ArgNo));
  }

private:
  std::string name(unsigned CaseNo, unsigned ArgNo) const {
    return Stem + ".case" + std::to_string(CaseNo) + ".arg" +
           std::to_string(ArgNo);
  }

  Jit &J;
  std::string Stem;
  std::vector<Case> Cases;
};

//===----------------------------------------------------------------------===//
// Sampling and finite differences
//===----------------------------------------------------------------------===//

constexpr unsigned NumPoints = 7;

/// Argument \p ArgNo at point \p K: each argument walks its domain in its
/// own order, so that multi-argument rows see varied combinations. Integer
/// arguments are rounded to integers.
double samplePoint(const MathRule &R, unsigned ArgNo, unsigned K) {
  const SampleDomain &D = R.Domains[ArgNo];
  double T = double((K * (2 * ArgNo + 1)) % NumPoints) / (NumPoints - 1);
  double V = D.Lo + (D.Hi - D.Lo) * T;
  return R.ArgKinds[ArgNo] == MathArgKind::Float ? V : std::round(V);
}

/// Central difference of \p F in argument \p ArgNo at \p A, with step
/// 1e-6 max(1, |x|).
double centralDifference(Primal F, const double *A, unsigned ArgNo) {
  double Args[MaxMathArgs] = {A[0], A[1], A[2]};
  double X = A[ArgNo];
  double H = 1e-6 * std::max(1.0, std::fabs(X));
  Args[ArgNo] = X + H;
  double Up = F(Args);
  double XUp = Args[ArgNo];
  Args[ArgNo] = X - H;
  double Down = F(Args);
  return (Up - Down) / (XUp - Args[ArgNo]);
}

/// Fills \p In for point \p K of every lane (lane L takes point K + L) with
/// the arguments exactly as the JIT function sees them: rounded to float for
/// float cases, one integer for all lanes for a ScalarInt.
void fillPoint(const Case &C, unsigned K, double *In) {
  const MathRule &R = *C.Rule;
  for (unsigned L = 0; L < C.Ty.Lanes; ++L)
    for (unsigned A = 0; A < MaxMathArgs; ++A) {
      double V = A < R.NumArgs ? samplePoint(R, A, (K + L) % NumPoints) : 0;
      if (C.Ty.IsFloat)
        V = double(float(V));
      if (L > 0 && A < R.NumArgs && R.ArgKinds[A] == MathArgKind::ScalarInt)
        V = In[A]; // lane 0's
      In[L * MaxMathArgs + A] = V;
    }
}

} // namespace

TEST_CASE("every math rule matches central differences", "[mathrules]") {
  Jit J;
  for (const MathRule &R : mathRules()) {
    INFO("rule " << R.Name);
    Primal F = referenceOf(R);
    REQUIRE(F); // every row needs a reference in the test table
    CompiledRow Row(J, R, TypeCases);
    for (unsigned CaseNo = 0; CaseNo < Row.cases().size(); ++CaseNo) {
      const Case &C = Row.cases()[CaseNo];
      INFO(describe(C));
      for (unsigned ArgNo = 0; ArgNo < R.NumArgs; ++ArgNo) {
        if (!isDifferentiableArg(R, ArgNo))
          continue;
        TestFn Fn = Row.function(CaseNo, ArgNo);
        for (unsigned K = 0; K < NumPoints; ++K) {
          double In[4 * MaxMathArgs] = {}, Out[4] = {};
          fillPoint(C, K, In);
          Fn(In, Out);
          for (unsigned L = 0; L < C.Ty.Lanes; ++L) {
            const double *A = In + L * MaxMathArgs;
            double FD = centralDifference(F, A, ArgNo);
            // Double: the FD is accurate to ~1e-10 |f| and ~1e-10 relative.
            // Float: the partial is computed in float at the float point,
            // the reference in double at the same point.
            double Scale = std::max(1.0, std::fabs(F(A)));
            double Rel = C.Ty.IsFloat ? 1e-5 : 1e-6;
            double Abs = (C.Ty.IsFloat ? 1e-6 : 1e-8) * Scale;
            INFO("d/d(arg " << ArgNo << ") at (" << A[0] << ", " << A[1] << ", "
                            << A[2] << ")");
            CHECK(Out[L] == Approx(FD).epsilon(Rel).margin(Abs));
          }
        }
      }
    }
  }
}

namespace {

/// A partial with a known value.
struct SpotCheck {
  const char *Name;
  unsigned ArgNo;
  double Args[MaxMathArgs];
  double Expected;
};

constexpr double EulerGamma = 0.57721566490153286060651209008240243;

// clang-format off
const SpotCheck SpotChecks[] = {
  {"sin",      0, {0},       1},
  {"cos",      0, {0},       0},
  {"atanh",    0, {0.5},     4.0 / 3},
  {"sqrt",     0, {4},       0.25},
  {"sqrt",     0, {0},       0},      // convention at 0 (slope +inf)
  {"sqrt",     0, {-0.0},    0},
  {"cbrt",     0, {-8},      1.0 / 12},
  {"cbrt",     0, {0},       0},      // as sqrt
  {"exp",      0, {1},       2.718281828459045},
  {"log",      0, {4},       0.25},
  {"tan",      0, {0},       1},
  {"atan2",    0, {1, 1},    0.5},
  {"atan2",    1, {1, 1},    -0.5},
  {"atan2",    0, {0, 0},    0},      // convention at the origin
  {"hypot",    0, {3, 4},    0.6},
  {"hypot",    1, {0, 0},    0},      // convention at the origin
  {"hypot",    0, {0, 0},    0},
  {"pow",      0, {2, 3},    12},
  {"pow",      1, {2, 3},    8 * 0.6931471805599453},
  {"pow",      0, {0, 0},    0},      // y = 0: constant 1
  {"pow",      1, {0, 2},    0},      // x = 0: the limit from x > 0
  {"pow",      0, {0, 0.5},  0},      // x = 0, 0 < y < 1: as sqrt
  {"pow",      0, {0, 1},    1},
  {"pow",      0, {0, 2},    0},
  {"pow",      0, {4, 0.5},  0.25},
  {"powi",     0, {2, 3},    12},
  {"powi",     0, {0, 0},    0},
  {"ldexp",    0, {1.5, 3},  8},
  {"scalbn",   0, {1.5, -2}, 0.25},
  {"scalbln",  0, {1.5, 4},  16},
  {"frexp",    0, {3, 0},    0.25},   // 3 = 0.75 * 2^2
  {"erf",      0, {0},       1.1283791670955126},
  {"lgamma",   0, {1},       -EulerGamma},
  {"lgamma",   0, {-0.5},    0.03648997397857652}, // psi(-0.5) = psi(1.5)
  {"tgamma",   0, {1},       -EulerGamma},
  {"tgamma",   0, {2},       1 - EulerGamma},
  {"fabs",     0, {-2},      -1},
  {"fabs",     0, {0},       1},      // the sign of the zero
  {"fabs",     0, {-0.0},    -1},
  {"copysign", 0, {-0.0, 3}, -1},
  {"copysign", 0, {-2, 3},   -1},
  {"copysign", 0, {2, -3},   -1},
  {"copysign", 1, {2, -3},   0},
  {"fmin",     0, {1, 1},    1},      // ties to the first argument
  {"fmin",     1, {1, 1},    0},
  {"fmin",     1, {NAN, 1},  1},      // fmin(NaN, y) = y
  {"fmin",     0, {1, NAN},  1},      // fmin(x, NaN) = x
  {"fmax",     0, {2, 1},    1},
  {"fmax",     1, {2, 1},    0},
  {"fmax",     0, {1, 1},    1},      // ties to the first argument
  {"fmax",     1, {1, 1},    0},
  {"fmax",     1, {NAN, 1},  1},      // fmax(NaN, y) = y
  {"fmod",     1, {5.5, 2},  -2},
  {"remainder", 1, {5.5, 2}, -3},     // 5.5 / 2 = 2.75: n = 3
  {"remainder", 1, {5, 2},   -2},     // a tie: n is the even 2
  {"fdim",     0, {3, 1},    1},
  {"fdim",     1, {3, 1},    -1},
  {"fdim",     0, {1, 3},    0},
  {"fdim",     1, {1, 3},    0},
  {"fma",      2, {2, 3, 4}, 1},
  {"floor",    0, {2.5},     0},
};
// clang-format on

} // namespace

TEST_CASE("math rules give known values at spot checks", "[mathrules]") {
  Jit J;
  const TypeCase Double[] = {TypeCases[0]};
  for (const SpotCheck &S : SpotChecks) {
    const MathRule &R = rule(S.Name);
    CompiledRow Row(J, R, Double);
    for (unsigned CaseNo = 0; CaseNo < Row.cases().size(); ++CaseNo) {
      INFO(describe(Row.cases()[CaseNo])
           << " d/d(arg " << S.ArgNo << ") at (" << S.Args[0] << ", "
           << S.Args[1] << ", " << S.Args[2] << ")");
      double Out[1] = {};
      Row.function(CaseNo, S.ArgNo)(S.Args, Out);
      CHECK(Out[0] == Approx(S.Expected).epsilon(1e-14));
    }
  }
}

namespace {

/// A call's tangent and argument adjoints, by mathTangent and mathAdjoint:
/// the tangent from the argument tangents T of the arguments in Active
/// (bit k: argument k), the adjoints from the result adjoint Adj.
struct TermCheck {
  const char *Name;
  double Args[2];
  double T[2];
  unsigned Active;
  double Adj;
  double Tangent;
  double Adjoints[2];
};

// clang-format off
const TermCheck TermChecks[] = {
  // Select rows: the other argument's NaN or inf does not leak.
  {"fmax", {2, 1},   {3, NAN},      3, INFINITY, 3, {INFINITY, 0}},
  {"fmax", {1, 2},   {INFINITY, 5}, 3, NAN,      5, {0, NAN}},
  {"fmax", {1, 1},   {3, NAN},      3, 1,        3, {1, 0}},  // tie: x
  {"fmax", {NAN, 1}, {NAN, 5},      3, 2,        5, {0, 2}},  // fmax(NaN, y) = y
  {"fmax", {1, 2},   {3, 0},        1, 1,        0, {0, 1}},  // y chosen, inactive
  {"fmax", {2, 1},   {0, NAN},      2, 1,        0, {1, 0}},
  {"fmin", {1, 2},   {3, NAN},      3, INFINITY, 3, {INFINITY, 0}},
  {"fmin", {2, 2},   {3, INFINITY}, 3, 1,        3, {1, 0}},  // tie: x
  {"fmin", {1, NAN}, {3, NAN},      3, 1,        3, {1, 0}},  // fmin(x, NaN) = x
  // Sum rows at their conventions.
  {"sqrt", {0},      {0},           1, 0,        0, {0}},
  {"sqrt", {0},      {1},           1, 1,        0, {0}},
  {"sqrt", {4},      {2},           1, 2,        0.5, {0.5}},
  {"fabs", {-0.0},   {2},           1, 3,        -2, {-3}},
  {"fabs", {0},      {2},           1, 3,        2, {3}},
};
// clang-format on

bool sameValue(double Got, double Want) {
  return (std::isnan(Got) && std::isnan(Want)) || Got == Want;
}

/// void f(const double *In, double *Out): In = {x, y, tx, ty, adj}, Out =
/// {tangent, adjoint of x, adjoint of y}, for the double intrinsic of \p R.
void buildTermFunction(Module &M, const MathRule &R, unsigned Active,
                       StringRef Name) {
  LLVMContext &Ctx = M.getContext();
  Type *PtrTy = PointerType::getUnqual(Ctx);
  Type *F64 = Type::getDoubleTy(Ctx);
  auto *FnTy = FunctionType::get(Type::getVoidTy(Ctx), {PtrTy, PtrTy}, false);
  Function *Fn = Function::Create(FnTy, GlobalValue::ExternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Fn));
  auto In = [&](unsigned I) {
    return B.CreateLoad(F64, B.CreateConstGEP1_32(F64, Fn->getArg(0), I));
  };
  auto Store = [&](Value *V, unsigned I) {
    B.CreateStore(V, B.CreateConstGEP1_32(F64, Fn->getArg(1), I));
  };
  std::vector<Value *> Args;
  for (unsigned I = 0; I < R.NumArgs; ++I)
    Args.push_back(In(I));
  Value *Result = B.CreateIntrinsic(F64, R.Intrinsic, Args);
  std::vector<Value *> Partials;
  for (unsigned I = 0; I < R.NumArgs; ++I)
    Partials.push_back(R.Partials[I](B, Args, Result));
  std::vector<MathTerm> Terms;
  for (unsigned I = 0; I < R.NumArgs; ++I)
    if (Active & (1u << I))
      Terms.push_back({Partials[I], In(2 + I)});
  Store(mathTangent(B, R, Terms), 0);
  Value *Adj = In(4);
  for (unsigned I = 0; I < R.NumArgs; ++I)
    Store(mathAdjoint(B, R, Partials[I], Adj), 1 + I);
  B.CreateRetVoid();
}

} // namespace

TEST_CASE("math calls combine partials by their rows", "[mathrules]") {
  CHECK(rule("fmax").Combine == MathCombine::Select);
  CHECK(rule("fmin").Combine == MathCombine::Select);
  CHECK(rule("sqrt").Combine == MathCombine::Sum);
  Jit J;
  for (const TermCheck &C : TermChecks) {
    const MathRule &R = rule(C.Name);
    REQUIRE(R.Intrinsic);
    std::unique_ptr<LLVMContext> Ctx;
    std::unique_ptr<Module> M = J.newModule(Ctx);
    std::string Name = J.uniqueName("terms");
    buildTermFunction(*M, R, C.Active, Name);
    J.add(std::move(M), std::move(Ctx));
    double In[5] = {C.Args[0], C.Args[1], C.T[0], C.T[1], C.Adj}, Out[3] = {};
    J.lookup(Name)(In, Out);
    INFO(C.Name << " at (" << C.Args[0] << ", " << C.Args[1] << "), tangents ("
                << C.T[0] << ", " << C.T[1] << "), adjoint " << C.Adj);
    CHECK(sameValue(Out[0], C.Tangent));
    for (unsigned I = 0; I < R.NumArgs; ++I)
      CHECK(sameValue(Out[1 + I], C.Adjoints[I]));
  }
}

TEST_CASE("digamma", "[mathrules]") {
  // psi(n) = H(n-1) - gamma, psi(n + 1/2) = -gamma - 2 ln 2 + sum 2/(2k-1).
  long double Harmonic = 0, OddSum = 0;
  for (int N = 1; N <= 40; ++N) {
    INFO("n = " << N);
    CHECK(adcc_digamma(N) ==
          Approx(double(Harmonic - EulerGamma)).epsilon(1e-15).margin(1e-16));
    double Half = double(-EulerGamma - 2 * std::log(2.0L) + OddSum);
    CHECK(adcc_digamma(N - 0.5) == Approx(Half).epsilon(1e-15).margin(1e-15));
    Harmonic += 1.0L / N;
    OddSum += 2.0L / (2 * N - 1);
  }
  // Recurrence psi(x + 1) = psi(x) + 1/x across the series threshold and
  // the reflection at negative x.
  // The sum cancels: compare relative to the size of its terms.
  for (double X :
       {-7.3, -2.5, -0.9, -0.25, 0.001, 0.3, 1.46, 3.7, 9.5, 9.99, 25.0, 1e6}) {
    INFO("x = " << X);
    double Psi = adcc_digamma(X);
    double Size = std::fabs(Psi) + std::fabs(1 / X);
    CHECK(adcc_digamma(X + 1) == Approx(Psi + 1 / X).margin(1e-14 * Size));
  }
  CHECK(adcc_digamma(-2.5) == Approx(1.1031566406452432).epsilon(1e-14));
  CHECK(std::isnan(adcc_digamma(0)));
  CHECK(std::isnan(adcc_digamma(-3)));
  CHECK(std::isnan(adcc_digamma(-INFINITY)));
  CHECK(std::isnan(adcc_digamma(NAN)));
  CHECK(adcc_digamma(INFINITY) == INFINITY);
  CHECK(adcc_digammaf(1.0f) == Approx(-EulerGamma).epsilon(1e-7));
}

namespace {

std::unique_ptr<Module> parse(LLVMContext &Ctx, const char *Source) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Source, Err, Ctx);
  if (!M)
    Err.print("MathRulesTest", errs());
  REQUIRE(M);
  return M;
}

const MathRule *ruleOf(const Module &M, StringRef Name) {
  const Function *F = M.getFunction(Name);
  INFO(Name.str());
  REQUIRE(F);
  return findMathRule(*F);
}

} // namespace

TEST_CASE("math rules are found by libm and intrinsic names", "[mathrules]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parse(Ctx, R"(
    declare double @sin(double)
    declare float @sinf(float)
    declare x86_fp80 @sinl(x86_fp80)
    declare double @llvm.sin.f64(double)
    declare <4 x float> @llvm.sin.v4f32(<4 x float>)
    declare half @llvm.sin.f16(half)
    declare x86_fp80 @llvm.sin.f80(x86_fp80)
    declare <vscale x 2 x double> @llvm.sin.nxv2f64(<vscale x 2 x double>)
    declare double @frexp(double, ptr)
    declare { double, i32 } @llvm.frexp.f64.i32(double)
    declare double @ldexp(double, i32)
    declare double @fmin(double, double)
    declare float @fminf(float, float)
    declare double @llvm.minnum.f64(double, double)
    declare float @llvm.minimum.f32(float, float)
    declare double @llvm.minimumnum.f64(double, double)
    declare double @llvm.maxnum.f64(double, double)
    declare <2 x double> @llvm.maximum.v2f64(<2 x double>, <2 x double>)
    declare double @llvm.maximumnum.f64(double, double)
    declare double @llvm.powi.f64.i32(double, i32)
    declare double @powi(double, i32)
    declare double @fmuladd(double, double, double)
    declare double @llvm.fmuladd.f64(double, double, double)
    declare double @llvm.copysign.f64(double, double)
    declare double @sinhl(double)
  )");
  const MathRule *Sin = findMathRule("sin");
  REQUIRE(Sin);
  CHECK(findMathRule("sinf") == Sin);
  CHECK(ruleOf(*M, "sin") == Sin);
  CHECK(ruleOf(*M, "sinf") == Sin);
  CHECK(ruleOf(*M, "llvm.sin.f64") == Sin);
  CHECK(ruleOf(*M, "llvm.sin.v4f32") == Sin);
  // long double: x86_fp80 on x86-64, double where the target says so
  // (sinhl(double)); half types are not supported.
  CHECK(findMathRule("sinl") == Sin);
  CHECK(ruleOf(*M, "sinl") == Sin);
  CHECK(ruleOf(*M, "llvm.sin.f80") == Sin);
  CHECK(ruleOf(*M, "sinhl") == findMathRule("sinh"));
  CHECK(ruleOf(*M, "llvm.sin.f16") == nullptr);
  CHECK(ruleOf(*M, "llvm.sin.nxv2f64") == nullptr);

  CHECK(ruleOf(*M, "frexp") == findMathRule("frexp"));
  CHECK(ruleOf(*M, "llvm.frexp.f64.i32") == findMathRule("frexp"));
  CHECK(ruleOf(*M, "ldexp") == findMathRule("ldexp"));

  const MathRule *Fmin = findMathRule("fmin");
  const MathRule *Fmax = findMathRule("fmax");
  REQUIRE(Fmin);
  REQUIRE(Fmax);
  for (const char *Name : {"fmin", "fminf", "llvm.minnum.f64",
                           "llvm.minimum.f32", "llvm.minimumnum.f64"})
    CHECK(ruleOf(*M, Name) == Fmin);
  for (const char *Name :
       {"llvm.maxnum.f64", "llvm.maximum.v2f64", "llvm.maximumnum.f64"})
    CHECK(ruleOf(*M, Name) == Fmax);

  // powi and fmuladd exist only as intrinsics.
  CHECK(ruleOf(*M, "llvm.powi.f64.i32") == findMathRule("powi"));
  CHECK(ruleOf(*M, "powi") == nullptr);
  CHECK(ruleOf(*M, "llvm.fmuladd.f64") == findMathRule("fmuladd"));
  CHECK(ruleOf(*M, "fmuladd") == nullptr);
  CHECK(ruleOf(*M, "llvm.copysign.f64") == findMathRule("copysign"));

  std::vector<std::string> FminNames = mathRuleNames(*Fmin);
  for (const char *Name :
       {"fmin", "fminf", "llvm.minnum", "llvm.minimum", "llvm.minimumnum"})
    CHECK(std::count(FminNames.begin(), FminNames.end(), Name) == 1);
  std::vector<std::string> PowiNames = mathRuleNames(*findMathRule("powi"));
  CHECK(PowiNames == std::vector<std::string>{"llvm.powi"});
}

TEST_CASE("a libm name with another signature is not a math function",
          "[mathrules]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parse(Ctx, R"(
    declare i32 @sin(i32)
    declare float @cos(float)
    declare double @tanf(double)
    declare double @pow(double)
    declare double @frexp(double, i32)
    declare double @ldexp(double, double)
    declare double @fmin(double, double, ...)
    define internal double @exp(double %x) {
      ret double %x
    }
  )");
  for (const char *Name :
       {"sin", "cos", "tanf", "pow", "frexp", "ldexp", "fmin", "exp"})
    CHECK(ruleOf(*M, Name) == nullptr);
}

TEST_CASE("integer arguments carry no derivative", "[mathrules]") {
  const MathRule &Powi = rule("powi");
  CHECK(isDifferentiableArg(Powi, 0));
  CHECK_FALSE(isDifferentiableArg(Powi, 1));
  CHECK(Powi.Partials[1] == nullptr);
  CHECK_FALSE(isDifferentiableArg(rule("ldexp"), 1));
  CHECK_FALSE(isDifferentiableArg(rule("frexp"), 1));
  // copysign's sign argument is a float whose partial is 0: differentiable.
  CHECK(isDifferentiableArg(rule("copysign"), 1));
  CHECK_FALSE(isDifferentiableArg(rule("sin"), 1));
}

TEST_CASE("every function of the design has a row", "[mathrules]") {
  // DESIGN.md 1.3, libm spellings (double and float).
  for (const char *Name :
       {"sqrt",  "exp",   "exp2",     "expm1",  "log",    "log2",  "log10",
        "log1p", "pow",   "sin",      "cos",    "tan",    "asin",  "acos",
        "atan",  "atan2", "sinh",     "cosh",   "tanh",   "asinh", "acosh",
        "atanh", "erf",   "erfc",     "tgamma", "lgamma", "cbrt",  "hypot",
        "fma",   "fabs",  "copysign", "fmin",   "fmax",   "floor", "ceil",
        "round", "trunc", "fmod",     "ldexp",  "frexp",
        "scalbn", "scalbln", "remainder", "fdim", "nextafter", "logb"}) {
    INFO(Name);
    const MathRule *R = findMathRule(Name);
    REQUIRE(R);
    CHECK(findMathRule(std::string(Name) + "f") == R);
    CHECK_FALSE(R->IntrinsicOnly);
  }
  // Intrinsic-only: powi, fmuladd; minnum and maxnum map to fmin and fmax.
  for (const char *Name : {"powi", "fmuladd"}) {
    INFO(Name);
    const MathRule *R = findMathRule(Name);
    REQUIRE(R);
    CHECK(R->IntrinsicOnly);
    CHECK(R->Intrinsic ==
          Intrinsic::lookupIntrinsicID(std::string("llvm.") + Name));
  }
  CHECK(rule("fmin").Intrinsic == Intrinsic::minnum);
  CHECK(rule("fmax").Intrinsic == Intrinsic::maxnum);
}

TEST_CASE("math rule rows are well formed", "[mathrules]") {
  std::vector<std::string> Seen;
  for (const MathRule &R : mathRules()) {
    INFO(R.Name);
    CHECK(std::count(Seen.begin(), Seen.end(), R.Name) == 0);
    Seen.push_back(R.Name);
    REQUIRE(R.NumArgs >= 1);
    REQUIRE(R.NumArgs <= MaxMathArgs);
    CHECK(R.ArgKinds[0] == MathArgKind::Float);
    CHECK((R.Uses & ~unsigned(UsesArgs | UsesResult)) == 0);
    CHECK((!R.IntrinsicOnly || R.Intrinsic != 0));
    for (unsigned A = 0; A < MaxMathArgs; ++A) {
      bool IsFloat = A < R.NumArgs && R.ArgKinds[A] == MathArgKind::Float;
      // Exactly the floating-point arguments have partials.
      CHECK((R.Partials[A] != nullptr) == IsFloat);
      if (IsFloat)
        CHECK(R.Domains[A].Lo < R.Domains[A].Hi);
    }
  }
}
