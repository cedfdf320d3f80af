//===- PostOptimize.cpp - Optimizing generated derivatives ---------------===//
//
// The derivatives are created at the optimizer-early extension point, after
// the module's simplification pipeline ran on the primal code. They get the
// same function simplification (SROA, EarlyCSE, InstCombine, GVN, ...)
// here, before the rest of the optimizer (vectorization, ...) runs on the
// whole module.
//
//===----------------------------------------------------------------------===//

#include "Optimize.h"
#include "Synthesis.h"

#include "support/ContractArithmetic.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/DeadStoreElimination.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

#include <optional>

using namespace llvm;

namespace adcore {

// (Off: every caller a derivative is inlined into is simplified again, as
// before; for comparing the code both ways.)
static cl::opt<bool> SkipSimplified(
    "adcc-skip-simplified-callers", cl::Hidden, cl::init(true),
    cl::desc("do not simplify again a caller whose only new code is an "
             "already simplified derivative called without constant or "
             "frame arguments"));

/// Drops `llvm.loop.unroll.disable` from the loops of \p F, a derivative:
/// clang puts it on every loop under -fno-unroll-loops (the flags of
/// Enzyme's benchmarks), and the derivative's loops are clones of the
/// primal's. The derivative is adcc's own code: its loops of a few
/// iterations known at compile time are then fully unrolled by the
/// simplification below (nothing else unrolls them: partial and run-time
/// unrolling stay off), and what their iterations record lives in
/// registers instead of arrays in the frame.
static bool allowFullUnrolling(Function &F) {
  bool Changed = false;
  for (BasicBlock &BB : F) {
    Instruction *Term = BB.getTerminator();
    MDNode *Loop = Term ? Term->getMetadata(LLVMContext::MD_loop) : nullptr;
    if (!Loop || Loop->getNumOperands() == 0 || Loop->getOperand(0) != Loop)
      continue;
    SmallVector<Metadata *, 4> Kept = {nullptr};
    for (const MDOperand &Op : drop_begin(Loop->operands())) {
      auto *Node = dyn_cast<MDNode>(Op.get());
      auto *Name = Node && Node->getNumOperands()
                       ? dyn_cast<MDString>(Node->getOperand(0))
                       : nullptr;
      if (!(Name && Name->getString() == "llvm.loop.unroll.disable"))
        Kept.push_back(Op.get());
    }
    if (Kept.size() == Loop->getNumOperands())
      continue;
    MDNode *New = MDNode::getDistinct(F.getContext(), Kept);
    New->replaceOperandWith(0, New);
    // (Every latch of the loop carries the same node.)
    for (BasicBlock &Other : F)
      if (Instruction *T = Other.getTerminator();
          T && T->getMetadata(LLVMContext::MD_loop) == Loop)
        T->setMetadata(LLVMContext::MD_loop, New);
    Changed = true;
  }
  return Changed;
}

// (Off: derivative loops keep the user's -fno-unroll-loops; for comparing
// the code both ways.)
static cl::opt<bool> UnrollDerivativeLoops(
    "adcc-unroll-derivative-loops", cl::Hidden, cl::init(true),
    cl::desc("fully unroll the short loops of derivatives even where the "
             "primal's loops are not unrolled (-fno-unroll-loops)"));

bool loopsStayRolled(const Module &M) {
  for (const Function &F : M)
    for (const BasicBlock &BB : F) {
      const Instruction *Term = BB.getTerminator();
      const MDNode *Loop =
          Term ? Term->getMetadata(LLVMContext::MD_loop) : nullptr;
      if (!Loop)
        continue;
      for (const MDOperand &Op : drop_begin(Loop->operands()))
        if (auto *Node = dyn_cast<MDNode>(Op.get());
            Node && Node->getNumOperands())
          if (auto *Name = dyn_cast<MDString>(Node->getOperand(0));
              Name && Name->getString() == "llvm.loop.unroll.disable")
            return true;
    }
  return false;
}

/// Fully unrolls the loops of \p F that the simplification just made
/// countable, and simplifies \p F again where it did. The pipeline's full
/// unrolling runs before GVN: a reverse loop whose trip count came from the
/// forward sweep's frame (a combined gradient's, once its sweeps are
/// inlined) only gets a constant count after it, and under
/// -fno-unroll-loops nothing later unrolls it, so its records stayed
/// arrays in the frame (without that option the optimizer after adcc's
/// pass unrolls it: not done here). Loops the user marked keep their
/// marks and are left alone.
static void unrollCountedLoops(Function &F, FunctionAnalysisManager &FAM,
                               OptimizationLevel Level) {
  if (FAM.getResult<LoopAnalysis>(F).empty())
    return;
  FunctionPassManager Unroll;
  Unroll.addPass(LoopSimplifyPass());
  Unroll.addPass(LCSSAPass());
  Unroll.addPass(createFunctionToLoopPassAdaptor(
      LoopFullUnrollPass(Level.getSpeedupLevel(), /*OnlyWhenForced=*/false,
                         /*ForgetSCEV=*/false)));
  unsigned Before = F.getInstructionCount();
  size_t Blocks = F.size();
  Unroll.run(F, FAM);
  if (F.size() == Blocks && F.getInstructionCount() == Before)
    return;
  FunctionPassManager Again;
  Again.addPass(SROAPass(SROAOptions::ModifyCFG));
  Again.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  Again.addPass(InstCombinePass());
  Again.addPass(GVNPass());
  Again.addPass(DSEPass());
  Again.addPass(SimplifyCFGPass());
  Again.addPass(InstCombinePass());
  Again.run(F, FAM);
}

void optimizeGenerated(ArrayRef<Function *> Functions, OptimizationLevel Level,
                       bool Derivatives, bool Contract, bool UnrollCounted) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  // (-ftime-trace: each pass run on generated code shows in the trace.)
  PassInstrumentationCallbacks PIC;
  TimeProfilingPassesHandler TimeProfiling;
  if (timeTraceProfilerEnabled())
    TimeProfiling.registerCallbacks(PIC);
  PassBuilder PB(/*TM=*/nullptr, PipelineTuningOptions(), std::nullopt, &PIC);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  bool UnrollAgain = UnrollDerivativeLoops && UnrollCounted;

