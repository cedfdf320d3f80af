//===- ReverseEmitter.cpp - Augmented sweep, tape, block reversal --------===//

#include "ReverseEmitter.h"
#include "TapeRecords.h"

#include "support/CallSites.h"
#include "support/MemoryScopes.h"
#include "support/TapeLevels.h"
#include "prepare/Prepare.h"

#include "rules/InactiveFunctions.h"
#include "device/DeviceCode.h"
#include "adcore/MathRules.h"
#include "adcore/MemoryFunctions.h"
#include "analysis/NullableShadows.h"
#include "analysis/IntegerAddresses.h"
#include "analysis/TableLookups.h"
#include "support/IRMarks.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {

ReverseEmitter::ReverseEmitter(SynthesisContext &Ctx, const DerivativeKey &Key,
                               Function &Aug, Function &Rev)
    : Ctx(Ctx), Key(Key), Aug(Aug), Rev(Rev), AB(Aug.getContext()),
      RB(Rev.getContext()), Width(Key.Width), LaneShadows(Key.Width),
      LaneReallocs(Key.Width), LaneSlots(Key.Width),
      DeviceCode(isDeviceModule(*Rev.getParent())) {}

void ReverseEmitter::bury(Instruction *I) { Graveyard.bury(I); }

bool ReverseEmitter::unsupported(Instruction &I, const Twine &What) {
  Ctx.error(Ctx.placeOf(I, *Key.Primal),
            "cannot differentiate " + Ctx.describe(*Key.Primal) +
                " in reverse mode: " + What);
  return false;
}

Value *ReverseEmitter::tapeIn(Function &F) {
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  return createTapeThreadCall(B, Key.TapeLevel);
}

Value *ReverseEmitter::shadowOrNull(Value *V) {
  auto It = shadows().find(V);
  return It == shadows().end() ? nullptr : It->second;
}

Value *ReverseEmitter::shadowOrZero(Value *V) {
  if (Value *S = shadowOrNull(V))
    return S;
  if (!MissingShadow && !isa<Constant>(V) && Active.contains(V))
    MissingShadow = V;
  return Constant::getNullValue(V->getType());
}

void ReverseEmitter::record(Instruction &I, ArrayRef<Value *> Values) {
  auto &List = Recorded[&I];
  for (Value *V : Values) {
    // Constants need no record; a value needed twice (x * x) is recorded
    // once.
    if (isa<Constant>(V) || is_contained(List, V))
      continue;
    PushOf[{&I, V}] = pushRecord(AB, AugTape, V);
    List.push_back(V);
  }
}

void ReverseEmitter::dropRecord(Instruction *I, Value *V) {
  auto It = PushOf.find({I, V});
  eraseRecord(It->second);
  PushOf.erase(It);
}

void ReverseEmitter::eraseRecord(CallInst *Push) {
  for (User *U : make_early_inc_range(Push->users())) {
    auto *Store = cast<StoreInst>(U);
    auto *Widened = dyn_cast<ZExtInst>(Store->getValueOperand());
    bury(Store);
    if (Widened && Widened->use_empty())
      bury(Widened);
  }
  bury(Push);
}

