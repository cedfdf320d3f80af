//===- EnzymeCallParsing.cpp - Reading an Enzyme-style request's arguments ===//
//
// The markers, values and shadows of a request call (EnzymeCalls.h), read
// into the derivative's key and argument list.
//
//===----------------------------------------------------------------------===//

#include "DenseViews.h"
#include "EnzymeCallLowering.h"
#include "EnzymeCalls.h"
#include "RequestValueTypes.h"
#include "SplitResults.h"
#include "adcore/EntryPoints.h"
#include "adcore/ParamShapes.h"
#include "support/ScratchShadows.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace adcore {

Value *EnzymeCallLowering::next(const Twine &What) {
  if (Next >= PrimalEnd) {
    error("too few arguments to " + entryPointName(R.Kind) + " for '" +
          R.Primal->getName() + "': missing " + What +
          (PrimalEnd < Call.arg_size() ? " before enzyme_interleave" : ""));
    return nullptr;
  }
  return Call.getArgOperand(Next++);
}

Value *EnzymeCallLowering::nextShadow(const Twine &What) {
  if (!ShadowNext)
    return next(What);
  if (ShadowNext >= Call.arg_size()) {
    error("too few arguments to " + entryPointName(R.Kind) + " for '" +
          R.Primal->getName() + "': missing " + What +
          " after enzyme_interleave");
    return nullptr;
  }
  return Call.getArgOperand(ShadowNext++);
}

void EnzymeCallLowering::findInterleave() {
  PrimalEnd = Call.arg_size();
  for (unsigned I = Next; I < Call.arg_size(); ++I) {
    StringRef Name;
    if (markerOf(Call.getArgOperand(I), Name) != Marker::Interleave)
      continue;
    if (auto *LI = dyn_cast<LoadInst>(Call.getArgOperand(I)))
      MarkerLoads.insert(LI);
    PrimalEnd = I;
    ShadowNext = I + 1;
    return;
  }
}

Value *EnzymeCallLowering::convert(Value *V, Type *To, const Twine &What) {
  if (Value *C = convertArgument(B, V, To))
    return C;
  error(What + " of '" + R.Primal->getName() + "' has type " +
        typeName(V->getType()) + ", but the function expects " + typeName(To));
  return nullptr;
}

bool EnzymeCallLowering::parseGlobalMarker(Marker M, StringRef Name) {
  switch (M) {
  case Marker::Width: {
    Value *W = next("the width after enzyme_width");
    if (!W)
      return false;
    auto *C = dyn_cast<ConstantInt>(W);
    if (!C || C->isZero() || C->getValue().ugt(64))
      return error("enzyme_width must be followed by a constant between 1 "
                   "and 64");
    Key.Width = unsigned(C->getZExtValue());
    return true;
  }
  case Marker::PrimalReturn:
    // (The augmented sweep returns the primal anyway.)
    if (Reverse)
      PrimalResult = SplitKind == Split::None;
    else
      Key.ReturnPrimal = true;
    return true;
  case Marker::ConstReturn:
    Key.ReturnPrimal = true;
    Key.ReturnShadow = false;
    ConstantResult = true;
    return true;
  case Marker::NoRet:
    // As in Enzyme: __enzyme_augmentfwd returns neither the result nor its
    // shadow; elsewhere the result's derivative is still returned (forward)
    // or seeded (reverse).
    NoReturn = true;
    return true;
  case Marker::Interleave:
    return error("enzyme_interleave may appear only once in a call");
  case Marker::Allocated: {
    // Enzyme's caller-allocated tape: adcc's records live on the runtime's
    // tape, and the buffer holds the handle to them.
    Value *Size = next("the size after enzyme_allocated");
    if (!Size)
      return false;
    unsigned Need = tapeHandleSize(*Call.getModule());
    auto *C = dyn_cast<ConstantInt>(Size);
    if (C && C->getValue().ult(Need))
      return error("the tape buffer of enzyme_allocated has " +
                   Twine(C->getZExtValue()) + " bytes; adcc needs " +
                   Twine(Need) + " (what __enzyme_augmentsize returns)");
    return true;
  }
  case Marker::Tape:
    TapeArg = next("the tape after enzyme_tape");
    return TapeArg != nullptr;
  case Marker::NoFree:
    KeepRecords = true;
    return true;
  case Marker::Out:
    return error("enzyme_out (an active output) is only valid in reverse "
                 "mode; forward mode uses enzyme_dup");
  case Marker::RuntimeActivity: {
    // (The scratch shadow lives for one call, made on the host.)
    const Triple &TT = Call.getModule()->getTargetTriple();
    if (SplitKind != Split::None || !isa<CallInst>(Call) || TT.isNVPTX() ||
        TT.isAMDGPU())
      return error("enzyme_runtime_activity is supported only in a whole "
                   "derivative call (__enzyme_autodiff, __enzyme_fwddiff) "
                   "on the host, not in split mode, device code or a call "
                   "that may throw; pass the inactive argument "
                   "enzyme_const instead");
    RuntimeActivity = true;
    return true;
  }
  case Marker::Unknown:
    return error("unknown Enzyme marker '" + Name + "'");
  default:
    return error("marker '" + Name + "' is not valid here");
  }
}

