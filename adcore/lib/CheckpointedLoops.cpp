//===- CheckpointedLoops.cpp - Annotated loops as checkpointed steps -----===//
//
// An annotated loop (frontend/lib/CheckpointAttribute.cpp), as Clang emits
// it before any optimization: every local variable an alloca of the
// function's entry block, the condition in the blocks from the loop's
// header to the branch that leaves, the body (with a `for`'s increment)
// in the blocks that the annotation's block dominates.
//
//   pre:    ...                          pre:   (gather the state)
//   header: c = cond; br c, body, exit   =>     call adcc_checkpointed_*(
//   body:   ...; br header                         step, [n,] state, ...)
//   exit:                                       (scatter the state)
//                                               br exit
//
// The step is one iteration: `if (cond) body else running = 0`, outlined
// with CodeExtractor. What it reads and writes of the function's frame
// becomes memory of two blocks: the *state* (the allocas the loop writes,
// found by analysis/FrameWrites.h, and the `running` flag), copied in
// before the call and back after it, which the snapshots hold; and the
// *parameters* (the allocas it only reads, copied, and the values it
// uses), which the runtime copies once. A heap block that a local pointer
// variable holds (allocated before the loop, the variable unchanged by
// it) and that the loop writes is copied into the state too, after the
// allocas (the state is then allocated on the heap, its size known at run
// time): the step's pointer variable points to the copy in the state it is
// given. A counted loop (`for (i = a; i <
// b; ++i)`, i written only by the increment and b unchanged by the loop)
// gets its count before the call and the revolve (or interval) schedule;
// any other loop the online schedule (adcc_checkpointed_while, whose
// condition reads `running`).
//
//===----------------------------------------------------------------------===//

#include "CheckpointedLoops.h"

#include "CheckpointedHeap.h"
#include "analysis/FrameWrites.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr StringRef MarkPrefix = "adcc.checkpoint:";
constexpr int Revolve = 0, Interval = 1, Unspecified = -1;

/// The schedule an annotation call asks for, or none for another call.
std::optional<int> markSchedule(const Instruction &I) {
  auto *Call = dyn_cast<IntrinsicInst>(&I);
  if (!Call || Call->getIntrinsicID() != Intrinsic::annotation)
    return std::nullopt;
  auto *G =
      dyn_cast<GlobalVariable>(Call->getArgOperand(1)->stripPointerCasts());
  auto *Data = G && G->hasInitializer()
                   ? dyn_cast<ConstantDataArray>(G->getInitializer())
                   : nullptr;
  if (!Data || !Data->isCString())
    return std::nullopt;
  StringRef Text = Data->getAsCString();
  int Schedule = 0;
  if (!Text.consume_front(MarkPrefix) || Text.getAsInteger(10, Schedule))
    return std::nullopt;
  return Schedule;
}

/// Where a value of the outlined iteration lives in the state or parameter
/// block.
struct Slot {
  bool InState;
  uint64_t Offset;
};

class Outliner {
public:
  Outliner(Function &F, IntrinsicInst &Mark, int Schedule)
      : F(F), M(*F.getParent()), DL(M.getDataLayout()), Mark(Mark),
        Loc(Mark.getDebugLoc()), Schedule(Schedule), Ptr(PointerType::getUnqual(F.getContext())),
        I64(Type::getInt64Ty(F.getContext())) {}

  /// Outlines the loop; false after reporting an error at the annotation
  /// (which is then removed).
  bool run() {
    bool Done = outline();
    if (!Done && !MarkErased)
      Mark.eraseFromParent();
    return Done;
  }

private:
  bool error(const Twine &Message) {
    F.getContext().diagnose(DiagnosticInfoUnsupported(
        F, "the loop marked ADCC_CHECKPOINT " + Message, Loc, DS_Error));
    return false;
  }
  bool outline();
  bool shape();
  Value *hoist(Value *V, IRBuilder<> &B, AllocaInst *Counter = nullptr);
  Value *tripCount(IRBuilder<> &B);
  Value *ivBound(ICmpInst &Cmp, AllocaInst *&IV, bool &IVLeft);
  int ivStep(AllocaInst *IV);
  AllocaInst *frameAlloca(Value *V);
  uint64_t place(uint64_t &Size, Align &Max, uint64_t Bytes, Align A);
  Function *makeStep(Function *Iteration, CallInst &Repl);
  bool placeHeapBlocks();
  Value *heapState(IRBuilder<> &B);
  Function *makeCond();

