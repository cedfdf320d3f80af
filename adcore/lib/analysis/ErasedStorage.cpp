//===- ErasedStorage.cpp - The C++ library's type-erased storage ----------===//
//
// std::function and std::any keep a small object (a lambda's closure, a
// double) inside their own storage, a union, and a pointer there for a
// larger one; a manager function, reached through a pointer, clones and
// destroys it. Code compiled at -O0 copies that storage with nothing that
// says what the bytes are on the path taken: the type analysis finds the
// pointers of the manager's other paths. A manager's clone is typed by its
// class's template argument (erasedObjectType). std::function's storage
// moved as bytes (its move constructor, std::swap<std::_Any_data>) cannot
// be typed, but each such copy moves a source nothing reads again: those
// copies are recognized (isErasedMove, marked by prepare/ErasedMoves.cpp)
// and their adjoints moved back as bytes; an unrecognized copy in a copy
// assignment is an error where some callable kept in the module holds
// floating-point values.
//
//===----------------------------------------------------------------------===//

#include "analysis/ErasedStorage.h"
#include "analysis/SourceTypes.h"
#include "adcore/TemplateRecords.h"
#include "support/IRMarks.h"
#include "Synthesis.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <string>

using namespace llvm;

namespace adcore {

/// Whether \p T is, or holds, a std::function's storage.
static bool holdsErasedStorage(Type *T) {
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsErasedStorage(AT->getElementType());
  auto *ST = dyn_cast<StructType>(T);
  if (!ST)
    return false;
  if (ST->hasName() && ST->getName().starts_with("union.std::_Any_data"))
    return true;
  return any_of(ST->elements(), [](Type *E) { return holdsErasedStorage(E); });
}

/// Whether the C++ type of the parameter \p A (in its function's mangled
/// name) is a reference or pointer to std::_Any_data: a manager's storage.
static bool erasedStorageParameter(const Argument &A) {
  std::string Name = A.getParent()->getName().split('.').first.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Name.c_str()) || !D.isFunction())
    return false;
  size_t N = 0;
  char *Buf = D.getFunctionParameters(nullptr, &N);
  if (!Buf)
    return false;
  std::string Params(Buf);
  std::free(Buf);
  // (Each parameter that is one: a method's `this` comes first in the IR.)
  SmallVector<StringRef, 8> Types =
      splitTopLevel(StringRef(Params).drop_front().drop_back());
  unsigned Shift = A.getParent()->arg_size() >= Types.size()
                       ? A.getParent()->arg_size() - Types.size()
                       : 0;
  unsigned I = A.getArgNo();
  return I >= Shift && I - Shift < Types.size() &&
         Types[I - Shift].starts_with("std::_Any_data");
}

bool declaredWithErasedStorage(const Value *Ptr) {
  if (!Ptr || !Ptr->getType()->isPointerTy())
    return false;
  const Value *Base = getUnderlyingObject(Ptr);
  if (const auto *A = dyn_cast<Argument>(Base))
    return erasedStorageParameter(*A);
  if (auto *AI = dyn_cast<AllocaInst>(Base))
    return holdsErasedStorage(AI->getAllocatedType());
  if (auto *GV = dyn_cast<GlobalVariable>(Base))
    return holdsErasedStorage(GV->getValueType());
  return false;
}

/// The callable type of std::_Function_handler<Signature, Callable>, the
/// class a manager or invoker named \p Mangled belongs to; empty if none.
static std::string handledCallable(StringRef Mangled) {
  if (!Mangled.starts_with("_ZNSt17_Function_handler"))
    return "";
  // "std::_Function_handler<double (double), f(double const*)::$_0>"
  std::string Class = declContextOf(Mangled);
  StringRef C = Class;
  if (!C.consume_front("std::_Function_handler<"))
    return "";
  SmallVector<StringRef, 8> Args = splitTopLevel(C);
  return Args.size() == 2 ? Args[1].str() : "";
}

bool mayEraseFloatCallables(const Module &M) {
  for (const Function &F : M) {
    std::string Callable = handledCallable(F.getName());
    if (Callable.empty())
      continue;
    // (A function pointer holds no floating-point value; a callable whose
    // type is not found may hold anything.)
    if (StringRef(Callable).contains("(*)"))
      continue;
    StructType *ST = isClosureName(Callable) ? closureStruct(M, Callable)
                     : StringRef(Callable).contains('<')
                         ? templateRecordStruct(M, Callable)
                         : uniqueStructNamed(M.getContext(), Callable);
    if (!ST && StringRef(Callable).contains('<'))
      ST = classStruct(M, Callable);
    if (!ST || containsFloat(ST))
      return true;
  }
  return false;
}