  FunctionPassManager FPM =
      PB.buildFunctionSimplificationPipeline(Level, ThinOrFullLTOPhase::None);
  for (Function *F : Functions)
    if (!F->isDeclaration()) {
      splitAggregatePhis(*F);
      if (Derivatives && UnrollDerivativeLoops)
        allowFullUnrolling(*F);
      FPM.run(*F, FAM);
      if (UnrollAgain)
        unrollCountedLoops(*F, FAM, Level);
      if (pairSinesAndCosines(*F))
        FAM.invalidate(*F, PreservedAnalyses::none());
      if (orderRecurrenceUpdates(*F))
        FAM.invalidate(*F, PreservedAnalyses::none());
      // (Only in the derivatives themselves: the callers they are inlined
      // into hold the user's own loops too.)
      if (Derivatives && gatherUpdates(*F, FAM))
        FAM.invalidate(*F, PreservedAnalyses::none());
      if (Derivatives && keepAccumulationsInRegisters(*F, FAM))
        FAM.invalidate(*F, PreservedAnalyses::none());
      // (Products recomputed in a reverse sweep that only an adjoint sum
      // uses are the derivative's.)
      if (Contract &&
          contractDerivativeArithmetic(*F, [](const Instruction &I) {
            return I.getOpcode() == Instruction::FMul ||
                   I.hasMetadata(AdjointSumMetadata);
          }))
        FAM.invalidate(*F, PreservedAnalyses::none());
      if (Derivatives)
        for (BasicBlock &BB : *F)
          for (Instruction &I : BB)
            I.setMetadata(AdjointSumMetadata, nullptr);
    }
}

/// True when every processor feature \p Callee's code may use ("+avx512f"
/// in its "target-features") is one \p Caller's code may use too.
static bool hasFeaturesOf(const Function &Caller, const Function &Callee) {
  SmallVector<StringRef, 32> Need, Have;
  Callee.getFnAttribute("target-features").getValueAsString().split(Need, ',');
  Caller.getFnAttribute("target-features").getValueAsString().split(Have, ',');
  return all_of(Need, [&](StringRef F) {
    return !F.starts_with("+") || is_contained(Have, F);
  });
}

bool inlineGeneratedCall(CallBase &Call) {
  Function *Caller = Call.getFunction();
  Function *Callee = Call.getCalledFunction();
  // Code for other instructions (a function with
  // `__attribute__((target("avx512f")))`) stays in a function of its own.
  if (!Callee || !hasFeaturesOf(*Caller, *Callee))
    return false;
  InlineFunctionInfo Info;
  if (!InlineFunction(Call, Info).isSuccess())
    return false;
  AttributeFuncs::mergeAttributesForInlining(*Caller, *Callee);
  return true;
}

