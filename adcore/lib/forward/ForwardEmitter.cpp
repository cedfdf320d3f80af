//===- ForwardEmitter.cpp - Signature, cloning, traversal ----------------===//

#include "ForwardEmitter.h"
#include "support/IRMarks.h"

#include "support/CallSites.h"
#include "support/ContractArithmetic.h"
#include "support/DerivativeStops.h"
#include "support/MemoryScopes.h"
#include "analysis/NullableShadows.h"
#include "analysis/IntegerAddresses.h"
#include "analysis/TableLookups.h"
#include "rules/MpiRules.h"
#include "llvm/Analysis/ValueTracking.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace adcore {

ForwardEmitter::ForwardEmitter(SynthesisContext &Ctx, const DerivativeKey &Key,
                               Function &Derivative)
    : Ctx(Ctx), Key(Key), Derivative(Derivative), Width(Key.Width),
      B(Derivative.getContext()) {}

bool ForwardEmitter::isActive(const Value *V) const {
  return Tangents.count(const_cast<Value *>(V)) != 0;
}

const TypeAnalysis &ForwardEmitter::types() {
  // Only integer operations on shadowed memory ask: most derivatives never
  // need the type analysis.
  if (!Types)
    Types = std::make_unique<TypeAnalysis>(*Key.Primal);
  return *Types;
}

Kind ForwardEmitter::primalKind(const Value *V) {
  const Value *Primal = PrimalOf.lookup(V);
  if (!Primal)
    return Kind::Unknown;
  return types().kindOf(Primal);
}

bool ForwardEmitter::isNumber(const Value *V) {
  return V->getType()->isIntOrIntVectorTy() && primalKind(V) == Kind::Integer;
}

void ForwardEmitter::dropActiveNumbers() {
  // The activity analysis takes an integer whose bits only move (loaded,
  // merged by a phi, stored) for the bits of a float or a pointer. Where
  // the type analysis knows it is a number, it has no tangent: one made
  // for it would be a zero plus its constants (`nAtoms[iBox]++` merged by
  // a phi at -O2 gave a tangent of 1), and a store would write it into
  // the shadow, which may be the primal's own table.
  SmallVector<const Value *, 8> Numbers;
  for (const Value *V : ActiveClones)
    if (V->getType()->isIntOrIntVectorTy() &&
        isa<PHINode, SelectInst, BinaryOperator, CastInst, LoadInst,
            FreezeInst>(V) &&
        isNumber(V) && !isIntegerAddress(*V))
      Numbers.push_back(V);
  for (const Value *V : Numbers)
    ActiveClones.erase(V);
}

bool ForwardEmitter::holdsFloatBits(const Value *V) {
  Kind K = primalKind(V);
  return K == Kind::Float || K == Kind::Double;
}

bool ForwardEmitter::carriesFloatBits(const Value *V, unsigned Depth) {
  const Value *P = PrimalOf.lookup(V);
  return P && primalCarriesFloatBits(P, Depth);
}

bool ForwardEmitter::primalCarriesFloatBits(const Value *P, unsigned Depth) {
  Kind K = types().kindOf(P);
  if (K == Kind::Float || K == Kind::Double)
    return true;
  if (const auto *Call = dyn_cast<CallBase>(P))
    if (Function *Callee = Call->getCalledFunction())
      return returnsFloatBits(*Callee);
  if (Depth == 0)
    return false;
  if (const auto *BC = dyn_cast<BitCastInst>(P))
    return BC->getSrcTy()->isFPOrFPVectorTy() ||
           primalCarriesFloatBits(BC->getOperand(0), Depth - 1);
  // What a stack slot holds: whatever was stored into it (at -O0, `u` in
  // `uint64_t u = bits_of(x); uint32_t hi = u >> 32;`).
  if (const auto *LI = dyn_cast<LoadInst>(P)) {
    const auto *Slot =
        dyn_cast<AllocaInst>(getUnderlyingObject(LI->getPointerOperand()));
    return Slot && any_of(Slot->users(), [&](const User *U) {
             const auto *S = dyn_cast<StoreInst>(U);
             return S && S->getPointerOperand() == Slot &&
                    primalCarriesFloatBits(S->getValueOperand(), Depth - 1);
           });
  }
  if (!isa<TruncInst, ZExtInst, ExtractValueInst, BinaryOperator>(P))
    return false;
  return any_of(cast<User>(P)->operands(), [&](const Use &Op) {
    return primalCarriesFloatBits(Op.get(), Depth - 1);
  });
}

Value *ForwardEmitter::zero(Type *PrimalTy) {
  return Constant::getNullValue(shadowType(PrimalTy, Width));
}