bool ReverseEmitter::buildAugmented() {
  Function &Primal = *Key.Primal;
  ValueToValueMapTy VMap;
  // (Per lane: width shadows follow a duplicated argument.)
  SmallVector<std::tuple<Argument *, unsigned, Argument *>, 8> ShadowArgs;
  auto DArg = Aug.arg_begin();
  for (Argument &A : Primal.args()) {
    Argument *P = &*DArg++;
    P->setName(A.getName());
    VMap[&A] = P;
    ArgActivity Act = Key.Args[A.getArgNo()];
    Unneeded.note(A, Act, *P);
    if (hasShadow(Act))
      for (unsigned L = 0; L < Width; ++L) {
        Argument *S = &*DArg++;
        S->setName(A.getName() + ".shadow");
        ShadowArgs.push_back({P, L, S});
      }
  }
  expandShadowedGlobalUses(Primal, Ctx.rules());
  ActivityAnalysis PrimalActivity(Primal, Key.Args, &Ctx.rules());
  if (!Ctx.isGenerated(Primal))
    warnTableLookups(Primal, PrimalActivity);
  // (A float read or written through a pointer made from an integer whose
  // derivative is lost: an error, never a derivative of zero.)
  if (const Instruction *At = shadowlessIntegerAccess(Primal, PrimalActivity))
    return unsupported(*const_cast<Instruction *>(At),
                       ShadowlessIntegerAccessError);
  Types = std::make_unique<TypeAnalysis>(Primal);
  NullableShadows Nullables(Primal, PrimalActivity, *Types,
                            {Key.NullableShadows, Key.NullReaching});
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&Aug, &Primal, VMap, CloneFunctionChangeType::GlobalChanges,
                    Returns);
  noteApartChecks(VMap);
  prepareDerivativeFunction(Primal, Aug);
  prepareReverseSweep(Primal, Rev);
  copyParameterAttributes(Primal, Aug, Key);
  Unneeded.collectWrites(Aug);
  for (const auto &[Orig, Clone] : VMap) {
    if (Clone)
      PrimalOf[Clone] = Orig;
    if (PrimalActivity.isActive(Orig))
      Active.insert(Clone);
    if (PrimalActivity.cleanStackPointer(Orig))
      CleanSlotClones.insert(Clone);
    if (Nullables.mayBeNull(Orig)) {
      NullableClones.insert(Clone);
      NullablePrimals.insert(Orig);
    }
    if (auto *Call = dyn_cast<CallBase>(Orig))
      CalleeNullableBits[Clone] = Nullables.calleeBits(*Call);
  }
  // The primal's own loads and stores touch primal memory only (a
  // derivative's shadows too, where it is differentiated again). (A
  // reverse sweep differentiated again: its records' pushes and pops are
  // no longer the pair the combined gradient it belongs to may keep in
  // its frame.)
  for (BasicBlock &BB : Aug)
    for (Instruction &I : BB) {
      tagPrimalCopy(I);
      I.setMetadata(EndRecordsMetadata, nullptr);
    }
  for (auto &[P, L, S] : ShadowArgs)
    LaneShadows[L][P] = S;
  // Adjoints of what is read from a global accumulate in its shadow global.
  std::string Reused;
  if (const Instruction *At = reusedShadowGlobal(
          PrimalActivity.shadowedGlobals(), Primal, Ctx.rules(), Reused))
    return unsupported(*const_cast<Instruction *>(At), Reused);
  for (GlobalVariable *G : PrimalActivity.shadowedGlobals()) {
    Active.insert(G);
    for (unsigned L = 0; L < Width; ++L)
      LaneShadows[L][G] = shadowGlobal(*G, L, Ctx.rules());
  }

  // One return block, so that the reverse sweep has one place to start.
  if (Returns.size() > 1) {
    BasicBlock *Exit = BasicBlock::Create(Aug.getContext(), "return", &Aug);
    PHINode *Phi = nullptr;
    Type *RetTy = Primal.getReturnType();
    IRBuilder<> EB(Exit);
    if (!RetTy->isVoidTy())
      Phi = EB.CreatePHI(RetTy, Returns.size(), "retval");
    for (ReturnInst *R : Returns) {
      if (Phi)
        Phi->addIncoming(R->getReturnValue(), R->getParent());
      BranchInst::Create(Exit, R->getParent());
      eraseReplaced(R);
    }
    AugReturn = Phi ? EB.CreateRet(Phi) : EB.CreateRetVoid();
    if (Phi) {
      bool AnyActive = any_of(Phi->incoming_values(),
                              [&](Value *V) { return Active.contains(V); });
      if (AnyActive)
        Active.insert(Phi);
    }
  } else if (!Returns.empty()) {
    AugReturn = Returns.front();
  }
  // A function that never returns (it traps, exits or throws: the
  // deleting destructor of an abstract class, a [[noreturn]] error
  // report) has nothing to reverse: its augmented sweep is the primal.
  if (!AugReturn)
    return true;

  if (!dispatchIndirectCalls())
    return false;
  AugTape = tapeIn(Aug);
  planPowerRules();

  SmallVector<std::tuple<PHINode *, unsigned, PHINode *>, 8> ShadowPhis;
  ReversePostOrderTraversal<Function *> RPOT(&Aug);
  std::vector<BasicBlock *> Blocks(RPOT.begin(), RPOT.end());
  for (BasicBlock *BB : Blocks) {
    SmallVector<Instruction *, 64> Insts;
    for (Instruction &I : *BB)
      Insts.push_back(&I);
    for (Instruction *I : Insts) {
      if (I == AugTape)
        continue;
      if (auto *Phi = dyn_cast<PHINode>(I)) {
        // (An address kept as an integer too: the element an insertion
        // sort moves down an array of `uintptr_t`.)
        if ((carriesPointerShadow(Phi->getType()) ||
             isIntegerAddress(*Phi)) &&
            Active.contains(Phi))
          for (unsigned L = 0; L < Width; ++L) {
            AB.SetInsertPoint(BB->getFirstNonPHIIt());
            PHINode *S =
                AB.CreatePHI(Phi->getType(), Phi->getNumIncomingValues(),
                             Phi->getName() + ".shadow");
            LaneShadows[L][Phi] = S;
            ShadowPhis.push_back({Phi, L, S});
          }
        continue;
      }
      if (I->isTerminator() && !isa<InvokeInst>(I))
        continue;
      if (!I->isTerminator())
        AB.SetInsertPoint(I->getNextNode());
      else
        AB.SetInsertPoint(I);
      AB.SetCurrentDebugLocation(I->getDebugLoc());
      if (!augmentInstruction(*I))
        return false;
    }
  }
  for (auto &[Phi, L, S] : ShadowPhis) {
    Lane = L;
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      BasicBlock *In = Phi->getIncomingBlock(K);
      AB.SetInsertPoint(In->getTerminator());
      S->addIncoming(aggregateShadowOrZero(Phi->getIncomingValue(K)), In);
    }
  }
  Lane = 0;
  for (Instruction *I : Dead)
    eraseReplaced(I);

  // A pointer result (or a struct holding pointers) comes back with its
  // shadow.
  Type *PrimalRet = Key.Primal->getReturnType();
  if (carriesPointerShadow(PrimalRet) &&
      Aug.getReturnType() != PrimalRet && AugReturn->getReturnValue()) {
    Value *Ret = AugReturn->getReturnValue();
    AB.SetInsertPoint(AugReturn);
    Value *Pair =
        AB.CreateInsertValue(PoisonValue::get(Aug.getReturnType()), Ret, 0);
    for (Lane = 0; Lane < Width; ++Lane)
      Pair = Width == 1
                 ? AB.CreateInsertValue(Pair, shadowOrZero(Ret), 1)
                 : AB.CreateInsertValue(Pair, shadowOrZero(Ret), {1u, Lane});
    Lane = 0;
    ReturnInst *NewRet = AB.CreateRet(Pair);
    eraseReplaced(AugReturn);
    AugReturn = NewRet;
    PrimalReturn = Ret;
  }

  planCountedLoops();
  planRecomputation();
  hoistInvariantRecords();
  planInvariantTrips();
  planLoopArrays();
  reuseArrayRecords();
  emitExitRecords();
  placeLoopArrays();
  coalesceRecords();

  // The path: each block with several predecessors (other than the header
  // of a counted loop, or one whose way in a condition tells) records where
  // it was entered from, before anything its instructions record.
  unsigned Id = 0;
  for (BasicBlock &BB : Aug)
    BlockId[&BB] = Id++;
  for (BasicBlock &BB : Aug) {
    SmallVector<BasicBlock *, 4> Preds(predecessors(&BB));
    SmallSetVector<BasicBlock *, 4> Distinct(Preds.begin(), Preds.end());
    if (Distinct.size() < 2 || CountedLoops.count(&BB) ||
        PathConditions.count(&BB))
      continue;
    AB.SetInsertPoint(BB.getFirstNonPHIIt());
    PHINode *From = AB.CreatePHI(AB.getInt32Ty(), Preds.size(), "from");
    for (BasicBlock *P : Preds)
      From->addIncoming(AB.getInt32(BlockId[P]), P);
    // After the phis and a landing pad, which must come first.
    AB.SetInsertPoint(BB.getFirstInsertionPt());
    pushRecord(AB, AugTape, From);
  }
  return true;
}

