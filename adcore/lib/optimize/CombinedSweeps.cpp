//===- CombinedSweeps.cpp - Augmented and reverse sweep in one frame ------===//
//
// A combined gradient (`__enzyme_autodiff`, ADCC_REVERSE) runs the
// augmented sweep and then its reverse sweep, back to back. Both are called
// from one function made for the pair, `gradient_<f>`, where they are
// inlined (each has that one caller). What the augmented sweep records
// outside loops is then read back by the code that follows in the same
// frame and need not go through the thread's tape: each such push and its
// pop become one stack slot, which SROA turns into registers. These are
// the end records (arguments, addresses, values computed outside loops,
// recorded once at the return), the groups of records made in blocks
// outside loops (a branch's values), and the trip counts recorded at loop
// exits outside loops: each is pushed at most once per call, and popped
// only after it was pushed. The code between the two runs whatever else
// the sweeps record and reads it all back, so the pops that remain still
// return what their pushes did.
//
// Such pushes and pops are tagged with EndRecordsMetadata ({sweep} for
// the end records, {sweep, number} for the others); they are left as calls
// (not expanded into the inline fast path) in sweeps that such a function
// calls, so that they can be found here. A pair that is not inlined keeps
// the runtime's calls.
//
// The sweeps of a callee that the pair's sweeps call once each (the
// augmented one from the augmented sweep, the reverse one from the reverse
// sweep; a callee the primal does not inline) are inlined with them, and
// so on for their callees: their records go to the same frame by the same
// rules (the callee's calls run at most once per call of the pair where
// they are outside cycles; its reverse sweep mirrors its augmented one).
// A small callee called from several sites (up to 8 copies in all) is
// inlined at each: where every copy's push and pop runs on every path
// through the function, each site's record gets a slot of its own, the
// k-th push's slot read by the k-th pop from the end (the tape's order).
//
// Not the sweeps of a recursive function (noteRecursiveSweeps): the
// optimizer makes a reverse sweep that calls itself last a loop
// (tail-call elimination), whose exit then runs the block of the deepest
// call, while the inlined augmented sweep is the outermost call's. A
// record of a block that only the deepest call runs (the base case's)
// would be read from a slot nothing wrote: a wrong derivative without a
// word at -O2 (2026-12-06, e2e rev_recursive_constant_args.c).
//
//===----------------------------------------------------------------------===//

#include "support/CallSites.h"
#include "Optimize.h"
#include "analysis/ActivityAnalysis.h"
#include "rules/DeviceMath.h"
#include "adcore/CrossTU.h"
#include "Synthesis.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {

Function *SynthesisContext::getOrCreateCombined(Function &Aug, Function &Rev) {
  Function *&W = CombinedOf[&Aug];
  if (W)
    return W;
  SmallVector<Type *, 16> Params(Aug.getFunctionType()->params());
  append_range(Params, Rev.getFunctionType()->params());
  auto *FT = FunctionType::get(Rev.getReturnType(), Params, false);
  if (auto Deferred = parseCrossTUSymbol(Aug.getName())) {
    // Both sweeps are made at link time: so is the function that runs
    // them (where they are inlined, as here).
    Deferred->Combined = true;
    W = cast<Function>(
        M.getOrInsertFunction(crossTUSymbol(*Deferred), FT).getCallee());
    return W;
  }
  StringRef Name = Aug.getName();
  Name.consume_front("augmented_");
  W = Function::Create(FT, GlobalValue::InternalLinkage, "gradient_" + Name, M);
  if (const Function *Primal = GeneratedFrom.lookup(&Aug))
    GeneratedFrom[W] = Primal;
  LLVMContext &C = M.getContext();
  W->setAttributes(
      AttributeList::get(C, AttributeList::FunctionIndex,
                         AttrBuilder(C, Aug.getAttributes().getFnAttrs())));
  // What the augmented sweep's parameters promise (noalias shadows of
  // restrict pointers, alignment) holds for the same arguments here, once
  // the sweeps are inlined into W (and, as alias scopes of that call, for
  // the accesses the inliner traces to them where W is inlined).
  for (unsigned I = 0; I < Aug.arg_size(); ++I) {
    copyPointerFacts(Aug, I, *W, I);
    if (Aug.getArg(I)->hasAttribute(KeepsPointeeCleanAttribute))
      W->addParamAttr(I, Attribute::get(C, KeepsPointeeCleanAttribute));
  }
  IRBuilder<> B(BasicBlock::Create(C, "", W));
  SmallVector<Value *, 16> AugArgs, RevArgs;
  for (Argument &A : W->args())
    (A.getArgNo() < Aug.arg_size() ? AugArgs : RevArgs).push_back(&A);
  B.CreateCall(&Aug, AugArgs);
  CallInst *Adjoints = B.CreateCall(&Rev, RevArgs);
  if (Adjoints->getType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Adjoints);
  noteCombined(*W, Aug, Rev);
  CombinedFunctions.push_back(W);
  return W;
}

