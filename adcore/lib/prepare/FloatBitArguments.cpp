//===- FloatBitArguments.cpp - Float bits passed to functions as integers -===//
//
// C code that moves a double's bits through an integer (`memcpy(&u, &x, 8);
// g(u)`, a hash or a union helper) passes them to a function as an
// integer, or gets them back from one:
//
//   %u = load i64, ptr %res                     ; the bits of a double
//   %d = call ptr @substore(i64 %u, i64 3)      ; substore copies them back
//
// Within one function the engine follows such bits (an integer copy of a
// float has a floating-point view); across a call, an integer parameter has
// no adjoint. Each such call of a function defined in the module calls an
// internal copy instead whose parameter (or result) has the floating-point
// type of those bits: the caller casts the bits to it, the copy casts them
// back at its entry. The primal computes the same bits; the engine sees a
// floating-point argument, and differentiates it like any other in every
// mode. Where the copy only stores the bits or casts them to the float
// (what -O0 and -O2 make of a memcpy), it stores or uses the float itself.
//
// Which integers hold float bits is the type analysis' answer, on the
// caller's side (the argument) or the callee's (the parameter); only whole
// floats count (an i64 that holds a double, an i32 that holds a float). An
// i64 made of two 32-bit words, at least one a float's bits and the other
// a float's or integers' (how -O3 passes `{float f[2]; long l;}`, `{float
// v; int n;}` or `{float v; short n, m;}`), is passed as a `<2 x float>`:
// an integer word rides in its lane as the float of its bits. Such an i64
// returned (x86-64 returns `{float v; int n;}` in one integer register) is
// returned as the struct of its lanes, `{float, i32}`; the caller's cuts
// of the bits become the lanes themselves (PackedWords.h).
//
//===----------------------------------------------------------------------===//

#include "PackedWords.h"
#include "Prepare.h"

#include "analysis/TypeAnalysis.h"
#include "rules/GpuLaunches.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <memory>
#include <optional>

using namespace llvm;