bool ReverseEmitter::augmentInstruction(Instruction &I) {
  // (A handler that goes on after an exception left a differentiated call:
  // CaughtExceptions.cpp.)
  if (auto *LP = dyn_cast<LandingPadInst>(&I))
    guardCaughtException(*LP);
  // (A compare-and-swap loop on a value's bits that is not the form
  // prepare/OpenMPAtomics.cpp rewrites, or outside a parallel region.)
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I);
      CX && !CX->getNewValOperand()->getType()->isPointerTy() &&
      Active.contains(CX->getNewValOperand()))
    return unsupported(I, "an atomic update of a floating-point value with "
                          "a derivative by a compare-and-swap loop adcc does "
                          "not recognize (omp atomic in a parallel region "
                          "is); use omp atomic or a critical section");
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    takeCriticalTicket(*Call);
    augmentTaskSync(*Call);
    bool Replaced = false;
    if (!isa<IntrinsicInst>(Call) && !augmentCall(*Call, Replaced))
      return false;
    if (Replaced)
      return true;
    if (auto *II = dyn_cast<IntrinsicInst>(Call))
      if (!checkIntrinsic(*II))
        return false;
  }
  const DataLayout &DL = Aug.getParent()->getDataLayout();
  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    if (!Active.contains(AI))
      return true;
    // The shadow of a stack slot must outlive the augmented sweep: it lives
    // on the tape, released at the slot's reverse. A variable-length array
    // records its element count after the block, for the release.
    uint64_t EltBytes = DL.getTypeAllocSize(AI->getAllocatedType());
    Value *Bytes =
        AB.CreateMul(AB.CreateZExtOrTrunc(AI->getArraySize(), AB.getInt64Ty()),
                     AB.getInt64(EltBytes));
    auto *Count = dyn_cast<ConstantInt>(AI->getArraySize());
    // (A fixed-size slot of the entry block runs once per call: its block
    // may live in a combined gradient's frame, CombinedSweeps.cpp.)
    // (Not in device code, whose tape is placed apart: DeviceTape.cpp.)
    MDNode *Tag = Count && Width == 1 && !DeviceCode &&
                          AI->getParent()->isEntryBlock()
                      ? frameTag()
                      : nullptr;
    if (Tag)
      ShadowBlockTags[AI] = Tag;
    // (One block per lane, released in the reverse order.)
    for (unsigned L = 0; L < Width; ++L) {
      CallInst *Block =
          AB.CreateCall(tapeRecordFunction(*Aug.getParent(), "adcc_tape_push"),
                        {AugTape, Bytes, AB.getInt64(AI->getAlign().value())},
                        AI->getName() + ".shadow");
      Block->setMetadata(ShadowBlockMetadata,
                         MDNode::get(Aug.getContext(), {}));
      Block->setMetadata(EndRecordsMetadata, Tag);
      AB.CreateMemSet(Block, AB.getInt8(0), Bytes, AI->getAlign());
      LaneShadows[L][AI] = Block;
    }
    ShadowAllocas[AI] = Count ? EltBytes * Count->getZExtValue() : 0;
    if (!Count)
      record(I, {AI->getArraySize()});
    return true;
  }
  for (Lane = 0; Lane < Width; ++Lane)
    if (!augmentShadow(I))
      return false;
  // What the adjoint needs, for every lane (values needed by several
  // lanes are recorded once).
  SmallVector<Value *, 4> Needed;
  for (Lane = 0; Lane < Width; ++Lane)
    if (!neededValues(I, Needed))
      return false;
  Lane = 0;
  record(I, Needed);
  return true;
}