namespace {

/// The tagged pushes and pops of one augmented sweep's records.
struct TaggedPair {
  SmallVector<CallInst *, 1> Pushes, Pops;
};

/// Puts records of \p Aug, inlined into \p Caller together with its
/// reverse sweep, in stack slots of \p Caller: the end records, whose push
/// dominates their pop, and the groups pushed outside loops, where both
/// stay outside cycles here (a callee's sweeps called from a loop do not).
/// Each push and pop runs at most once per call; the pop only after its
/// push (the reverse sweep takes the way back through the blocks the
/// augmented sweep went through).
void keepRecordsInFrame(const SynthesisContext &Ctx, Function &Caller,
                        Function &Aug, Function &Rev, uint64_t &FrameBytes) {
  MapVector<MDNode *, TaggedPair> Tagged;
  for (Instruction &I : instructions(Caller)) {
    auto *Call = dyn_cast<CallInst>(&I);
    MDNode *Tag = Call ? Call->getMetadata(EndRecordsMetadata) : nullptr;
    if (!Tag || Tag->getNumOperands() < 1)
      continue;
    auto *Sweep = dyn_cast<ValueAsMetadata>(Tag->getOperand(0));
    Function *Fn = Call->getCalledFunction();
    if (!Sweep || Sweep->getValue() != &Aug || !Fn)
      continue;
    if (Fn->getName() == "adcc_tape_push")
      Tagged[Tag].Pushes.push_back(Call);
    else if (Fn->getName() == "adcc_tape_pop")
      Tagged[Tag].Pops.push_back(Call);
  }
  std::optional<DominatorTree> DT;
  std::optional<CycleBlocks> Cycles;
  // (A tagged push or pop kept on the tape still gets the inline fast path
  // its sweep left out.)
  SmallVector<CallInst *, 8> OnTape;
  // (The frame stays small: a large record, such as the array of a long
  // loop of constant trip count, or the shadow of a large local array,
  // stays on the tape, which grows without bounding the stack.)
  // (Device code has no tape on the host's runtime: everything tagged
  // goes to the frame, or stays a call that placeDeviceTapes places.)
  bool Device = isDeviceModule(*Caller.getParent());
  uint64_t MaxRecord = Device ? UINT64_MAX : 2048;
  uint64_t MaxFrame = Device ? UINT64_MAX : 8192;
  // Whether \p I runs on every path from the entry to a return.
  auto OnEveryPath = [&](Instruction *I) {
    bool Returns = false;
    for (BasicBlock &BB : Caller)
      if (isa<ReturnInst>(BB.getTerminator())) {
        Returns = true;
        if (!DT->dominates(I->getParent(), &BB))
          return false;
      }
    return Returns;
  };
  bool Recursive = Ctx.isRecursive(Aug) || Ctx.isRecursive(Rev);
  auto InFrame = [&](MDNode *Tag, TaggedPair &Pair) {
    if (Recursive)
      return false;
    size_t Count = Pair.Pushes.size();
    if (Count == 0 || Count != Pair.Pops.size())
      return false;
    CallInst *Push = Pair.Pushes.front();
    auto *Bytes = dyn_cast<ConstantInt>(Push->getArgOperand(1));
    if (!Bytes || Bytes->getZExtValue() > MaxRecord ||
        Count * Bytes->getZExtValue() > MaxFrame - FrameBytes)
      return false;
    for (CallInst *Call : concat<CallInst *>(Pair.Pushes, Pair.Pops))
      if (Call->getArgOperand(1) != Bytes ||
          Call->getArgOperand(2) != Push->getArgOperand(2))
        return false;
    // (Outside cycles: a callee's sweeps inlined here from a loop push
    // their end records once per iteration, and one slot would give every
    // iteration's reverse the last one's: a wrong derivative without a
    // word, 2026-12-06, e2e rev_callee_loop_records.c.)
    if (!Cycles)
      Cycles.emplace(Caller);
    for (CallInst *Call : concat<CallInst *>(Pair.Pushes, Pair.Pops))
      if (Cycles->contains(*Call->getParent()))
        return false;
    if (!DT)
      DT.emplace(Caller);
    if (Count == 1) {
      CallInst *Pop = Pair.Pops.front();
      return Tag->getNumOperands() != 1 || // the end records
             DT->dominates(Push, Pop);
    }
    // The records of a callee's sweeps inlined here at several call sites
    // (each the sweeps of one site): where every push and pop runs once
    // per call, the pushes in their order and the pops in theirs, all
    // pushes before all pops (the augmented sweep runs first), the tape
    // gives the last push's record to the first pop, and so on.
    for (CallInst *Call : concat<CallInst *>(Pair.Pushes, Pair.Pops))
      if (!OnEveryPath(Call))
        return false;
    auto Earlier = [&](CallInst *A, CallInst *B) {
      return A != B && DT->dominates(A, B);
    };
    llvm::sort(Pair.Pushes, Earlier);
    llvm::sort(Pair.Pops, Earlier);
    return DT->dominates(Pair.Pushes.back(), Pair.Pops.front());
  };
  for (auto &[Tag, Pair] : Tagged) {
    if (FrameBytes > MaxFrame || !InFrame(Tag, Pair)) {
      append_range(OnTape, Pair.Pushes);
      append_range(OnTape, Pair.Pops);
      continue;
    }
    size_t Count = Pair.Pushes.size();
    for (size_t I = 0; I < Count; ++I) {
      CallInst *Push = Pair.Pushes[I], *Pop = Pair.Pops[Count - 1 - I];
      FrameBytes += cast<ConstantInt>(Push->getArgOperand(1))->getZExtValue();
      IRBuilder<> B(&*Caller.getEntryBlock().getFirstInsertionPt());
      AllocaInst *Slot = B.CreateAlloca(
          B.getInt8Ty(), Push->getArgOperand(1),
          Tag->getNumOperands() == 1 ? "end.records" : "frame.records");
      Slot->setAlignment(
          Align(cast<ConstantInt>(Push->getArgOperand(2))->getZExtValue()));
      // (AMDGPU's stack slots are in the private address space: the records
      // are addressed through the generic one, as the runtime's were.)
      Value *At = Slot;
      if (Slot->getType() != Push->getType())
        At = B.CreateAddrSpaceCast(Slot, Push->getType());
      Push->replaceAllUsesWith(At);
      Pop->replaceAllUsesWith(At);
      Push->eraseFromParent();
      Pop->eraseFromParent();
    }
  }
  if (!Device)
    expandTapeCalls(OnTape);
}

} // namespace

