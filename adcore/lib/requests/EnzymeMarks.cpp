//===- EnzymeMarks.cpp - Enzyme's attributes and annotations -------------===//
//
// The table of Enzyme's marks, and the reading of their annotations into
// registrations (adcore/EnzymeMarks.h). An entry of `llvm.global.annotations`
// is `{ptr annotated, ptr text, ptr file, i32 line, ptr arguments}`.
//
//===----------------------------------------------------------------------===//

#include "adcore/EnzymeMarks.h"
#include "adcore/MathRules.h"

#include "support/CallSites.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace adcore {
namespace {

using A = MarkArgument;
using E = MarkEffect;

constexpr EnzymeMark MarkTable[] = {
    {"enzyme_inactive", true, true, A::None, E::Inactive,
     "no derivative flows through the function, or the global holds none"},
    {"enzyme_inactive_noblock", true, true, A::None, E::Inactive,
     "as enzyme_inactive"},
    {"enzyme_function_like", true, false, A::MathFunction, E::FunctionLike,
     "the function is differentiated with the named math function's rule"},
    {"enzyme_nofree", true, false, A::None, E::NoFree,
     "the function frees no memory"},
    {"enzyme_shadow", false, true, A::Global, E::Shadow,
     "the global's derivative is held by the named global"},
    {"enzyme_shouldrecompute", true, false, A::None, E::Hint,
     "a hint to recompute the function's result instead of caching it"},
    {"enzyme_nocache", true, false, A::None, E::Hint,
     "a hint not to cache the function's result"},
    {"enzyme_notypeanalysis", true, false, A::None, E::Hint,
     "a hint to skip Enzyme's type analysis of the function"},
    {"enzyme_sparse_accumulate", true, false, A::None, E::Hint,
     "a hint to accumulate the function's adjoints sparsely"},
};

static_assert(std::size(MarkTable) == NumEnzymeMarks);

struct Annotation {
  GlobalValue *Target = nullptr;
  StringRef Text;
  StringRef File;
  unsigned Line = 0;
  /// The annotation's arguments (`annotate("enzyme_shadow", &d_g)`).
  SmallVector<Constant *, 2> Args;
};

Annotation readEntry(Constant *Entry) {
  Annotation A;
  auto *S = dyn_cast<ConstantStruct>(Entry);
  if (!S || S->getNumOperands() < 4)
    return A;
  A.Target = dyn_cast<GlobalValue>(S->getOperand(0)->stripPointerCasts());
  A.Text = constantString(S->getOperand(1));
  A.File = constantString(S->getOperand(2));
  if (auto *Line = dyn_cast<ConstantInt>(S->getOperand(3)))
    A.Line = Line->getZExtValue();
  if (S->getNumOperands() > 4)
    if (auto *Args = dyn_cast<GlobalVariable>(
            S->getOperand(4)->stripPointerCasts());
        Args && Args->hasInitializer())
      for (Use &U : Args->getInitializer()->operands())
        A.Args.push_back(cast<Constant>(U.get()));
  return A;
}

void report(Module &M, const Annotation &A, const Twine &Message) {
  std::string Where;
  if (!A.File.empty())
    Where = (A.File + ":" + Twine(A.Line) + ": ").str();
  M.getContext().diagnose(
      DiagnosticInfoGeneric(Where + Message, DS_Error));
}

/// `static void *<Prefix>... = {elements}`, kept until the AD pass reads it.
void defineRegistration(Module &M, StringRef Prefix,
                        ArrayRef<Constant *> Elements) {
  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::getUnqual(C);
  auto *Ty = ArrayType::get(Ptr, Elements.size());
  auto *G = new GlobalVariable(M, Ty, /*isConstant=*/true,
                               GlobalValue::InternalLinkage,
                               ConstantArray::get(Ty, Elements),
                               Prefix + "_adcc_annotation");
  appendToCompilerUsed(M, {G});
}

Constant *stringConstant(Module &M, StringRef Text) {
  Constant *Data = ConstantDataArray::getString(M.getContext(), Text);
  auto *G = new GlobalVariable(M, Data->getType(), /*isConstant=*/true,
                               GlobalValue::PrivateLinkage, Data,
                               ".adcc.function_like");
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return G;
}

/// Applies one annotation. Returns false when it is malformed (reported).
bool apply(Module &M, const Annotation &A, const EnzymeMark &Mark) {
  auto *F = dyn_cast_or_null<Function>(A.Target);
  auto *G = dyn_cast_or_null<GlobalVariable>(A.Target);
  if ((F && !Mark.OnFunctions) || (G && !Mark.OnGlobals) || (!F && !G)) {
    report(M, A,
           "'" + Twine(Mark.Name) + "' applies to " +
               (Mark.OnFunctions && Mark.OnGlobals ? "functions and globals"
                : Mark.OnFunctions                 ? "functions"
                                                   : "global variables"));
    return false;
  }
  switch (Mark.Effect) {
  case E::Inactive:
    defineRegistration(M, F ? "__enzyme_inactivefn" : "__enzyme_inactive_global",
                       {A.Target});
    return true;
  case E::FunctionLike: {
    StringRef Like = A.Text.contains('=') ? A.Text.split('=').second : "";
    if (Like.empty() && !A.Args.empty())
      Like = constantString(A.Args.front());
    if (Like.empty() || !findMathRule(Like)) {
      report(M, A,
             "'enzyme_function_like' needs the name of a math function adcc "
             "knows, such as \"log1p\"" +
                 (Like.empty() ? Twine() : ", not '" + Like + "'"));
      return false;
    }
    defineRegistration(M, "__enzyme_function_like",
                       {A.Target, stringConstant(M, Like)});
    return true;
  }
  case E::NoFree:
    F->addFnAttr(Attribute::NoFree);
    return true;
  case E::Shadow: {
    auto *Shadow = A.Args.size() == 1 ? dyn_cast<GlobalVariable>(
                                            A.Args.front()->stripPointerCasts())
                                      : nullptr;
    if (!Shadow || Shadow == G) {
      report(M, A,
             "'enzyme_shadow' needs the address of the global variable that "
             "holds the shadow: annotate(\"enzyme_shadow\", &d_g)");
      return false;
    }
    defineRegistration(M, "__enzyme_shadow_global", {A.Target, Shadow});
    return true;
  }
  case E::Hint:
    return true;
  }
  return true;
}

constexpr const char *TypeHints[] = {"__enzyme_float", "__enzyme_double",
                                     "__enzyme_integer", "__enzyme_pointer"};

/// Enzyme's functions adcc does not implement, by name prefix, and what
/// each does.
struct UnsupportedRow {
  const char *Prefix;
  const char *What;
};

constexpr UnsupportedRow UnsupportedTable[] = {
    {"__enzyme_virtualreverse",
     "a shadow virtual table, which takes and returns one pointer"},
    {"__enzyme_truncate_op_func",
     "floating-point truncation of operations: done for a function named "
     "at the call and constant widths, to float or half (64, 32 or 16 "
     "bits; or 8/23, 5/10 exponent and significand bits), not to other "
     "formats (which Enzyme emulates with MPFR)"},
    {"__enzyme_truncate",
     "floating-point truncation of memory (values stored in a narrower "
     "format)"},
    {"__enzyme_expand_mem_value",
     "floating-point truncation of memory (values stored in a narrower "
     "format)"},
    {"__enzyme_sample", "probabilistic programming"},
    {"__enzyme_trace", "probabilistic programming"},
    {"__enzyme_condition", "probabilistic programming"},
    {"__enzyme_likelihood", "probabilistic programming"},
    {"__enzyme_observe", "probabilistic programming"},
    {"__enzyme_newtrace", "probabilistic programming"},
    {"__enzyme_get_", "probabilistic programming"},
    {"__enzyme_insert_", "probabilistic programming"},
    {"__enzyme_has_", "probabilistic programming"},
};

bool isTypeHint(StringRef Name) {
  return any_of(TypeHints, [&](const char *H) { return Name == H; });
}

} // namespace