const MathRule *ReverseEmitter::ruleFor(const Function &Callee) const {
  if (const MathRule *Rule = findMathRule(Callee))
    return Rule;
  std::string Like = Ctx.rules().functionLike(&Callee);
  return Like.empty() ? nullptr : findMathRule(Like);
}

bool ReverseEmitter::checkIntrinsic(IntrinsicInst &II) {
  bool Involved = Active.contains(&II) || any_of(II.args(), [&](const Use &U) {
                    return Active.contains(U.get()) &&
                           U.get()->getType()->isFPOrFPVectorTy();
                  });
  if (!Involved || isa<MemIntrinsic>(II) || ruleFor(*II.getCalledFunction()) ||
      isKnownInactiveFunction(*II.getCalledFunction()) ||
      isBookkeepingIntrinsic(II.getIntrinsicID()))
    return true;
  switch (II.getIntrinsicID()) {
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::modf:
  case Intrinsic::sincos:
    return true;
  default:
    return unsupported(II,
                       "the intrinsic '" + II.getCalledFunction()->getName() +
                           "' is not supported yet in reverse mode" +
                           unsupportedIntrinsicAdvice(*II.getCalledFunction()));
  }
}

bool ReverseEmitter::isActiveFloat(const Value *V) const {
  if (!Active.contains(V))
    return false;
  Type *T = V->getType();
  return T->isFPOrFPVectorTy() || (T->isAggregateType() && containsFloat(T));
}

