//===- AggregatePhis.cpp - One phi per lane of a batched tangent ----------===//
//
// A batched derivative (width N) carries the N tangents of a scalar as one
// `[N x double]` value, and the tangent of a phi is a phi of that array
// type. SROA and InstCombine take arrays apart where they are built and
// read, but leave a phi of an aggregate whole, and a loop with one is out of
// reach of the loop vectorizer and of the passes that only know scalar
// recurrences: a width-8 dot product summed its 8 tangents in a
// `phi [8 x double]`, one lane at a time. Each such phi is replaced by one
// phi per scalar element, which the incoming values feed by `extractvalue`
// at the end of the incoming block, and the aggregate is rebuilt by
// `insertvalue` after the phis, for InstCombine to fold into its users.
//
//===----------------------------------------------------------------------===//

#include "Optimize.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/ConstantFold.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

/// More scalars than this stay one phi (a large struct carried around a
/// loop is rare in generated code and would become a crowd of phis).
constexpr unsigned MaxLeaves = 64;

/// Appends the index paths of the scalar elements of \p T to \p Paths (in
/// element order). Returns false when there are more than MaxLeaves or a
/// leaf is not a first-class scalar or vector.
bool leafPaths(Type *T, SmallVectorImpl<unsigned> &Prefix,
               SmallVectorImpl<SmallVector<unsigned, 2>> &Paths) {
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    for (unsigned I = 0; I < AT->getNumElements(); ++I) {
      Prefix.push_back(I);
      bool Ok = leafPaths(AT->getElementType(), Prefix, Paths);
      Prefix.pop_back();
      if (!Ok)
        return false;
    }
    return true;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (unsigned I = 0; I < ST->getNumElements(); ++I) {
      Prefix.push_back(I);
      bool Ok = leafPaths(ST->getElementType(I), Prefix, Paths);
      Prefix.pop_back();
      if (!Ok)
        return false;
    }
    return true;
  }
  if (!T->isSingleValueType() || Paths.size() == MaxLeaves)
    return false;
  Paths.emplace_back(Prefix.begin(), Prefix.end());
  return true;
}

bool splitPhi(PHINode &Phi) {
  SmallVector<unsigned, 4> Prefix;
  SmallVector<SmallVector<unsigned, 2>, 8> Paths;
  if (!leafPaths(Phi.getType(), Prefix, Paths) || Paths.empty())
    return false;
  // An incoming block whose terminator defines the value (an invoke's
  // result on its normal edge) has no place to read an element: keep it.
  for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I)
    if (Phi.getIncomingBlock(I)->getTerminator() == Phi.getIncomingValue(I))
      return false;

  BasicBlock *BB = Phi.getParent();
  BasicBlock::iterator At = BB->getFirstInsertionPt();
  if (At == BB->end())
    return false;
  IRBuilder<> B(BB, At);
  Value *Whole = PoisonValue::get(Phi.getType());
  for (const SmallVector<unsigned, 2> &Path : Paths) {
    Type *LeafTy = ExtractValueInst::getIndexedType(Phi.getType(), Path);
    PHINode *Leaf = PHINode::Create(LeafTy, Phi.getNumIncomingValues(),
                                    Phi.getName() + ".elt");
    Leaf->insertBefore(Phi.getIterator());
    for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I) {
      Value *In = Phi.getIncomingValue(I);
      BasicBlock *From = Phi.getIncomingBlock(I);
      // A block that reaches BB along two edges gives the same value on
      // both; read it once.
      int Seen = Leaf->getBasicBlockIndex(From);
      Value *Elt;
      if (Seen >= 0) {
        Elt = Leaf->getIncomingValue(Seen);
      } else if (auto *C = dyn_cast<Constant>(In)) {
        Elt = ConstantFoldExtractValueInstruction(C, Path);
        if (!Elt)
          Elt = ExtractValueInst::Create(In, Path, "",
                                         From->getTerminator()->getIterator());
      } else {
        Elt = ExtractValueInst::Create(In, Path, In->getName() + ".elt",
                                       From->getTerminator()->getIterator());
      }
      Leaf->addIncoming(Elt, From);
    }
    Whole = B.CreateInsertValue(Whole, Leaf, Path);
  }
  Whole->takeName(&Phi);
  Phi.replaceAllUsesWith(Whole);
  Phi.eraseFromParent();
  return true;
}

} // namespace

bool splitAggregatePhis(Function &F) {
  SmallVector<PHINode *, 16> Phis;
  for (BasicBlock &BB : F)
    for (PHINode &Phi : BB.phis())
      if (Phi.getType()->isAggregateType())
        Phis.push_back(&Phi);
  bool Changed = false;
  for (PHINode *Phi : Phis)
    Changed |= splitPhi(*Phi);
  return Changed;
}

} // namespace adcore