Value *ForwardEmitter::tangentOrNull(Value *V) {
  auto It = Tangents.find(V);
  return It == Tangents.end() ? nullptr : It->second;
}

Value *ForwardEmitter::tangent(Value *V) {
  if (Value *T = tangentOrNull(V))
    return T;
  return zero(V->getType());
}

Value *ForwardEmitter::lane(Value *Shadow, unsigned L) {
  return Width == 1 ? Shadow : B.CreateExtractValue(Shadow, L);
}

Value *ForwardEmitter::forEachLane(Type *PrimalTy,
                                   function_ref<Value *(unsigned)> Fn) {
  if (Width == 1)
    return Fn(0);
  Value *R = PoisonValue::get(shadowType(PrimalTy, Width));
  for (unsigned L = 0; L < Width; ++L)
    R = B.CreateInsertValue(R, Fn(L), L);
  return R;
}

bool ForwardEmitter::unsupported(Instruction &I, const Twine &What) {
  Ctx.error(Ctx.placeOf(I, *Key.Primal),
            "cannot differentiate " + Ctx.describe(*Key.Primal) +
                (Key.ErrorEstimate ? " in forward-mode error estimation: "
                                   : " in forward mode: ") +
                What);
  return false;
}

bool ForwardEmitter::visitInstruction(Instruction &I) {
  bool Involved = isActive(&I) || any_of(I.operands(), [&](const Use &U) {
                    return isActive(U.get());
                  });
  if (!Involved)
    return true;
  return unsupported(I, Twine("the instruction '") + I.getOpcodeName() +
                            "' is not supported yet");
}

/// A tangent is a sum of contributions in no particular order, and the sign
/// of a zero tangent means nothing (as an adjoint in reverse mode): the
/// sums of the derivative code get `reassoc nsz`. A tangent summed over a
/// loop (`s += x[i] * y[i]`) is then a reduction the vectorizer takes,
/// where the primal's own sum, in the order the program wrote it, is not.
static void
looseTangentSums(Function &F,
                 function_ref<bool(const Instruction &)> IsDerivativeCode) {
  for (Instruction &I : instructions(F)) {
    if (!isa<FPMathOperator>(I) || !IsDerivativeCode(I))
      continue;
    auto *II = dyn_cast<IntrinsicInst>(&I);
    bool Sum = I.getOpcode() == Instruction::FAdd ||
               I.getOpcode() == Instruction::FSub ||
               (II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
                       II->getIntrinsicID() == Intrinsic::vector_reduce_fadd));
    if (!Sum)
      continue;
    I.setHasAllowReassoc(true);
    I.setHasNoSignedZeros(true);
  }
}