bool EnzymeCallLowering::parseMarkers(Marker &Activity) {
  Activity = Marker::None;
  StringRef Name;
  for (Marker M; (M = peekMarker(Name)) != Marker::None;) {
    consumeMarker();
    if (isActivity(M)) {
      Activity = M;
      if (ShadowNext)
        Sticky = M;
      break;
    }
    if (!parseGlobalMarker(M, Name))
      return false;
  }
  if (Activity == Marker::None)
    Activity = Sticky;
  return true;
}

bool EnzymeCallLowering::parseParameter(Argument &Param, unsigned SourceNo) {
  Type *T = Param.getType();
  std::string Which = ("argument " + Twine(SourceNo + 1)).str();
  Marker Activity;
  if (!parseMarkers(Activity))
    return false;

  if (Activity == Marker::Out && !Reverse)
    return error("enzyme_out (an active output) is only valid in reverse "
                 "mode; forward mode uses enzyme_dup");
  if (Activity == Marker::None) {
    if (T->isIntegerTy())
      Activity = Marker::Const;
    else if (Reverse && T->isFPOrFPVectorTy())
      Activity = Marker::Out;
    else
      Activity = Marker::Dup;
  }
  if (Reverse && Activity == Marker::Out && !T->isFPOrFPVectorTy())
    return error(Which + " of '" + R.Primal->getName() + "' has type " +
                 typeName(T) +
                 "; enzyme_out is for floating-point values (use enzyme_dup "
                 "for pointers)");
  if (Reverse && (Activity == Marker::Dup || Activity == Marker::DupNoNeed) &&
      !T->isPointerTy())
    return error(Which + " of '" + R.Primal->getName() + "' has type " +
                 typeName(T) +
                 "; in reverse mode enzyme_dup is for pointers, a "
                 "floating-point value is passed with enzyme_out");
  if ((Activity == Marker::Dup || Activity == Marker::DupV) &&
      !T->isFPOrFPVectorTy() && !T->isPointerTy() && !T->isAggregateType())
    return error(Which + " of '" + R.Primal->getName() + "' has type " +
                 typeName(T) +
                 ", which carries no derivative; pass it with enzyme_const");

  // enzyme_dupv, stride, primal, base: shadow k is at base + k * stride
  // bytes (the shadows of a batch laid out in one array).
  Value *Stride = nullptr;
  if (Activity == Marker::DupV &&
      !(Stride = next("the byte stride after enzyme_dupv")))
    return false;
  if (Stride && !Stride->getType()->isIntegerTy())
    return error("enzyme_dupv must be followed by an integer byte stride");

  Value *Primal = next("the value of " + Which);
  if (!Primal || !(Primal = convert(Primal, T, Which)))
    return false;
  if (Activity == Marker::DupNoNeed && isConstantAddress(Primal))
    Primal = makeNoPrimalMemory(B);
  Args.push_back(Primal);
  if (Activity == Marker::Const) {
    if (T->isPointerTy())
      ConstantPointers.push_back({Param.getArgNo(), unsigned(Args.size() - 1),
                                  unsigned(Key.Args.size())});
    Key.Args.push_back(ArgActivity::Const);
    return true;
  }
  if (Activity == Marker::Out) {
    Key.Args.push_back(ArgActivity::Active);
    return true;
  }
  Key.Args.push_back(Activity == Marker::DupNoNeed ? ArgActivity::DupNoNeed
                                                   : ArgActivity::Dup);
  Value *Base = nullptr;
  if (Stride) {
    Base = nextShadow("the shadow array of " + Which);
    if (!Base)
      return false;
    if (!Base->getType()->isPointerTy())
      return error("the shadows of " + Which +
                   " after enzyme_dupv must be "
                   "given as a pointer to their array");
    Stride = B.CreateSExtOrTrunc(Stride, B.getInt64Ty());
  }
  for (unsigned L = 0; L < Key.Width; ++L) {
    Value *S;
    if (Base) {
      Value *Addr =
          B.CreateGEP(B.getInt8Ty(), Base, B.CreateMul(Stride, B.getInt64(L)));
      S = T->isPointerTy() ? Addr : B.CreateLoad(T, Addr);
    } else {
      S = nextShadow("the shadow of " + Which);
      if (!S || !(S = convert(S, T, "the shadow of " + Which)))
        return false;
    }
    // (A shadow struct the caller zeroes: its pointers may be null where
    // the primal's are not; reads through them give no derivative, what is
    // written through them and read back meets in a scratch shadow. The
    // two calls of split mode, which may see different shadows, keep one
    // key: every pointer there, at the cost of a compare where a pointer
    // is read from its memory. So for split forward mode's recording and
    // tangent sweeps.)
    bool SplitSweep = SplitKind == Split::Augment ||
                      SplitKind == Split::Reverse ||
                      SplitKind == Split::Forward || Recording;
    if (T->isPointerTy() && Param.getArgNo() < 64 &&
        (SplitSweep || shadowMayHoldNullPointers(S, Call, Param, Ctx)))
      Key.NullReaching |= uint64_t(1) << Param.getArgNo();
    // (enzyme_runtime_activity: the same pointer as primal and shadow
    // means an inactive argument; it gets a scratch shadow, ScratchShadows.h.)
    if (RuntimeActivity && T->isPointerTy()) {
      Value *Passed = beginRuntimeActivityShadow(B, Primal, S);
      ActivityShadows.push_back({Primal, S, Passed});
      S = Passed;
    }
    Args.push_back(S);
  }
  return true;
}

