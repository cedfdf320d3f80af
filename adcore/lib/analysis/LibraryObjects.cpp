//===- analysis/LibraryObjects.cpp - Objects of inactive classes ---------===//

#include "LibraryObjects.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// True when \p F is a constructor or destructor of a class whose functions
/// are known inactive (`std::basic_filebuf<char>::basic_filebuf()`).
bool isInactiveStructor(const Function &F) {
  if (!isKnownInactiveFunction(F))
    return false;
  ItaniumPartialDemangler D;
  return !D.partialDemangle(F.getName().str().c_str()) && D.isCtorOrDtor();
}

// The library's classes of streams and stream buffers, by the start of
// their functions' mangled names: the classes a program derives its own
// from (std::string's members are no such base).
constexpr const char *StreamClassPrefixTable[] = {
    "_ZNSt15basic_streambuf",
    "_ZNSt13basic_filebuf",
    "_ZNSt7__cxx1115basic_stringbuf",
    "_ZNSt9basic_ios",
    "_ZNSo",
    "_ZNSi",
    "_ZNSd",
    "_ZNSt13basic_ostream",
    "_ZNSt13basic_istream",
    "_ZNSt14basic_iostream",
    "_ZNSt7__cxx1118basic_stringstream",
    "_ZNSt7__cxx1119basic_ostringstream",
    "_ZNSt7__cxx1119basic_istringstream",
    "_ZNSt14basic_ifstream",
    "_ZNSt14basic_ofstream",
    "_ZNSt13basic_fstream",
};

/// True when \p F is a constructor of one of those classes.
bool isStreamClassStructor(const Function &F) {
  return isInactiveStructor(F) &&
         any_of(StreamClassPrefixTable,
                [&](const char *Row) { return F.getName().starts_with(Row); });
}

/// True when a store gives \p Obj (or a base within it) a virtual table
/// this module defines: the program's class derived from a library class,
/// whose constructor, inlined, stores its own table after the base's.
bool receivesOwnVirtualTable(const Value *Obj, unsigned Depth = 3) {
  for (const User *U : Obj->users()) {
    if (isa<GetElementPtrInst>(U) && Depth > 0 &&
        receivesOwnVirtualTable(U, Depth - 1))
      return true;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != Obj)
      continue;
    const auto *GV =
        dyn_cast<GlobalVariable>(getUnderlyingObject(SI->getValueOperand()));
    if (GV && GV->getName().starts_with("_ZTV") && !GV->isDeclaration())
      return true;
  }
  return false;
}

/// The object a pointer kept in a local variable at -O0 points to (every
/// address stored in the variable has one underlying object), else \p Obj.
const Value *throughSlot(const Value *Obj) {
  const auto *LI = dyn_cast<LoadInst>(Obj);
  const auto *Slot =
      LI ? dyn_cast<AllocaInst>(getUnderlyingObject(LI->getPointerOperand()))
         : nullptr;
  if (!Slot || !Slot->getAllocatedType()->isPointerTy())
    return Obj;
  const Value *Stored = nullptr;
  for (const User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != Slot)
      return Obj;
    const Value *V = getUnderlyingObject(SI->getValueOperand());
    if (Stored && V != Stored)
      return Obj;
    Stored = V;
  }
  return Stored ? Stored : Obj;
}

/// True when \p T is a class whose first base (its first field, at any
/// depth) is a library class that holds no derivatives, and that is not
/// one itself: a class the program derives from std::streambuf.
bool derivesFromLibraryClass(const Type *T) {
  if (isKnownInactiveType(T))
    return false;
  for (const auto *ST = dyn_cast<StructType>(T); ST && ST->getNumElements() > 0;
       ST = dyn_cast<StructType>(ST->getElementType(0)))
    if (isKnownInactiveType(ST->getElementType(0)))
      return true;
  return false;
}