bool ForwardEmitter::run() {
  Function &Primal = *Key.Primal;
  if (Primal.isDeclaration())
    return false;
  if (Primal.isVarArg()) {
    Ctx.error(*Primal.getEntryBlock().begin(),
              "cannot differentiate the variadic function '" +
                  Primal.getName() + "'");
    return false;
  }

  // Map primal parameters to the derivative's primal parameters; remember
  // where each shadow parameter is.
  ValueToValueMapTy VMap;
  SmallVector<std::pair<Argument *, SmallVector<Argument *, 4>>, 8> ShadowArgs;
  // (Parameters whose lanes lie side by side: DerivativeKey::InterleavedArgs.)
  SmallVector<Argument *, 4> InterleavedParams;
  auto DArg = Derivative.arg_begin();
  for (Argument &A : Primal.args()) {
    Argument *P = &*DArg++;
    P->setName(A.getName());
    VMap[&A] = P;
    if (Key.Args[A.getArgNo()] == ArgActivity::Const)
      continue;
    Unneeded.note(A, Key.Args[A.getArgNo()], *P);
    SmallVector<Argument *, 4> Lanes;
    for (unsigned L = 0; L < Width; ++L) {
      Argument *S = &*DArg++;
      S->setName(A.getName() + ".shadow");
      Lanes.push_back(S);
    }
    ShadowArgs.push_back({P, Lanes});
    if (A.getArgNo() < 64 && (Key.InterleavedArgs >> A.getArgNo() & 1))
      InterleavedParams.push_back(P);
  }
  if (Key.Split) {
    Records = &*DArg;
    Records->setName("records");
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
  // (Forward mode over a reverse sweep: a pointer the augmented sweep
  // recorded has, in its shadow record, the tangent the outer derivative
  // gave it, null for a pointer to memory without derivatives there.)
  // (Unless the key says the tangent is never null, or always:
  // ForwardRecords.cpp.)
  SmallVector<const Value *, 4> Recorded;
  SmallPtrSet<const Value *, 4> NullRecords;
  for (auto [No, LI] : enumerate(recordedPointerLoads(Primal))) {
    if (No >= 64 || !(Key.NonNullRecords >> No & 1))
      Recorded.push_back(LI);
    if (No < 64 && (Key.NullRecords >> No & 1))
      NullRecords.insert(LI);
  }
  NullableShadows Nullables(Primal, PrimalActivity, types(),
                            {Key.NullableShadows, Key.NullReaching}, Recorded);

  SmallVector<ReturnInst *, 4> ClonedReturns;
  CloneFunctionInto(&Derivative, &Primal, VMap,
                    CloneFunctionChangeType::GlobalChanges, ClonedReturns);
  prepareDerivativeFunction(Primal, Derivative);
  Returns.assign(ClonedReturns.begin(), ClonedReturns.end());
  // The primal's own loads and stores touch primal memory only (a
  // derivative's shadows too, where it is differentiated again); the
  // tangents' are tagged as shadow accesses where they are made.
  for (BasicBlock &BB : Derivative)
    for (Instruction &I : BB)
      tagPrimalCopy(I);

  // Activity of the clone: the primal's, through the value map.
  if (Width > 1)
    for (const BasicBlock *BB : vectorLaneBlocks(Primal, Ctx.loopVectorizer()))
      VectorLaneBlocks.insert(cast<BasicBlock>(VMap[BB]));
  for (const auto &[Orig, Clone] : VMap) {
    if (Clone)
      PrimalOf[Clone] = Orig;
    if (PrimalActivity.isActive(Orig))
      ActiveClones.insert(Clone);
    else if (auto *LI = dyn_cast<LoadInst>(Orig);
             LI && !PrimalActivity.mayHoldDerivatives(LI->getPointerOperand()))
      ConstantLoads.insert(Clone);
    if (PrimalActivity.cleanStackPointer(Orig))
      CleanSlotClones.insert(Clone);
    if (Nullables.mayBeNull(Orig)) {
      NullableClones.insert(Clone);
      NullablePrimals.insert(Orig);
    }
    if (NullRecords.contains(Orig))
      NullRecordClones.insert(Clone);
    if (auto *Call = dyn_cast<CallBase>(Orig))
      CalleeNullableBits[Clone] = Nullables.calleeBits(*Call);
  }
  dropActiveNumbers();
  copyParameterAttributes(Primal, Derivative, Key);
  Unneeded.collectWrites(Derivative);
  // A shadow is one value at width 1, an array of the lanes' values above.
  B.SetInsertPoint(Derivative.getEntryBlock().getFirstNonPHIIt());
  for (auto &[P, Lanes] : ShadowArgs) {
    if (Width == 1) {
      Tangents[P] = Lanes.front();
      continue;
    }
    // (Lanes side by side, as the caller found its array and this
    // parameter used: the same test on this clone.)
    if (is_contained(InterleavedParams, P)) {
      Type *T = interleavedElementType(
          *P, Derivative.getParent()->getDataLayout(),
          [&](const CallBase &C) { return plainUserCall(C); }, /*Depth=*/4);
      if (!T) {
        Ctx.error(Ctx.placeOf(Derivative.getEntryBlock().front(), *Key.Primal),
                  "internal error: the shadows of parameter '" +
                      P->getName() + "' of " +
                      Ctx.describe(*Key.Primal) +
                      " hold their lanes side by side, which this function "
                      "does not allow");
        return false;
      }
      Interleaved[P] = T;
    }
    Value *Pack = PoisonValue::get(shadowType(P->getType(), Width));
    for (unsigned L = 0; L < Width; ++L)
      Pack = B.CreateInsertValue(Pack, Lanes[L], L);
    Tangents[P] = Pack;
  }
  // A global's tangent lives in its shadow global.
  std::string Reused;
  if (const Instruction *At = reusedShadowGlobal(
          PrimalActivity.shadowedGlobals(), Primal, Ctx.rules(), Reused))
    return unsupported(*const_cast<Instruction *>(At), Reused);
  for (GlobalVariable *G : PrimalActivity.shadowedGlobals()) {
    ActiveClones.insert(G);
    Tangents[G] = forEachLane(G->getType(), [&](unsigned L) {
      return shadowGlobal(*G, L, Ctx.rules());
    });
  }

  SmallVector<PHINode *, 16> Phis;
  ReversePostOrderTraversal<Function *> RPOT(&Derivative);
  for (BasicBlock *BB : RPOT) {
    SmallVector<Instruction *, 64> Insts;
    for (Instruction &I : *BB)
      Insts.push_back(&I);
    for (Instruction *I : Insts) {
      if (auto *Phi = dyn_cast<PHINode>(I)) {
        if (ActiveClones.contains(Phi)) {
          B.SetInsertPoint(BB->getFirstNonPHIIt());
          // (Where the lanes are computed in vectors, a vector phi: an
          // array's would be taken apart and packed again every iteration.)
          bool Vector = Width > 1 && Phi->getType()->isFloatingPointTy() &&
                        VectorLaneBlocks.contains(BB);
          PHINode *TPhi = B.CreatePHI(
              Vector ? FixedVectorType::get(Phi->getType(), Width)
                     : shadowType(Phi->getType(), Width),
              Phi->getNumIncomingValues(), Phi->getName() + ".tangent");
          Tangents[Phi] = Vector ? unpackLanes(TPhi) : TPhi;
          if (Vector)
            VectorPhis[Phi] = TPhi;
          Phis.push_back(Phi);
        }
        continue;
      }
      // Values that are active get a tangent; instructions without a value
      // (stores, calls) are visited whenever an operand is active. MPI calls
      // with a rule are visited always: a message carries its tangents on
      // every rank, and a probe's count is the primal's (MpiRules.h).
      auto *Call = dyn_cast<CallBase>(I);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      bool Wanted = ActiveClones.contains(I) ||
                    any_of(I->operands(),
                           [&](const Use &U) { return isActive(U.get()); }) ||
                    (Callee && (Callee->hasFnAttribute(UsesTapeAttribute) ||
                                isMpiRuleFunction(*Callee)));
      // (A value marked as having none gets no tangent: an addition that
      // rounds, prepare/RoundingConstants.cpp.)
      if (!Wanted || (I->hasMetadata(NoDerivativeMetadata) &&
                      !I->getType()->isVoidTy()))
        continue;
      if (!I->isTerminator())
        B.SetInsertPoint(I->getNextNode());
      else
        B.SetInsertPoint(I);
      B.SetCurrentDebugLocation(I->getDebugLoc());
      if (!visit(*I))
        return false;
      if (I->hasMetadata(ScaledTangentMetadata))
        if (Value *T = Tangents.lookup(I))
          ScaledTangents.push_back({I, T});
    }
  }
  if (!emitPhis(Phis) || !emitReturns())
    return false;
  for (Instruction *I : Dead)
    I->eraseFromParent();
  Unneeded.dropWrites();
  if (Key.Split && !finishSplit())
    return false;
  // (Blocks split last: the emission above keeps maps of the primal's.)
  for (auto [I, T] : ScaledTangents)
    emitTangentOverflowStop(
        *I, *T,
        cast<MDString>(I->getMetadata(ScaledTangentMetadata)->getOperand(0))
            ->getString());
  // (What is not a clone of the primal's code is derivative code.)
  auto IsDerivativeCode = [&](const Instruction &I) {
    return !PrimalOf.count(&I);
  };
  if (!Key.ErrorEstimate)
    looseTangentSums(Derivative, IsDerivativeCode);
  if (Ctx.contractsDerivatives())
    contractDerivativeArithmetic(Derivative, IsDerivativeCode);
  // (Verified with the whole module: SynthesisContext::verifyGenerated.)
  return true;
}

bool ForwardEmitter::emitPhis(ArrayRef<PHINode *> Phis) {
  for (PHINode *Phi : Phis) {
    PHINode *Vector = VectorPhis.lookup(Phi);
    auto *TPhi = Vector ? Vector : cast<PHINode>(Tangents[Phi]);
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
      BasicBlock *In = Phi->getIncomingBlock(I);
      B.SetInsertPoint(In->getTerminator());
      Value *T = tangent(Phi->getIncomingValue(I));
      TPhi->addIncoming(Vector ? packLanes(T) : T, In);
    }
  }
  return true;
}

bool ForwardEmitter::emitReturns() {
  Type *RetTy = Derivative.getReturnType();
  for (ReturnInst *Ret : Returns) {
    B.SetInsertPoint(Ret);
    B.SetCurrentDebugLocation(Ret->getDebugLoc());
    Value *Primal = Ret->getReturnValue();
    Value *Result = nullptr;
    bool WantPrimal = Primal && Key.ReturnPrimal;
    bool WantShadow = Primal && Key.ReturnShadow;
    if (WantPrimal && WantShadow) {
      Result = B.CreateInsertValue(PoisonValue::get(RetTy), Primal, 0);
      Result = B.CreateInsertValue(Result, tangent(Primal), 1);
    } else if (WantPrimal) {
      Result = Primal;
    } else if (WantShadow) {
      Result = tangent(Primal);
    }
    if (Result)
      B.CreateRet(Result);
    else
      B.CreateRetVoid();
    Ret->eraseFromParent();
  }
  return true;
}

} // namespace adcore
