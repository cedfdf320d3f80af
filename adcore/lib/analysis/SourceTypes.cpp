//===- SourceTypes.cpp - What C and C++ source types say ------------------===//

#include "SourceTypes.h"

#include "adcore/TemplateRecords.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <map>

using namespace llvm;

namespace adcore {

SmallVector<StringRef, 8> splitTopLevel(StringRef Text) {
  SmallVector<StringRef, 8> Items;
  int Depth = 0;
  size_t From = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '<' || C == '(') {
      ++Depth;
    } else if ((C == '>' || C == ')') && Depth-- == 0) {
      Text = Text.take_front(I);
      break;
    } else if (C == ',' && Depth == 0) {
      Items.push_back(Text.slice(From, I).trim());
      From = I + 1;
    }
  }
  if (StringRef Last = Text.drop_front(From).trim(); !Last.empty())
    Items.push_back(Last);
  return Items;
}

namespace {

/// The integer types of at least 16 bits, as the demangler prints them.
constexpr StringRef IntegerTypeNames[] = {
    "short",    "unsigned short",   "int",       "unsigned int",
    "long",     "unsigned long",    "long long", "unsigned long long",
    "__int128", "unsigned __int128"};

/// The first template argument in \p Args, the text after a template's `<`.
StringRef firstTemplateArgument(StringRef Args) {
  SmallVector<StringRef, 8> Items = splitTopLevel(Args);
  return Items.empty() ? StringRef() : Items.front();
}

/// True for a fixed-size Eigen matrix or array of \p Scalar
/// (`Eigen::Matrix<double, 3, 1, 0, 3, 1>`): its coefficients, inline.
bool isFixedEigenOf(StringRef T, StringRef Scalar) {
  if (!T.consume_front("Eigen::Matrix<") && !T.consume_front("Eigen::Array<"))
    return false;
  if (!T.consume_front(Scalar) || !T.consume_front(", "))
    return false;
  unsigned Rows, Cols;
  return !T.consumeInteger(10, Rows) && T.consume_front(", ") &&
         !T.consumeInteger(10, Cols) && Rows > 0 && Cols > 0;
}

/// The scalar kind of Eigen's storage of a dynamic-size matrix
/// (`Eigen::DenseStorage<double, -1, -1, -1, 0>`, `Eigen::Matrix<double,
/// -1, 1, 0, -1, 1>`): an object whose first field points to the
/// coefficients; else Unknown.
Kind dynamicEigenStorageOf(StringRef T) {
  if (!T.consume_front("Eigen::DenseStorage<") &&
      !T.consume_front("Eigen::Matrix<") && !T.consume_front("Eigen::Array<"))
    return Kind::Unknown;
  Kind K = T.consume_front("double, ")  ? Kind::Double
           : T.consume_front("float, ") ? Kind::Float
           : (T.consume_front("int, ") || T.consume_front("long, "))
               ? Kind::Integer // (a permutation's indices)
               : Kind::Unknown;
  // Some dimension dynamic (-1): the coefficients are on the heap.
  return T.contains("-1") ? K : Kind::Unknown;
}

} // namespace

Kind floatKindOfCXXType(StringRef T) {
  if (T == "double" || T.starts_with("std::array<double, ") ||
      T == "std::complex<double>" || isFixedEigenOf(T, "double"))
    return Kind::Double;
  if (T == "float" || T.starts_with("std::array<float, ") ||
      T == "std::complex<float>" || isFixedEigenOf(T, "float"))
    return Kind::Float;
  return Kind::Unknown;
}

StructType *uniqueStructNamed(LLVMContext &C, StringRef Name) {
  if (Name.empty() || Name.contains('<') || Name.contains('(') ||
      Name.contains(' '))
    return nullptr;
  for (StringRef Prefix : {"struct.", "class."})
    if (StructType *ST = StructType::getTypeByName(C, (Prefix + Name).str()))
      return StructType::getTypeByName(C, (Prefix + Name + ".0").str())
                 ? nullptr
                 : ST;
  return nullptr;
}

/// The scalars of the IR type \p T from byte \p At on, into \p Out by
/// offset (floating-point numbers, pointers, integers of 16 bits or more;
/// bytes are flags or padding); false for a union, whose IR type names one
/// member only.
static bool scalarsOf(const DataLayout &DL, Type *T, uint64_t At,
                      std::map<uint64_t, Type *> &Out) {
  if (T->isFloatingPointTy() || T->isPointerTy() ||
      (T->isIntegerTy() && T->getIntegerBitWidth() >= 16)) {
    Out[At] = T;
    return true;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements() && I < 64; ++I)
      if (!scalarsOf(DL, AT->getElementType(), At + I * Size, Out))
        return false;
    return AT->getNumElements() < 64 || AT->getElementType()->isIntegerTy(8);
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    if (ST->isOpaque() ||
        (ST->hasName() && ST->getName().starts_with("union.")))
      return false;
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (!scalarsOf(DL, ST->getElementType(I), At + SL->getElementOffset(I),
                     Out))
        return false;
  }
  return true;
}

