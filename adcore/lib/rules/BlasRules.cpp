//===- BlasRules.cpp - Derivatives of BLAS calls -------------------------===//
//
// One row per BLAS operation with a derivative rule, and the kinds of its
// parameters; each row answers to four routines: CBLAS's cblas_d<op> and
// cblas_s<op>, and Fortran's d<op>_ and s<op>_. The runtime does the work
// (runtime/lib/blas/): adcc_blas_<d|s><op>_fwd adds the tangent of the
// output, _aug records what the reverse reads, _rev adds the adjoints of
// the inputs. The functions the emitters call are small internal wrappers
// made from a row with the conventions of registered rules
// (CustomRules.h): the forward derivative calls the runtime, then the
// program's routine, and returns {result, tangent} or nothing; the
// augmented function calls the runtime's recording, then the routine, and
// returns {tape, result} or the tape; the reverse function takes the
// augmented function's parameters, then the result's adjoint, then the
// tape, and returns the adjoints of CBLAS's scalar alpha and beta (a
// Fortran routine takes them by pointer: their adjoints go into the
// shadows). The runtime takes every argument by pointer, as Fortran does:
// the wrappers store CBLAS's values in stack slots.
//
//===----------------------------------------------------------------------===//

#include "BlasRules.h"
#include "RuleWrappers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace adcore {
namespace {

/// An operation with a rule, and its parameters as CBLAS spells them: o the
/// layout, c a transpose, triangle or diagonal, i an integer, r a
/// floating-point scalar, v an array the call reads, w the array it writes. The
/// Fortran spelling has no layout, takes every argument by pointer, and may
/// declare the hidden lengths of its character arguments last (kind h).
struct BlasOp {
  const char *Name;
  const char *Params;
  bool Returns; // (a floating-point result)
};

constexpr BlasOp BlasOps[] = {
    {"dot", "ivivi", true},          {"axpy", "irviwi", false},
    {"scal", "irwi", false},         {"copy", "iviwi", false},
    {"nrm2", "ivi", true},           {"asum", "ivi", true},
    {"gemv", "ociirvivirwi", false}, {"symv", "ocirvivirwi", false},
    {"ger", "oiirviviwi", false},    {"gemm", "occiiirvivirwi", false},
    {"syrk", "occiirvirwi", false},  {"trsv", "occciviwi", false},
};

/// The routine a declaration is: its operation, spelling and element type,
/// and the kind of each of its parameters.
struct Routine {
  const BlasOp *Op = nullptr;
  bool Fortran = false;
  char Letter = 'd'; // (d: double, s: float)
  std::string Kinds;