  Function &F;
  Module &M;
  const DataLayout &DL;
  IntrinsicInst &Mark;
  DebugLoc Loc;
  bool MarkErased = false;
  int Schedule;
  PointerType *Ptr;
  IntegerType *I64;

  std::optional<DominatorTree> DT;
  std::optional<LoopInfo> LI;
  Loop *L = nullptr;
  BasicBlock *Header = nullptr, *BodyEntry = nullptr, *Exit = nullptr,
             *Pre = nullptr;
  SmallVector<BasicBlock *, 16> Cond, Body;
  FrameWrites Writes;
  /// The layout: allocas of the frame, and values, in the blocks.
  MapVector<AllocaInst *, Slot> AllocaSlots;
  MapVector<Value *, uint64_t> ValueSlots;
  uint64_t StateBytes = 0, ParamBytes = 0;
  Align StateAlign, ParamAlign;
  AllocaInst *Running = nullptr;
  uint64_t RunningAt = 0;
  Value *StateBlock = nullptr;
  AllocaInst *ParamBlock = nullptr;
  /// The heap blocks the loop writes, by the pointer variable that holds
  /// each: where the parameters hold the offset of its copy in the state.
  MapVector<AllocaInst *, uint64_t> HeapOffsetAt;
};

/// The loop's parts; false after an error.
bool Outliner::shape() {
  DT.emplace(F);
  LI.emplace(*DT);
  BodyEntry = Mark.getParent();
  L = LI->getLoopFor(BodyEntry);
  if (!L || L->getHeader() == BodyEntry)
    return error("does not repeat (its body always leaves it)");
  Header = L->getHeader();
  for (BasicBlock *BB : L->blocks())
    (DT->dominates(BodyEntry, BB) ? Body : Cond).push_back(BB);
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  for (BasicBlock *E : Exiting)
    if (DT->dominates(BodyEntry, E))
      return error("leaves other than by its condition ('break', 'return' "
                   "or 'goto' at line " +
                   Twine(E->getTerminator()->getDebugLoc()
                             ? E->getTerminator()->getDebugLoc().getLine()
                             : 0) +
                   "); checkpointed loops run whole iterations");
  Exit = L->getUniqueExitBlock();
  Pre = L->getLoopPreheader();
  if (!Exit || !Pre || !Exit->phis().empty())
    return error("has a shape adcc cannot outline");
  for (BasicBlock *BB : Cond)
    for (BasicBlock *S : successors(BB))
      if (L->contains(S) && S != BodyEntry && DT->dominates(BodyEntry, S))
        return error("has a shape adcc cannot outline");
  for (BasicBlock *BB : Body)
    for (BasicBlock *S : successors(BB))
      if (!L->contains(S) || (S != Header && !DT->dominates(BodyEntry, S)))
        return error("has a shape adcc cannot outline");
  return true;
}

/// The static alloca of the function that \p V is, or null.
AllocaInst *Outliner::frameAlloca(Value *V) {
  auto *A = dyn_cast<AllocaInst>(V);
  return A && A->isStaticAlloca() && A->getFunction() == &F ? A : nullptr;
}

/// \p V computed before the loop, at \p B (it may read memory the loop
/// does not write, and the loop's \p Counter); null when it cannot be.
Value *Outliner::hoist(Value *V, IRBuilder<> &B, AllocaInst *Counter) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L->contains(I))
    return V;
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    Value *From = Load->getPointerOperand();
    AllocaInst *A = frameAlloca(From);
    auto *G = dyn_cast<GlobalVariable>(From);
    if (!(A && (A == Counter || !Writes.Allocas.count(A))) &&
        !(G && !Writes.Globals.contains(G)))
      return nullptr;
    return B.CreateLoad(Load->getType(), From);
  }
  if (!isa<CastInst, BinaryOperator>(I))
    return nullptr;
  Instruction *Copy = I->clone();
  for (Use &U : Copy->operands()) {
    Value *H = hoist(U.get(), B, Counter);
    if (!H) {
      Copy->deleteValue();
      return nullptr;
    }
    U.set(H);
  }
  return B.Insert(Copy);
}

