//===- DeclaredTypes.cpp - The struct types a carried module keeps -------===//
//
// The type analysis reads C and C++ source types by name (SourceTypes.h):
// the class of a member function's `this`, a `point*` parameter, the
// pointee of Clang's pointer TBAA; it looks their IR struct types up in
// the context. From -O1 on, the optimizer addresses fields with byte
// offsets, and a type that no instruction names any more is not written
// into the bitcode an object carries: a derivative made at link time would
// find none of them (Box2D's constructors copying their `b2Vec2` fields as
// integers). At the start of the pipeline, in a compile that carries its
// IR, a named metadata node keeps a zero value of each of the module's
// named struct types that the analysis may look up (not templates, whose
// IR names it does not read).
//
//===----------------------------------------------------------------------===//

#include "crossfile/DeclaredTypes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

PreservedAnalyses KeepDeclaredTypesPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  NamedMDNode *Kept = nullptr;
  for (StructType *ST : M.getIdentifiedStructTypes()) {
    StringRef Name = ST->getName();
    if (ST->isOpaque() || Name.contains('<') ||
        !(Name.starts_with("struct.") || Name.starts_with("class.")))
      continue;
    if (!Kept)
      Kept = M.getOrInsertNamedMetadata(DeclaredTypesMetadata);
    Kept->addOperand(MDNode::get(
        M.getContext(),
        ConstantAsMetadata::get(Constant::getNullValue(ST))));
  }
  return PreservedAnalyses::all();
}

} // namespace adcore