  bool hasLayout() const { return StringRef(Op->Params).contains('o'); }
  static bool isArray(char Kind) { return Kind == 'v' || Kind == 'w'; }
  std::string runtimeName(StringRef Part) const {
    return ("adcc_blas_" + Twine(Letter) + Op->Name + "_" + Part).str();
  }
  Type *element(LLVMContext &C) const {
    return Letter == 'd' ? Type::getDoubleTy(C) : Type::getFloatTy(C);
  }
};

/// The routine \p Name spells: cblas_<d|s><op> or <d|s><op>_.
std::optional<Routine> parseName(StringRef Name) {
  Routine R;
  if (!Name.consume_front("cblas_")) {
    if (!Name.consume_back("_"))
      return std::nullopt;
    R.Fortran = true;
  }
  if (Name.empty() || (Name[0] != 'd' && Name[0] != 's'))
    return std::nullopt;
  R.Letter = Name[0];
  for (const BlasOp &Op : BlasOps)
    if (Name.drop_front() == Op.Name)
      R.Op = &Op;
  if (!R.Op)
    return std::nullopt;
  return R;
}

/// The routine of \p F, when F is a declaration of the type its spelling
/// gives it.
std::optional<Routine> routineFor(const Function &F) {
  std::optional<Routine> R = parseName(F.getName());
  if (!R || !F.isDeclaration() || F.isVarArg())
    return std::nullopt;
  LLVMContext &C = F.getContext();
  Type *Elt = R->element(C);
  if (F.getReturnType() != (R->Op->Returns ? Elt : Type::getVoidTy(C)))
    return std::nullopt;
  std::string Kinds = R->Op->Params;
  if (R->Fortran)
    erase(Kinds, 'o');
  size_t Hidden = R->Fortran ? count(Kinds, 'c') : 0;
  size_t N = F.arg_size();
  if (N != Kinds.size() && N != Kinds.size() + Hidden)
    return std::nullopt;
  Kinds.append(N - Kinds.size(), 'h');
  for (size_t I = 0; I < N; ++I) {
    Type *T = F.getArg(I)->getType();
    char K = Kinds[I];
    bool Fits = K == 'h'                            ? T->isIntegerTy()
                : R->Fortran || Routine::isArray(K) ? T->isPointerTy()
                : K == 'r'                          ? T == Elt
                                                    : T->isIntegerTy();
    if (!Fits)
      return std::nullopt;
  }
  R->Kinds = std::move(Kinds);
  return R;
}

/// A wrapper's parameters: each of F's, followed by its shadow (a pointer's)
/// or, in forward mode, its tangent (a floating-point value's). \p At gets
/// the position of each of F's parameters.
SmallVector<Type *, 32> wrapperParams(const Function &F, bool Forward,
                                      SmallVectorImpl<unsigned> &At) {
  SmallVector<Type *, 32> Types;
  for (const Argument &A : F.args()) {
    Type *T = A.getType();
    At.push_back(Types.size());
    Types.push_back(T);
    if (T->isPointerTy() || (Forward && T->isFloatingPointTy()))
      Types.push_back(T);
  }
  return Types;
}

/// \p V, or a stack slot holding it when it is not a pointer.
Value *byPointer(IRBuilder<> &B, Value *V) {
  if (V->getType()->isPointerTy())
    return V;
  Value *Slot = B.CreateAlloca(V->getType());
  B.CreateStore(V, Slot);
  return Slot;
}

/// The runtime's arguments for a forward or augmented call: the layout (a
/// Fortran call: null), then each of F's arguments by pointer, those of
/// kinds r, v and w followed by \p Shadow(K).
SmallVector<Value *, 32> runtimeArgs(IRBuilder<> &B, const Routine &R,
                                     Function &W, ArrayRef<unsigned> At,
                                     function_ref<Value *(unsigned K)> Shadow) {
  SmallVector<Value *, 32> Args;
  if (R.Fortran && R.hasLayout())
    Args.push_back(ConstantPointerNull::get(B.getPtrTy()));
  for (unsigned K = 0; K < R.Kinds.size(); ++K) {
    char Kind = R.Kinds[K];
    if (Kind == 'h')
      continue;
    Args.push_back(byPointer(B, W.getArg(At[K])));
    if (Kind == 'r' || Routine::isArray(Kind))
      Args.push_back(Shadow(K));
  }
  return Args;
}

CallInst *callRuntime(IRBuilder<> &B, const Routine &R, StringRef Part,
                      Type *Ret, ArrayRef<Value *> Args) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(runtimeFunction(M, R.runtimeName(Part), Ret, Args), Args);
}

/// The program's own call of \p F, with the wrapper's values.
Value *callPrimal(IRBuilder<> &B, const Function &F, Function &W,
                  ArrayRef<unsigned> At) {
  SmallVector<Value *, 16> Args;
  for (unsigned K = 0; K < F.arg_size(); ++K)
    Args.push_back(W.getArg(At[K]));
  return B.CreateCall(const_cast<Function *>(&F), Args);
}

} // namespace

bool isBlasRuleFunction(const Function &F) { return routineFor(F).has_value(); }

