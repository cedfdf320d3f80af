//===- DeclaredDerivatives.cpp - Derivatives from attributes -------------===//

#include "DeclaredDerivatives.h"
#include "adcore/ParamShapes.h"
#include "Synthesis.h"

#include "support/CallSites.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr StringRef Prefix = "adcc.derivative:";

/// Reports an error about the attribute on \p F (at its first instruction,
/// whose location is in F's body).
void errorOn(Function &F, SynthesisContext &Ctx, const Twine &Message) {
  if (F.isDeclaration() || F.getEntryBlock().empty()) {
    F.getContext().diagnose(DiagnosticInfoUnsupported(F, Message));
    return;
  }
  Ctx.error(*F.getEntryBlock().getFirstNonPHIOrDbg(), Message);
}

bool parseActivity(StringRef Word, ArgActivity &Out) {
  if (Word == "Const")
    Out = ArgActivity::Const;
  else if (Word == "Dual" || Word == "Duplicated")
    Out = ArgActivity::Dup;
  else if (Word == "DualOnly" || Word == "DuplicatedOnly")
    Out = ArgActivity::DupNoNeed;
  else if (Word == "Active")
    Out = ArgActivity::Active;
  else
    return false;
  return true;
}

/// Parses one annotation string for \p F.
bool parse(StringRef Text, Function &F, DeclaredDerivative &D,
           SynthesisContext &Ctx) {
  SmallVector<StringRef, 6> Parts;
  Text.drop_front(Prefix.size()).split(Parts, ':');
  unsigned Width = 0;
  if (Parts.size() != 5 || Parts[1].getAsInteger(10, Width) || Width == 0) {
    errorOn(F, Ctx, "malformed adcc derivative annotation '" + Text + "'");
    return false;
  }
  D.Mode = Parts[0].str();
  D.Symbol = Parts[2].str();
  D.Key.Primal = &F;
  D.Key.Width = Width;
  SmallVector<StringRef, 8> Acts;
  if (!Parts[3].empty())
    Parts[3].split(Acts, ',');
  // Source parameters the ABI passes as two IR parameters, or none.
  if (auto Groups = groupParameters(F);
      Groups && !F.hasParamAttribute(0, Attribute::StructRet))
    D.Groups = std::move(*Groups);
  else if (!paramShapes(F).empty()) {
    errorOn(F, Ctx,
            "adcc cannot match the parameters of '" + F.getName() +
                "' with their types in the source (a struct result returned "
                "through memory?); pass the struct parameters by pointer");
    return false;
  }
  unsigned NumSource = D.Groups.empty() ? F.arg_size() : D.Groups.size();
  if (Acts.size() != NumSource) {
    errorOn(F, Ctx,
            "the derivative annotation of '" + F.getName() + "' has " +
                Twine(Acts.size()) + " activities for " + Twine(NumSource) +
                " parameters");
    return false;
  }
  for (StringRef A : Acts) {
    ArgActivity Act;
    if (!parseActivity(A, Act)) {
      errorOn(F, Ctx, "unknown activity '" + A + "' for '" + F.getName() + "'");
      return false;
    }
    D.SourceArgs.push_back(Act);
  }
  if (D.Groups.empty()) {
    D.Key.Args = D.SourceArgs;
  } else {
    // Each half of a split value on its own: one holding an integer has
    // no derivative.
    for (unsigned I = 0; I < D.Groups.size(); ++I)
      for (unsigned K = 0; K < D.Groups[I].Count; ++K) {
        Type *T = F.getArg(D.Groups[I].First + K)->getType();
        bool Carries =
            T->isFPOrFPVectorTy() || T->isPointerTy() || D.Groups[I].Count == 1;
        D.Key.Args.push_back(Carries ? D.SourceArgs[I] : ArgActivity::Const);
      }
  }
  StringRef Ret = Parts[4];
  bool Void = F.getReturnType()->isVoidTy();
  if (D.Mode == "reverse") {
    // A combined call: the augmented sweep and then the reverse sweep.
    D.Key.Mode = DerivativeMode::Augmented;
    D.Key.ReturnPrimal = !Void;
    D.Key.ReturnShadow = Ret == "Active" && hasFloatAdjoint(F.getReturnType());
    D.Key.StableMemory = true;
    return true;
  }
  D.Key.ReturnPrimal = !Void && (Ret == "Const" || Ret == "Dual" ||
                                 Ret == "Duplicated" || Ret.empty());
  D.Key.ReturnShadow =
      !Void && (Ret == "Dual" || Ret == "DualOnly" || Ret == "Duplicated" ||
                Ret == "DuplicatedOnly");
  return true;
}

