//===- DenseViews.cpp - Enzyme's __enzyme_todense -----------------------===//
//
// See requests/DenseViews.h. A view's value is the null pointer: the address
// of an access through it, as an integer, is its byte offset in the view.
// A view that a reverse-mode derivative records (its tape, or the shadow
// records of forward mode over reverse mode) is instead a tagged address
// that no pointer of the program can be: its top byte is the view's tag,
// outside the user half of x86-64's and AArch64's address spaces. Where a
// pointer is read back from records, each access through it asks its top
// byte whether it is the view.
//
//===----------------------------------------------------------------------===//

#include "DenseViews.h"

#include "support/IRMarks.h"
#include "support/PointerShadowMarks.h"
#include "support/MemoryScopes.h"
#include "support/TapeLevels.h"
#include "Synthesis.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace adcore {
namespace {

/// The function that makes a view without functions (isConstantAddress).
constexpr const char *NoPrimalMemoryName = "adcc.no.primal.memory";

/// Rounds of inlining and promotion before a view is lowered; a view
/// passed down a recursion would need more.
constexpr unsigned MaxRounds = 64;

/// The tags of views recorded on tapes or chosen by selects and phis are
/// the top bytes FirstTag..LastTag (NoMemoryTag: the views without memory,
/// which all behave alike); a view's
/// address is the middle of its tag's range, so that offsets of either sign
/// keep the tag.
constexpr uint64_t NoMemoryTag = 0x10, FirstTag = 0x11, LastTag = 0x6f;
constexpr unsigned TagShift = 56;

uint64_t viewBase(uint64_t Tag) {
  return (Tag << TagShift) | (uint64_t(1) << (TagShift - 1));
}

/// Whether the load or store \p I accesses a reverse sweep's records (its
/// tape, or the shadow records of forward mode over reverse mode, also
/// those of a derivative differentiated again).
bool isRecordAccess(const Instruction &I) {
  return hasMemoryClass(I, MemoryClass::Tape) ||
         hasMemoryClass(I, MemoryClass::Shadow) ||
         I.getMetadata(EarlierShadowMetadata);
}

/// Whether \p I reads a pointer that a derivative recorded (not one of the
/// tape's own fields, read from the thread's tape).
bool readsRecordedPointer(const Instruction &I) {
  auto *L = dyn_cast<LoadInst>(&I);
  return L && L->getType()->isPointerTy() && isRecordAccess(*L) &&
         !isTapeThreadCall(getUnderlyingObject(L->getPointerOperand()));
}

/// Whether \p U, a user of \p V, computes an address from it: a cast, a
/// getelementptr of it, a freeze, a select or a phi; or the shadow to
/// store for the shadow V (NullShadowGuards.h, strippedNullShadow: V, or
/// null where V is a scratch shadow, which a view never is).
bool computesAddress(const User *U, const Value *V) {
  if (!U->getType()->isPointerTy())
    return false;
  if (auto *GEP = dyn_cast<GetElementPtrInst>(U))
    return GEP->getPointerOperand() == V;
  if (auto *Call = dyn_cast<CallBase>(U))
    return Call->getCalledFunction() &&
           Call->getCalledFunction()->getName() == "adcc_null_shadow_strip" &&
           Call->getArgOperand(0) == V;
  return isa<CastInst, SelectInst, PHINode, FreezeInst>(U);
}

/// Whether \p I asks for the scratch shadow behind a null shadow pointer
/// whose primal is \p V (NullShadowGuards.h, nullShadowOrScratch: the
/// derivative cannot tell that V is a view). V's address only names the
/// scratch.
bool isScratchKey(const Instruction &I, const Value *V) {
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && Call->getCalledFunction() &&
         Call->getCalledFunction()->getName() == "adcc_null_shadow" &&
         Call->getArgOperand(0) == V;
}

/// Whether \p U is a select or a phi of \p In's values and others: its
/// value may or may not be the view.
bool isMixed(const User *U, const SetVector<Value *> &In) {
  if (auto *Sel = dyn_cast<SelectInst>(U))
    return !In.contains(Sel->getTrueValue()) ||
           !In.contains(Sel->getFalseValue());
  return isa<PHINode>(U);
}

/// The values computed from a view's address: the view, then its casts,
/// getelementptrs and selects of two of them. (Phis and other selects are
/// the view or not at run time: its tag tells, dispatchDynamic.)
SetVector<Value *> derivedFrom(CallBase &View) {
  SetVector<Value *> Derived;
  Derived.insert(&View);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (unsigned I = 0; I < Derived.size(); ++I)
      for (User *U : Derived[I]->users())
        if (computesAddress(U, Derived[I]) && !isMixed(U, Derived))
          Grew |= Derived.insert(U);
  }
  return Derived;
}