/// Whether \p Call calls `__enzyme_iter` with two integers of its result's
/// type.
static bool isIterationCall(const CallBase &Call) {
  const auto *F = dyn_cast<Function>(Call.getCalledOperand());
  return F && F->getName() == "__enzyme_iter" && Call.arg_size() == 2 &&
         Call.getType()->isIntegerTy() &&
         Call.getArgOperand(0)->getType() == Call.getType() &&
         Call.getArgOperand(1)->getType() == Call.getType();
}

bool advanceEnzymeIterations(Function &D) {
  bool Changed = false;
  for (Instruction &I : instructions(D))
    if (auto *Call = dyn_cast<CallBase>(&I); Call && isIterationCall(*Call)) {
      IRBuilder<> B(Call);
      Call->setArgOperand(0, B.CreateAdd(Call->getArgOperand(0),
                                         Call->getArgOperand(1)));
      Changed = true;
    }
  return Changed;
}

bool lowerEnzymeIterations(Module &M) {
  Function *F = M.getFunction("__enzyme_iter");
  if (!F || !F->isDeclaration())
    return false;
  bool Changed = false;
  for (User *U : make_early_inc_range(F->users()))
    if (auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getCalledOperand() == F && isIterationCall(*Call)) {
      Call->replaceAllUsesWith(Call->getArgOperand(0));
      Call->eraseFromParent();
      Changed = true;
    }
  return Changed;
}