namespace adcore {
namespace {

/// The floating-point type whose bits fill the integer type \p T exactly
/// (i64: double, i32: float), or null.
Type *floatOfWidth(Type *T) {
  if (T->isIntegerTy(64))
    return Type::getDoubleTy(T->getContext());
  if (T->isIntegerTy(32))
    return Type::getFloatTy(T->getContext());
  return nullptr;
}

/// The two 32-bit lanes an i64 is packed from, low word first: each a
/// float or an i32 (a constant too), at least one of them a float. An
/// integer lane may also be the whole i64 of that word (the other word
/// known zero): its bits are cut out where the lanes are passed.
struct PackedLanes {
  Value *Low;
  Value *High;
};

/// The lane of 32 bits that \p W, an i64, widens: the float of `zext
/// (bitcast float %f to i32)`, the i32 of `zext i32 %n`, or the constant
/// \p W is where its high word is zero; null otherwise.
Value *laneOf(Value *W) {
  if (auto *C = dyn_cast<ConstantInt>(W))
    return C->getValue().isIntN(32)
               ? ConstantInt::get(Type::getInt32Ty(W->getContext()),
                                  C->getValue().trunc(32))
               : nullptr;
  auto *Z = dyn_cast<ZExtInst>(W);
  if (!Z || !Z->getSrcTy()->isIntegerTy(32))
    return nullptr;
  Value *Bits = Z->getOperand(0);
  if (auto *BC = dyn_cast<BitCastInst>(Bits); BC && BC->getSrcTy()->isFloatTy())
    return BC->getOperand(0);
  return Bits;
}

/// The high lane that \p W, an i64, places: `shl (zext ...), 32` of a
/// lane, or a constant whose low word is zero; null otherwise.
Value *highLaneOf(Value *W) {
  if (auto *C = dyn_cast<ConstantInt>(W))
    return C->getValue().countr_zero() >= 32
               ? ConstantInt::get(Type::getInt32Ty(W->getContext()),
                                  C->getValue().lshr(32).trunc(32))
               : nullptr;
  auto *Shl = dyn_cast<BinaryOperator>(W);
  auto *Amount = Shl ? dyn_cast<ConstantInt>(Shl->getOperand(1)) : nullptr;
  if (!Shl || Shl->getOpcode() != Instruction::Shl || !Amount ||
      Amount->getZExtValue() != 32 || isa<ConstantInt>(Shl->getOperand(0)))
    return nullptr;
  return laneOf(Shl->getOperand(0));
}

/// The lanes \p V packs into an i64: `or (shl (zext (bitcast float %hi)),
/// 32), (zext (bitcast float %lo))`, how argument promotion passes a union
/// `{float f[2]; long l;}` read as one i64, or the same with one lane an
/// i32 (`or (zext (bitcast float %v)), 3 << 32` for `{float v; int n;}`).
/// std::nullopt where \p V is not made so, or holds no float.
std::optional<PackedLanes> packedLanes(Value *V) {
  auto *Or = dyn_cast<BinaryOperator>(V);
  if (!Or || Or->getOpcode() != Instruction::Or ||
      !V->getType()->isIntegerTy(64))
    return std::nullopt;
  const DataLayout &DL = Or->getModule()->getDataLayout();
  // (Whether the i64 \p W is zero in the word \p High, or the other one.)
  auto ZeroIn = [&](Value *W, bool High) {
    KnownBits Known = computeKnownBits(W, DL);
    return High ? Known.countMinLeadingZeros() >= 32
                : Known.countMinTrailingZeros() >= 32;
  };
  for (unsigned Hi = 0; Hi < 2; ++Hi) {
    Value *High = highLaneOf(Or->getOperand(Hi));
    Value *Low = laneOf(Or->getOperand(1 - Hi));
    // (An integer word built otherwise, `{float v; short n, m;}` packed
    // with more shifts and ors: the whole i64, beside a float.)
    if (!High && Low && Low->getType()->isFloatTy() &&
        ZeroIn(Or->getOperand(Hi), false))
      High = Or->getOperand(Hi);
    if (High && High->getType()->isFloatTy() && !Low &&
        ZeroIn(Or->getOperand(1 - Hi), true))
      Low = Or->getOperand(1 - Hi);
    if (High && Low &&
        (High->getType()->isFloatTy() || Low->getType()->isFloatTy()))
      return PackedLanes{Low, High};
  }
  return std::nullopt;
}

/// The `<2 x float>` \p VT of the lanes \p Lanes, built by \p B (an
/// integer lane travels as the float of the same bits).
Value *vectorOfLanes(IRBuilder<> &B, const PackedLanes &Lanes, Type *VT) {
  auto AsFloat = [&](Value *Lane, bool High) {
    if (Lane->getType()->isIntegerTy(64))
      Lane =
          B.CreateTrunc(High ? B.CreateLShr(Lane, 32) : Lane, B.getInt32Ty());
    return B.CreateBitCast(Lane, B.getFloatTy());
  };
  return B.CreateInsertElement(B.CreateInsertElement(PoisonValue::get(VT),
                                                     AsFloat(Lanes.Low, false),
                                                     uint64_t(0)),
                               AsFloat(Lanes.High, true), uint64_t(1));
}

/// Whether \p V, an i64, holds a float in either word (and a float or an
/// integer in the other): packed from them, cast from a `<2 x float>`, or
/// loaded from memory that \p Types says holds them.
bool holdsPackedFloats(Value *V, const TypeAnalysis &Types) {
  if (!V->getType()->isIntegerTy(64))
    return false;
  if (packedLanes(V))
    return true;
  if (auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getSrcTy() ==
           FixedVectorType::get(Type::getFloatTy(V->getContext()), 2);
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI || !LI->isSimple())
    return false;
  Kind Low = Types.memoryKind(LI->getPointerOperand(), 0);
  Kind High = Types.memoryKind(LI->getPointerOperand(), 4);
  auto IsLane = [](Kind K) { return K == Kind::Float || K == Kind::Integer; };
  return IsLane(Low) && IsLane(High) &&
         (Low == Kind::Float || High == Kind::Float);
}

/// Whether the kind \p K is that of the floating-point type \p FT.
bool isKindOf(Kind K, const Type *FT) {
  return FT && ((FT->isDoubleTy() && K == Kind::Double) ||
                (FT->isFloatTy() && K == Kind::Float));
}

/// Which parameters, and whether the result, of a copy carry float bits as
/// floats: the floating-point type of each parameter retyped (double,
/// float, or two floats for the two words of an i64, one a float at
/// least), null for the others, and the same for the result.
struct Retyping {
  SmallVector<Type *, 8> Params;
  Type *Result = nullptr;