/// The selects and phis of \p Derived's values and others.
SmallVector<Instruction *, 4> mixedUsers(const SetVector<Value *> &Derived) {
  SmallVector<Instruction *, 4> Mixed;
  for (Value *V : Derived)
    for (User *U : V->users())
      if (computesAddress(U, V) && isMixed(U, Derived) &&
          !is_contained(Mixed, U))
        Mixed.push_back(cast<Instruction>(U));
  return Mixed;
}

/// \p Roots and the addresses computed from them.
SetVector<Value *> addressesFrom(ArrayRef<Value *> Roots) {
  SetVector<Value *> Addresses(Roots.begin(), Roots.end());
  for (unsigned I = 0; I < Addresses.size(); ++I)
    for (User *U : Addresses[I]->users())
      if (computesAddress(U, Addresses[I]))
        Addresses.insert(U);
  return Addresses;
}

/// The pointers of \p F that may be a view at run time: those read back
/// from records, \p Roots, and the addresses computed from them.
SetVector<Value *> dynamicPointers(Function &F, ArrayRef<Value *> Roots) {
  SmallVector<Value *, 16> All(Roots.begin(), Roots.end());
  for (Instruction &I : instructions(F))
    if (readsRecordedPointer(I))
      All.push_back(&I);
  return addressesFrom(All);
}

/// Whether \p Fn, a derivative that uses the tape, or one it calls, reads
/// pointers back from records.
bool readsRecords(Function &Fn, SmallPtrSetImpl<Function *> &Seen) {
  if (Fn.isDeclaration() || !Fn.hasFnAttribute(UsesTapeAttribute) ||
      !Seen.insert(&Fn).second)
    return false;
  for (Instruction &I : instructions(Fn)) {
    if (readsRecordedPointer(I))
      return true;
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && readsRecords(*Callee, Seen))
        return true;
  }
  return false;
}

class ViewLowering {
public:
  ViewLowering(CallBase &View, uint64_t Tag, SynthesisContext &Ctx)
      : View(View), F(*View.getFunction()), Tag(Tag), Ctx(Ctx) {}