void ReverseEmitter::eraseReplaced(Instruction *I) {
  Active.erase(I);
  PrimalOf.erase(I);
  FloatView.erase(I);
  ViewElement.erase(I);
  ViewLanes.erase(I);
  for (auto &Shadows : LaneShadows)
    Shadows.erase(I);
  bury(I);
}

/// The empty sum: -0.0 for floating-point values, so that `0 + d` folds to
/// `d` (+0.0 + -0.0 is +0.0, which keeps LLVM from folding).
static Constant *emptySum(Type *T) {
  if (T->isFPOrFPVectorTy())
    return ConstantFP::getNegativeZero(T);
  return Constant::getNullValue(T);
}

Value *ReverseEmitter::slot(Value *V) {
  auto [It, Inserted] = slots().insert({V, nullptr});
  if (Inserted) {
    IRBuilder<> EB(RevEntry, RevEntry->begin());
    It->second =
        EB.CreateAlloca(V->getType(), nullptr, V->getName() + ".adjoint");
    EB.SetInsertPoint(RevEntry->getTerminator());
    EB.CreateStore(emptySum(V->getType()), It->second);
  }
  return It->second;
}

Value *ReverseEmitter::takeAdjoint(Value *V) {
  Value *S = slot(V);
  Value *D = RB.CreateLoad(V->getType(), S, V->getName() + ".d");
  RB.CreateStore(emptySum(V->getType()), S);
  return D;
}

Value *ReverseEmitter::sum(Value *A, Value *B2) {
  Type *T = A->getType();
  if (!T->isAggregateType()) {
    // An adjoint is a sum of contributions in no particular order, and the
    // sign of a zero adjoint means nothing. With nsz, `0 + d` folds to d, so
    // a shadow that the sweep zeroes and adds to again (the reverse of
    // `*p += v`) is not reloaded; with reassoc, an adjoint summed over a
    // loop (a in `c[j] += a * b[j]`) is a reduction the vectorizer takes.
    FastMathFlags AdjointSum;
    AdjointSum.setNoSignedZeros();
    AdjointSum.setAllowReassoc();
    Value *Sum = RB.CreateFAddFMF(A, B2, AdjointSum);
    if (auto *I = dyn_cast<Instruction>(Sum))
      I->setMetadata(AdjointSumMetadata, MDNode::get(I->getContext(), {}));
    return Sum;
  }
  // Element-wise sum of float aggregates; other fields keep A's value.
  Value *New = A;
  unsigned N = isa<StructType>(T)
                   ? cast<StructType>(T)->getNumElements()
                   : unsigned(cast<ArrayType>(T)->getNumElements());
  for (unsigned I = 0; I < N; ++I) {
    Type *E = isa<StructType>(T) ? cast<StructType>(T)->getElementType(I)
                                 : cast<ArrayType>(T)->getElementType();
    if (!hasFloatAdjoint(E))
      continue;
    New = RB.CreateInsertValue(
        New, sum(RB.CreateExtractValue(A, I), RB.CreateExtractValue(B2, I)), I);
  }
  return New;
}

void ReverseEmitter::addAdjoint(Value *V, Value *Delta) {
  if (isa<Constant>(V) || !isActiveFloat(V))
    return;
  if (!PendingScales.empty())
    Delta = applyPendingScales(Delta);
  Value *S = slot(V);
  Value *Old = RB.CreateLoad(V->getType(), S);
  RB.CreateStore(sum(Old, Delta), S);
}

Value *ReverseEmitter::revValue(Value *V, DenseMap<Value *, Value *> &Popped) {
  if (isa<Constant>(V))
    return V;
  return Popped.lookup(V);
}