  bool any() const {
    return Result || any_of(Params, [](Type *T) { return T != nullptr; });
  }
  std::string suffix() const {
    std::string S = ".floatbits.";
    for (Type *P : Params)
      S += !P ? '_' : P->isVectorTy() ? 'v' : 'f';
    if (Result)
      S += Result->isStructTy() ? 'p' : 'r';
    return S;
  }
};

/// Whether \p F returns the bits of a whole float of its result's width in
/// every return, as its type analysis \p Types sees them.
bool returnsWholeFloatBits(Function &F, const TypeAnalysis &Types) {
  Type *FT = floatOfWidth(F.getReturnType());
  if (!FT)
    return false;
  bool Any = false;
  for (BasicBlock &BB : F) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    Value *V = Ret->getReturnValue();
    auto *LI = dyn_cast<LoadInst>(V);
    if (!isKindOf(Types.kindOf(V), FT) &&
        !(LI && isKindOf(Types.memoryKind(LI->getPointerOperand()), FT)))
      return false;
    Any = true;
  }
  return Any;
}

/// The type of a 32-bit lane of packed bits: float or i32 (an integer, or
/// the whole i64 of an integer word).
Type *laneType(Value *Lane) {
  return Lane->getType()->isFloatTy() ? Lane->getType()
                                      : Type::getInt32Ty(Lane->getContext());
}

/// The lanes' types, `{float, i32}`, `{i32, float}` or `{float, float}`,
/// where \p F returns an i64 packed from a float and a float's or
/// integers' bits (`{float v; int n;}` by value) with the same types in
/// every return, as its type analysis \p Types sees them; else null.
StructType *packedResultLanes(Function &F, const TypeAnalysis &Types) {
  if (!F.getReturnType()->isIntegerTy(64))
    return nullptr;
  LLVMContext &C = F.getContext();
  auto KindType = [&](Kind K) -> Type * {
    return K == Kind::Float     ? Type::getFloatTy(C)
           : K == Kind::Integer ? Type::getInt32Ty(C)
                                : nullptr;
  };
  StructType *Lanes = nullptr;
  for (BasicBlock &BB : F) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    Value *V = Ret->getReturnValue();
    Type *Low = nullptr, *High = nullptr;
    if (auto Packed = packedLanes(V)) {
      // (An integer lane that holds a float's bits is no integer.)
      for (Value *Lane : {Packed->Low, Packed->High})
        if (!Lane->getType()->isFloatTy() && Types.kindOf(Lane) == Kind::Float)
          return nullptr;
      Low = laneType(Packed->Low);
      High = laneType(Packed->High);
    } else if (auto *BC = dyn_cast<BitCastInst>(V);
               BC &&
               BC->getSrcTy() == FixedVectorType::get(Type::getFloatTy(C), 2)) {
      Low = High = Type::getFloatTy(C);
    } else if (auto *LI = dyn_cast<LoadInst>(V); LI && LI->isSimple()) {
      Low = KindType(Types.memoryKind(LI->getPointerOperand(), 0));
      High = KindType(Types.memoryKind(LI->getPointerOperand(), 4));
    }
    if (!Low || !High || (!Low->isFloatTy() && !High->isFloatTy()))
      return nullptr;
    StructType *These = StructType::get(C, {Low, High});
    if (Lanes && Lanes != These)
      return nullptr;
    Lanes = These;
  }
  return Lanes;
}

/// The lanes of the i64 \p V, packed as \p Lanes says, built by \p B: a
/// `{float, i32}` or the like.
Value *structOfLanes(IRBuilder<> &B, Value *V, StructType *Lanes) {
  Value *Low, *High;
  if (auto Packed = packedLanes(V)) {
    auto Cut = [&](Value *Lane, bool IsHigh) {
      if (Lane->getType()->isIntegerTy(64))
        Lane = B.CreateTrunc(IsHigh ? B.CreateLShr(Lane, 32) : Lane,
                             B.getInt32Ty());
      return Lane;
    };
    Low = Cut(Packed->Low, false);
    High = Cut(Packed->High, true);
  } else if (auto *BC = dyn_cast<BitCastInst>(V);
             BC && BC->getSrcTy()->isVectorTy()) {
    Low = B.CreateExtractElement(BC->getOperand(0), uint64_t(0));
    High = B.CreateExtractElement(BC->getOperand(0), uint64_t(1));
  } else {
    auto *LI = cast<LoadInst>(V);
    Value *Ptr = LI->getPointerOperand();
    Low = B.CreateAlignedLoad(Lanes->getElementType(0), Ptr, LI->getAlign());
    High =
        B.CreateAlignedLoad(Lanes->getElementType(1),
                            B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, 4),
                            commonAlignment(LI->getAlign(), 4));
  }
  return B.CreateInsertValue(
      B.CreateInsertValue(PoisonValue::get(Lanes), Low, 0), High, 1);
}