/// The type of the derivative \p D declares, parameters in source order:
/// a value split in two IR parameters is followed by its shadows' halves.
FunctionType *declaredType(const DeclaredDerivative &D) {
  FunctionType *FT = derivativeType(D.Key);
  if (D.Groups.empty())
    return FT;
  const Function &Primal = *D.Key.Primal;
  SmallVector<Type *, 16> Params;
  unsigned Interleaved = 0;
  for (unsigned I = 0; I < D.Groups.size(); ++I) {
    const ParamGroup &G = D.Groups[I];
    for (unsigned K = 0; K < G.Count; ++K) {
      Params.push_back(Primal.getArg(G.First + K)->getType());
      Interleaved += 1 + (hasShadow(D.Key.Args[G.First + K]) ? D.Key.Width : 0);
    }
    if (hasShadow(D.SourceArgs[I]))
      for (unsigned L = 0; L < D.Key.Width; ++L)
        for (unsigned K = 0; K < G.Count; ++K)
          Params.push_back(Primal.getArg(G.First + K)->getType());
  }
  Params.append(FT->param_begin() + Interleaved, FT->param_end());
  return FunctionType::get(FT->getReturnType(), Params, /*isVarArg=*/false);
}

} // namespace

std::vector<DeclaredDerivative>
collectDeclaredDerivatives(Module &M, SynthesisContext &Ctx) {
  std::vector<DeclaredDerivative> Out;
  GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return Out;
  auto *Entries = dyn_cast<ConstantArray>(Annotations->getInitializer());
  if (!Entries)
    return Out;
  for (Use &U : Entries->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(U.get());
    if (!Entry || Entry->getNumOperands() < 4)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    StringRef Text = constantString(Entry->getOperand(1));
    if (!F || !Text.starts_with(Prefix))
      continue;
    DeclaredDerivative D;
    D.File = constantString(Entry->getOperand(2)).str();
    if (auto *Line = dyn_cast<ConstantInt>(Entry->getOperand(3)))
      D.Line = unsigned(Line->getZExtValue());
    if (parse(Text, *F, D, Ctx))
      Out.push_back(std::move(D));
  }
  return Out;
}

