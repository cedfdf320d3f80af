//===- RequestValueTypes.cpp - Types of a request's values --------------===//

#include "RequestValueTypes.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {

void scalarsOf(Type *T, SmallVectorImpl<Type *> &Out) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (Type *E : ST->elements())
      scalarsOf(E, Out);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      scalarsOf(AT->getElementType(), Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Out.push_back(VT->getElementType());
  } else {
    Out.push_back(T);
  }
}

bool holdsFloats(Type *T) {
  if (!T->isAggregateType())
    return false;
  SmallVector<Type *, 8> Scalars;
  scalarsOf(T, Scalars);
  return any_of(Scalars, [](Type *S) { return S->isFPOrFPVectorTy(); });
}

bool mixesFloats(Type *T) {
  if (!T->isAggregateType())
    return false;
  SmallVector<Type *, 8> Scalars;
  scalarsOf(T, Scalars);
  return holdsFloats(T) &&
         any_of(Scalars, [](Type *S) { return !S->isFPOrFPVectorTy(); });
}

static void leafPaths(Type *T, function_ref<bool(Type *)> Leaf,
                      SmallVectorImpl<unsigned> &Path,
                      SmallVectorImpl<SmallVector<unsigned, 4>> &Out) {
  if (Leaf(T)) {
    Out.emplace_back(Path.begin(), Path.end());
    return;
  }
  auto Visit = [&](unsigned I, Type *E) {
    Path.push_back(I);
    leafPaths(E, Leaf, Path, Out);
    Path.pop_back();
  };
  if (auto *ST = dyn_cast<StructType>(T))
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      Visit(I, ST->getElementType(I));
  else if (auto *AT = dyn_cast<ArrayType>(T))
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      Visit(I, AT->getElementType());
}

void floatFieldPaths(Type *T,
                     SmallVectorImpl<SmallVector<unsigned, 4>> &Out) {
  SmallVector<unsigned, 4> Path;
  leafPaths(T, [](Type *L) { return L->isFPOrFPVectorTy(); }, Path, Out);
}

Value *onlyPointerFields(IRBuilder<> &B, Value *Shadow) {
  Type *T = Shadow->getType();
  SmallVector<SmallVector<unsigned, 4>, 4> Paths;
  SmallVector<unsigned, 4> Path;
  leafPaths(T, [](Type *L) { return L->isPtrOrPtrVectorTy(); }, Path, Paths);
  Value *Out = Constant::getNullValue(T);
  for (ArrayRef<unsigned> P : Paths)
    Out = B.CreateInsertValue(Out, B.CreateExtractValue(Shadow, P), P);
  return Out;
}

Value *reinterpretAs(IRBuilder<> &B, Value *V, Type *To) {
  IRBuilder<> Entry(&*B.GetInsertBlock()->getParent()->getEntryBlock().begin());
  AllocaInst *Tmp = Entry.CreateAlloca(To);
  B.CreateStore(V, Tmp);
  return B.CreateLoad(To, Tmp);
}

StringRef markerName(Value *V) {
  if (auto *LI = dyn_cast<LoadInst>(V))
    V = LI->getPointerOperand();
  auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  return GV && GV->getName().starts_with("enzyme_") ? GV->getName()
                                                    : StringRef();
}

Value *convertArgument(IRBuilder<> &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isFloatingPointTy() && To->isFloatingPointTy())
    return B.CreateFPCast(V, To);
  if (From->isIntegerTy() && To->isIntegerTy())
    return B.CreateSExtOrTrunc(V, To);
  if (From->isPointerTy() && To->isPointerTy())
    return B.CreateAddrSpaceCast(V, To);
  if (From->isIntegerTy() && To->isPointerTy())
    return B.CreateIntToPtr(V, To);
  return nullptr;
}

bool sameScalars(Type *A, Type *B) {
  SmallVector<Type *, 8> SA, SB;
  scalarsOf(A, SA);
  scalarsOf(B, SB);
  return SA == SB;
}

std::string typeName(Type *T) {
  if (T->isPointerTy())
    return "pointer";
  if (T->isX86_FP80Ty())
    return "long double";
  if (T->isFP128Ty())
    return "__float128";
  if (T->isHalfTy())
    return "_Float16";
  if (T->isBFloatTy())
    return "__bf16";
  if (T->isIntegerTy(1))
    return "_Bool";
  if (T->isIntegerTy())
    return std::to_string(T->getIntegerBitWidth()) + "-bit integer";
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return "vector of " + std::to_string(VT->getNumElements()) + " " +
           typeName(VT->getElementType());
  if (auto *AT = dyn_cast<ArrayType>(T))
    return typeName(AT->getElementType()) + "[" +
           std::to_string(AT->getNumElements()) + "]";
  if (auto *ST = dyn_cast<StructType>(T)) {
    if (ST->hasName())
      return "struct " + ST->getName().str().substr(
                             ST->getName().starts_with("struct.") ? 7 : 0);
    std::string S = "struct {";
    for (Type *E : ST->elements())
      S += " " + typeName(E) + ";";
    return S + " }";
  }
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

} // namespace adcore