/// Whether \p V, an argument of a call, tells the callee's code something
/// the callee could not know on its own: a constant (a size, a null
/// shadow, a global), or the address of the caller's frame (the seeds of
/// a tangent in a local array), looking through the aggregates that carry
/// a batched call's shadows.
static bool knownAtCallSite(const Value *V) {
  if (isa<Constant>(V))
    return true;
  if (auto *IV = dyn_cast<InsertValueInst>(V))
    return knownAtCallSite(IV->getAggregateOperand()) ||
           knownAtCallSite(IV->getInsertedValueOperand());
  if (!V->getType()->isPointerTy())
    return false;
  const Value *Object = getUnderlyingObject(V);
  return isa<AllocaInst>(Object) || isa<Constant>(Object);
}

/// Whether inlining \p Call of \p Callee gives its caller code worth
/// simplifying again: a callee not simplified since it was made or since
/// something was inlined into it, or arguments it can fold.
static bool simplifiesAfterInlining(const CallBase &Call,
                                    const Function &Callee,
                                    const SmallPtrSetImpl<Function *> &Simplified,
                                    const SmallPtrSetImpl<Function *> &Touched) {
  if (!Simplified.contains(&Callee) || Touched.contains(&Callee))
    return true;
  return any_of(Call.args(),
                [](const Use &Arg) { return knownAtCallSite(Arg.get()); });
}

void inlineGenerated(ArrayRef<Function *> Functions,
                     const SmallPtrSetImpl<Function *> &Simplified,
                     SmallPtrSetImpl<Function *> &Touched, bool Always) {
  constexpr unsigned SmallFunction = 200; // instructions
  for (Function *F : Functions) {
    if (F->isDeclaration())
      continue;
    // (Before F goes into callers whose other calls may change the thread's
    // tape: the sweeps inlined into F so far ask for it once.)
    if (!Always)
      shareTapeHandles(*F);
    unsigned Size = F->getInstructionCount();
    SmallVector<CallBase *, 4> Sites;
    bool Recursive = false;
    for (User *U : F->users()) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledFunction() != F)
        continue;
      // (The sweeps of a combined gradient, inlined into the function that
      // runs them, are dead: the calls they still make are not sites. Not
      // in device code, where every site is inlined: an internal function
      // without users there may still be one whose records the device
      // tape needs in one frame, lit targets/kernels-cuda.cu at -O0.)
      const Function *Caller = Call->getFunction();
      if (!Always && Caller != F && Caller->hasLocalLinkage() &&
          Caller->use_empty())
        continue;
      if (Caller == F)
        Recursive = true;
      Sites.push_back(Call);
    }
    if (Recursive || Sites.empty() ||
        (!Always && Sites.size() > 1 && Size > SmallFunction))
      continue;
    for (CallBase *Call : Sites) {
      Function *Caller = Call->getFunction();
      bool Simplify =
          !SkipSimplified ||
          simplifiesAfterInlining(*Call, *F, Simplified, Touched);
      if (inlineGeneratedCall(*Call) && Simplify)
        Touched.insert(Caller);
    }
  }
}

} // namespace adcore

//===----------------------------------------------------------------------===//
// Inline tape fast paths
//===----------------------------------------------------------------------===//
//
// A record costs a call into the runtime; most pushes and pops only move the
// tape's top within its current chunk. The generated code does that itself
// and calls the runtime only at the end of a chunk. It relies on the first
// fields of the runtime's `struct adcc_tape` (runtime/lib/tape_internal.h):
// top, limit, base, peak_top — each a pointer, in that order.