bool EnzymeCallLowering::readPair(Argument &Lo, Argument &Hi, bool Shadow,
                                  const Twine &What, Value *&OutLo,
                                  Value *&OutHi) {
  unsigned Index = Shadow && ShadowNext ? ShadowNext : Next;
  auto Take = [&]() { return Shadow ? nextShadow(What) : next(What); };
  if (pairArgumentCount(Call, Index) == 2) {
    Value *A = Take();
    Value *C = A ? Take() : nullptr;
    if (!C)
      return false;
    OutLo = convert(A, Lo.getType(), What);
    OutHi = OutLo ? convert(C, Hi.getType(), What) : nullptr;
    return OutHi != nullptr;
  }
  // Passed in memory (registers ran out at the call): the halves are its
  // eightbytes.
  Value *Mem = Take();
  if (!Mem)
    return false;
  if (!Mem->getType()->isPointerTy() ||
      !Call.paramHasAttr(Index, Attribute::ByVal)) {
    error(What + " of '" + R.Primal->getName() + "' has type " +
          typeName(Mem->getType()) + ", but the function expects " +
          typeName(Lo.getType()) + " and " + typeName(Hi.getType()));
    return false;
  }
  OutLo = B.CreateLoad(Lo.getType(), Mem);
  OutHi = B.CreateLoad(Hi.getType(),
                       B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Mem, 8));
  return true;
}

bool EnzymeCallLowering::parsePair(Argument &Lo, Argument &Hi,
                                   unsigned SourceNo) {
  std::string Which = ("argument " + Twine(SourceNo + 1)).str();
  Marker Activity;
  if (!parseMarkers(Activity))
    return false;
  auto IsFloat = [](Argument &A) { return A.getType()->isFPOrFPVectorTy(); };
  auto IsPointer = [](Argument &A) { return A.getType()->isPointerTy(); };
  if (Activity == Marker::None) {
    if (IsFloat(Lo) || IsFloat(Hi))
      Activity = Reverse ? Marker::Out : Marker::Dup;
    else if (IsPointer(Lo) || IsPointer(Hi))
      Activity = Marker::Dup;
    else
      Activity = Marker::Const;
  }
  if (Activity == Marker::Out && !Reverse)
    return error("enzyme_out (an active output) is only valid in reverse "
                 "mode; forward mode uses enzyme_dup");
  if (Activity == Marker::DupV)
    return error("enzyme_dupv is not supported for " + Which + " of '" +
                 R.Primal->getName() +
                 "', a struct or complex value passed by value; pass its "
                 "shadows one by one");
  bool Shadowed = Activity == Marker::Dup || Activity == Marker::DupNoNeed;
  if (Reverse && Shadowed && !IsPointer(Lo) && !IsPointer(Hi))
    return error(Which + " of '" + R.Primal->getName() +
                 "' is a struct or complex value passed by value; in reverse "
                 "mode enzyme_dup is for pointers, a floating-point value is "
                 "passed with enzyme_out");
  if (Activity == Marker::Out && !IsFloat(Lo) && !IsFloat(Hi))
    return error(Which + " of '" + R.Primal->getName() +
                 "' holds no floating-point value; enzyme_out is for "
                 "floating-point values");
  if (Shadowed && !IsFloat(Lo) && !IsFloat(Hi) && !IsPointer(Lo) &&
      !IsPointer(Hi))
    return error(Which + " of '" + R.Primal->getName() +
                 "' carries no derivative; pass it with enzyme_const");

  Value *PLo, *PHi;
  if (!readPair(Lo, Hi, /*Shadow=*/false, "the value of " + Which, PLo, PHi))
    return false;
  SmallVector<Value *, 8> SLo, SHi;
  if (Shadowed)
    for (unsigned L = 0; L < Key.Width; ++L) {
      Value *A, *C;
      if (!readPair(Lo, Hi, /*Shadow=*/true, "the shadow of " + Which, A, C))
        return false;
      SLo.push_back(A);
      SHi.push_back(C);
    }
  // Each half on its own: a half that holds an integer has no derivative.
  auto Half = [&](Argument &A, Value *Primal, ArrayRef<Value *> Shadows) {
    Args.push_back(Primal);
    bool Carries = IsFloat(A) || (Shadowed && IsPointer(A));
    if (Activity == Marker::Const || !Carries) {
      Key.Args.push_back(ArgActivity::Const);
      return;
    }
    if (Activity == Marker::Out) {
      Key.Args.push_back(ArgActivity::Active);
      return;
    }
    Key.Args.push_back(Activity == Marker::DupNoNeed ? ArgActivity::DupNoNeed
                                                     : ArgActivity::Dup);
    Args.append(Shadows.begin(), Shadows.end());
  };
  Half(Lo, PLo, SLo);
  Half(Hi, PHi, SHi);
  return true;
}

