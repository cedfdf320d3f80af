//===- ParamShapes.cpp - Source parameters over IR ones ------------------===//

#include "adcore/ParamShapes.h"

#include "support/CallSites.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr StringRef ShapesKind = "adcc.param.shapes";

/// Whether a value of shape 'p' travels whole in one IR value of type \p T
/// (a pointer to memory the ABI passes it in, or a 16-byte vector or
/// integer): its halves are at most 8 bytes each.
bool holdsWholePair(Type *T, bool InMemory, const DataLayout &DL) {
  return InMemory || DL.getTypeStoreSize(T) > 8;
}

} // namespace

void attachParamShapes(Module &M, const ParamShapeTable &Table) {
  auto Attach = [&](Function &F, StringRef Shapes) {
    F.setMetadata(
        ShapesKind,
        MDNode::get(M.getContext(), MDString::get(M.getContext(), Shapes)));
  };
  for (const auto &[Name, Shapes] : Table)
    if (Function *F = M.getFunction(Name))
      Attach(*F, Shapes);
  GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations");
  auto *Entries = Annotations && Annotations->hasInitializer()
                      ? dyn_cast<ConstantArray>(Annotations->getInitializer())
                      : nullptr;
  if (!Entries)
    return;
  SmallVector<Constant *, 8> Kept;
  SmallSetVector<GlobalVariable *, 8> Texts;
  for (Use &U : Entries->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(U.get());
    auto *F =
        Entry && Entry->getNumOperands() >= 2
            ? dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts())
            : nullptr;
    StringRef Text = F ? constantString(Entry->getOperand(1)) : StringRef();
    if (!Text.consume_front(ParamShapesAnnotation)) {
      Kept.push_back(cast<Constant>(U.get()));
      continue;
    }
    Attach(*F, Text);
    if (auto *GV =
            dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts()))
      Texts.insert(GV);
  }
  if (Kept.size() == Entries->getNumOperands())
    return;
  // (The entries read here are dropped: they would keep the functions
  // alive, and the strings in the object file.)
  if (!Kept.empty()) {
    auto *Ty =
        ArrayType::get(Entries->getType()->getElementType(), Kept.size());
    auto *Replacement = new GlobalVariable(
        M, Ty, Annotations->isConstant(), Annotations->getLinkage(),
        ConstantArray::get(Ty, Kept), "", Annotations);
    Replacement->setSection(Annotations->getSection());
    Replacement->takeName(Annotations);
  }
  Annotations->eraseFromParent();
  for (GlobalVariable *GV : Texts) {
    GV->removeDeadConstantUsers();
    if (GV->use_empty() && GV->hasLocalLinkage())
      GV->eraseFromParent();
  }
}

StringRef paramShapes(const Function &F) {
  MDNode *N = F.getMetadata(ShapesKind);
  if (!N || N->getNumOperands() != 1)
    return StringRef();
  auto *S = dyn_cast<MDString>(N->getOperand(0));
  return S ? S->getString() : StringRef();
}

std::optional<SmallVector<ParamGroup, 8>> groupParameters(const Function &F) {
  StringRef Shapes = paramShapes(F);
  if (Shapes.empty())
    return std::nullopt;
  const DataLayout &DL = F.getDataLayout();
  SmallVector<ParamGroup, 8> Groups;
  unsigned Next = 0;
  if (F.arg_size() > 0 && F.hasParamAttribute(0, Attribute::StructRet)) {
    Groups.push_back(ParamGroup{0, 1});
    Next = 1;
  }
  for (char C : Shapes) {
    ParamGroup G{Next, 1};
    if (C == 'e') {
      G.Count = 0;
    } else if (C == 'p') {
      if (Next >= F.arg_size())
        return std::nullopt;
      const Argument &A = *F.getArg(Next);
      G.Count = holdsWholePair(A.getType(), A.hasByValAttr(), DL) ? 1 : 2;
    } else if (C != 'v') {
      return std::nullopt;
    }
    Next += G.Count;
    if (Next > F.arg_size())
      return std::nullopt;
    Groups.push_back(G);
  }
  if (Next != F.arg_size())
    return std::nullopt;
  return Groups;
}

unsigned pairArgumentCount(const CallBase &Call, unsigned Index) {
  if (Index >= Call.arg_size())
    return 1;
  const DataLayout &DL = Call.getModule()->getDataLayout();
  return holdsWholePair(Call.getArgOperand(Index)->getType(),
                        Call.paramHasAttr(Index, Attribute::ByVal), DL)
             ? 1
             : 2;
}

std::pair<Value *, Value *> loadPairHalves(IRBuilderBase &B, Value *Mem,
                                           Type *Lo, Type *Hi) {
  Value *High = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Mem, 8);
  return {B.CreateLoad(Lo, Mem), B.CreateLoad(Hi, High)};
}

} // namespace adcore