void ReverseEmitter::reverseBlock(BasicBlock &BB) {
  BasicBlock *R = RevBlock[&BB];
  RB.SetInsertPoint(R);
  SmallVector<Instruction *, 64> Insts;
  for (Instruction &I : BB)
    Insts.push_back(&I);
  DenseMap<unsigned, Value *> GroupBases;
  for (Instruction *I : reverse(Insts)) {
    // Only the primal's instructions (and the calls that replaced them)
    // have adjoints; what the augmented sweep added (shadows, records,
    // unpacking of results) has none.
    if (isa<PHINode>(I) ||
        (!PrimalOf.count(I) && !CallKeys.count(I) && !CustomSites.count(I) &&
         !ForkSites.count(I) && !TaskSites.count(I)))
      continue;
    RB.SetCurrentDebugLocation(I->getDebugLoc());
    DenseMap<Value *, Value *> Popped;
    auto It = Recorded.find(I);
    if (It != Recorded.end())
      for (Value *V : reverse(It->second))
        Popped[V] = readRecord(*I, V, GroupBases);
    ReversingBlock = &BB;
    for (const ArrayRecord &R : ArrayRecords.lookup(I))
      Popped[R.V] = arrayRecord(R);
    for (auto [H, V] : Hoisted.lookup(I))
      Popped[V] = RB.CreateLoad(V->getType(), hoistSlot(H, V));
    auto Re = Recomputed.find(I);
    ReadRecords = &Popped;
    if (Re != Recomputed.end())
      for (Value *V : Re->second)
        Popped[V] = recompute(V);
    ReadRecords = nullptr;
    if (CarriesOwnValue.contains(I))
      Carried[I] = Popped.lookup(I);
    // Lane by lane, the last first: what the lanes popped themselves
    // (shadow stack blocks) was pushed lane by lane. A callee's reverse
    // sweep (a batched registered one's too) takes every lane at once.
    for (unsigned L = Width; L-- > 0;) {
      if ((CallKeys.count(I) || CustomSites.count(I)) && L + 1 != Width)
        continue;
      Lane = L;
      beginDeferredScales(*I);
      if (!emitAdjoint(*I, Popped))
        HadRuleError = true;
      endDeferredScales();
    }
    Lane = 0;
  }
  // Where this block was entered from decides where the sweep goes next.
  // (A switch with several cases to one block lists it several times.)
  SmallSetVector<BasicBlock *, 4> Preds(pred_begin(&BB), pred_end(&BB));
  auto Edge = [&](BasicBlock *Pred) {
    for (Lane = 0; Lane < Width; ++Lane) {
      SmallVector<std::pair<PHINode *, Value *>, 4> Taken;
      for (PHINode &Phi : BB.phis())
        if (isActiveFloat(&Phi))
          Taken.push_back({&Phi, takeAdjoint(&Phi)});
      for (auto &[Phi, D] : Taken)
        addAdjoint(Phi->getIncomingValueForBlock(Pred), D);
    }
    Lane = 0;
    RB.CreateBr(RevBlock[Pred]);
  };
  readExitRecords(BB);
  readInvariantTrips(BB);
  readReusedRecords(BB);
  if (Preds.empty()) {
    RB.CreateBr(RevExit);
    return;
  }
  if (CountedLoops.count(&BB)) {
    reverseCountedHeader(BB, Edge);
    return;
  }
  if (Preds.size() == 1) {
    Edge(Preds.front());
    return;
  }
  if (auto It = PathConditions.find(&BB); It != PathConditions.end()) {
    ReversingBlock = &BB;
    Value *Cond = recompute(It->second.Cond);
    BasicBlock *T = BasicBlock::Create(Rev.getContext(), "rev.edge", &Rev);
    BasicBlock *F = BasicBlock::Create(Rev.getContext(), "rev.edge", &Rev);
    RB.CreateCondBr(Cond, T, F);
    RB.SetInsertPoint(T);
    Edge(It->second.IfTrue);
    RB.SetInsertPoint(F);
    Edge(It->second.IfFalse);
    return;
  }
  Value *From = popRecord(RB, RevTape, RB.getInt32Ty());
  SwitchInst *Switch = RB.CreateSwitch(From, RevExit, Preds.size());
  for (BasicBlock *P : Preds) {
    BasicBlock *E = BasicBlock::Create(Rev.getContext(), "rev.edge", &Rev);
    Switch->addCase(RB.getInt32(BlockId[P]), E);
    RB.SetInsertPoint(E);
    Edge(P);
  }
}