StructType *variantStruct(const Module &M, StringRef Name) {
  if (!Name.consume_front("std::variant<"))
    return nullptr;
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  SmallVector<StringRef, 8> Alternatives = splitTopLevel(Name);
  // (libstdc++ keeps the index in an unsigned char below 255 alternatives.)
  if (Alternatives.empty() || Alternatives.size() >= 255)
    return nullptr;
  std::map<uint64_t, Type *> Scalars;
  uint64_t Storage = 0;
  Align MaxAlign(1);
  bool AnyFloat = false;
  for (StringRef A : Alternatives) {
    Type *T = A == "double"  ? Type::getDoubleTy(C)
              : A == "float" ? Type::getFloatTy(C)
                             : uniqueStructNamed(C, A);
    if (!T || (isa<StructType>(T) && cast<StructType>(T)->isOpaque()))
      return nullptr;
    std::map<uint64_t, Type *> Own;
    if (!scalarsOf(DL, T, 0, Own))
      return nullptr;
    // (Where two alternatives put different scalars at one offset, which
    // one the bytes hold is known only at run time.)
    for (auto [Offset, S] : Own) {
      auto [It, New] = Scalars.try_emplace(Offset, S);
      if (!New && It->second != S)
        return nullptr;
      AnyFloat |= S->isFloatingPointTy();
    }
    Storage = std::max(Storage, uint64_t(DL.getTypeAllocSize(T)));
    MaxAlign = std::max(MaxAlign, DL.getABITypeAlign(T));
  }
  if (!AnyFloat)
    return nullptr;
  // Fields in order, bytes between them, and the index after the storage.
  SmallVector<Type *, 8> Fields;
  uint64_t At = 0;
  auto Pad = [&](uint64_t To) {
    if (To > At)
      Fields.push_back(ArrayType::get(Type::getInt8Ty(C), To - At));
    At = To;
  };
  for (auto [Offset, S] : Scalars) {
    if (Offset < At || Offset % DL.getABITypeAlign(S).value())
      return nullptr; // (scalars of two alternatives that overlap)
    Pad(Offset);
    Fields.push_back(S);
    At += DL.getTypeAllocSize(S);
  }
  if (At > Storage)
    return nullptr;
  Pad(Storage);
  Fields.push_back(Type::getInt8Ty(C));
  auto *ST = StructType::get(C, Fields);
  uint64_t Size = alignTo(Storage + 1, MaxAlign.value());
  return DL.getTypeAllocSize(ST) == Size && DL.getABITypeAlign(ST) == MaxAlign
             ? ST
             : nullptr;
}

/// The IR struct type of the C++ class \p T of \p F's module: a struct of
/// the file, or a class template's specialization (TemplateRecords.h).
static StructType *classOrTemplateStruct(const Function &F, StringRef T) {
  if (StructType *ST = uniqueStructNamed(F.getContext(), T))
    return ST;
  return F.getParent() ? templateRecordStruct(*F.getParent(), T) : nullptr;
}

/// The IR struct type of the C++ type \p T of \p F's module: a struct of
/// the file, a class template's specialization, or a std::variant of them
/// (variantStruct).
static StructType *declaredStruct(const Function &F, StringRef T) {
  if (StructType *ST = classOrTemplateStruct(F, T))
    return ST;
  return F.getParent() ? variantStruct(*F.getParent(), T) : nullptr;
}

std::string sourceTypeOfTBAAName(StringRef Name) {
  if (!Name.starts_with("_ZTS"))
    return Name.str();
  std::string D = demangle(Name.str());
  StringRef Prefix = "typeinfo name for ";
  return StringRef(D).starts_with(Prefix) ? D.substr(Prefix.size()) : "";
}

std::string declContextOf(StringRef Mangled) {
  std::string Name = Mangled.split('.').first.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Name.c_str()))
    return "";
  size_t N = 0;
  char *Ctx = D.getFunctionDeclContextName(nullptr, &N);
  if (!Ctx)
    return "";
  std::string Context(Ctx);
  std::free(Ctx);
  return Context;
}

/// Whether \p Name is a lambda's closure type as the demangler prints it:
/// `f(double const*)::$_0` (clang's name in a function of internal
/// linkage) or `f(double const*)::{lambda(double)#1}`.
bool isClosureName(StringRef Name) {
  return Name.rsplit("::").second.starts_with("$_") ||
         (Name.contains("::{lambda(") && Name.ends_with("}"));
}