/// True when \p Obj is given to a function of this module (the program's
/// constructor, not inlined) that constructs a library stream or stream
/// buffer at its first argument: a block from `new Tee(...)` whose class
/// derives from one.
bool constructedAsDerivedClass(const Value *Obj) {
  for (const User *U : Obj->users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || Callee->arg_size() == 0 ||
        Call->arg_size() == 0 || Call->getArgOperand(0) != Obj)
      continue;
    // (At -O0 `this` is kept in a local variable first.)
    const Argument *This = Callee->getArg(0);
    for (const BasicBlock &BB : *Callee)
      for (const Instruction &I : BB) {
        const auto *Base = dyn_cast<CallBase>(&I);
        const Function *BaseCtor = Base ? Base->getCalledFunction() : nullptr;
        if (BaseCtor && Base->arg_size() > 0 &&
            isStreamClassStructor(*BaseCtor) &&
            throughSlot(getUnderlyingObject(Base->getArgOperand(0))) == This)
          return true;
      }
  }
  return false;
}

bool madeAsLibraryObject(const Value *Obj) {
  if (const auto *AI = dyn_cast<AllocaInst>(Obj);
      AI && isKnownInactiveType(AI->getAllocatedType()))
    return true;
  if (isa<Argument, GlobalValue>(Obj) || receivesOwnVirtualTable(Obj))
    return false;
  for (const User *U : Obj->users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Callee && Call->arg_size() > 0 && Call->getArgOperand(0) == Obj &&
        isInactiveStructor(*Callee))
      return true;
  }
  return false;
}

// Functions of the library's streams and stream buffers that may call a
// stream buffer's virtual functions (by mangled-name prefix): the stream
// buffer's own (sputn, sgetn, pubsync), the streams' unformatted and
// formatted input and output (write, read, put, get, operator<<, >>).
constexpr const char *StreamFunctionPrefixTable[] = {
    "_ZNSt15basic_streambuf",
    "_ZNKSt15basic_streambuf",
    "_ZNSo",
    "_ZNSi",
    "_ZNSd",
    "_ZNSt13basic_ostream",
    "_ZNSt13basic_istream",
    "_ZNSt14basic_iostream",
    "_ZStlsI",
    "_ZStrsI",
    "_ZSt16__ostream_insert",
    "_ZSt7getline",
    "_ZSt4endl",
    "_ZSt5flush",
};

// Of those, the ones that read a number as text (`in >> x`): the value read
// has no derivative whatever the buffer gave (prepare/InputValues.cpp resets
// it), so their argument is no way for a derivative into the buffer.
constexpr const char *NumberExtractorPrefixTable[] = {
    "_ZNSirsER",
    "_ZNSi10_M_extractI",
    "_ZNSt13basic_istreamIwSt11char_traitsIwEErsER",
    "_ZNSt13basic_istreamIwSt11char_traitsIwEE10_M_extractI",
};

// The library's streams that own no buffer: made over one given to their
// constructor (or to basic_ios::init, rdbuf), by the start of their IR type
// names.
constexpr const char *BufferlessStreamTypeTable[] = {
    "class.std::basic_ostream",
    "class.std::basic_istream",
    "class.std::basic_iostream",
};

bool startsWithAny(StringRef Name, ArrayRef<const char *> Table) {
  return any_of(Table, [&](const char *Row) { return Name.starts_with(Row); });
}

/// Where the object a library stream function is called on comes from.
enum class Origin {
  Library, ///< made as an object of a library class (or is one of the
           ///< library's, std::cout)
  Program, ///< of a class the program derives from a library class
  Unknown, ///< a parameter, a pointer read from memory or returned by a
           ///< call: of any class
};