/// Removes the attributes of integers (signext, range, ...) that a value of
/// the type \p T may not carry from \p AL at \p Index.
AttributeList dropIncompatible(LLVMContext &C, AttributeList AL, unsigned Index,
                               Type *T) {
  AttributeSet AS = AL.getAttributes(Index);
  return AL.removeAttributesAtIndex(C, Index,
                                    AttributeFuncs::typeIncompatible(T, AS));
}

/// Whether the local variable \p AI only moves the bits stored into it:
/// it is copied whole, or read into values that are only stored, cast to
/// floats or passed to calls. (Bits that integer operations take apart
/// stay an integer store, which the engine refuses where it must.)
bool onlyMovesBits(const AllocaInst &AI) {
  for (const User *U : AI.users()) {
    if (isa<StoreInst>(U) || isa<MemTransferInst>(U) ||
        isa<LifetimeIntrinsic>(U))
      continue;
    const auto *LI = dyn_cast<LoadInst>(U);
    if (!LI)
      return false;
    for (const User *V : LI->users())
      if (!isa<StoreInst>(V) && !isa<CallBase>(V) &&
          !(isa<BitCastInst>(V) && V->getType()->isFPOrFPVectorTy()))
        return false;
  }
  return true;
}

/// Gives the casts of a float to integer bits, \p Bits, that the copy made
/// at its entry (or the caller after its call) the float itself where
/// they are stored or cast back to a float.
void useFloatDirectly(CastInst *Bits) {
  Value *Float = Bits->getOperand(0);
  for (User *U : make_early_inc_range(Bits->users())) {
    if (auto *BC = dyn_cast<BitCastInst>(U);
        BC && BC->getType() == Float->getType()) {
      BC->replaceAllUsesWith(Float);
      BC->eraseFromParent();
      continue;
    }
    auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getValueOperand() != Bits)
      continue;
    if (auto *AI = dyn_cast<AllocaInst>(SI->getPointerOperand());
        AI && !onlyMovesBits(*AI))
      continue;
    // (Without the store's TBAA: it named the integer.)
    auto *New = new StoreInst(Float, SI->getPointerOperand(), SI->isVolatile(),
                              SI->getAlign(), SI->getIterator());
    New->setDebugLoc(SI->getDebugLoc());
    SI->eraseFromParent();
  }
  if (Bits->use_empty())
    Bits->eraseFromParent();
}