  bool run();
  /// Whether run() gave the view its tag (isDynamic).
  bool tagged() const { return Dynamic; }

private:
  bool error(const Instruction &At, const Twine &What) {
    // (adcc's code has no location: the view's is the place then.)
    StringRef Maker = View.getCalledFunction()->getName();
    Ctx.error(At.getDebugLoc() ? At : View,
              (Maker == NoPrimalMemoryName
                   ? Twine("the constant address given as the value of an "
                           "enzyme_dupnoneed argument (it has no memory: "
                           "reads give zero, writes are dropped) ")
                   : "the dense view made by '" + Maker + "' ") +
                  What);
    return false;
  }
  Function *callback(unsigned ArgNo, const char *What);
  /// Inlines a call that passes the view, or promotes a local variable
  /// that holds it; false when there is none left.
  bool bringCloser(bool &Failed);
  /// Whether the view is stored into records, or reaches a select or a phi
  /// with other pointers (known once bringCloser has inlined the calls it
  /// is passed to): then its tag tells at run time.
  bool isDynamic() const;
  /// The call of \p F to inline next so that every pointer that may be the
  /// view at run time is accessed in \p F: a call of a function that reads
  /// records, or that receives such a pointer; null when there is none.
  CallBase *dynamicReader();
  bool inlineCall(CallBase &Call, bool &Failed);
  /// Fills Reached: the blocks after the view's call (its own block where
  /// it is in a cycle).
  void reachedBlocks();
  /// Turns each access through a pointer that may be the view at run time
  /// into a choice, by the pointer's tag, between the access and the view's.
  bool dispatchDynamic();
  bool checkDynamicUses(const SetVector<Value *> &Dynamic);
  /// Makes the access \p I (a load or a store through the view, at byte
  /// \p Offset) at \p B: a call of the view's function with \p ExtraArgs
  /// (the view's other arguments). \p Loaded is what a load reads. False
  /// after an error.
  bool emitAccess(IRBuilder<> &B, Instruction &I, Value *Offset,
                  ArrayRef<Value *> ExtraArgs, Value *&Loaded);
  /// The view's argument \p K where \p At may access the view: itself where
  /// it is computed on every path to \p At, else (a record read back after
  /// the loop that made the view) a copy kept in the frame; null after an
  /// error.
  Value *extraAt(unsigned K, Instruction &At, const DominatorTree &DT);
  /// What the accesses become, for messages.
  std::string accesses() const {
    if (!Load)
      return "reads of zero and dropped writes";
    return ("calls of '" + Load->getName() + "' and '" + Store->getName() +
            "'").str();
  }
  bool checkCallback(const Instruction &At, Function &Fn,
                     ArrayRef<Value *> Args, Type *Result);
  bool lower();

  CallBase &View;
  Function &F;
  uint64_t Tag;
  /// The blocks the view's call reaches (where it may be accessed).
  SmallPtrSet<BasicBlock *, 32> Reached;
  /// The view's block and its instructions after the view's call.
  BasicBlock *ViewBlock = nullptr;
  SmallPtrSet<Instruction *, 16> ViewBlockTail;
  SynthesisContext &Ctx;
  Function *Load = nullptr, *Store = nullptr;
  /// The view's arguments after the two functions (kept: the view is
  /// erased before its recorded accesses are lowered).
  SmallVector<Value *, 4> Extra;
  /// The calls the accesses became.
  SmallVector<CallInst *, 16> Made;
  /// The frame's copies of the view's arguments (extraAt).
  DenseMap<Value *, AllocaInst *> ExtraSlots;
  /// The selects and phis of the view's addresses and others.
  SmallVector<Instruction *, 4> Mixed;
  /// Whether the view has a tag (isDynamic).
  bool Dynamic = false;
};

Function *ViewLowering::callback(unsigned ArgNo, const char *What) {
  Function *Fn = nullptr;
  if (ArgNo < View.arg_size())
    Fn = dyn_cast<Function>(View.getArgOperand(ArgNo)->stripPointerCasts());
  if (!Fn)
    error(View, Twine("needs a function as argument ") + Twine(ArgNo + 1) +
                    " (" + What + ")");
  return Fn;
}

bool ViewLowering::bringCloser(bool &Failed) {
  SetVector<Value *> Derived = derivedFrom(View);
  // (The local variables that hold the view, or a select or phi of it.)
  SmallVector<Instruction *, 4> Mixed = mixedUsers(Derived);
  SetVector<Value *> Held = addressesFrom(
      SmallVector<Value *, 4>(Mixed.begin(), Mixed.end()));
  Held.insert_range(Derived);
  SmallVector<AllocaInst *, 4> Slots;
  for (Value *V : Held)
    for (User *U : V->users()) {
      auto *S = dyn_cast<StoreInst>(U);
      auto *Slot =
          S ? dyn_cast<AllocaInst>(S->getPointerOperand()) : nullptr;
      if (Slot && S->getValueOperand() == V && isAllocaPromotable(Slot) &&
          !is_contained(Slots, Slot))
        Slots.push_back(Slot);
    }
  if (!Slots.empty()) {
    DominatorTree DT(F);
    PromoteMemToReg(Slots, DT);
    return true;
  }
  for (Value *V : Derived)
    for (User *U : V->users()) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call == &View || Call->getCalledOperand() == V ||
          isa<IntrinsicInst>(Call))
        continue;
      Function *Callee = Call->getCalledFunction();
      if (!Callee || Callee->isDeclaration())
        continue;
      return inlineCall(*Call, Failed);
    }
  if (!isDynamic())
    return false;
  CallBase *Reader = dynamicReader();
  return Reader && inlineCall(*Reader, Failed);
}