bool ReverseEmitter::buildReverse() {
  LLVMContext &C = Rev.getContext();
  RevEntry = BasicBlock::Create(C, "entry", &Rev);
  RB.SetInsertPoint(RevEntry);
  RevTape = createTapeThreadCall(RB, Key.TapeLevel);
  readEndRecords();
  for (BasicBlock &BB : Aug)
    RevBlock[&BB] = BasicBlock::Create(C, "rev." + BB.getName(), &Rev);
  RevExit = BasicBlock::Create(C, "rev.exit", &Rev);
  BranchInst *ToStart = RB.CreateBr(RevBlock[AugReturn->getParent()]);

  // The seed: the adjoint of the returned value.
  Value *Ret = PrimalReturn ? PrimalReturn : AugReturn->getReturnValue();
  if (Rev.arg_size() > 0 && Ret) {
    RB.SetInsertPoint(ToStart);
    Value *Seed = Rev.getArg(0);
    Seed->setName("seed");
    if (isActiveFloat(Ret))
      for (Lane = 0; Lane < Width; ++Lane)
        addAdjoint(Ret, Width == 1 ? Seed : RB.CreateExtractValue(Seed, Lane));
    Lane = 0;
  }
  for (BasicBlock &BB : Aug)
    reverseBlock(BB);
  if (HadRuleError || !checkDeferredScales())
    return false;

  // The adjoints of the Active arguments are the result.
  RB.SetInsertPoint(RevExit);
  SmallVector<Value *, 4> Results;
  for (Argument &A : Aug.args()) {
    const Value *Orig = PrimalOf.lookup(&A);
    auto *PA = dyn_cast_or_null<Argument>(Orig);
    if (!PA || Key.Args[PA->getArgNo()] != ArgActivity::Active)
      continue;
    Value *Adjoint = Constant::getNullValue(shadowType(A.getType(), Width));
    // (+0.0 turns the empty sum -0.0 into the zero users expect.)
    if (isActiveFloat(&A))
      for (Lane = 0; Lane < Width; ++Lane) {
        Value *D = RB.CreateFAdd(RB.CreateLoad(A.getType(), slot(&A)),
                                 Constant::getNullValue(A.getType()));
        Adjoint = Width == 1 ? D : RB.CreateInsertValue(Adjoint, D, Lane);
      }
    Lane = 0;
    Results.push_back(Adjoint);
  }
  Type *RetTy = Rev.getReturnType();
  if (RetTy->isVoidTy()) {
    RB.CreateRetVoid();
  } else if (Results.size() == 1) {
    RB.CreateRet(Results.front());
  } else {
    Value *Agg = PoisonValue::get(RetTy);
    for (unsigned I = 0; I < Results.size(); ++I)
      Agg = RB.CreateInsertValue(Agg, Results[I], I);
    RB.CreateRet(Agg);
  }
  return true;
}

bool ReverseEmitter::run() {
  if (Key.Primal->isVarArg())
    return unsupported(*Key.Primal->getEntryBlock().begin(),
                       "variadic functions cannot be differentiated");
  if (Key.Parallel)
    planCriticalSections();
  if (!buildAugmented())
    return false;
  if (!AugReturn) {
    // Never returns: the reverse sweep is never called.
    IRBuilder<>(BasicBlock::Create(Rev.getContext(), "entry", &Rev))
        .CreateUnreachable();
  } else {
    reportTapePlan();
    if (!buildReverse())
      return false;
    addUpThreadAdjoints();
    emitApartChecks();
    reportDeviceUpdates();
  }
  if (MissingShadow) {
    auto *I = dyn_cast<Instruction>(MissingShadow);
    // (An address rebuilt from an integer, `(double *)c->r` of a
    // `uintptr_t r` at -O0: the user's construct, not adcc's.)
    if (I && isa<IntToPtrInst>(getUnderlyingObject(I)))
      return unsupported(*I, AddressInIntegerError);
    std::string Text;
    raw_string_ostream OS(Text);
    MissingShadow->printAsOperand(OS, /*PrintType=*/true,
                                  Key.Primal->getParent());
    return unsupported(I ? *I : *Key.Primal->getEntryBlock().begin(),
                       "internal error: the active value '" + Text +
                           "' has no shadow");
  }
  // (Nothing reads the primal's values of a DupNoNeed output: the reverse
  // sweep needs only its shadow.)
  Unneeded.dropWrites();
  // (Verified with the whole module: SynthesisContext::verifyGenerated.)
  return true;
}

} // namespace adcore