/// The increment of a counted loop's variable \p IV: +1 or -1, written
/// once per iteration by the loop's only latch; 0 when it is not that.
int Outliner::ivStep(AllocaInst *IV) {
  auto It = Writes.Allocas.find(IV);
  if (It == Writes.Allocas.end() || It->second.size() != 1)
    return 0;
  auto *Store = dyn_cast<StoreInst>(It->second.front());
  if (!Store || Store->getPointerOperand() != IV ||
      Store->getParent() != L->getLoopLatch())
    return 0;
  auto *Add = dyn_cast<BinaryOperator>(Store->getValueOperand());
  if (!Add || (Add->getOpcode() != Instruction::Add &&
               Add->getOpcode() != Instruction::Sub))
    return 0;
  auto *Old = dyn_cast<LoadInst>(Add->getOperand(0));
  auto *K = dyn_cast<ConstantInt>(Add->getOperand(1));
  if (!Old && Add->getOpcode() == Instruction::Add) {
    Old = dyn_cast<LoadInst>(Add->getOperand(1));
    K = dyn_cast<ConstantInt>(Add->getOperand(0));
  }
  if (!Old || !K || Old->getPointerOperand() != IV ||
      Old->getParent() != Store->getParent())
    return 0;
  int64_t Step = K->getSExtValue();
  if (Add->getOpcode() == Instruction::Sub)
    Step = -Step;
  return Step == 1 || Step == -1 ? static_cast<int>(Step) : 0;
}

/// The alloca a side of the condition loads (through casts), if any.
AllocaInst *loadedAlloca(Value *V) {
  while (auto *C = dyn_cast<CastInst>(V))
    V = C->getOperand(0);
  auto *Load = dyn_cast<LoadInst>(V);
  return Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
}

/// For a counted loop, the number of iterations computed at \p B (before
/// the loop); null for any other loop.
Value *Outliner::tripCount(IRBuilder<> &B) {
  if (Cond.size() != 1)
    return nullptr;
  auto *Br = dyn_cast<BranchInst>(Header->getTerminator());
  if (!Br || !Br->isConditional())
    return nullptr;
  for (Instruction &I : *Header)
    if (!isa<LoadInst, CastInst, ICmpInst, BranchInst>(I))
      return nullptr;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return nullptr;
  CmpPredicate Pred = Cmp->getCmpPredicate();
  if (Br->getSuccessor(0) != BodyEntry)
    Pred = CmpInst::getInversePredicate(Pred);
  Value *IVSide = Cmp->getOperand(0), *Bound = Cmp->getOperand(1);
  AllocaInst *IV = loadedAlloca(IVSide);
  int Step = IV ? ivStep(IV) : 0;
  if (!Step) {
    std::swap(IVSide, Bound);
    Pred = CmpInst::getSwappedPredicate(Pred);
    IV = loadedAlloca(IVSide);
    Step = IV ? ivStep(IV) : 0;
  }
  if (!Step || loadedAlloca(Bound) == IV)
    return nullptr;
  // n = b - a (+1 when b is included), or a - b counting down.
  bool Included;
  switch (Pred) {
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULT:
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_NE:
    Included = false;
    break;
  case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULE:
  case CmpInst::ICMP_SGE:
  case CmpInst::ICMP_UGE:
    Included = true;
    break;
  default:
    return nullptr;
  }
  bool Up = Pred == CmpInst::ICMP_SLT || Pred == CmpInst::ICMP_ULT ||
            Pred == CmpInst::ICMP_SLE || Pred == CmpInst::ICMP_ULE;
  bool Down = Pred == CmpInst::ICMP_SGT || Pred == CmpInst::ICMP_UGT ||
              Pred == CmpInst::ICMP_SGE || Pred == CmpInst::ICMP_UGE;
  if ((Up && Step != 1) || (Down && Step != -1))
    return nullptr;
  Value *A = hoist(IVSide, B, IV), *BV = hoist(Bound, B);
  if (!A || !BV)
    return nullptr;
  bool Signed = !CmpInst::isUnsigned(Pred);
  A = B.CreateIntCast(A, I64, Signed);
  BV = B.CreateIntCast(BV, I64, Signed);
  Value *N = Step == 1 ? B.CreateSub(BV, A) : B.CreateSub(A, BV);
  if (Included)
    N = B.CreateAdd(N, ConstantInt::get(I64, 1));
  return B.CreateSelect(B.CreateICmpSLT(N, ConstantInt::get(I64, 0)),
                        ConstantInt::get(I64, 0), N);
}