bool ViewLowering::inlineCall(CallBase &Call, bool &Failed) {
  StringRef Name = Call.getCalledFunction()->getName();
  InlineFunctionInfo IFI;
  if (InlineFunction(Call, IFI).isSuccess())
    return true;
  Failed = !error(Call, "is passed to '" + Name +
                            "', which adcc cannot inline to turn its "
                            "accesses into calls");
  return false;
}

bool ViewLowering::isDynamic() const {
  SetVector<Value *> Derived = derivedFrom(View);
  if (!mixedUsers(Derived).empty())
    return true;
  for (Value *V : Derived)
    for (User *U : V->users())
      if (auto *S = dyn_cast<StoreInst>(U);
          S && S->getValueOperand() == V && isRecordAccess(*S))
        return true;
  return false;
}

CallBase *ViewLowering::dynamicReader() {
  SmallVector<Instruction *, 4> Mixed = mixedUsers(derivedFrom(View));
  SmallVector<Value *, 4> Roots(Mixed.begin(), Mixed.end());
  SetVector<Value *> Dynamic = dynamicPointers(F, Roots);
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || isa<IntrinsicInst>(Call) ||
        Call == &View)
      continue;
    SmallPtrSet<Function *, 8> Seen;
    if (readsRecords(*Callee, Seen) ||
        any_of(Call->args(),
               [&](const Use &A) { return Dynamic.contains(A.get()); }))
      return Call;
  }
  return nullptr;
}

/// Whether \p Fn can be called with \p Args and return \p Result.
bool callbackMatches(const Function &Fn, ArrayRef<Value *> Args,
                     Type *Result) {
  FunctionType *FT = Fn.getFunctionType();
  bool Matches = !FT->isVarArg() && FT->getNumParams() == Args.size() &&
                 FT->getReturnType() == Result;
  for (unsigned I = 0; Matches && I < Args.size(); ++I)
    Matches = FT->getParamType(I) == Args[I]->getType();
  return Matches;
}

bool ViewLowering::checkCallback(const Instruction &At, Function &Fn,
                                 ArrayRef<Value *> Args, Type *Result) {
  if (callbackMatches(Fn, Args, Result))
    return true;
  std::string Want;
  raw_string_ostream OS(Want);
  OS << *Result << " (";
  for (unsigned I = 0; I < Args.size(); ++I)
    OS << (I ? ", " : "") << *Args[I]->getType();
  OS << ")";
  return error(At, "is accessed here, for which '" + Fn.getName() +
                       "' must have the type " + Want +
                       " (the value stored, for a store; the byte offset "
                       "in the view; the view's other arguments)");
}