/// The struct the member functions of the class \p Name index `this` by
/// (closureStruct, classStruct); \p Closure: a lambda's closure (only the
/// functions whose names name one are demangled).
static StructType *memberStruct(const Module &M, StringRef Name,
                                bool Closure) {
  StructType *Found = nullptr;
  for (const Function &G : M) {
    StringRef GName = G.getName();
    if (G.isDeclaration() || G.arg_empty() ||
        !G.getArg(0)->getType()->isPointerTy() ||
        !(Closure ? (GName.contains("$_") || GName.contains("Ul"))
                  : GName.starts_with("_ZN")))
      continue;
    if (declContextOf(GName) != Name)
      continue;
    const Argument *This = G.getArg(0);
    auto IsThis = [&](const Value *P) {
      if (P == This)
        return true;
      const auto *L = dyn_cast<LoadInst>(P);
      const auto *Slot = L ? dyn_cast<AllocaInst>(L->getPointerOperand())
                           : nullptr;
      return Slot && any_of(Slot->users(), [&](const User *U) {
               const auto *S = dyn_cast<StoreInst>(U);
               return S && S->getValueOperand() == This;
             });
    };
    for (const BasicBlock &BB : G)
      for (const Instruction &I : BB)
        if (const auto *GEP = dyn_cast<GetElementPtrInst>(&I))
          if (auto *ST = dyn_cast<StructType>(GEP->getSourceElementType());
              ST && IsThis(GEP->getPointerOperand())) {
            if (Found && Found != ST)
              return nullptr;
            Found = ST;
          }
  }
  return Found;
}

/// The IR struct type of the closure \p Name, read from its members'
/// bodies: the struct their GEPs index `this` by (at -O0 `this` is stored
/// to a slot and loaded from it). Null where the members disagree or none
/// reads a capture. (Clang names closure types `class.anon`, `class.anon.0`
/// ...: the name does not say which lambda a type is.)
StructType *closureStruct(const Module &M, StringRef Name) {
  return memberStruct(M, Name, /*Closure=*/true);
}

StructType *classStruct(const Module &M, StringRef Name) {
  return memberStruct(M, Name, /*Closure=*/false);
}


/// Whether the parameter types \p Types, the last ones of \p F's arguments
/// from \p Shift on, match the IR's: pointers and references where it has
/// pointers, scalars where it has scalars of their kind. (They do not where
/// the IR splits a parameter: a `std::complex<double>` passed as two
/// doubles after a pointer shifts the pointers before it.)
static bool fitsArguments(const Function &F, ArrayRef<StringRef> Types,
                          unsigned Shift) {
  for (auto [I, Text] : enumerate(Types)) {
    Type *IR = F.getArg(I + Shift)->getType();
    StringRef T = Text;
    T.consume_back("const");
    T = T.trim();
    if (T.ends_with("*") || T.ends_with("&")) {
      if (!IR->isPointerTy())
        return false;
    } else if (T == "double" || T == "float") {
      if (!IR->isFloatingPointTy())
        return false;
    } else if (is_contained(IntegerTypeNames, T) || T == "bool" ||
               T == "char") {
      if (!IR->isIntegerTy())
        return false;
    }
  }
  return true;
}

/// True for a name whose suffix says the function is code taken out of the
/// named one (an OpenMP region's body, `f.omp_outlined`; a cold part, an
/// extracted region) rather than a clone with its parameters: the
/// parameters are the captured variables, not the signature's.
static bool isOutlinedPart(StringRef Suffix) {
  for (StringRef Part : {"omp", "outlined", "cold", "extracted", "part."})
    if (Suffix.contains(Part))
      return true;
  return false;
}

/// Whether argument \p ArgNo of \p F is a member function's `this`, as
/// Clang declares it: a pointer to a complete object (nonnull,
/// dereferenceable), not a result returned through memory. (A function
/// whose by-value struct parameter the ABI splits has more IR arguments
/// than source parameters too.)
static bool isThisParameter(const Function &F, unsigned ArgNo) {
  const Argument *A = F.getArg(ArgNo);
  return A->getType()->isPointerTy() && !A->hasStructRetAttr() &&
         A->hasNonNullAttr() && A->getDereferenceableBytes() > 0;
}