Function *blasForwardRule(const Function &F) {
  std::optional<Routine> R = routineFor(F);
  if (!R)
    return nullptr;
  Module &M = *const_cast<Module *>(F.getParent());
  LLVMContext &C = M.getContext();
  Type *Elt = R->element(C);
  SmallVector<unsigned, 16> At;
  SmallVector<Type *, 32> Params = wrapperParams(F, /*Forward=*/true, At);
  Type *Ret = R->Op->Returns ? StructType::get(Elt, Elt) : Type::getVoidTy(C);
  Function *W = makeRuleWrapper(M, ("adcc.blas.fwd." + F.getName()).str(),
                                FunctionType::get(Ret, Params, false));
  if (!W->empty())
    return W;
  IRBuilder<> B(BasicBlock::Create(C, "entry", W));
  // (CBLAS's scalars: their tangents, by pointer.)
  SmallVector<Value *, 32> Args = runtimeArgs(B, *R, *W, At, [&](unsigned K) {
    return byPointer(B, W->getArg(At[K] + 1));
  });
  Value *Tangent = callRuntime(B, *R, "fwd",
                               R->Op->Returns ? Elt : Type::getVoidTy(C), Args);
  Value *Primal = callPrimal(B, F, *W, At);
  if (!R->Op->Returns) {
    B.CreateRetVoid();
    return W;
  }
  Value *Pair = B.CreateInsertValue(PoisonValue::get(Ret), Primal, 0);
  B.CreateRet(B.CreateInsertValue(Pair, Tangent, 1));
  return W;
}

unsigned blasReadOnlyArrays(const Function &F) {
  std::optional<Routine> R = routineFor(F);
  unsigned Mask = 0;
  for (unsigned K = 0; R && K < R->Kinds.size(); ++K)
    if (R->Kinds[K] == 'v')
      Mask |= 1u << K;
  return Mask;
}

int blasWrittenArray(const Function &F) {
  std::optional<Routine> R = routineFor(F);
  size_t At = R ? R->Kinds.find('w') : std::string::npos;
  return At == std::string::npos ? -1 : int(At);
}