bool ViewLowering::lower() {
  SetVector<Value *> Derived = derivedFrom(View);
  LLVMContext &C = F.getContext();
  Type *Int64 = Type::getInt64Ty(C);
  // (In an order where each value comes after what it is computed from.)
  DenseMap<Value *, Value *> Address;
  Dynamic = isDynamic();
  Mixed = mixedUsers(Derived);
  if (Dynamic && Tag > LastTag)
    return error(View, "is recorded on a tape, or chosen by a select or a "
                       "phi, with more than " +
                           Twine(LastTag - FirstTag + 1) +
                           " other such views made in the same function, "
                           "more than adcc can tell apart");
  uint64_t Base = Dynamic ? viewBase(Tag) : 0;
  if (Dynamic)
    reachedBlocks();
  Address[&View] = ConstantExpr::getIntToPtr(
      ConstantInt::get(Int64, Base), View.getType());
  SmallVector<Instruction *, 16> Dead;
  IRBuilder<> B(C);
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    for (Instruction &I : make_early_inc_range(*BB)) {
      bool Uses = any_of(I.operands(), [&](const Use &U) {
        return Derived.contains(U.get());
      });
      if (!Uses)
        continue;
      B.SetInsertPoint(&I);
      B.SetCurrentDebugLocation(I.getDebugLoc());
      auto Offset = [&](Value *Ptr) {
        return B.CreateSub(B.CreatePtrToInt(Address.lookup(Ptr), Int64),
                           B.getInt64(Base));
      };
      if (auto *Cast = dyn_cast<CastInst>(&I);
          Cast && Derived.contains(Cast)) {
        Address[Cast] = B.CreatePointerCast(Address.lookup(Cast->getOperand(0)),
                                            Cast->getType());
      } else if (auto *Fr = dyn_cast<FreezeInst>(&I);
                 Fr && Derived.contains(Fr)) {
        Address[Fr] = Address.lookup(Fr->getOperand(0));
      } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I);
                 GEP && Derived.contains(GEP)) {
        SmallVector<Value *, 4> Indices(GEP->indices());
        Address[GEP] =
            B.CreateGEP(GEP->getSourceElementType(),
                        Address.lookup(GEP->getPointerOperand()), Indices, "",
                        GEPNoWrapFlags::none());
      } else if (auto *Sel = dyn_cast<SelectInst>(&I);
                 Sel && Derived.contains(Sel) &&
                 Derived.contains(Sel->getTrueValue()) &&
                 Derived.contains(Sel->getFalseValue())) {
        Address[Sel] = B.CreateSelect(Sel->getCondition(),
                                      Address.lookup(Sel->getTrueValue()),
                                      Address.lookup(Sel->getFalseValue()));
      } else if (isa<PHINode>(I)) {
        // (Its incoming addresses once all are made.)
        continue;
      } else if (isa<PtrToIntInst, ICmpInst, SelectInst>(I) ||
                 any_of(I.operands(), [&](const Use &U) {
                   return isScratchKey(I, U.get());
                 })) {
        // (Its address: a mixed select, a comparison, the key of a
        // scratch shadow (the view's shadow read back from memory at -O0
        // in forward mode over a reverse sweep); a tagged view's tag is
        // asked this way.)
        for (Use &U : I.operands())
          if (Derived.contains(U.get()))
            U.set(Address.lookup(U.get()));
      } else if (isa<LoadInst>(I) ||
                 (isa<StoreInst>(I) &&
                  !Derived.contains(cast<StoreInst>(I).getValueOperand()))) {
        Value *Loaded;
        if (!emitAccess(B, I, Offset(getLoadStorePointerOperand(&I)), Extra,
                        Loaded))
          return false;
        if (Loaded)
          I.replaceAllUsesWith(Loaded);
        Dead.push_back(&I);
      } else if (auto *S = dyn_cast<StoreInst>(&I);
                 S && isRecordAccess(*S) &&
                 !Derived.contains(S->getPointerOperand())) {
        // (A reverse sweep's records: the view is followed to where they
        // are read, dispatchDynamic.)
        S->setOperand(0, Address.lookup(S->getValueOperand()));
      } else if (isPointerMarkCall(I)) {
        // (Marks of pointers' shadows: a view's bytes are the program's
        // functions', which keep no marks.)
        Dead.push_back(&I);
      } else if (isa<StoreInst>(I)) {
        return error(I, "is stored into memory here, where adcc cannot "
                        "follow it to turn its accesses into " +
                            accesses() +
                            " (only the records of reverse-mode "
                            "derivatives are followed)");
      } else {
        std::string What = isa<CallBase>(I)
                               ? "a call of a function without a body here"
                               : std::string("the instruction '") +
                                     I.getOpcodeName() + "' here";
        return error(I, "reaches " + What +
                            ", which adcc cannot turn into " + accesses() +
                            ": only loads and stores through it, with "
                            "address arithmetic, in the function that makes "
                            "it and in the functions it is passed to");
      }
    }
  for (Instruction *M : Mixed)
    for (Use &U : M->operands())
      if (Derived.contains(U.get()))
        U.set(Address.lookup(U.get()));
  for (Instruction *I : Dead)
    I->eraseFromParent();
  // (What computed the addresses is used by nothing now.)
  for (Value *V : reverse(Derived)) {
    auto *I = cast<Instruction>(V);
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
    I->eraseFromParent();
  }
  if (Dynamic && !dispatchDynamic())
    return false;
  // The callbacks the program marked always_inline are inlined, as Enzyme
  // does.
  for (CallInst *Call : Made)
    if (Call->getCalledFunction()->hasFnAttribute(Attribute::AlwaysInline)) {
      InlineFunctionInfo IFI;
      InlineFunction(*Call, IFI);
    }
  return true;
}