void noteRecursiveSweeps(SynthesisContext &Ctx) {
  // The derivatives each derivative calls directly.
  DenseMap<Function *, SmallVector<Function *, 4>> Callees;
  auto Generated = [&](Function *F) {
    return F && !F->isDeclaration() && Ctx.isGenerated(*F);
  };
  SmallVector<Function *, 16> Functions;
  for (Function *F : Ctx.cache().functions())
    if (Generated(F))
      Functions.push_back(F);
  for (Function *F : Functions)
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Generated(Callee) && !is_contained(Callees[F], Callee))
          Callees[F].push_back(Callee);
  // Those from which a chain of calls leads back to themselves.
  for (Function *F : Functions) {
    if (Ctx.isRecursive(*F))
      continue;
    SmallPtrSet<Function *, 16> Seen;
    SmallVector<Function *, 16> Work(Callees.lookup(F));
    while (!Work.empty()) {
      Function *G = Work.pop_back_val();
      if (G == F) {
        Ctx.noteRecursive(*F);
        break;
      }
      if (Seen.insert(G).second)
        append_range(Work, Callees.lookup(G));
    }
  }
}

bool callsCombinedAlone(const CombinedSweeps &S) {
  auto OnlyFromCaller = [&](Function *F) {
    return !F->isDeclaration() && F->hasOneUse() &&
           all_of(F->users(), [&](User *U) {
             auto *Call = dyn_cast<CallInst>(U);
             return Call && Call->getCalledFunction() == F &&
                    Call->getFunction() == S.Caller;
           });
  };
  return OnlyFromCaller(S.Aug) && OnlyFromCaller(S.Rev);
}