bool EnzymeCallLowering::parseTrailingMarkers() {
  StringRef Name;
  for (Marker M; (M = peekMarker(Name)) != Marker::None;) {
    if (isActivity(M))
      return error("marker '" + Name + "' after the last argument of '" +
                   R.Primal->getName() + "'");
    consumeMarker();
    if (M == Marker::Width)
      return error("enzyme_width must come before the arguments");
    if (!parseGlobalMarker(M, Name))
      return false;
  }
  return true;
}

bool EnzymeCallLowering::parseSeeds(Type *T) {
  SmallVector<Value *, 8> Seeds;
  for (unsigned L = 0; L < Key.Width; ++L) {
    std::string What = "the adjoint of the result";
    if (Key.Width > 1)
      What += " in lane " + std::to_string(L);
    Value *S = next(What);
    if (!S || !(S = convert(S, T, What)))
      return false;
    Seeds.push_back(S);
  }
  SeedArg = Seeds[0];
  if (Key.Width > 1) {
    Value *Lanes = PoisonValue::get(ArrayType::get(T, Key.Width));
    for (unsigned L = 0; L < Key.Width; ++L)
      Lanes = B.CreateInsertValue(Lanes, Seeds[L], L);
    SeedArg = Lanes;
  }
  return parseTrailingMarkers();
}

bool EnzymeCallLowering::parseFieldSeeds(Type *T) {
  if (Key.Width != 1)
    return error("__enzyme_reverse of '" + R.Primal->getName() +
                 "' with enzyme_width: the seeds of a struct result of " +
                 typeName(T) +
                 " (floating-point values with pointers or integers) are "
                 "taken at width 1 only; return the numbers through a "
                 "pointer parameter (enzyme_dup)");
  SmallVector<SmallVector<unsigned, 4>, 4> Paths;
  floatFieldPaths(T, Paths);
  Value *Seed = Constant::getNullValue(T);
  unsigned Field = 0;
  // (Two floats the ABI packs into a vector, `struct { double *p; float a,
  // b; }` as {ptr, <2 x float>}: one seed per float.)
  auto NextSeed = [&](Type *Want) -> Value * {
    std::string What = "the adjoint of floating-point field " +
                       std::to_string(Field++) +
                       " of the result (one seed per floating-point field, "
                       "then the tape)";
    Value *S = next(What);
    return S ? convert(S, Want, What) : nullptr;
  };
  for (ArrayRef<unsigned> Path : Paths) {
    Type *Leaf = ExtractValueInst::getIndexedType(T, Path);
    Value *S = nullptr;
    if (auto *VT = dyn_cast<FixedVectorType>(Leaf)) {
      S = Constant::getNullValue(VT);
      for (unsigned L = 0; L < VT->getNumElements(); ++L) {
        Value *E = NextSeed(VT->getElementType());
        if (!E)
          return false;
        S = B.CreateInsertElement(S, E, L);
      }
    } else if (!(S = NextSeed(Leaf))) {
      return false;
    }
    Seed = B.CreateInsertValue(Seed, S, Path);
  }
  SeedArg = Seed;
  return parseTrailingMarkers();
}

} // namespace adcore