void ViewLowering::reachedBlocks() {
  ViewBlock = View.getParent();
  for (Instruction *I = View.getNextNode(); I; I = I->getNextNode())
    ViewBlockTail.insert(I);
  SmallVector<BasicBlock *, 16> Work(successors(View.getParent()));
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (Reached.insert(BB).second)
      append_range(Work, successors(BB));
  }
}

Value *ViewLowering::extraAt(unsigned K, Instruction &At,
                             const DominatorTree &DT) {
  auto *Def = dyn_cast<Instruction>(Extra[K]);
  if (!Def || DT.dominates(Def, &At))
    return Extra[K];
  AllocaInst *&Slot = ExtraSlots[Def];
  if (!Slot) {
    if (Def->isTerminator()) {
      error(At, "may be accessed here, where its argument " + Twine(K + 3) +
                    " is not computed (make the view where its arguments "
                    "are available)");
      return nullptr;
    }
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    Slot = B.CreateAlloca(Def->getType(), nullptr, "view.argument");
    B.SetInsertPoint(isa<PHINode>(Def) ? Def->getParent()->getFirstNonPHIIt()
                                       : std::next(Def->getIterator()));
    B.CreateStore(Def, Slot);
  }
  IRBuilder<> B(&At);
  return B.CreateLoad(Def->getType(), Slot);
}

bool ViewLowering::emitAccess(IRBuilder<> &B, Instruction &I, Value *Offset,
                              ArrayRef<Value *> ExtraArgs, Value *&Loaded) {
  auto *S = dyn_cast<StoreInst>(&I);
  Loaded = nullptr;
  if (!Load) {
    // (No primal memory: nothing is written, zero is read.)
    if (!S)
      Loaded = Constant::getNullValue(I.getType());
    return true;
  }
  SmallVector<Value *, 4> Args;
  if (S)
    Args.push_back(S->getValueOperand());
  Args.push_back(Offset);
  append_range(Args, ExtraArgs);
  Function *Fn = S ? Store : Load;
  if (!checkCallback(I, *Fn, Args, S ? B.getVoidTy() : I.getType()))
    return false;
  CallInst *Call = B.CreateCall(Fn, Args);
  Made.push_back(Call);
  if (!S)
    Loaded = Call;
  return true;
}

bool ViewLowering::checkDynamicUses(const SetVector<Value *> &Dynamic) {
  // (Marks of pointers' shadows where the shadow may be the view: dropped,
  // as where it is one, lower().)
  SmallVector<Instruction *, 4> Marks;
  for (Value *V : Dynamic)
    for (User *U : V->users())
      if (isPointerMarkCall(*cast<Instruction>(U)))
        Marks.push_back(cast<Instruction>(U));
  for (Instruction *I : Marks)
    if (I->getParent())
      I->eraseFromParent();
  for (Value *V : Dynamic)
    for (User *U : V->users()) {
      auto *I = cast<Instruction>(U);
      if (Dynamic.contains(I) || isa<ICmpInst, PtrToIntInst>(I))
        continue;
      if (auto *L = dyn_cast<LoadInst>(I); L && L->getPointerOperand() == V)
        continue;
      if (auto *S = dyn_cast<StoreInst>(I);
          S && (S->getPointerOperand() == V || isRecordAccess(*S)))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(I); II && II->isLifetimeStartOrEnd())
        continue;
      // (In forward mode over a reverse sweep that recorded the view.)
      if (isScratchKey(*I, V))
        continue;
      return error(*I, "is recorded on a tape, or chosen by a select or a "
                       "phi, and a pointer that may be the view reaches " +
                           (isa<CallBase>(I)
                                ? std::string("a call of a function without "
                                              "a body here")
                                : std::string("the instruction '") +
                                      I->getOpcodeName() + "' here") +
                           ", where adcc cannot tell whether it is the view");
    }
  return true;
}