Origin originOf(const Value *Obj) {
  if (const auto *AI = dyn_cast<AllocaInst>(Obj)) {
    if (derivesFromLibraryClass(AI->getAllocatedType()) ||
        receivesOwnVirtualTable(AI))
      return Origin::Program;
    if (isKnownInactiveType(AI->getAllocatedType()))
      return Origin::Library;
  }
  if (const auto *GV = dyn_cast<GlobalVariable>(Obj)) {
    if (derivesFromLibraryClass(GV->getValueType()) ||
        constructedAsDerivedClass(GV))
      return Origin::Program;
    // (The library's streams, std::cout, are declared.)
    if (isKnownInactiveType(GV->getValueType()) ||
        (GV->isDeclaration() && GV->getName().starts_with("_ZSt")))
      return Origin::Library;
    return Origin::Unknown;
  }
  if (isa<Argument, LoadInst, PHINode, SelectInst>(Obj))
    return Origin::Unknown;
  if (constructedAsDerivedClass(Obj) || receivesOwnVirtualTable(Obj))
    return Origin::Program;
  if (madeAsLibraryObject(Obj))
    return Origin::Library;
  return Origin::Unknown;
}

/// The name of the class of \p Obj, a local or global variable, or "".
StringRef originTypeName(const Value *Obj) {
  const Type *T = nullptr;
  if (const auto *AI = dyn_cast<AllocaInst>(Obj))
    T = AI->getAllocatedType();
  else if (const auto *GV = dyn_cast<GlobalVariable>(Obj))
    T = GV->getValueType();
  const auto *ST = dyn_cast_or_null<StructType>(T);
  return ST && ST->hasName() ? ST->getName() : StringRef();
}

/// The stream buffers \p Stream, a stream of the library, is made over or
/// given: the argument of a library function with a `std::basic_streambuf
/// *` parameter called on it (its constructor, basic_ios::init, rdbuf; also
/// `os << buf`, which reads from one).
SmallVector<const Value *, 2> buffersOf(const Value *Stream) {
  SmallVector<const Value *, 2> Buffers;
  SmallVector<const Value *, 8> Work{Stream};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst>(U)) {
        Work.push_back(U);
        continue;
      }
      // (At -O0 `this` is kept in a local variable: its loads.)
      if (const auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getValueOperand() == V)
        if (const auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand()))
          for (const User *L : Slot->users())
            if (isa<LoadInst>(L))
              Work.push_back(L);
      const auto *Call = dyn_cast<CallBase>(U);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (Callee && Call->arg_size() > 1 && Call->getArgOperand(0) == V &&
          Callee->getName().starts_with("_ZNS") &&
          Callee->getName().contains("PSt15basic_streambuf"))
        Buffers.push_back(
            throughSlot(getUnderlyingObject(Call->getArgOperand(1))));
    }
  }
  return Buffers;
}

} // namespace

bool isInactiveLibraryObject(const Value *Ptr) {
  return Ptr && Ptr->getType()->isPointerTy() &&
         madeAsLibraryObject(throughSlot(getUnderlyingObject(Ptr)));
}