namespace adcore {
namespace {

constexpr unsigned TopField = 0, LimitField = 1, BaseField = 2, PeakField = 3;

Value *field(IRBuilderBase &B, Value *Tape, unsigned Index) {
  return B.CreateConstGEP1_64(B.getPtrTy(), Tape, Index);
}

/// Record size in the runtime: a multiple of its 8-byte granule. Sizes
/// known only at run time (arrays sized by a trip count) are rounded by the
/// generated code; a size so large that rounding wraps around takes the
/// runtime's path, which reports it.
struct InlineSize {
  Value *Need;
  Value *Fits; ///< in addition to the space check (null: nothing more)
};

std::optional<InlineSize> inlineSize(IRBuilder<> &B, CallInst &Call) {
  auto *Align = dyn_cast<ConstantInt>(Call.getArgOperand(2));
  if (!Align || Align->getZExtValue() > 8)
    return std::nullopt;
  Value *Bytes = Call.getArgOperand(1);
  if (auto *C = dyn_cast<ConstantInt>(Bytes)) {
    if (C->isZero())
      return std::nullopt;
    return InlineSize{B.getInt64((C->getZExtValue() + 7) / 8 * 8), nullptr};
  }
  Value *Need = B.CreateAnd(B.CreateAdd(Bytes, B.getInt64(7)), B.getInt64(-8));
  return InlineSize{Need, B.CreateICmpUGE(Need, Bytes)};
}

/// Replaces \p Call by a branch on whether \p Room bytes hold the record
/// (and the size check of \p Size): there, what \p Fast builds (the
/// record's address); else the call itself, the slow path. A phi of the two
/// takes the call's uses.
void expandWithFastPath(CallInst &Call, const InlineSize &Size, Value *Room,
                        function_ref<Value *(IRBuilderBase &)> Fast) {
  IRBuilder<> B(&Call);
  Value *Fits = B.CreateICmpUGE(Room, Size.Need);
  if (Size.Fits)
    Fits = B.CreateAnd(Fits, Size.Fits);
  Instruction *Then, *Else;
  SplitBlockAndInsertIfThenElse(Fits, &Call, &Then, &Else);
  B.SetInsertPoint(Then);
  Value *Record = Fast(B);
  Call.moveBefore(Else->getIterator());
  B.SetInsertPoint(Call.getParent()->getSingleSuccessor()->getFirstNonPHIIt());
  PHINode *P = B.CreatePHI(B.getPtrTy(), 2);
  Call.replaceAllUsesWith(P);
  P->addIncoming(Record, Then->getParent());
  P->addIncoming(&Call, Call.getParent());
}

void expandPush(CallInst &Call) {
  IRBuilder<> B(&Call);
  std::optional<InlineSize> Size = inlineSize(B, Call);
  if (!Size)
    return;
  Value *Need = Size->Need;
  Value *Tape = Call.getArgOperand(0);
  Value *TopPtr = field(B, Tape, TopField);
  Value *Top = B.CreateLoad(B.getPtrTy(), TopPtr);
  Value *Limit = B.CreateLoad(B.getPtrTy(), field(B, Tape, LimitField));
  Value *Avail = B.CreateSub(B.CreatePtrToInt(Limit, B.getInt64Ty()),
                             B.CreatePtrToInt(Top, B.getInt64Ty()));
  expandWithFastPath(Call, *Size, Avail, [&](IRBuilderBase &B) {
    B.CreateStore(B.CreateGEP(B.getInt8Ty(), Top, Need), TopPtr);
    return Top;
  });
}

void expandPop(CallInst &Call) {
  IRBuilder<> B(&Call);
  std::optional<InlineSize> Size = inlineSize(B, Call);
  if (!Size)
    return;
  Value *Need = Size->Need;
  Value *Tape = Call.getArgOperand(0);
  Value *TopPtr = field(B, Tape, TopField);
  Value *Top = B.CreateLoad(B.getPtrTy(), TopPtr);
  Value *Base = B.CreateLoad(B.getPtrTy(), field(B, Tape, BaseField));
  Value *Used = B.CreateSub(B.CreatePtrToInt(Top, B.getInt64Ty()),
                            B.CreatePtrToInt(Base, B.getInt64Ty()));
  expandWithFastPath(Call, *Size, Used, [&](IRBuilderBase &B) {
    // The runtime's peak statistics follow the highest top a pop saw.
    Value *PeakPtr = field(B, Tape, PeakField);
    Value *Peak = B.CreateLoad(B.getPtrTy(), PeakPtr);
    Value *Higher = B.CreateICmpUGT(B.CreatePtrToInt(Top, B.getInt64Ty()),
                                    B.CreatePtrToInt(Peak, B.getInt64Ty()));
    B.CreateStore(B.CreateSelect(Higher, Top, Peak), PeakPtr);
    Value *Record = B.CreateGEP(B.getInt8Ty(), Top, B.CreateNeg(Need));
    B.CreateStore(Record, TopPtr);
    return Record;
  });
}

} // namespace

void expandTapeCalls(ArrayRef<CallInst *> Calls) {
  for (CallInst *Call : Calls) {
    // (What stays a call is the slow path: no longer the tagged record.)
    Call->setMetadata(EndRecordsMetadata, nullptr);
    StringRef Name = Call->getCalledFunction()->getName();
    if (Name == "adcc_tape_push")
      expandPush(*Call);
    else if (Name == "adcc_tape_pop")
      expandPop(*Call);
  }
}

void expandTapeOperations(Function &F, bool KeepEndRecords) {
  SmallVector<CallInst *, 32> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction()) {
          if (KeepEndRecords && Call->getMetadata(EndRecordsMetadata))
            continue;
          if (Callee->getName() == "adcc_tape_push" ||
              Callee->getName() == "adcc_tape_pop")
            Calls.push_back(Call);
        }
  expandTapeCalls(Calls);
}

} // namespace adcore