/// Whether \p Mangled names std::function's copy assignment
/// (`std::function<R(A...)>::operator=(std::function<R(A...)> const&)`).
static bool isFunctionCopyAssignment(StringRef Mangled) {
  // (Also the augmented copy adcc makes of it, `augmented_<name>`.)
  return Mangled.contains("_ZNSt8function") && Mangled.contains("EEaSERKS");
}

bool inFunctionCopyAssignment(const Instruction &I) {
  if (isFunctionCopyAssignment(I.getFunction()->getName()))
    return true;
  for (const DILocation *L = I.getDebugLoc(); L; L = L->getInlinedAt())
    if (const DISubprogram *SP = L->getScope()->getSubprogram();
        SP && isFunctionCopyAssignment(SP->getLinkageName()))
      return true;
  return false;
}

bool movesErasedStorage(StringRef Name) {
  if (Name.starts_with("_ZSt4swapISt9_Any_dataE"))
    return true;
  if (!Name.starts_with("_ZNSt8function"))
    return false;
  std::string D = demangle(Name.split('.').first.str());
  StringRef S = D;
  size_t Ctor = S.find("::function(");
  if (Ctor == StringRef::npos)
    return false;
  StringRef Class = S.take_front(Ctor);
  return S.drop_front(Ctor) == ("::function(" + Class + "&&)").str();
}

bool isErasedMove(const MemTransferInst &Copy, const Instruction *Primal) {
  if (Copy.getMetadata(ErasedMoveMetadata) ||
      (Primal && Primal->getMetadata(ErasedMoveMetadata)))
    return true;
  auto *Len = dyn_cast<ConstantInt>(Copy.getLength());
  if (!Len || Len->getZExtValue() != 16)
    return false;
  for (const DILocation *L = Copy.getDebugLoc(); L; L = L->getInlinedAt())
    if (const DISubprogram *SP = L->getScope()->getSubprogram();
        SP && movesErasedStorage(SP->getLinkageName()))
      return true;
  return false;
}

/// The template argument of \p Class, `Prefix...<T>` with \p Prefix
/// ending in `<`; empty where \p Class is not one or has several.
static StringRef onlyTemplateArgument(StringRef Class, StringRef Prefix) {
  if (!Class.consume_front(Prefix))
    return "";
  SmallVector<StringRef, 8> Args = splitTopLevel(Class);
  return Args.size() == 1 ? Args[0] : StringRef();
}

Type *erasedObjectType(const Instruction &I) {
  // (The function adcc made of the manager, `augmented_<name>`, or its
  // simplified copy, `<name>.simplified`: the program's function's name.)
  StringRef Name = I.getFunction()->getName();
  size_t At = Name.find("_ZN");
  if (At == StringRef::npos)
    return nullptr;
  std::string Class = declContextOf(Name.drop_front(At));
  StringRef T;
  for (StringRef Prefix : {"std::any::_Manager_external<",
                           "std::any::_Manager_internal<",
                           "std::_Function_base::_Base_manager<"})
    if (T = onlyTemplateArgument(Class, Prefix); !T.empty())
      break;
  // (std::_Function_handler<Signature, T>::_M_manager, where the base
  // manager's clone is inlined: from -O1, and std::bind's result.)
  std::string Handled = handledCallable(Name.drop_front(At));
  if (T.empty())
    T = Handled;
  if (T.empty())
    return nullptr;
  LLVMContext &C = I.getContext();
  if (T == "double")
    return Type::getDoubleTy(C);
  if (T == "float")
    return Type::getFloatTy(C);
  const Module &M = *I.getModule();
  if (isClosureName(T))
    return closureStruct(M, T);
  // (A class template's specialization, std::bind's result: the layout the
  // frontend recorded, TemplateRecords.h, else the struct its members index
  // `this` by.)
  if (!T.contains('<'))
    return uniqueStructNamed(C, T);
  if (StructType *ST = templateRecordStruct(M, T))
    return ST;
  return classStruct(M, T);
}

} // namespace adcore
