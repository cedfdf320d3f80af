//===- DeclaredDerivatives.cpp - Derivatives from attributes -------------===//

#include "adcore/DeclaredDerivatives.h"
#include "adcore/Synthesis.h"

#include "CallSites.h"

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
  if (Acts.size() != F.arg_size()) {
    errorOn(F, Ctx,
            "the derivative annotation of '" + F.getName() + "' has " +
                Twine(Acts.size()) + " activities for " + Twine(F.arg_size()) +
                " parameters");
    return false;
  }
  for (StringRef A : Acts) {
    ArgActivity Act;
    if (!parseActivity(A, Act)) {
      errorOn(F, Ctx, "unknown activity '" + A + "' for '" + F.getName() + "'");
      return false;
    }
    D.Key.Args.push_back(Act);
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
    User = Function::Create(derivativeType(D.Key), GlobalValue::ExternalLinkage,
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
  for (Argument &P : Primal.args()) {
    Value *V = nullptr;
    if (!NextArg(P.getType(), V))
      return Fail("parameter " + Twine(P.getArgNo() + 1) +
                  " is missing or has another type");
    Args.push_back(V);
    ArgActivity Act = D.Key.Args[P.getArgNo()];
    if (Act == ArgActivity::Const || Act == ArgActivity::Active)
      continue;
    // Width N: N shadow parameters.
    for (unsigned L = 0; L < D.Key.Width; ++L) {
      if (!NextArg(P.getType(), V))
        return Fail("a shadow of parameter " + Twine(P.getArgNo() + 1) +
                    " is missing or has another type");
      Args.push_back(V);
    }
  }
  // Reverse mode: the seed (the adjoint of the result) comes last.
  // (Width N: N seeds, given to the reverse sweep in an array.)
  SmallVector<Value *, 1> Seed;
  if (RevGen && RevGen->arg_size() == 1) {
    Type *SeedTy = RevGen->getArg(0)->getType();
    auto *AT = dyn_cast<ArrayType>(SeedTy);
    Value *V = nullptr, *Seeds = PoisonValue::get(SeedTy);
    for (unsigned L = 0; L < (AT ? AT->getNumElements() : 1); ++L) {
      if (!NextArg(AT ? AT->getElementType() : SeedTy, V))
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