/// Copies a \p T from \p Src to \p Dst at \p B by typed loads and stores
/// (the type analysis then sees each field; a loop for arrays, after which
/// \p B continues in the block that follows it).
void copyTyped(IRBuilder<> &B, Type *T, Value *Dst, Value *Src) {
  if (auto *S = dyn_cast<StructType>(T)) {
    for (unsigned I = 0; I < S->getNumElements(); ++I)
      copyTyped(B, S->getElementType(I), B.CreateStructGEP(S, Dst, I),
                B.CreateStructGEP(S, Src, I));
    return;
  }
  auto *A = dyn_cast<ArrayType>(T);
  if (!A) {
    B.CreateStore(B.CreateLoad(T, Src), Dst);
    return;
  }
  uint64_t N = A->getNumElements();
  Type *E = A->getElementType();
  if (N <= 4) {
    for (uint64_t I = 0; I < N; ++I)
      copyTyped(B, E, B.CreateConstInBoundsGEP2_64(A, Dst, 0, I),
                B.CreateConstInBoundsGEP2_64(A, Src, 0, I));
    return;
  }
  BasicBlock *Before = B.GetInsertBlock();
  Function *F = Before->getParent();
  BasicBlock *After = SplitBlock(Before, &*B.GetInsertPoint());
  BasicBlock *Body = BasicBlock::Create(F->getContext(), "adcc.copy", F, After);
  Before->getTerminator()->setSuccessor(0, Body);
  B.SetInsertPoint(Body);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2);
  I->addIncoming(B.getInt64(0), Before);
  copyTyped(B, E, B.CreateInBoundsGEP(A, Dst, {B.getInt64(0), I}),
            B.CreateInBoundsGEP(A, Src, {B.getInt64(0), I}));
  Value *Next = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpEQ(Next, B.getInt64(N)), After, Body);
  B.SetInsertPoint(After, After->begin());
}

uint64_t Outliner::place(uint64_t &Size, Align &Max, uint64_t Bytes,
                         Align A) {
  uint64_t At = alignTo(Size, A);
  Size = At + Bytes;
  Max = std::max(Max, A);
  return At;
}

/// `void step(state, params)`: one iteration, the outlined \p Iteration
/// called with the addresses and values of the blocks.
Function *Outliner::makeStep(Function *Iteration, CallInst &Repl) {
  unsigned Line = Loc ? Loc.getLine() : 0;
  Function *Step = Function::Create(
      FunctionType::get(Type::getVoidTy(F.getContext()), {Ptr, Ptr}, false),
      GlobalValue::InternalLinkage,
      "loop(" + demangle(F.getName()) + ":" + Twine(Line) + ")", M);
  Step->addFnAttr(Attribute::NoUnwind);
  if (F.hasFnAttribute(Attribute::OptimizeNone)) {
    Step->addFnAttr(Attribute::OptimizeNone);
    Step->addFnAttr(Attribute::NoInline);
  }
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "", Step));
  SmallVector<Value *, 8> Args;
  for (Value *V : Repl.args()) {
    APInt Off(DL.getIndexTypeSizeInBits(V->getType()), 0);
    Value *Base = V->stripAndAccumulateConstantOffsets(DL, Off, true);
    if (AllocaInst *A = frameAlloca(Base); A && HeapOffsetAt.count(A)) {
      // (The pointer variable of a heap block: its copy in this state.)
      Value *Off = B.CreateLoad(
          I64, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Step->getArg(1),
                                            HeapOffsetAt.lookup(A)));
      AllocaInst *Var = B.CreateAlloca(Ptr);
      B.CreateStore(B.CreateInBoundsGEP(B.getInt8Ty(), Step->getArg(0), Off),
                    Var);
      Args.push_back(Var);
      continue;
    }
    if (AllocaInst *A = frameAlloca(Base); A && AllocaSlots.count(A)) {
      Slot S = AllocaSlots.lookup(A);
      Args.push_back(B.CreateConstInBoundsGEP1_64(
          B.getInt8Ty(), Step->getArg(S.InState ? 0 : 1),
          S.Offset + Off.getZExtValue()));
      continue;
    }
    Value *At = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Step->getArg(1),
                                             ValueSlots.lookup(V));
    Args.push_back(B.CreateLoad(V->getType(), At));
  }
  B.CreateCall(Iteration, Args);
  B.CreateRetVoid();
  return Step;
}