bool blasGradientRule(const Function &F, Function *&Augmented,
                      Function *&Reverse, unsigned Stable) {
  std::optional<Routine> R = routineFor(F);
  if (!R)
    return false;
  // (The runtime's mask: bit i for the i-th array parameter.)
  unsigned ArrayMask = 0, Array = 0;
  for (unsigned K = 0; K < R->Kinds.size(); ++K)
    if (Routine::isArray(R->Kinds[K]))
      ArrayMask |= (R->Kinds[K] == 'v' && (Stable >> K & 1) ? 1u : 0u)
                   << Array++;
  std::string Tag = ArrayMask ? "." + std::to_string(ArrayMask) : "";
  Module &M = *const_cast<Module *>(F.getParent());
  LLVMContext &C = M.getContext();
  Type *Elt = R->element(C);
  Type *Ptr = PointerType::get(C, 0);
  SmallVector<unsigned, 16> At;
  SmallVector<Type *, 32> Params = wrapperParams(F, /*Forward=*/false, At);
  Type *AugRet = R->Op->Returns ? StructType::get(Ptr, Elt) : Ptr;
  Augmented =
      makeRuleWrapper(M, "adcc.blas.aug" + Tag + "." + F.getName().str(),
                      FunctionType::get(AugRet, Params, false));
  SmallVector<Type *, 32> RevParams(Params);
  if (R->Op->Returns)
    RevParams.push_back(Elt);
  RevParams.push_back(Ptr);
  // (The adjoints of CBLAS's scalar parameters come back as the result.)
  unsigned Scalars = R->Fortran ? 0 : count(R->Kinds, 'r');
  SmallVector<Type *, 2> ScalarTypes(Scalars, Elt);
  Type *RevRet = Scalars == 0   ? Type::getVoidTy(C)
                 : Scalars == 1 ? Elt
                                : StructType::get(C, ScalarTypes);
  Reverse = makeRuleWrapper(M, "adcc.blas.rev" + Tag + "." + F.getName().str(),
                            FunctionType::get(RevRet, RevParams, false));
  if (Augmented->empty()) {
    Function &W = *Augmented;
    IRBuilder<> B(BasicBlock::Create(C, "entry", &W));
    // (A CBLAS scalar's adjoint is always wanted: any pointer but null.)
    SmallVector<Value *, 32> Args =
        runtimeArgs(B, *R, W, At, [&](unsigned K) -> Value * {
          if (R->Kinds[K] == 'r' && !R->Fortran)
            return byPointer(B, W.getArg(At[K]));
          return W.getArg(At[K] + 1);
        });
    Args.push_back(B.getInt32(ArrayMask));
    Value *Tape = callRuntime(B, *R, "aug", Ptr, Args);
    Value *Primal = callPrimal(B, F, W, At);
    if (!R->Op->Returns) {
      B.CreateRet(Tape);
    } else {
      Value *Pair = B.CreateInsertValue(PoisonValue::get(AugRet), Tape, 0);
      B.CreateRet(B.CreateInsertValue(Pair, Primal, 1));
    }
  }
  if (Reverse->empty()) {
    Function &W = *Reverse;
    IRBuilder<> B(BasicBlock::Create(C, "entry", &W));
    SmallVector<Value *, 8> Args, Slots;
    for (unsigned K = 0; K < R->Kinds.size(); ++K) {
      char Kind = R->Kinds[K];
      if (Kind != 'r' && !Routine::isArray(Kind))
        continue;
      if (Routine::isArray(Kind) || R->Fortran) {
        Args.push_back(W.getArg(At[K] + 1));
        continue;
      }
      Value *Slot = byPointer(B, Constant::getNullValue(Elt));
      Slots.push_back(Slot);
      Args.push_back(Slot);
    }
    unsigned Next = Params.size();
    if (R->Op->Returns)
      Args.push_back(W.getArg(Next++));
    Args.push_back(W.getArg(Next));
    callRuntime(B, *R, "rev", Type::getVoidTy(C), Args);
    if (Slots.empty()) {
      B.CreateRetVoid();
    } else if (Slots.size() == 1) {
      B.CreateRet(B.CreateLoad(Elt, Slots[0]));
    } else {
      Value *Agg = PoisonValue::get(RevRet);
      for (unsigned I = 0; I < Slots.size(); ++I)
        Agg = B.CreateInsertValue(Agg, B.CreateLoad(Elt, Slots[I]), I);
      B.CreateRet(Agg);
    }
  }
  return true;
}

namespace {

/// The operations of BLAS (without their type letter) and of LAPACK that
/// programs call, for the error naming a routine without a rule.
constexpr const char *BlasNames[] = {
    "dot",   "dotu",  "dotc",  "axpy",  "scal",  "copy", "swap", "nrm2",
    "asum",  "rot",   "rotg",  "rotm",  "rotmg", "gemv", "gbmv", "symv",
    "sbmv",  "spmv",  "hemv",  "hbmv",  "hpmv",  "trmv", "tbmv", "tpmv",
    "trsv",  "tbsv",  "tpsv",  "ger",   "geru",  "gerc", "syr",  "syr2",
    "spr",   "spr2",  "her",   "her2",  "hpr",   "hpr2", "gemm", "symm",
    "hemm",  "syrk",  "syr2k", "herk",  "her2k", "trmm", "trsm", "sdot",
    "znrm2", "zasum", "cnrm2", "casum", "dscal", "sscal"};
constexpr const char *LapackNames[] = {
    "getrf", "getrs", "getri", "gesv",  "potrf", "potrs", "potri", "posv",
    "geqrf", "orgqr", "ormqr", "ungqr", "unmqr", "gelqf", "gesvd", "gesdd",
    "syev",  "syevd", "syevr", "heev",  "heevd", "geev",  "gels",  "gelsd",
    "trtrs", "trtri", "sytrf", "sytrs", "hetrf", "lacpy", "laset", "lange",
    "lansy", "gecon", "pocon", "gbsv",  "gtsv",  "ptsv",  "pbsv",  "gbtrf",
    "sysv",  "gesvx", "posvx", "stev",  "stevd", "gehrd", "hseqr", "gees"};

/// i<letter>amax and i<letter>amin: an index, no derivative.
bool isIndexRoutine(StringRef Op) {
  return Op.size() == 5 && Op[0] == 'i' && StringRef("sdcz").contains(Op[1]) &&
         (Op.drop_front(2) == "amax" || Op.drop_front(2) == "amin");
}

/// The operation \p Name calls, without its spelling (cblas_, LAPACKE_,
/// _work, the Fortran underscore); \p Lapacke tells whether it was
/// spelled LAPACKE_.
StringRef operationOf(StringRef Name, bool &Lapacke) {
  Lapacke = Name.consume_front("LAPACKE_");
  if (Lapacke)
    Name.consume_back("_work");
  else if (!Name.consume_front("cblas_") && !Name.consume_back("_"))
    return StringRef();
  return Name;
}

bool listed(ArrayRef<const char *> List, StringRef Name) {
  return any_of(List, [&](const char *Row) { return Name == Row; });
}

} // namespace