bool ViewLowering::dispatchDynamic() {
  SmallVector<Value *, 4> Roots(Mixed.begin(), Mixed.end());
  SetVector<Value *> Dynamic = dynamicPointers(F, Roots);
  if (!checkDynamicUses(Dynamic))
    return false;
  // The accesses through those pointers that may be the view's (of the
  // callbacks' types: others cannot be accesses of the view), with the
  // view's arguments where each is.
  SmallVector<std::pair<Instruction *, SmallVector<Value *, 4>>, 16> Accesses;
  DominatorTree DT(F);
  for (Instruction &I : instructions(F)) {
    Value *Ptr = getLoadStorePointerOperand(&I);
    // (The views without memory share their tag: one choice for all.)
    if (!Ptr || !Dynamic.contains(Ptr) ||
        (Tag == NoMemoryTag && I.getMetadata(NoMemoryChoiceMetadata)))
      continue;
    // (Before the view is made, in the view's block: not the view.)
    bool After = Reached.contains(I.getParent()) ||
                 (I.getParent() == ViewBlock && ViewBlockTail.contains(&I));
    if (!After)
      continue;
    auto *S = dyn_cast<StoreInst>(&I);
    SmallVector<Value *, 4> Args;
    if (S)
      Args.push_back(S->getValueOperand());
    Args.push_back(ConstantInt::get(Type::getInt64Ty(F.getContext()), 0));
    append_range(Args, Extra);
    Function *Fn = S ? Store : Load;
    if (Fn && !callbackMatches(*Fn, Args,
                               S ? Type::getVoidTy(F.getContext())
                                 : I.getType()))
      continue;
    SmallVector<Value *, 4> ExtraHere;
    for (unsigned K = 0; K < Extra.size(); ++K) {
      ExtraHere.push_back(extraAt(K, I, DT));
      if (!ExtraHere.back())
        return false;
    }
    Accesses.push_back({&I, std::move(ExtraHere)});
    if (Tag == NoMemoryTag)
      I.setMetadata(NoMemoryChoiceMetadata, MDNode::get(F.getContext(), {}));
  }
  LLVMContext &C = F.getContext();
  IRBuilder<> B(C);
  for (auto &[I, ExtraHere] : Accesses) {
    B.SetInsertPoint(I);
    B.SetCurrentDebugLocation(I->getDebugLoc());
    Value *Bits = B.CreatePtrToInt(getLoadStorePointerOperand(I), B.getInt64Ty());
    Value *IsView =
        B.CreateICmpEQ(B.CreateLShr(Bits, TagShift), B.getInt64(Tag));
    Instruction *ThenTerm, *ElseTerm;
    SplitBlockAndInsertIfThenElse(IsView, I, &ThenTerm, &ElseTerm);
    BasicBlock *Tail = I->getParent();
    I->moveBefore(ElseTerm->getIterator());
    B.SetInsertPoint(ThenTerm);
    Value *Loaded;
    if (!emitAccess(B, *I, B.CreateSub(Bits, B.getInt64(viewBase(Tag))),
                    ExtraHere, Loaded))
      return false;
    if (!Loaded)
      continue;
    B.SetInsertPoint(Tail, Tail->begin());
    PHINode *Phi = B.CreatePHI(I->getType(), 2);
    I->replaceAllUsesWith(Phi);
    Phi->addIncoming(Loaded, ThenTerm->getParent());
    Phi->addIncoming(I, ElseTerm->getParent());
  }
  return true;
}