SignatureSeeds seedsFromSignature(const Function &F) {
  SignatureSeeds Seeds;
  // The demangler keeps pointers into the name: it must outlive D's use.
  // (Without a clone's suffix: the simplified copy of a function compiled
  // at -O0 is `<name>.simplified`, SimplifiedCopies.h.)
  auto [Base, Suffix] = F.getName().split('.');
  if (isOutlinedPart(Suffix))
    return Seeds;
  std::string Mangled = Base.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()) || !D.isFunction())
    return Seeds;
  size_t N = 0;
  char *Buf = D.getFunctionParameters(nullptr, &N);
  if (!Buf)
    return Seeds;
  std::string Params(Buf);
  std::free(Buf);
  // "(double*, std::pair<int, int>, float const&)"
  SmallVector<StringRef, 8> Types =
      splitTopLevel(StringRef(Params).drop_front().drop_back());
  // A method has `this` (and maybe an sret pointer) before its parameters.
  if (Types.size() > F.arg_size())
    return Seeds;
  unsigned Shift = F.arg_size() - Types.size();
  if (!fitsArguments(F, Types, Shift))
    return Seeds;
  // A member function of std::vector<T> (its relocation when it grows,
  // std::vector<point>::_M_realloc_insert, is seldom inlined): `this`
  // points to three pointers to elements. (`this` is the first argument,
  // or the second after a result returned through memory.)
  unsigned ThisArg = Shift == 2 && F.hasParamAttribute(0, Attribute::StructRet)
                         ? 1
                         : 0;
  if (Shift >= 1 && ThisArg < Shift &&
      F.getArg(ThisArg)->getType()->isPointerTy())
    if (char *Ctx = D.getFunctionDeclContextName(nullptr, &N)) {
      std::string Class(Ctx);
      std::free(Ctx);
      StringRef C = Class;
      if (C.consume_front("std::vector<")) {
        StringRef Element = firstTemplateArgument(C);
        if (Kind E = floatKindOfCXXType(Element); E != Kind::Unknown)
          Seeds.Containers.push_back({ThisArg, E, {0, 8, 16}});
        else if (StructType *ST = declaredStruct(F, Element))
          Seeds.Containers.push_back({ThisArg, Kind::Unknown, {0, 8, 16}, ST});
      } else if (StructType *ST = classOrTemplateStruct(F, C);
                 ST && isThisParameter(F, ThisArg)) {
        // A member function of a class of the file: `this` points to an
        // object of it (or to that part of a derived one), with its
        // declared fields (a virtual clone's `*c = *this`, which the
        // optimizer copies as integers).
        Seeds.This = {ThisArg, ST};
      }
    }
  for (unsigned I = 0; I < Types.size(); ++I) {
    unsigned ArgNo = I + Shift;
    StringRef T = Types[I];
    // A vector's iterator passed by value is its pointer (one field: the
    // IR passes the pointer itself).
    if (T.consume_front("__gnu_cxx::__normal_iterator<")) {
      T = firstTemplateArgument(T);
      if (!F.getArg(ArgNo)->getType()->isPointerTy())
        continue;
    }
    if (!T.consume_back("*") && !T.consume_back("&"))
      continue;
    T.consume_back("&"); // (an rvalue reference, `point&&`)
    T = T.trim();
    T.consume_back("const");
    T = T.trim();
    T.consume_front("const ");
    StringRef Element = T;
    if (Kind K = floatKindOfCXXType(T); K != Kind::Unknown)
      Seeds.Pointees.push_back({ArgNo, K});
    else if (Kind E = Element.consume_front("std::vector<")
                          ? floatKindOfCXXType(firstTemplateArgument(Element))
                          : Kind::Unknown;
             E != Kind::Unknown) // (not vector<bool>: bits)
      Seeds.Containers.push_back({ArgNo, E, {0, 8, 16}});
    else if (Kind E = dynamicEigenStorageOf(T); E != Kind::Unknown)
      Seeds.Containers.push_back({ArgNo, E, {0}});
    else if (T.ends_with("*")) { // `term**`: an array of pointers
      Seeds.Pointees.push_back({ArgNo, Kind::Pointer});
      StringRef Inner = T.drop_back().trim();
      Inner.consume_back("const");
      Inner = Inner.trim();
      Inner.consume_front("const ");
      if (Kind K = floatKindOfCXXType(Inner); K != Kind::Unknown)
        Seeds.PointeesOfPointees.push_back({ArgNo, K});
    }
    else if (is_contained(IntegerTypeNames, T)) // (not char: any byte)
      Seeds.Pointees.push_back({ArgNo, Kind::Integer});
    else if (StructType *ST = declaredStruct(F, T))
      Seeds.Structs.push_back({ArgNo, ST});
    else if (StructType *ST = isClosureName(T) && F.getParent()
                                  ? closureStruct(*F.getParent(), T)
                                  : nullptr)
      Seeds.Structs.push_back({ArgNo, ST}); // (a lambda copied by reference)
    else if (StructType *ST = T.starts_with("std::_Bind<") && F.getParent()
                                  ? classStruct(*F.getParent(), T)
                                  : nullptr)
      Seeds.Structs.push_back({ArgNo, ST}); // (std::bind's result, cloned)
  }
  return Seeds;
}

} // namespace adcore