/// The heap blocks the loop writes: their offsets get parameter slots;
/// false after an error.
bool Outliner::placeHeapBlocks() {
  for (auto &[Var, Alloc] : Writes.HeapBlocks) {
    if (!DT->dominates(Alloc, Pre->getTerminator()))
      return error(
          "writes a heap block whose allocation (line " +
          Twine(Alloc->getDebugLoc() ? Alloc->getDebugLoc().getLine() : 0) +
          ") does not come before the loop");
    HeapOffsetAt[Var] = place(ParamBytes, ParamAlign, 8, Align(8));
  }
  return true;
}

/// The state block with the heap blocks' copies after the allocas, on the
/// heap, filled, and their offsets in the parameters; its size.
Value *Outliner::heapState(IRBuilder<> &B) {
  Value *Size = B.getInt64(alignTo(StateBytes, 16));
  SmallVector<std::tuple<AllocaInst *, Value *, Value *>, 2> Blocks;
  for (auto &[Var, Alloc] : Writes.HeapBlocks) {
    Value *Bytes = allocatedBytes(B, *Alloc);
    Blocks.push_back({Var, Size, Bytes});
    Size = B.CreateAnd(B.CreateAdd(B.CreateAdd(Size, Bytes), B.getInt64(15)),
                       B.getInt64(~uint64_t(15)));
  }
  FunctionCallee Malloc = M.getOrInsertFunction("malloc", Ptr, I64);
  StateBlock = B.CreateCall(Malloc, {Size}, "adcc.state");
  for (auto &[Var, Off, Bytes] : Blocks) {
    B.CreateStore(Off, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), ParamBlock,
                                                    HeapOffsetAt.lookup(Var)));
    copyHeapBlock(B, *Var, B.CreateInBoundsGEP(B.getInt8Ty(), StateBlock, Off),
                  B.CreateLoad(Ptr, Var), Bytes);
  }
  return Size;
}

/// `int cond(state, params)`: the `running` flag of the state.
Function *Outliner::makeCond() {
  unsigned Line = Loc ? Loc.getLine() : 0;
  Type *Int = Type::getInt32Ty(F.getContext());
  Function *C = Function::Create(
      FunctionType::get(Int, {Ptr, Ptr}, false), GlobalValue::InternalLinkage,
      "loop.running(" + demangle(F.getName()) + ":" + Twine(Line) + ")", M);
  C->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "", C));
  B.CreateRet(B.CreateLoad(
      Int, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), C->getArg(0),
                                        RunningAt)));
  return C;
}

