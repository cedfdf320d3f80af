//===- TruncatedFunctions.cpp - Enzyme's __enzyme_truncate_op_func --------===//
//
// `__enzyme_truncate_op_func(f, 64, 32)` is f with every floating-point
// operation on doubles done in float: the operands rounded to the narrower
// format, the operation done there, its result widened again. Memory,
// arguments and results keep their type. The call returns a copy of f
// (and of every function it calls that has a body, transformed alike), so
// the copy can be called, or differentiated like any other function: its
// derivative follows the roundings (a tangent or adjoint passes through
// each fptrunc/fpext pair as through the value).
//
// Formats: the widths of the three-argument form (16, 32, 64: half, float,
// double), or with four arguments, the source width and the target's
// exponent and significand bits, which must name a format the target has
// in hardware (8/23 float, 5/10 half). Other formats (bfloat, whose
// conversions the C runtime lacks, and those Enzyme emulates with MPFR),
// memory truncation (__enzyme_truncate_mem_*) and calls whose function or
// widths are not constants are left alone, and reported as not supported
// by the request collector.
//
//===----------------------------------------------------------------------===//

#include "adcore/EnzymeMarks.h"

#include "llvm/ADT/DenseMap.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <map>
#include <memory>

using namespace llvm;

namespace adcore {
namespace {

/// The floating-point type of \p Width bits, or null.
Type *typeOfWidth(LLVMContext &C, uint64_t Width) {
  switch (Width) {
  case 16:
    return Type::getHalfTy(C);
  case 32:
    return Type::getFloatTy(C);
  case 64:
    return Type::getDoubleTy(C);
  default:
    return nullptr;
  }
}

/// The hardware format with \p Exponent and \p Significand bits, or null.
Type *typeOfFormat(LLVMContext &C, uint64_t Exponent, uint64_t Significand) {
  if (Exponent == 8 && Significand == 23)
    return Type::getFloatTy(C);
  if (Exponent == 5 && Significand == 10)
    return Type::getHalfTy(C);
  if (Exponent == 11 && Significand == 52)
    return Type::getDoubleTy(C);
  return nullptr;
}

struct Truncation {
  Type *From = nullptr, *To = nullptr;
};

/// The function and formats of a call `__enzyme_truncate_op_func*`, or
/// false where they are not constants or not formats done here.
bool readCall(const CallBase &Call, Function *&Target, Truncation &T) {
  unsigned N = Call.arg_size();
  if ((N != 3 && N != 4) || !Call.getType()->isPointerTy())
    return false;
  Target = dyn_cast<Function>(Call.getArgOperand(0)->stripPointerCasts());
  if (!Target || Target->isDeclaration())
    return false;
  uint64_t Values[3];
  for (unsigned I = 1; I < N; ++I) {
    auto *C = dyn_cast<ConstantInt>(Call.getArgOperand(I));
    if (!C || C->getValue().getActiveBits() > 32)
      return false;
    Values[I - 1] = C->getZExtValue();
  }
  LLVMContext &C = Call.getContext();
  T.From = typeOfWidth(C, Values[0]);
  T.To = N == 3 ? typeOfWidth(C, Values[1])
                : typeOfFormat(C, Values[1], Values[2]);
  return T.From && T.To &&
         T.To->getPrimitiveSizeInBits() < T.From->getPrimitiveSizeInBits();
}

/// Makes the truncated copies of functions, each once per format.
class Truncator {
public:
  explicit Truncator(Truncation T) : T(T) {}

  Function *copyOf(Function &F) {
    if (Function *Done = Copies.lookup(&F))
      return Done;
    ValueToValueMapTy VMap;
    Function *Copy = CloneFunction(&F, VMap);
    Copy->setName(F.getName() + ".adcc.trunc." + suffix());
    Copy->setLinkage(GlobalValue::InternalLinkage);
    Copy->setComdat(nullptr);
    Copies[&F] = Copy;
    SmallVector<Instruction *, 32> Work;
    for (Instruction &I : instructions(*Copy))
      Work.push_back(&I);
    for (Instruction *I : Work)
      rewrite(*I);
    return Copy;
  }

private:
  std::string suffix() const {
    return (Twine(T.From->getPrimitiveSizeInBits()) + "to" +
            Twine(T.To->getPrimitiveSizeInBits()))
        .str();
  }

  /// \p V's type with T.From replaced by T.To (vectors of it too), or null.
  Type *narrowed(Type *Ty) const {
    if (Ty == T.From)
      return T.To;
    if (auto *VT = dyn_cast<VectorType>(Ty);
        VT && VT->getElementType() == T.From)
      return VectorType::get(T.To, VT->getElementCount());
    return nullptr;
  }
  Value *down(IRBuilder<> &B, Value *V) const {
    Type *N = narrowed(V->getType());
    return N ? B.CreateFPTrunc(V, N) : V;
  }
  Value *up(IRBuilder<> &B, Value *V, Type *Wide) const {
    return V->getType() == Wide ? V : B.CreateFPExt(V, Wide);
  }
  /// Replaces \p I by \p New and erases it.
  void replace(Instruction &I, Value *New) {
    if (auto *NI = dyn_cast<Instruction>(New))
      NI->takeName(&I);
    I.replaceAllUsesWith(New);
    I.eraseFromParent();
  }