/// The calls of \p F from \p Caller, into \p Calls; false when F has
/// other uses than calls. (Calls from other functions, such as another
/// gradient's sweeps, keep F: its records tagged for a frame then get
/// their fast path at the end, expandLeftoverRecords.)
static bool callsFrom(Function &F, const Function &Caller,
                      SmallVectorImpl<CallInst *> &Calls) {
  if (F.isDeclaration())
    return false;
  for (User *U : F.users()) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledFunction() != &F)
      return false;
    if (Call->getFunction() == &Caller)
      Calls.push_back(Call);
  }
  return !Calls.empty();
}

/// The pushes and pops tagged for a frame that none took (the sweeps of a
/// callee kept as functions for other callers, a call that could not be
/// inlined) get the inline fast path they were left without.
static void expandLeftoverRecords(const SynthesisContext &Ctx) {
  SmallVector<CallInst *, 16> Left;
  auto Collect = [&](Function *F) {
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Call->getMetadata(EndRecordsMetadata))
          if (Function *Fn = Call->getCalledFunction();
              Fn && (Fn->getName() == "adcc_tape_push" ||
                     Fn->getName() == "adcc_tape_pop"))
            Left.push_back(Call);
  };
  for (Function *F : Ctx.cache().functions())
    if (!F->isDeclaration())
      Collect(F);
  for (Function *F : Ctx.combinedFunctions())
    if (!F->isDeclaration())
      Collect(F);
  expandTapeCalls(Left);
}

/// How many copies of a callee's sweeps may go into one frame (its calls
/// from the pair's sweeps, times those of the callers' sweeps), and how
/// large each may then be (instructions; as inlineGenerated's small
/// functions).
constexpr unsigned MaxCopiesInFrame = 8, MaxCopiedSweep = 200;

void calleeSweepsInFrame(
    const SynthesisContext &Ctx, const CombinedSweeps &S,
    SmallVectorImpl<std::pair<Function *, Function *>> &Pairs) {
  // (Not in device code, whose sweeps are all inlined and whose tape the
  // device pass places: DeviceTape.cpp.)
  if (isDeviceModule(*S.Aug->getParent()))
    return;
  // (Nor below a recursive function's sweeps: a callee's reverse sweep
  // called in its base case may run for the deepest call there.)
  auto Recursive = [&](Function *Aug, Function *Rev) {
    return Ctx.isRecursive(*Aug) || Ctx.isRecursive(*Rev);
  };
  if (Recursive(S.Aug, S.Rev))
    return;
  struct Item {
    Function *Aug, *Rev;
    unsigned Copies;
  };
  SmallVector<Item, 4> Work = {{S.Aug, S.Rev, 1}};
  SmallPtrSet<Function *, 8> Seen;
  while (!Work.empty()) {
    auto [Aug, Rev, Copies] = Work.pop_back_val();
    for (Instruction &I : instructions(*Rev)) {
      auto *Call = dyn_cast<CallInst>(&I);
      Function *CalleeRev = Call ? Call->getCalledFunction() : nullptr;
      SmallVector<CallInst *, 4> RevCalls, AugCalls;
      if (!CalleeRev || Seen.contains(CalleeRev) ||
          !callsFrom(*CalleeRev, *Rev, RevCalls))
        continue;
      // (The callee's reverse sweep names its augmented sweep in the tags
      // of the records it pops.)
      Function *CalleeAug = nullptr;
      for (Instruction &J : instructions(*CalleeRev))
        if (MDNode *Tag = J.getMetadata(EndRecordsMetadata))
          if (auto *Sweep = dyn_cast<ValueAsMetadata>(Tag->getOperand(0))) {
            CalleeAug = dyn_cast<Function>(Sweep->getValue());
            break;
          }
      if (!CalleeAug || CalleeAug == Aug || Recursive(CalleeAug, CalleeRev) ||
          !callsFrom(*CalleeAug, *Aug, AugCalls) ||
          AugCalls.size() != RevCalls.size())
        continue;
      // (Several call sites: each gets a copy of both sweeps, small ones.)
      unsigned Total = Copies * RevCalls.size();
      if (Total > MaxCopiesInFrame ||
          (Total > 1 && (CalleeAug->getInstructionCount() > MaxCopiedSweep ||
                         CalleeRev->getInstructionCount() > MaxCopiedSweep)))
        continue;
      Seen.insert(CalleeRev);
      Pairs.push_back({CalleeAug, CalleeRev});
      Work.push_back({CalleeAug, CalleeRev, Total});
    }
  }
}

