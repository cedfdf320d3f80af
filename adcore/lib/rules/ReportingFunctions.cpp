//===- ReportingFunctions.cpp - Variadic functions that report ----------===//

#include "ReportingFunctions.h"
#include "InactiveFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// How deep the reporting functions may call each other (`info` calling
/// `vinfo(fmt, ap)`).
constexpr unsigned MaxDepth = 4;

bool returnsNoNumber(const Type *T) {
  return T->isVoidTy() || T->isIntegerTy();
}

/// A pointer into \p F's own frame (a local buffer), or a constant (the
/// text of a message).
bool isFrameOrConstant(const Function &F, const Value *V) {
  const Value *Obj = getUnderlyingObject(V);
  if (const auto *AI = dyn_cast<AllocaInst>(Obj))
    return AI->getFunction() == &F;
  if (const auto *GV = dyn_cast<GlobalVariable>(Obj))
    return GV->isConstant();
  return isa<ConstantPointerNull>(Obj) || isa<UndefValue>(Obj);
}

/// True when \p T holds no floating-point value and no pointer: integers
/// and characters (a count of calls, the text of the last message).
bool holdsNoNumber(const Type *T) {
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return holdsNoNumber(AT->getElementType());
  if (const auto *ST = dyn_cast<StructType>(T))
    return all_of(ST->elements(),
                  [](const Type *E) { return holdsNoNumber(E); });
  return T->isIntegerTy();
}

/// Memory the function may write: its frame, or a global of integers and
/// characters only.
bool isWritable(const Function &F, const Value *Ptr) {
  if (isFrameOrConstant(F, Ptr))
    return true;
  const auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  return GV && !GV->isConstant() && holdsNoNumber(GV->getValueType());
}

/// The C library's copies of characters, by name: their first argument is
/// where they write.
bool isCharacterCopy(const Function &F) {
  StringRef Name = F.getName();
  return Name == "strcpy" || Name == "strncpy" || Name == "strcat" ||
         Name == "strncat" || Name == "__strcpy_chk" ||
         Name == "__strncpy_chk" || Name == "__strcat_chk" ||
         Name == "__strncat_chk";
}

bool reports(const Function &F, unsigned Depth,
             SmallPtrSetImpl<const Function *> &Visiting);

/// Intrinsics that move no number between memory: the variadic bookkeeping,
/// lifetime and debug markers, and those whose results are integers.
bool isBookkeepingIntrinsic(const IntrinsicInst &II) {
  switch (II.getIntrinsicID()) {
  case Intrinsic::vastart:
  case Intrinsic::vaend:
  case Intrinsic::vacopy:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
    return true;
  default:
    return isa<DbgInfoIntrinsic>(II) ||
           (II.getCalledFunction() &&
            isKnownInactiveFunction(*II.getCalledFunction()));
  }
}

bool callReports(const Function &F, const CallBase &Call, unsigned Depth,
                 SmallPtrSetImpl<const Function *> &Visiting) {
  if (Call.isInlineAsm())
    return false;
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call)) {
    if (const auto *MI = dyn_cast<MemIntrinsic>(II))
      return isWritable(F, MI->getDest());
    return isBookkeepingIntrinsic(*II);
  }
  if (const Function *Callee = Call.getCalledFunction()) {
    if (Callee->isDeclaration())
      return isKnownInactiveFunction(*Callee) ||
             (isCharacterCopy(*Callee) && Call.arg_size() > 0 &&
              isWritable(F, Call.getArgOperand(0)));
    return reports(*Callee, Depth + 1, Visiting);
  }
  // Through a pointer (the program's print function): given only integers
  // and the frame's text, it gets nothing to take a derivative of.
  return returnsNoNumber(Call.getType()) &&
         all_of(Call.args(), [&](const Use &Arg) {
           Type *T = Arg->getType();
           return T->isIntegerTy() ||
                  (T->isPointerTy() && isFrameOrConstant(F, Arg.get()));
         });
}

bool reports(const Function &F, unsigned Depth,
             SmallPtrSetImpl<const Function *> &Visiting) {
  if (Depth > MaxDepth || F.isDeclaration() ||
      !returnsNoNumber(F.getReturnType()))
    return false;
  // (A cycle: the other functions decide.)
  if (!Visiting.insert(&F).second)
    return true;
  for (const Instruction &I : instructions(F)) {
    if (isa<VAArgInst, AtomicRMWInst, AtomicCmpXchgInst>(I))
      return false;
    if (const auto *SI = dyn_cast<StoreInst>(&I)) {
      if (!isWritable(F, SI->getPointerOperand()))
        return false;
      continue;
    }
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (!callReports(F, *Call, Depth, Visiting))
        return false;
  }
  return true;
}

} // namespace

bool isReportingVariadicFunction(const Function &F) {
  if (!F.isVarArg())
    return false;
  SmallPtrSet<const Function *, 8> Visiting;
  return reports(F, 0, Visiting);
}

} // namespace adcore