/// The internal copy of \p F retyped as \p R says.
Function *retypedCopy(Function &F, const Retyping &R) {
  Module &M = *F.getParent();
  std::string Name = (F.getName() + R.suffix()).str();
  if (Function *Copy = M.getFunction(Name))
    return Copy;
  FunctionType *FT = F.getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  for (unsigned I = 0; I < Params.size(); ++I)
    if (R.Params[I])
      Params[I] = R.Params[I];
  Type *Result = R.Result ? R.Result : FT->getReturnType();
  Function *Copy =
      Function::Create(FunctionType::get(Result, Params, FT->isVarArg()),
                       GlobalValue::InternalLinkage, Name, M);
  ValueToValueMapTy VMap;
  SmallVector<CastInst *, 4> Casts;
  for (auto [Old, New] : zip(F.args(), Copy->args())) {
    New.setName(Old.getName());
    if (New.getType() == Old.getType()) {
      VMap[&Old] = &New;
      continue;
    }
    // (Placed at the entry once the body is there.)
    Casts.push_back(
        new BitCastInst(&New, Old.getType(), Old.getName() + ".bits"));
    VMap[&Old] = Casts.back();
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Copy, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  LLVMContext &C = M.getContext();
  AttributeList AL = Copy->getAttributes();
  for (unsigned I = 0; I < Params.size(); ++I)
    if (R.Params[I])
      AL = dropIncompatible(C, AL, AttributeList::FirstArgIndex + I, Params[I]);
  if (R.Result)
    AL = dropIncompatible(C, AL, AttributeList::ReturnIndex, Result);
  Copy->setAttributes(AL);
  BasicBlock &Entry = Copy->getEntryBlock();
  for (CastInst *Cast : Casts) {
    Cast->insertBefore(Entry.getFirstInsertionPt());
    useFloatDirectly(Cast);
  }
  if (!R.Result)
    return Copy;
  for (ReturnInst *Ret : Returns) {
    if (!Ret->getParent())
      continue;
    Value *V = Ret->getReturnValue();
    IRBuilder<> B(Ret);
    Value *Float;
    if (auto *BC = dyn_cast<BitCastInst>(V); BC && BC->getSrcTy() == Result)
      Float = BC->getOperand(0);
    else if (auto *Lanes = dyn_cast<StructType>(Result))
      Float = structOfLanes(B, V, Lanes);
    else if (auto *LI = dyn_cast<LoadInst>(V); LI && LI->hasOneUse())
      // (A load of the result's variable at -O0: of the float instead.)
      Float = B.CreateAlignedLoad(Result, LI->getPointerOperand(),
                                  LI->getAlign(), LI->isVolatile());
    else
      Float = B.CreateBitCast(V, Result);
    ReturnInst::Create(C, Float, Ret->getIterator())
        ->setDebugLoc(Ret->getDebugLoc());
    Ret->eraseFromParent();
    // (The load or the integer operations that packed the bits.)
    RecursivelyDeleteTriviallyDeadInstructions(V);
  }
  return Copy;
}

/// Makes \p Call call the copy of its callee that \p R describes.
void callRetypedCopy(CallBase &Call, Function &Copy, const Retyping &R) {
  IRBuilder<> B(&Call);
  LLVMContext &C = Call.getContext();
  SmallVector<Value *, 8> Args;
  SmallVector<LoadInst *, 2> Loads; // of bits now loaded as floats
  SmallVector<WeakTrackingVH, 2> Packed; // bits packed from floats
  AttributeList AL = Call.getAttributes();
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Value *A = Call.getArgOperand(I);
    if (I < R.Params.size() && R.Params[I]) {
      Type *FT = Copy.getArg(I)->getType();
      auto *BC = dyn_cast<BitCastInst>(A);
      auto *LI = dyn_cast<LoadInst>(A);
      if (BC && BC->getSrcTy() == FT) {
        A = BC->getOperand(0);
      } else if (auto Floats = packedLanes(A); Floats && FT->isVectorTy()) {
        // (Two lanes packed into the bits: the vector of them.)
        A = vectorOfLanes(B, *Floats, FT);
        Packed.push_back(Call.getArgOperand(I));
      } else if (LI && LI->hasOneUse() && LI->isSimple()) {
        // (The bits loaded for the call alone: loaded as the float, as
        // InstCombine would, without the TBAA that named the integer.)
        auto *Float =
            new LoadInst(FT, LI->getPointerOperand(), LI->getName() + ".float",
                         false, LI->getAlign(), LI->getIterator());
        Float->setDebugLoc(LI->getDebugLoc());
        Loads.push_back(LI);
        A = Float;
      } else {
        A = B.CreateBitCast(A, FT);
      }
      AL = dropIncompatible(C, AL, AttributeList::FirstArgIndex + I, FT);
    }
    Args.push_back(A);
  }
  SmallVector<OperandBundleDef, 2> Bundles;
  Call.getOperandBundlesAsDefs(Bundles);
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(&Call))
    New = InvokeInst::Create(&Copy, II->getNormalDest(), II->getUnwindDest(),
                             Args, Bundles, "", Call.getIterator());
  else
    New = CallInst::Create(&Copy, Args, Bundles, "", Call.getIterator());
  if (R.Result)
    AL = dropIncompatible(C, AL, AttributeList::ReturnIndex,
                          Copy.getReturnType());
  New->setAttributes(AL);
  New->setCallingConv(Call.getCallingConv());
  New->setDebugLoc(Call.getDebugLoc());
  New->takeName(&Call);
  if (R.Result) {
    // The bits again, where the call's value was used.
    BasicBlock::iterator At =
        isa<InvokeInst>(New)
            ? cast<InvokeInst>(New)->getNormalDest()->getFirstInsertionPt()
            : std::next(New->getIterator());
    if (R.Result->isStructTy()) {
      // (Its lanes, where the caller cuts them out of the bits or stores
      // them.)
      auto *Low = ExtractValueInst::Create(New, 0, New->getName() + ".lo", At);
      auto *High = ExtractValueInst::Create(New, 1, New->getName() + ".hi", At);
      replacePackedWord(Call, Low, High, std::next(High->getIterator()));
    } else {
      auto *Bits = CastInst::Create(Instruction::BitCast, New, Call.getType(),
                                    New->getName() + ".bits", At);
      Call.replaceAllUsesWith(Bits);
      useFloatDirectly(Bits);
    }
  } else {
    Call.replaceAllUsesWith(New);
  }
  Call.eraseFromParent();
  for (LoadInst *LI : Loads)
    LI->eraseFromParent();
  // (The integer operations that packed them, now unused.)
  for (WeakTrackingVH &V : Packed)
    if (V)
      RecursivelyDeleteTriviallyDeadInstructions(V);
}

} // namespace