bool dropUnusedMarkers(Module &M) {
  bool Changed = false;
  for (GlobalVariable &G : make_early_inc_range(M.globals())) {
    if (!G.isDeclaration() || !G.getName().starts_with("enzyme_"))
      continue;
    G.removeDeadConstantUsers();
    if (G.use_empty()) {
      G.eraseFromParent();
      Changed = true;
    }
  }
  return Changed;
}

bool dropEnzymeTypeHints(Module &M) {
  bool Changed = false;
  for (const char *Name : TypeHints) {
    Function *F = M.getFunction(Name);
    if (!F || !F->isDeclaration())
      continue;
    for (User *U : make_early_inc_range(F->users()))
      if (auto *Call = dyn_cast<CallBase>(U);
          Call && Call->getCalledOperand() == F && Call->use_empty()) {
        Call->eraseFromParent();
        Changed = true;
      }
  }
  return Changed;
}

/// The identifier of \p Name when it is a C++ function of the global
/// namespace, `_Z<length><identifier><parameter types>` (Enzyme's functions
/// declared without `extern "C"`); else \p Name.
StringRef enzymeIdentifier(StringRef Name) {
  StringRef Rest = Name;
  unsigned Length = 0;
  if (!Rest.consume_front("_Z") || Rest.consumeInteger(10, Length) ||
      Length == 0 || Length > Rest.size())
    return Name;
  return Rest.take_front(Length);
}

std::string unsupportedEnzymeFunction(StringRef Name) {
  Name = enzymeIdentifier(Name);
  if (!Name.starts_with("__enzyme_") || isTypeHint(Name) ||
      Name == "__enzyme_iter")
    return {};
  for (const UnsupportedRow &Row : UnsupportedTable)
    if (Name.starts_with(Row.Prefix))
      return Row.What;
  return "a function of Enzyme's that adcc does not know";
}

ArrayRef<EnzymeMark> enzymeMarks() { return MarkTable; }

const EnzymeMark *findEnzymeMark(StringRef Name) {
  Name = Name.split('=').first;
  for (const EnzymeMark &Row : MarkTable)
    if (Name == Row.Name)
      return &Row;
  return nullptr;
}

bool isEnzymeMarkSpelling(StringRef Name) {
  return Name.starts_with("enzyme_") || Name.starts_with("enzyme::");
}

bool readEnzymeAnnotations(Module &M) {
  GlobalVariable *List = M.getGlobalVariable("llvm.global.annotations");
  if (!List || !List->hasInitializer())
    return false;
  auto *Entries = dyn_cast<ConstantArray>(List->getInitializer());
  if (!Entries)
    return false;
  SmallVector<Constant *, 8> Kept;
  bool Changed = false;
  for (Use &U : Entries->operands()) {
    auto *Entry = cast<Constant>(U.get());
    Annotation A = readEntry(Entry);
    if (!isEnzymeMarkSpelling(A.Text)) {
      Kept.push_back(Entry);
      continue;
    }
    Changed = true;
    if (const EnzymeMark *Mark = findEnzymeMark(A.Text))
      apply(M, A, *Mark);
    else
      report(M, A,
             "unknown Enzyme annotation '" + A.Text +
                 "': adcc does not know what it does to derivatives");
  }
  if (!Changed)
    return false;
  if (Kept.empty()) {
    List->eraseFromParent();
    return true;
  }
  auto *Ty = ArrayType::get(Entries->getType()->getElementType(), Kept.size());
  auto *NewList = new GlobalVariable(M, Ty, List->isConstant(),
                                     List->getLinkage(),
                                     ConstantArray::get(Ty, Kept), "", List);
  NewList->setSection(List->getSection());
  NewList->takeName(List);
  List->eraseFromParent();
  return true;
}

} // namespace adcore