OverrideReach
callsProgramOverrides(const CallBase &Call,
                      function_ref<bool(const Value *)> HasDerivative) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Call.arg_size() == 0 ||
      !Call.getArgOperand(0)->getType()->isPointerTy() ||
      !isKnownInactiveFunction(*Callee) ||
      none_of(Call.args(),
              [&](const Use &U) { return HasDerivative(U.get()); }))
    return OverrideReach::None;
  if (isInactiveStructor(*Callee))
    return OverrideReach::None;
  // (`this` is the object itself, not a member: std::locale's constructor
  // on the stream buffer's locale.)
  const DataLayout &DL = Call.getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Call.getArgOperand(0)->getType()), 0);
  const Value *Base =
      Call.getArgOperand(0)->stripAndAccumulateInBoundsConstantOffsets(DL,
                                                                       Offset);
  if (!Offset.isZero())
    return OverrideReach::None;
  const Value *Obj = throughSlot(getUnderlyingObject(Base));
  Origin O = originOf(Obj);
  if (O == Origin::Program)
    return OverrideReach::DerivedObject;
  // A stream over a buffer, or an object of any class: the derivative goes
  // into the buffer (or comes out of it) through memory given by address,
  // the bytes written (write, sputn) or the place read into (read, sgetn).
  // A number given by value is written as text, which has none.
  if (!startsWithAny(Callee->getName(), StreamFunctionPrefixTable) ||
      startsWithAny(Callee->getName(), NumberExtractorPrefixTable) ||
      none_of(drop_begin(Call.args()), [&](const Use &U) {
        return U->getType()->isPointerTy() && HasDerivative(U.get());
      }))
    return OverrideReach::None;
  bool Untraced = O == Origin::Unknown;
  if (O == Origin::Library &&
      startsWithAny(originTypeName(Obj), BufferlessStreamTypeTable)) {
    SmallVector<const Value *, 2> Buffers = buffersOf(Obj);
    for (const Value *Buffer : Buffers) {
      Origin B = originOf(Buffer);
      if (B == Origin::Program)
        return OverrideReach::StreamOverDerived;
      Untraced |= B == Origin::Unknown;
    }
    // (A local stream whose buffer was given in a way not seen here; the
    // library's own, std::cout, have the library's.)
    if (Buffers.empty() && !isa<GlobalVariable>(Obj))
      Untraced = true;
  }
  // (Whether or not this file derives such a class: another file may, and
  // give the object; the library's call then kept its derivative from the
  // other file's override, 1 for 1 + 4v, until 2026-12-06.)
  if (Untraced)
    return OverrideReach::UntracedObject;
  return OverrideReach::None;
}

std::string programOverridesError(OverrideReach Reach, StringRef Callee) {
  std::string Head = ("the C++ library's '" + Callee + "' is called on ").str();
  const char *Tail =
      "; a derivative passed to it would not reach them (adcc keeps the "
      "library's call as it is): ";
  const char *Direct =
      "write to (or read from) the derived stream buffer through its own "
      "functions (sputn, sgetn), compiled with -O1 or higher, where the "
      "library's are inlined";
  switch (Reach) {
  case OverrideReach::DerivedObject:
    return Head +
           "an object of a class this program derives from a library "
           "stream buffer or stream, whose virtual functions it calls" +
           Tail +
           "call the derived class's function directly, or compile with "
           "-O1 or higher, where the library's function is inlined";
  case OverrideReach::StreamOverDerived:
    return Head +
           "a stream over a stream buffer of a class this program derives "
           "from std::streambuf, whose virtual functions it calls" +
           Tail + Direct;
  case OverrideReach::UntracedObject:
  case OverrideReach::None:
    break;
  }
  // (A stream's functions are never inlined; a stream buffer's are.)
  return Head +
         "a stream or stream buffer adcc cannot trace to where it was made "
         "(a parameter, a pointer read from memory or returned by a "
         "function), whose class may be one the program derives from "
         "std::streambuf, in this file or another, with virtual functions of "
         "its own, which the call may reach" +
         Tail +
         (Callee.starts_with("std::basic_streambuf")
              ? "make the object in the differentiated function, or compile "
                "with -O1 or higher, where the library's function is inlined"
              : Direct);
}

bool isInactiveLibraryVirtualCall(const CallBase &Call) {
  if (Call.getCalledFunction() || Call.isInlineAsm() || Call.arg_size() == 0)
    return false;
  // The callee is read from the virtual table read from the object:
  // load (gep (load this)).
  const auto *Slot = dyn_cast<LoadInst>(Call.getCalledOperand());
  if (!Slot)
    return false;
  const auto *Table =
      dyn_cast<LoadInst>(getUnderlyingObject(Slot->getPointerOperand()));
  if (!Table)
    return false;
  const Value *This = Call.getArgOperand(0);
  return getUnderlyingObject(Table->getPointerOperand()) ==
             getUnderlyingObject(This) &&
         isInactiveLibraryObject(This);
}

} // namespace adcore