bool passFloatBitsAsFloats(Function &F,
                           function_ref<bool(const Function &)> HasRule) {
  SmallVector<CallBase *, 8> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        Function *Callee = Call->getCalledFunction();
        if (!Callee || Callee->isDeclaration() || Callee->isInterposable() ||
            Callee->isVarArg() || Callee->isIntrinsic() ||
            Call->isMustTailCall() || Call->hasOperandBundles() ||
            Call->getFunctionType() != Callee->getFunctionType() ||
            HasRule(*Callee) ||
            // (A kernel's launch stub: what the launch passes the kernel,
            // which a copy would not launch.)
            !gpuLaunchKind(*Callee).empty())
          continue;
        if (floatOfWidth(Call->getType()) ||
            any_of(Call->args(), [](const Use &U) {
              return floatOfWidth(U->getType()) != nullptr;
            }))
          Calls.push_back(Call);
      }
  if (Calls.empty())
    return false;
  std::unique_ptr<TypeAnalysis> Types;
  DenseMap<Function *, std::unique_ptr<TypeAnalysis>> CalleeTypes;
  // (What to retype first, then the rewrites: they erase values the
  // analyses know.)
  SmallVector<std::pair<CallBase *, Retyping>, 8> Rewrites;
  for (CallBase *Call : Calls) {
    Function &Callee = *Call->getCalledFunction();
    Retyping R;
    R.Params.assign(Callee.arg_size(), nullptr);
    std::unique_ptr<TypeAnalysis> &CT = CalleeTypes[&Callee];
    for (unsigned I = 0; I < Callee.arg_size(); ++I) {
      Value *A = Call->getArgOperand(I);
      Type *FT = floatOfWidth(A->getType());
      if (!FT)
        continue;
      if (!Types)
        Types = std::make_unique<TypeAnalysis>(F);
      if (!CT)
        CT = std::make_unique<TypeAnalysis>(Callee);
      if (isKindOf(Types->kindOf(A), FT) ||
          isKindOf(CT->kindOf(Callee.getArg(I)), FT))
        R.Params[I] = FT;
      else if (holdsPackedFloats(A, *Types))
        R.Params[I] =
            FixedVectorType::get(Type::getFloatTy(A->getContext()), 2);
    }
    if (floatOfWidth(Call->getType()) && !Call->use_empty()) {
      if (!CT)
        CT = std::make_unique<TypeAnalysis>(Callee);
      if (!isa<InvokeInst>(Call) ||
          cast<InvokeInst>(Call)->getNormalDest()->getSinglePredecessor()) {
        if (returnsWholeFloatBits(Callee, *CT))
          R.Result = floatOfWidth(Call->getType());
        else
          R.Result = packedResultLanes(Callee, *CT);
      }
    }
    if (R.any())
      Rewrites.push_back({Call, std::move(R)});
  }
  for (auto &[Call, R] : Rewrites) {
    Function &Callee = *Call->getCalledFunction();
    Function *Copy = retypedCopy(Callee, R);
    // (A result that is the bits of a parameter now a float, `return u;`:
    // the copy returns the float too.)
    if (!R.Result && floatOfWidth(Call->getType()) && !Call->use_empty() &&
        !isa<InvokeInst>(Call) &&
        returnsWholeFloatBits(*Copy, TypeAnalysis(*Copy))) {
      R.Result = floatOfWidth(Call->getType());
      Function *Unused = Copy;
      Copy = retypedCopy(Callee, R);
      if (Unused->use_empty())
        Unused->eraseFromParent();
    }
    callRetypedCopy(*Call, *Copy, R);
  }
  return !Rewrites.empty();
}

} // namespace adcore