/// -Rpass=adcc: where the records of \p S's gradient went, once its
/// sweeps (and callees' sweeps) are inlined: \p FrameBytes in its frame,
/// and how many pushes of the thread's tape are left in its code (records
/// made in loops; callees' sweeps that stayed functions push their own).
static void remarkRecords(const SynthesisContext &Ctx, const CombinedSweeps &S,
                          uint64_t FrameBytes) {
  const Instruction *At = nullptr;
  unsigned Pushes = 0, Calls = 0;
  for (Instruction &I : instructions(*S.Caller)) {
    if (!At && I.getDebugLoc())
      At = &I;
    auto *Call = dyn_cast<CallInst>(&I);
    Function *F = Call ? Call->getCalledFunction() : nullptr;
    if (!F)
      continue;
    if (F->getName() == "adcc_tape_push")
      ++Pushes;
    else if (Ctx.isGenerated(*F))
      ++Calls;
  }
  if (!At)
    return;
  // (The augmented sweep is "the derivative of 'f'".)
  std::string Name = Ctx.describe(*S.Aug);
  StringRef Primal = Name;
  Primal.consume_front("the derivative of ");
  OptimizationRemarkEmitter ORE(S.Caller);
  ORE.emit([&] {
    OptimizationRemark R("adcc", "GradientFrame", At);
    R << "gradient of " << Primal << ": " << ore::NV("FrameBytes", FrameBytes)
      << " bytes of records in its frame, "
      << ore::NV("TapePushes", Pushes)
      << " pushes of the thread's tape left in its code";
    if (Calls)
      R << " and " << ore::NV("Calls", Calls)
        << " calls of derivative sweeps that may push their own";
    return R;
  });
}

void inlineCombinedSweeps(const SynthesisContext &Ctx,
                          SmallPtrSetImpl<Function *> &Touched) {
  for (const CombinedSweeps &S : Ctx.combined()) {
    if (!callsCombinedAlone(S))
      continue;
    // The callees' sweeps called from these sweeps (small ones at several
    // call sites) are inlined with them: what they record outside loops
    // lives in the same frame.
    SmallVector<std::pair<Function *, Function *>, 4> Callees;
    calleeSweepsInFrame(Ctx, S, Callees);
    auto *AugCall = cast<CallInst>(*S.Aug->user_begin());
    auto *RevCall = cast<CallInst>(*S.Rev->user_begin());
    if (!inlineGeneratedCall(*AugCall))
      continue;
    Touched.insert(S.Caller);
    if (!inlineGeneratedCall(*RevCall))
      continue;
    uint64_t FrameBytes = 0;
    keepRecordsInFrame(Ctx, *S.Caller, *S.Aug, *S.Rev, FrameBytes);
    for (auto [Aug, Rev] : Callees) {
      SmallVector<CallInst *, 4> AugCalls, RevCalls;
      // (Where one is not inlined, the records of the pair stay on the
      // tape: the calls tagged for the frame are the runtime's calls.)
      if (!callsFrom(*Aug, *S.Caller, AugCalls) ||
          !callsFrom(*Rev, *S.Caller, RevCalls) ||
          AugCalls.size() != RevCalls.size())
        continue;
      bool Inlined = true;
      for (CallInst *Call : concat<CallInst *>(AugCalls, RevCalls))
        Inlined &= inlineGeneratedCall(*Call);
      if (Inlined)
        keepRecordsInFrame(Ctx, *S.Caller, *Aug, *Rev, FrameBytes);
    }
    // (Records whose tags the sweeps' simplification dropped: a pop right
    // after its push is a stack slot too, AdjacentRecords.cpp.)
    FrameBytes += keepAdjacentRecordsInFrame(*S.Caller);
    remarkRecords(Ctx, S, FrameBytes);
  }
  if (!Ctx.combined().empty() &&
      !isDeviceModule(*Ctx.combined().front().Caller->getParent()))
    expandLeftoverRecords(Ctx);
}

} // namespace adcore