bool Outliner::outline() {
  if (!shape())
    return false;
  SmallVector<BasicBlock *, 16> Region(Cond);
  append_range(Region, Body);
  Writes = findFrameWrites(F, Region);
  if (Writes.Unbounded)
    return error(Writes.Why + " (line " +
                 Twine(Writes.Unbounded->getDebugLoc()
                           ? Writes.Unbounded->getDebugLoc().getLine()
                           : 0) +
                 "); a snapshot holds the local variables and arrays the "
                 "loop writes, and the heap blocks their pointers hold (for "
                 "other memory, call adcc_checkpointed_steps with the "
                 "state's size)");
  // The snapshot budget and the count, before the loop.
  IRBuilder<> B(Pre->getTerminator());
  B.SetCurrentDebugLocation(Loc);
  Value *Snapshots = hoist(Mark.getArgOperand(0), B);
  if (!Snapshots)
    return error("has a number of snapshots that the loop changes");
  Snapshots = B.CreateIntCast(Snapshots, I64, true);
  Value *Count = tripCount(B);
  if (!Count && Schedule != Unspecified)
    return error(Twine("asks for the ") +
                 (Schedule == Revolve ? "revolve" : "interval") +
                 " schedule, which needs the number of iterations before "
                 "the loop runs: a counted 'for (i = a; i < b; ++i)' with "
                 "i and b unchanged by the body; leave the schedule out for "
                 "the online schedule");
  if (!placeHeapBlocks())
    return false;
  Mark.replaceAllUsesWith(Mark.getArgOperand(0));
  Mark.eraseFromParent();
  MarkErased = true;

  // One iteration: `if (cond) body else running = 0`, leaving to Guard.
  LLVMContext &Ctx = F.getContext();
  BasicBlock &Entry = F.getEntryBlock();
  Running = new AllocaInst(Type::getInt32Ty(Ctx), DL.getAllocaAddrSpace(),
                           "adcc.running", Entry.begin());
  BasicBlock *Guard = BasicBlock::Create(Ctx, "adcc.guard", &F, Exit);
  BasicBlock *Stop = BasicBlock::Create(Ctx, "adcc.stop", &F, Exit);
  BranchInst::Create(Header, Guard);
  IRBuilder<> SB(Stop);
  SB.CreateStore(SB.getInt32(0), Running);
  SB.CreateBr(Guard);
  for (BasicBlock *BB : Cond)
    BB->getTerminator()->replaceSuccessorWith(Exit, Stop);
  for (BasicBlock *BB : Body)
    BB->getTerminator()->replaceSuccessorWith(Header, Guard);
  SmallVector<BasicBlock *, 16> Blocks{Header};
  for (BasicBlock *BB : Region)
    if (BB != Header)
      Blocks.push_back(BB);
  Blocks.push_back(Stop);
  CodeExtractor CE(Blocks, /*DT=*/nullptr, /*AggregateArgs=*/false,
                   nullptr, nullptr, nullptr, /*AllowVarArgs=*/false,
                   /*AllowAlloca=*/true);
  CodeExtractorAnalysisCache CEAC(F);
  SetVector<Value *> Inputs, Outputs, Sinks, Hoists;
  BasicBlock *CommonExit = nullptr;
  CE.findAllocas(CEAC, Sinks, Hoists, CommonExit);
  CE.findInputsOutputs(Inputs, Outputs, Sinks);
  if (!Outputs.empty() || !CE.isEligible())
    return error("has a shape adcc cannot outline (a value it computes is "
                 "used after it)");
  Inputs.clear();
  Function *Iteration = CE.extractCodeRegion(CEAC, Inputs, Outputs);
  if (!Iteration || !Iteration->hasOneUse())
    return error("has a shape adcc cannot outline");
  auto &Repl = *cast<CallInst>(Iteration->user_back());

  // The layout of the blocks: the flag, the written allocas (state); the
  // read allocas and values (parameters).
  RunningAt = place(StateBytes, StateAlign, 4, Align(4));
  AllocaSlots[Running] = {true, RunningAt};
  for (Value *V : Repl.args()) {
    APInt Off(DL.getIndexTypeSizeInBits(V->getType()), 0);
    Value *Base = V->stripAndAccumulateConstantOffsets(DL, Off, true);
    AllocaInst *A = frameAlloca(Base);
    if (!A) {
      if (frameAlloca(const_cast<Value *>(getUnderlyingObject(V, 0))))
        return error("has a shape adcc cannot outline (an address into a "
                     "local array computed before the loop)");
      if (!ValueSlots.count(V))
        ValueSlots[V] = place(ParamBytes, ParamAlign,
                              DL.getTypeAllocSize(V->getType()),
                              DL.getABITypeAlign(V->getType()));
      continue;
    }
    if (AllocaSlots.count(A))
      continue;
    uint64_t Bytes = A->getAllocationSize(DL)->getFixedValue();
    bool Written = Writes.Allocas.count(A);
    AllocaSlots[A] =
        Written ? Slot{true, place(StateBytes, StateAlign, Bytes, A->getAlign())}
                : Slot{false,
                       place(ParamBytes, ParamAlign, Bytes, A->getAlign())};
  }
  // A pointer to one of them kept in memory elsewhere would not follow
  // the copies.
  for (Instruction &I : instructions(F))
    if (auto *S = dyn_cast<StoreInst>(&I))
      if (AllocaInst *A = frameAlloca(const_cast<Value *>(
              getUnderlyingObject(S->getValueOperand(), 0)));
          A && S->getValueOperand()->getType()->isPointerTy() &&
          AllocaSlots.count(A))
        return error("uses a local variable whose address is kept in memory "
                     "(line " +
                     Twine(S->getDebugLoc() ? S->getDebugLoc().getLine() : 0) +
                     "); the snapshots hold copies of it");

  // Before the loop: the blocks filled; the call; the state copied back.
  IRBuilder<> EB(&*Entry.getFirstInsertionPt());
  if (HeapOffsetAt.empty()) {
    AllocaInst *A = EB.CreateAlloca(ArrayType::get(EB.getInt8Ty(), StateBytes),
                                    nullptr, "adcc.state");
    A->setAlignment(StateAlign);
    StateBlock = A;
  }
  if (ParamBytes) {
    ParamBlock = EB.CreateAlloca(ArrayType::get(EB.getInt8Ty(), ParamBytes),
                                 nullptr, "adcc.params");
    ParamBlock->setAlignment(ParamAlign);
  }
  B.SetInsertPoint(Pre->getTerminator());
  B.CreateStore(B.getInt32(1), Running);
  auto SlotPtr = [&](Slot S) {
    return B.CreateConstInBoundsGEP1_64(
        B.getInt8Ty(), S.InState ? StateBlock : ParamBlock, S.Offset);
  };
  for (auto &[A, S] : AllocaSlots)
    if (!S.InState)
      copyTyped(B, A->getAllocatedType(), SlotPtr(S), A);
  for (auto &[V, At] : ValueSlots)
    B.CreateStore(V, SlotPtr({false, At}));
  Value *Size =
      HeapOffsetAt.empty() ? ConstantInt::get(I64, StateBytes) : heapState(B);
  for (auto &[A, S] : AllocaSlots)
    if (S.InState)
      copyTyped(B, A->getAllocatedType(), SlotPtr(S), A);
  Function *Step = makeStep(Iteration, Repl);
  Value *Params = ParamBlock ? static_cast<Value *>(ParamBlock)
                             : ConstantPointerNull::get(Ptr);
  Value *Args[] = {Size, Params, ConstantInt::get(I64, ParamBytes)};
  CallInst *Run;
  if (Count) {
    FunctionCallee Steps = M.getOrInsertFunction(
        "adcc_checkpointed_steps", B.getVoidTy(), Ptr, I64, Ptr, I64, Ptr,
        I64, B.getInt32Ty(), I64);
    Run = B.CreateCall(Steps, {Step, Count, StateBlock, Args[0], Args[1],
                               Args[2],
                               B.getInt32(Schedule == Interval ? Interval
                                                               : Revolve),
                               Snapshots});
  } else {
    FunctionCallee While = M.getOrInsertFunction(
        "adcc_checkpointed_while", B.getVoidTy(), Ptr, Ptr, Ptr, I64, Ptr,
        I64, I64);
    Run = B.CreateCall(While, {Step, makeCond(), StateBlock, Args[0], Args[1],
                               Args[2], Snapshots});
  }
  Run->setDebugLoc(Loc);
  for (auto &[A, S] : AllocaSlots)
    if (S.InState && A != Running)
      copyTyped(B, A->getAllocatedType(), A, SlotPtr(S));
  for (auto &[Var, At] : HeapOffsetAt) {
    Value *Off = B.CreateLoad(
        I64, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), ParamBlock, At));
    copyHeapBlock(B, *Var, B.CreateLoad(Ptr, Var),
                  B.CreateInBoundsGEP(B.getInt8Ty(), StateBlock, Off),
                  allocatedBytes(B, *Writes.HeapBlocks.lookup(Var)));
  }
  if (!HeapOffsetAt.empty())
    B.CreateCall(M.getOrInsertFunction("free", B.getVoidTy(), Ptr),
                 {StateBlock});
  Instruction *OldBr = B.GetInsertBlock()->getTerminator();
  BranchInst::Create(Exit, OldBr->getIterator());
  OldBr->eraseFromParent();
  removeUnreachableBlocks(F);
  return true;
}

} // namespace

PreservedAnalyses CheckpointedLoopsPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    // Innermost loops first: an outer loop's step then calls the
    // runtime for the inner one.
    SmallVector<std::pair<unsigned, IntrinsicInst *>, 2> Marks;
    {
      DominatorTree DT(F);
      LoopInfo LI(DT);
      for (Instruction &I : instructions(F))
        if (markSchedule(I))
          Marks.push_back({LI.getLoopDepth(I.getParent()),
                           cast<IntrinsicInst>(&I)});
    }
    stable_sort(Marks, [](auto &A, auto &B) { return A.first > B.first; });
    for (auto &[Depth, Mark] : Marks) {
      (void)Depth;
      int Schedule = *markSchedule(*Mark);
      Outliner(F, *Mark, Schedule).run();
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace adcore