bool ViewLowering::run() {
  if (View.getCalledFunction()->getName() != NoPrimalMemoryName) {
    Load = callback(0, "the load function");
    Store = Load ? callback(1, "the store function") : nullptr;
    if (!Store)
      return false;
  }
  bool Failed = false;
  unsigned Round = 0;
  while (bringCloser(Failed))
    if (++Round == MaxRounds)
      return error(View, "is passed down more than " + Twine(MaxRounds) +
                             " calls (a recursion?)");
  // (After the promotions, which replace the loads of the arguments.)
  for (unsigned I = 2; I < View.arg_size(); ++I)
    Extra.push_back(View.getArgOperand(I));
  return !Failed && lower();
}

} // namespace

bool isDenseViewFunction(StringRef Name) {
  return Name.contains("__enzyme_todense") ||
         Name.contains("__enzyme_post_sparse_todense") ||
         Name == NoPrimalMemoryName;
}

bool makesDenseViews(const Module &M) {
  return any_of(M, [](const Function &F) {
    return F.isDeclaration() && isDenseViewFunction(F.getName()) &&
           !F.use_empty();
  });
}

bool isConstantAddress(const Value *V) {
  // (Also a choice between such addresses, where the optimizer has merged
  // two requests.)
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return isConstantAddress(Sel->getTrueValue()) &&
           isConstantAddress(Sel->getFalseValue());
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), [](const Use &In) {
      return isa<Constant>(In.get()) && isConstantAddress(In.get());
    });
  if (isa<ConstantPointerNull>(V))
    return true;
  auto *CE = dyn_cast<ConstantExpr>(V);
  return CE && CE->getOpcode() == Instruction::IntToPtr &&
         isa<ConstantInt>(CE->getOperand(0));
}

Value *makeNoPrimalMemory(IRBuilder<> &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Fn = M.getOrInsertFunction(
      NoPrimalMemoryName, FunctionType::get(B.getPtrTy(), false));
  return B.CreateCall(Fn);
}

/// The calls that make views in \p M: __enzyme_todense's before
/// __enzyme_post_sparse_todense's, as Enzyme lowers them.
static SmallVector<CallBase *, 8> viewsOf(Module &M) {
  SmallVector<CallBase *, 8> Views;
  for (bool Post : {false, true})
    for (Function &Fn : M)
      if (Fn.isDeclaration() && isDenseViewFunction(Fn.getName()) &&
          Fn.getName().contains("__enzyme_post_sparse_todense") == Post)
        for (User *U : make_early_inc_range(Fn.users()))
          if (auto *Call = dyn_cast<CallBase>(U);
              Call && Call->getCalledOperand() == &Fn) {
            // (Making a view throws nothing: a C++ invoke is a call.)
            if (auto *Invoke = dyn_cast<InvokeInst>(Call))
              Call = changeToCall(Invoke);
            Views.push_back(Call);
          }
  return Views;
}

bool lowerDenseViews(Module &M, SynthesisContext &Ctx) {
  bool Ok = true;
  // (Each view that needs a tag gets its function's next one; the views
  // without memory share one.)
  DenseMap<Function *, uint64_t> NextTag;
  // (Inlining a derivative into a view's function may copy other views:
  // those are lowered in the next round.)
  for (unsigned Round = 0; Ok; ++Round) {
    SmallVector<CallBase *, 8> Views = viewsOf(M);
    if (Views.empty())
      break;
    if (Round == MaxRounds) {
      Ctx.error(*Views.front(), "this dense view is copied by inlining more "
                                "than " +
                                    Twine(MaxRounds) + " times (a recursion?)");
      return false;
    }
    for (CallBase *View : Views) {
      auto [It, New] = NextTag.try_emplace(View->getFunction(), FirstTag);
      bool NoMemory = View->getCalledFunction()->getName() == NoPrimalMemoryName;
      ViewLowering Lowering(*View, NoMemory ? NoMemoryTag : It->second, Ctx);
      Ok &= Lowering.run();
      if (Lowering.tagged() && !NoMemory)
        ++It->second;
    }
  }
  for (Function &Fn : make_early_inc_range(M))
    if (Fn.isDeclaration() && isDenseViewFunction(Fn.getName()) &&
        Fn.use_empty())
      Fn.eraseFromParent();
  return Ok;
}

} // namespace adcore