bool defineDeclaredDerivative(const DeclaredDerivative &D,
                              SynthesisContext &Ctx) {
  Function &Primal = *D.Key.Primal;
  if (D.Mode != "forward" && D.Mode != "reverse") {
    errorOn(Primal, Ctx,
            D.Mode + "-mode derivative '" + D.Symbol + "' of '" +
                Primal.getName() +
                "' is not implemented yet in this version of "
                "adcc");
    return false;
  }
  const char *Macro = D.Mode == "forward" ? "ADCC_FORWARD" : "ADCC_REVERSE";
  Module &M = Ctx.module();
  Function *User = M.getFunction(D.Symbol);
  if (User && !User->isDeclaration()) {
    errorOn(Primal, Ctx,
            "'" + D.Symbol + "' is defined by the program, but " + Macro +
                " asks adcc to generate it");
    return false;
  }
  Function *Gen = Ctx.getOrCreate(D.Key);
  if (!Gen)
    return false;
  Function *RevGen = nullptr;
  if (D.Key.Mode == DerivativeMode::Augmented) {
    DerivativeKey RevKey = D.Key;
    RevKey.Mode = DerivativeMode::Reverse;
    RevGen = Ctx.cache().lookup(RevKey);
    if (!RevGen)
      return false;
  }
  if (!User)
    User = Function::Create(declaredType(D), GlobalValue::ExternalLinkage,
                            D.Symbol, M);
  // With -g at -O1 and up Clang gives declarations a subprogram of their
  // own (for call sites); a definition may only have a distinct one, and
  // then every call in it would need a location. The body made here is a
  // few calls: no debug information.
  User->setSubprogram(nullptr);
  // The derivative is defined wherever the primal is: with the primal's
  // linkage (static, inline and template primals are internal or
  // linkonce_odr, defined in every translation unit that uses them).
  if (!Primal.hasExternalLinkage()) {
    User->setLinkage(Primal.getLinkage());
    User->setVisibility(Primal.getVisibility());
    if (User->hasLocalLinkage())
      User->setDSOLocal(true);
    if (Primal.hasComdat() || User->hasLinkOnceLinkage() ||
        User->hasWeakLinkage())
      User->setComdat(M.getOrInsertComdat(User->getName()));
  }

  // Clang lowered the C signature: a large struct result comes back through
  // a hidden `sret` pointer; small ones are returned in registers, maybe
  // with a different IR type of the same size.
  const DataLayout &DL = M.getDataLayout();
  BasicBlock *Body = BasicBlock::Create(M.getContext(), "entry", User);
  auto Fail = [&](const Twine &Why) {
    Body->eraseFromParent();
    errorOn(Primal, Ctx,
            "the declaration of '" + D.Symbol +
                "' does not match the derivative of '" + Primal.getName() +
                "': " + Why);
    return false;
  };
  IRBuilder<> B(Body);
  auto Arg = User->arg_begin();
  Value *SRet = nullptr;
  if (User->arg_size() > 0 && User->hasParamAttribute(0, Attribute::StructRet))
    SRet = &*Arg++;
  SmallVector<Value *, 16> Args;
  auto NextArg = [&](Type *Want, Value *&Out) {
    if (Arg == User->arg_end() || Arg->getType() != Want)
      return false;
    Out = &*Arg++;
    return true;
  };
  // One source value as the primal's IR parameters [First, First + Count):
  // that many parameters of the derivative, or one pointer to memory that
  // holds it (the ABI passes the derivative's copy in memory when its
  // registers run out).
  auto NextValue = [&](unsigned First, unsigned Count,
                       SmallVectorImpl<Value *> &Out) {
    Out.clear();
    if (Count == 2 && Arg != User->arg_end() && Arg->hasByValAttr()) {
      auto [Lo, Hi] =
          loadPairHalves(B, &*Arg++, Primal.getArg(First)->getType(),
                         Primal.getArg(First + 1)->getType());
      Out.push_back(Lo);
      Out.push_back(Hi);
      return true;
    }
    for (unsigned K = 0; K < Count; ++K) {
      Value *V = nullptr;
      if (!NextArg(Primal.getArg(First + K)->getType(), V))
        return false;
      Out.push_back(V);
    }
    return true;
  };
  SmallVector<ParamGroup, 8> Groups = D.Groups;
  SmallVector<ArgActivity, 8> SourceArgs = D.SourceArgs;
  if (Groups.empty())
    for (Argument &P : Primal.args()) {
      Groups.push_back(ParamGroup{P.getArgNo(), 1});
      SourceArgs.push_back(D.Key.Args[P.getArgNo()]);
    }
  for (unsigned I = 0; I < Groups.size(); ++I) {
    const ParamGroup &G = Groups[I];
    SmallVector<Value *, 2> Values;
    if (!NextValue(G.First, G.Count, Values))
      return Fail("parameter " + Twine(I + 1) +
                  " is missing or has another type");
    // Width N: N shadows.
    SmallVector<SmallVector<Value *, 2>, 4> Shadows;
    ArgActivity Act = SourceArgs[I];
    if (Act != ArgActivity::Const && Act != ArgActivity::Active)
      for (unsigned L = 0; L < D.Key.Width; ++L)
        if (!NextValue(G.First, G.Count, Shadows.emplace_back()))
          return Fail("a shadow of parameter " + Twine(I + 1) +
                      " is missing or has another type");
    for (unsigned K = 0; K < G.Count; ++K) {
      Args.push_back(Values[K]);
      ArgActivity Half = D.Key.Args[G.First + K];
      if (Half == ArgActivity::Const || Half == ArgActivity::Active)
        continue;
      for (auto &S : Shadows)
        Args.push_back(S[K]);
    }
  }
  // Reverse mode: the seed (the adjoint of the result) comes last.
  // (Width N: N seeds, given to the reverse sweep in an array.)
  SmallVector<Value *, 1> Seed;
  if (RevGen && RevGen->arg_size() == 1) {
    Type *SeedTy = RevGen->getArg(0)->getType();
    auto *AT = dyn_cast<ArrayType>(SeedTy);
    Value *V = nullptr, *Seeds = PoisonValue::get(SeedTy);
    // A seed of a struct result (a complex value) that the ABI passes as
    // its two halves, or in memory.
    auto NextSeed = [&](Type *T, Value *&Out) {
      if (NextArg(T, Out))
        return true;
      auto *ST = dyn_cast<StructType>(T);
      if (!ST || ST->getNumElements() != 2 || Arg == User->arg_end())
        return false;
      if (Arg->hasByValAttr()) {
        Out = B.CreateLoad(T, &*Arg++);
        return true;
      }
      Value *Lo = nullptr, *Hi = nullptr;
      if (!NextArg(ST->getElementType(0), Lo) ||
          !NextArg(ST->getElementType(1), Hi))
        return false;
      Out = B.CreateInsertValue(B.CreateInsertValue(PoisonValue::get(T), Lo, 0),
                                Hi, 1);
      return true;
    };
    for (unsigned L = 0; L < (AT ? AT->getNumElements() : 1); ++L) {
      if (!NextSeed(AT ? AT->getElementType() : SeedTy, V))
        return Fail("the seed parameter is missing or has another type");
      Seeds = AT ? B.CreateInsertValue(Seeds, V, L) : V;
    }
    Seed.push_back(Seeds);
  }
  if (Arg != User->arg_end())
    return Fail("too many parameters");

  CallInst *Call = B.CreateCall(Gen, Args);
  Value *Result = Call;
  if (RevGen) {
    // The results in order: the primal's, then the adjoints.
    SmallVector<Value *, 4> Parts;
    if (!Call->getType()->isVoidTy())
      Parts.push_back(Call);
    CallInst *Adjoints = B.CreateCall(RevGen, Seed);
    Ctx.noteCombined(*User, *Gen, *RevGen);
    Type *AT = Adjoints->getType();
    if (auto *ST = dyn_cast<StructType>(AT)) {
      for (unsigned I = 0; I < ST->getNumElements(); ++I)
        Parts.push_back(B.CreateExtractValue(Adjoints, I));
    } else if (!AT->isVoidTy()) {
      Parts.push_back(Adjoints);
    }
    Result = nullptr;
    if (Parts.size() == 1) {
      Result = Parts.front();
    } else if (Parts.size() > 1) {
      SmallVector<Type *, 4> Types;
      for (Value *V : Parts)
        Types.push_back(V->getType());
      Value *Agg = PoisonValue::get(StructType::get(M.getContext(), Types));
      for (unsigned I = 0; I < Parts.size(); ++I)
        Agg = B.CreateInsertValue(Agg, Parts[I], I);
      Result = Agg;
    }
  }
  Type *Got = Result ? Result->getType() : B.getVoidTy();
  Type *RetTy = SRet ? Got : User->getReturnType();
  if (SRet) {
    B.CreateStore(Result, SRet);
    B.CreateRetVoid();
  } else if (RetTy->isVoidTy()) {
    B.CreateRetVoid();
  } else if (RetTy == Got) {
    B.CreateRet(Result);
  } else if (!Got->isVoidTy() &&
             DL.getTypeStoreSize(Got) == DL.getTypeStoreSize(RetTy)) {
    AllocaInst *Tmp = B.CreateAlloca(Got);
    B.CreateStore(Result, Tmp);
    B.CreateRet(B.CreateLoad(RetTy, Tmp));
  } else {
    return Fail("the result types differ");
  }
  return true;
}

} // namespace adcore