std::string blasModeError(const Function &F, bool Split) {
  if (Split)
    return "split forward mode of BLAS calls ('" + F.getName().str() +
           "') is not supported (the tangent sweep would run the routine "
           "again); use __enzyme_fwddiff";
  return "batched derivatives (enzyme_width) of BLAS calls ('" +
         F.getName().str() +
         "') are not supported; compute the directions "
         "one at a time";
}

bool isInactiveBlasFunction(const Function &F) {
  bool Lapacke = false;
  return F.isDeclaration() &&
         isIndexRoutine(operationOf(F.getName(), Lapacke)) && !Lapacke;
}

std::string blasCallError(const Function &F) {
  StringRef Name = F.getName();
  // (The rules' wrappers, reached when a derivative that calls BLAS is
  // differentiated again.)
  if (Name.starts_with("adcc.blas."))
    return "second derivatives through BLAS calls (the derivative of '" +
           Name.rsplit('.').second.str() +
           "' differentiated again, as forward over reverse mode does) are "
           "not supported yet; compute the second derivative of that "
           "operation written as loops";
  if (!F.isDeclaration())
    return std::string();
  std::string Rules =
      "adcc differentiates the BLAS routines dot, axpy, "
      "scal, copy, nrm2, asum, gemv, symv, trsv, ger, gemm and syrk "
      "of "
      "double and float, spelled cblas_d<op> or d<op>_ "
      "(docs/rules.md#blas)";
  std::string Fix = "; register a derivative for it "
                    "(docs/custom-derivatives.md) or move the call out of "
                    "the differentiated code";
  if (parseName(Name))
    return "'" + Name.str() + "' is declared with a type other than " +
           (Name.starts_with("cblas_") ? "CBLAS's" : "Fortran BLAS's") +
           " (every argument by pointer in the Fortran spelling), so its "
           "derivative rule does not apply" +
           Fix;
  std::string What;
  bool Lapacke = false;
  StringRef Op = operationOf(Name, Lapacke);
  if (Name.starts_with("cublas"))
    What = "cuBLAS";
  else if (Op.size() > 1 && StringRef("sdcz").contains(Op[0]) &&
           listed(LapackNames, Op.drop_front()))
    What = "LAPACK";
  else if (!Lapacke && Op.size() > 1 && StringRef("sdcz").contains(Op[0]) &&
           (listed(BlasNames, Op.drop_front()) || listed(BlasNames, Op)))
    What = Op[0] == 'c' || Op[0] == 'z' ? "complex BLAS" : "BLAS";
  if (What.empty())
    return std::string();
  return "'" + Name.str() + "' (" + What +
         ") has no derivative rule: " + Rules + Fix;
}

} // namespace adcore