  void rewrite(Instruction &I) {
    IRBuilder<> B(&I);
    if (isa<BinaryOperator>(I) && narrowed(I.getType())) {
      auto &Op = cast<BinaryOperator>(I);
      Value *New = B.CreateBinOp(Op.getOpcode(), down(B, Op.getOperand(0)),
                                 down(B, Op.getOperand(1)));
      if (auto *NI = dyn_cast<Instruction>(New))
        NI->copyIRFlags(&Op);
      replace(I, up(B, New, I.getType()));
      return;
    }
    if (I.getOpcode() == Instruction::FNeg && narrowed(I.getType())) {
      Value *New = B.CreateFNegFMF(down(B, I.getOperand(0)), &I);
      replace(I, up(B, New, I.getType()));
      return;
    }
    if (auto *Cmp = dyn_cast<FCmpInst>(&I);
        Cmp && narrowed(Cmp->getOperand(0)->getType())) {
      Cmp->setOperand(0, down(B, Cmp->getOperand(0)));
      Cmp->setOperand(1, down(B, Cmp->getOperand(1)));
      return;
    }
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || isa<DbgInfoIntrinsic>(I))
      return;
    Function *Callee = Call->getCalledFunction();
    if (Callee && !Callee->isDeclaration() && !Callee->isVarArg()) {
      // (The callee's operations are truncated too.)
      Call->setCalledFunction(copyOf(*Callee));
      return;
    }
    if (!Callee || !involvesFrom(*Call))
      return;
    if (auto *II = dyn_cast<IntrinsicInst>(Call); II && narrowIntrinsic(*II))
      return;
    // A library function (or an intrinsic of other overloads): its
    // arguments rounded, its result rounded once.
    for (Use &Arg : Call->args())
      if (narrowed(Arg->getType()))
        Arg.set(up(B, down(B, Arg.get()), Arg->getType()));
    if (narrowed(Call->getType())) {
      B.SetInsertPoint(Call->getNextNode());
      Value *Rounded = B.CreateFPTrunc(Call, narrowed(Call->getType()));
      Value *Wide = B.CreateFPExt(Rounded, Call->getType());
      Call->replaceUsesWithIf(Wide,
                              [&](Use &U) { return U.getUser() != Rounded; });
    }
  }

  bool involvesFrom(const CallBase &Call) const {
    if (narrowed(Call.getType()))
      return true;
    for (const Use &Arg : Call.args())
      if (narrowed(Arg->getType()))
        return true;
    return false;
  }

  /// An intrinsic overloaded on one type, T.From (llvm.sqrt, llvm.fma,
  /// llvm.maxnum, ...): called on T.To instead. False if it is not one.
  bool narrowIntrinsic(IntrinsicInst &II) {
    Intrinsic::ID ID = II.getIntrinsicID();
    if (!Intrinsic::isOverloaded(ID) || !narrowed(II.getType()))
      return false;
    Type *Narrow = narrowed(II.getType());
    if (Intrinsic::getType(II.getContext(), ID, {II.getType()}) !=
        II.getFunctionType())
      return false;
    for (const Use &Arg : II.args())
      if (Arg->getType() != II.getType())
        return false;
    IRBuilder<> B(&II);
    SmallVector<Value *, 3> Args;
    for (Use &Arg : II.args())
      Args.push_back(down(B, Arg.get()));
    CallInst *New = B.CreateIntrinsic(ID, {Narrow}, Args);
    New->copyFastMathFlags(&II);
    replace(II, up(B, New, II.getType()));
    return true;
  }

  Truncation T;
  DenseMap<Function *, Function *> Copies;
};

} // namespace

bool lowerTruncatedFunctions(Module &M) {
  SmallVector<CallBase *, 4> Calls;
  for (Function &F : M)
    if (F.isDeclaration() &&
        enzymeIdentifier(F.getName()).starts_with("__enzyme_truncate_op_func"))
      for (User *U : F.users())
        if (auto *Call = dyn_cast<CallBase>(U);
            Call && Call->getCalledOperand() == &F)
          Calls.push_back(Call);
  // (One copy per function and format, shared by the calls.)
  std::map<std::pair<Type *, Type *>, std::unique_ptr<Truncator>> Truncators;
  bool Changed = false;
  for (CallBase *Call : Calls) {
    Function *Target = nullptr;
    Truncation T;
    if (!readCall(*Call, Target, T))
      continue;
    auto &Slot = Truncators[{T.From, T.To}];
    if (!Slot)
      Slot = std::make_unique<Truncator>(T);
    Value *Copy = Slot->copyOf(*Target);
    if (Copy->getType() != Call->getType())
      Copy =
          ConstantExpr::getPointerCast(cast<Constant>(Copy), Call->getType());
    Call->replaceAllUsesWith(Copy);
    Call->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

} // namespace adcore
