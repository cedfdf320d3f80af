//===- TypeAnalysis.cpp - What values and memory hold --------------------===//

#include "TypeAnalysis.h"
#include "OffsetChoices.h"
#include "adcore/IntegerUnions.h"
#include "adcore/MemoryFunctions.h"

#include "SourceTypes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {

StringRef kindName(Kind K) {
  switch (K) {
  case Kind::Unknown:
    return "unknown";
  case Kind::Integer:
    return "integer";
  case Kind::Pointer:
    return "pointer";
  case Kind::Float:
    return "float";
  case Kind::Double:
    return "double";
  case Kind::Conflict:
    return "conflict";
  }
  return "unknown";
}

Kind kindOfType(const Type *T) {
  if (auto *VT = dyn_cast<VectorType>(T))
    T = VT->getElementType();
  if (T->isDoubleTy())
    return Kind::Double;
  if (T->isFloatTy())
    return Kind::Float;
  if (T->isPointerTy())
    return Kind::Pointer;
  return Kind::Unknown;
}

Kind meet(Kind A, Kind B) {
  if (A == B || B == Kind::Unknown)
    return A;
  if (A == Kind::Unknown)
    return B;
  return Kind::Conflict;
}

namespace {

/// The name of the type a TBAA access tag accesses ("" without one). Both
/// of Clang's formats: a type node is !{!"name", parent, ...}, or, with
/// `-Xclang -new-struct-path-tbaa`, !{parent, size, !"name", ...}.
StringRef accessTypeName(const MDNode *Tag) {
  if (!Tag || Tag->getNumOperands() < 2)
    return "";
  auto *AccessType = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!AccessType || AccessType->getNumOperands() < 1)
    return "";
  unsigned NameOperand = 0;
  if (isa<MDNode>(AccessType->getOperand(0)) &&
      AccessType->getNumOperands() >= 3)
    NameOperand = 2;
  auto *Name = dyn_cast<MDString>(AccessType->getOperand(NameOperand));
  return Name ? Name->getString() : "";
}

/// Clang's pointer type names: "p<N> <pointee>" (`double **` is
/// "p2 double"). Returns N, and the pointee's name in \p Pointee; 0 for
/// other names.
unsigned pointerDepth(StringRef N, StringRef &Pointee) {
  if (!N.consume_front("p"))
    return 0;
  unsigned Depth;
  if (N.consumeInteger(10, Depth) || !N.consume_front(" "))
    return 0;
  Pointee = N;
  return Depth;
}

/// The kind of a scalar TBAA type name (Clang's names).
Kind kindOfTBAAName(StringRef N) {
  StringRef Pointee;
  if (N == "double")
    return Kind::Double;
  if (N == "float")
    return Kind::Float;
  if (N == "any pointer" || pointerDepth(N, Pointee))
    return Kind::Pointer;
  if (N == "int" || N == "long" || N == "long long" || N == "short" ||
      N == "bool" || N == "_Bool" || N.starts_with("unsigned"))
    return Kind::Integer;
  return Kind::Unknown; // "omnipotent char": any bytes
}

} // namespace

Kind pointeeKindOfTBAA(const Instruction &I) {
  StringRef Pointee;
  unsigned Depth = pointerDepth(
      accessTypeName(I.getMetadata(LLVMContext::MD_tbaa)), Pointee);
  if (Depth == 0)
    return Kind::Unknown;
  return Depth > 1 ? Kind::Pointer : kindOfTBAAName(Pointee);
}

StructType *pointeeStructOfTBAA(const Instruction &I) {
  StringRef Pointee;
  if (pointerDepth(accessTypeName(I.getMetadata(LLVMContext::MD_tbaa)),
                   Pointee) != 1)
    return nullptr;
  return uniqueStructNamed(I.getContext(), sourceTypeOfTBAAName(Pointee));
}

bool pointsToBytesByTBAA(const Instruction &I) {
  StringRef N = accessTypeName(I.getMetadata(LLVMContext::MD_tbaa));
  return N == "any pointer" || N == "p1 omnipotent char";
}

Kind kindOfTBAA(const Instruction &I) {
  return kindOfTBAAName(accessTypeName(I.getMetadata(LLVMContext::MD_tbaa)));
}

MemoryLayout copiedFields(const MemTransferInst &MT) {
  // A copy that stands for a loop of loads and stores of one type (the
  // optimizer's loop idiom, `for (...) u[i] = u0[i]` at -O1) keeps their
  // access tag: every element is of that kind.
  if (Kind K = kindOfTBAA(MT); K != Kind::Unknown)
    return {{0, K}, {-1, K}};
  // !{offset, size, access tag, ...}: what Clang records of the fields of
  // an aggregate it copies.
  MemoryLayout L;
  MDNode *MD = MT.getMetadata(LLVMContext::MD_tbaa_struct);
  if (!MD || MD->getNumOperands() % 3 != 0)
    return {};
  for (unsigned I = 0; I < MD->getNumOperands(); I += 3) {
    auto *Offset = mdconst::dyn_extract<ConstantInt>(MD->getOperand(I));
    auto *Tag = dyn_cast<MDNode>(MD->getOperand(I + 2));
    Kind K = kindOfTBAAName(accessTypeName(Tag));
    if (!Offset || K == Kind::Unknown)
      return {}; // a field of bytes: anything
    L[int64_t(Offset->getZExtValue())] = K;
  }
  return L;
}

Kind TypeAnalysis::kindOf(const Value *V) const {
  auto It = Kinds.find(V);
  Kind K = It == Kinds.end() ? Kind::Unknown : It->second;
  return meet(K, kindOfType(V->getType()));
}

Kind TypeAnalysis::memoryKind(const Value *Ptr, int64_t Offset) const {
  auto It = Layouts.find(Ptr);
  if (It == Layouts.end())
    return Kind::Unknown;
  auto At = It->second.find(Offset);
  if (At != It->second.end())
    return At->second;
  auto Any = It->second.find(-1);
  return Any == It->second.end() ? Kind::Unknown : Any->second;
}

const MemoryLayout &TypeAnalysis::layout(const Value *Ptr) const {
  static const MemoryLayout Empty;
  auto It = Layouts.find(Ptr);
  return It == Layouts.end() ? Empty : It->second;
}


namespace {

/// A GEP to a field declared as an integer of 16 bits or more (`int`,
/// `long`, an enum) of a struct, through structs and arrays that are not
/// unions: Clang gives such a field its declared type. (Bytes, i8, are
/// left out: character buffers hold anything, such as the storage of
/// std::map's nodes.)
bool isDeclaredIntegerField(const GEPOperator &GEP) {
  if (!GEP.hasAllConstantIndices() ||
      !isa<StructType>(GEP.getSourceElementType()))
    return false;
  for (gep_type_iterator It = gep_type_begin(GEP), E = gep_type_end(GEP);
       It != E; ++It) {
    if (StructType *ST = It.getStructTypeOrNull())
      if (ST->isOpaque() ||
          (ST->hasName() && ST->getName().starts_with("union.")))
        return false;
  }
  Type *Field = GEP.getResultElementType();
  return Field->isIntegerTy() && Field->getIntegerBitWidth() >= 16;
}

} // namespace

bool TypeAnalysis::spansMixedFields(const Value *Ptr, uint64_t Bytes) const {
  auto It = Layouts.find(Ptr);
  if (It == Layouts.end() || Bytes <= 1)
    return false;
  Kind First = memoryKind(Ptr, 0);
  for (auto F = It->second.upper_bound(0);
       F != It->second.end() && uint64_t(F->first) < Bytes; ++F)
    if (F->second != First)
      return true;
  return false;
}

bool TypeAnalysis::visit(Instruction &I) {
  const DataLayout &DL = I.getModule()->getDataLayout();
  bool Changed = false;
  // (Changed: the rest on the next round.)
  if (isa<BinaryOperator, MemTransferInst>(I) && joinElementEvidence(I))
    return true;
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    const Value *P = LI->getPointerOperand();
    Changed |= joinMemory(P, 0, kindOfTBAA(I));
    Changed |= joinMemory(P, 0, kindOf(LI));
    if (!MixedAccesses.contains(LI))
      Changed |= join(LI, memoryKind(P, 0));
    // A `double *` loaded from memory points to doubles (what a pointer
    // loaded from memory points to is otherwise unknown: layouts do not
    // nest).
    if (LI->getType()->isPointerTy()) {
      Changed |= joinMemory(LI, -1, pointeeKindOfTBAA(I));
      // (The same from the field's declared type where no TBAA says it:
      // -O0, whose field accesses are struct GEPs.)
      Changed |= joinMemory(LI, -1, declaredFieldPointee(P));
      Changed |= seedFromPointeeStruct(LI, I);
      // A pointer of a std::vector<point>'s `this`: elements of the
      // struct, with its fields.
      if (!VectorStructs.empty())
        if (const Value *O = getUnderlyingObject(P);
            O && VectorStructs.count(O))
          Changed |= seedStructElements(LI, VectorStructs.lookup(O));
      // A pointer of a std::vector<double> parameter (or of one of the
      // vectors an iterator parameter walks over: every pointer in them
      // points to elements).
      if (!VectorElements.empty()) {
        SmallVector<const Value *, 4> Objects;
        getUnderlyingObjects(P, Objects);
        auto It = Objects.empty() ? VectorElements.end()
                                  : VectorElements.find(Objects.front());
        if (It != VectorElements.end() && all_of(Objects, [&](const Value *O) {
              auto OIt = VectorElements.find(O);
              return OIt != VectorElements.end() && OIt->second == It->second;
            }))
          Changed |=
              joinMemory(LI, 0, It->second) | joinMemory(LI, -1, It->second);
      }
    }
    // A pointer stored at an address and loaded back (every variable at
    // -O0) points to what the stored pointer points to.
    if (LI->getType()->isPointerTy())
      for (const User *U : P->users())
        if (auto *S = dyn_cast<StoreInst>(U))
          if (S->getPointerOperand() == P &&
              S->getValueOperand()->getType()->isPointerTy())
            Changed |= joinBothWays(S->getValueOperand(), LI, -1);
    return Changed;
  }
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    const Value *P = SI->getPointerOperand(), *V = SI->getValueOperand();
    Changed |= joinMemory(P, 0, kindOfTBAA(I));
    Changed |= joinMemory(P, 0, kindOf(V));
    if (!MixedAccesses.contains(SI))
      Changed |= join(V, memoryKind(P, 0));
    if (V->getType()->isPointerTy() && !isa<Constant>(V)) { // not null
      Changed |= joinMemory(V, -1, pointeeKindOfTBAA(I));
      Changed |= joinMemory(V, -1, declaredFieldPointee(P));
      Changed |= seedFromPointeeStruct(V, I);
    }
    return Changed;
  }
  if (auto *GEP = dyn_cast<GEPOperator>(&I)) {
    const Value *Base = GEP->getPointerOperand();
    // The GEP at a constant offset C from its base; with \p Window, only
    // what lies within Window bytes of the GEP.
    auto JoinAt = [&](int64_t C, int64_t Window) {
      // Whole elements away from an element's start: the same elements.
      if (uint64_t S = elementSize(Base); S && C % int64_t(S) == 0)
        Changed |= joinStride(GEP, S);
      if (uint64_t S = elementSize(GEP); S && C % int64_t(S) == 0)
        Changed |= joinStride(Base, S);
      // What the GEP points to at k is what the base points to at k + C.
      Changed |= joinLayoutOf(GEP, Base, -C, Window);
      Changed |= joinLayoutOf(Base, GEP, C, -1, Window);
    };
    APInt Offset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
    if (GEP->accumulateConstantOffset(DL, Offset)) {
      JoinAt(Offset.getSExtValue(), -1);
      return Changed;
    }
    // One index chosen among constants: the GEP at each of those offsets,
    // within the distance between them (OffsetChoices.h).
    SmallVector<int64_t, 4> Offsets;
    if (constantOffsetChoices(*GEP, DL, Offsets)) {
      int64_t Window = smallestGap(Offsets);
      for (int64_t C : Offsets)
        JoinAt(C, Window);
      return Changed;
    }
    // A variable index: the GEP points to some element of an array; what
    // holds for one element holds for every element. Over an array of
    // scalars, the kind at offset 0 is the kind of every element ([*]).
    // (Not over bytes: `gep i8, %p, %n` adds a byte offset, which says
    // nothing about the elements, e.g. into an array of structs.)
    Type *Source = GEP->getSourceElementType();
    bool ScalarElements = !Source->isAggregateType();
    bool Bytes = Source->isIntegerTy(8) && GEP->getNumIndices() == 1;
    // Whole elements of the declared size away: the same elements.
    if (TypeSize S = DL.getTypeAllocSize(Source);
        !S.isScalable() && S.getFixedValue() > 1 &&
        (elementSize(Base) == S.getFixedValue() ||
         elementSize(GEP) == S.getFixedValue()))
      Changed |= joinStrides(Base, GEP);
    for (const Value *From : {Base, static_cast<const Value *>(GEP)}) {
      const Value *To = From == Base ? static_cast<const Value *>(GEP) : Base;
      if (!Layouts.count(From))
        continue;
      Changed |= joinLayoutOf(To, From, 0, -1);
      const MemoryLayout &L = Layouts.find(From)->second;
      if (auto At0 = L.find(0); ScalarElements && !Bytes && At0 != L.end()) {
        Kind K = At0->second;
        Changed |= joinMemory(To, -1, K);
        Changed |= joinMemory(From, -1, K);
      }
    }
    return Changed;
  }
  if (isa<PHINode>(I) || isa<SelectInst>(I)) {
    SmallVector<const Value *, 4> Ins;
    if (auto *Phi = dyn_cast<PHINode>(&I))
      Ins.append(Phi->incoming_values().begin(), Phi->incoming_values().end());
    else
      Ins = {I.getOperand(1), I.getOperand(2)};
    // Pointers into one object at different constant offsets: joined
    // within the distance between them (OffsetChoices.h).
    int64_t Window = choiceWindow(Ins, DL);
    for (const Value *In : Ins) {
      Changed |= join(&I, kindOf(In));
      Changed |= join(In, kindOf(&I));
      if (uint64_t S = elementSize(In))
        Changed |= joinStride(&I, S);
      Changed |= joinLayoutOf(&I, In, 0, Window);
      // And back: each pointer the phi may be points to what is read and
      // written through the phi (buffers swapped in a time loop, `t = u;
      // u = v; v = t;`, written before the loop through one name only).
      if (In->getType()->isPointerTy() && !isa<Constant>(In)) {
        if (uint64_t S = elementSize(&I))
          Changed |= joinStride(In, S);
        Changed |= joinLayoutOf(In, &I, 0, -1, Window);
      }
    }
    return Changed;
  }
  if (auto *BC = dyn_cast<BitCastInst>(&I)) {
    Changed |= join(BC, kindOf(BC->getOperand(0)));
    Changed |= join(BC->getOperand(0), kindOf(BC));
    return Changed;
  }
  if (isa<PtrToIntInst>(I) || isa<IntToPtrInst>(I)) {
    Changed |= join(&I, Kind::Pointer);
    Changed |= join(I.getOperand(0), Kind::Pointer);
    return Changed;
  }
  if (isa<FPToSIInst>(I) || isa<FPToUIInst>(I))
    return join(&I, Kind::Integer);
  if (isa<SIToFPInst>(I) || isa<UIToFPInst>(I))
    return join(I.getOperand(0), Kind::Integer);
  if (auto *Cmp = dyn_cast<ICmpInst>(&I)) {
    if (Cmp->getOperand(0)->getType()->isIntegerTy()) {
      Changed |= join(Cmp->getOperand(0), Kind::Integer);
      Changed |= join(Cmp->getOperand(1), Kind::Integer);
    }
    return Changed;
  }
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    switch (BO->getOpcode()) {
    case Instruction::Mul:
    case Instruction::SDiv:
    case Instruction::UDiv:
    case Instruction::SRem:
    case Instruction::URem:
      // Never pointer or float arithmetic.
      Changed |= join(BO, Kind::Integer);
      Changed |= join(BO->getOperand(0), Kind::Integer);
      Changed |= join(BO->getOperand(1), Kind::Integer);
      return Changed;
    default:
      return false;
    }
  }
  if (auto *Call = dyn_cast<CallBase>(&I);
      Call && Call->getCalledFunction() &&
      classifyMemoryFunction(*Call->getCalledFunction()) ==
          MemoryFunctionKind::Realloc) {
    // realloc moves the old block's contents into the new one.
    return joinBothWays(Call->getArgOperand(0), Call, -1);
  }
  // A call that returns its pointer argument (an accessor such as Eigen's
  // DefaultDevice::get, kept a call where its parameter type types it):
  // both point to the same memory.
  if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->getType()->isPointerTy())
    if (std::optional<unsigned> ArgNo = returnedArgument(*Call))
      return joinBothWays(Call->getArgOperand(*ArgNo), Call, -1);
  if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
    int64_t Limit = -1;
    if (auto *Len = dyn_cast<ConstantInt>(MT->getLength()))
      Limit = int64_t(Len->getZExtValue());
    return joinBothWays(MT->getRawSource(), MT->getRawDest(), Limit);
  }
  return false;
}

bool TypeAnalysis::seedFromPointeeStruct(const Value *Ptr,
                                         const Instruction &I) {
  StringRef Pointee;
  if (pointerDepth(accessTypeName(I.getMetadata(LLVMContext::MD_tbaa)),
                   Pointee) != 1)
    return false;
  // std::array<double, 3> *: doubles only.
  if (Pointee.starts_with("_ZTS"))
    if (Kind K = floatKindOfCXXType(sourceTypeOfTBAAName(Pointee));
        K != Kind::Unknown)
      return joinMemory(Ptr, 0, K) | joinMemory(Ptr, -1, K);
  // (The name is the MDString's: it lives as long as the context.)
  auto [It, New] = TBAAStructs.try_emplace(Pointee, nullptr);
  if (New)
    It->second =
        uniqueStructNamed(F.getContext(), sourceTypeOfTBAAName(Pointee));
  return It->second && seedStructElements(Ptr, It->second);
}

TypeAnalysis::TypeAnalysis(Function &F) : F(F) {
  // An integer access that turns out to span fields of two kinds (an `int`
  // and a `float` copied as one i64) may have been given the first one's
  // kind before the second was known: the analysis runs again, that
  // access taking no kind from the memory.
  for (unsigned Run = 0; Run < 3; ++Run) {
    analyse();
    bool Found = false;
    for (Instruction &I : instructions(F)) {
      auto *LI = dyn_cast<LoadInst>(&I);
      auto *SI = dyn_cast<StoreInst>(&I);
      Type *T = LI ? LI->getType()
                   : SI ? SI->getValueOperand()->getType() : nullptr;
      if (!T || !T->isIntOrIntVectorTy() || MixedAccesses.contains(&I))
        continue;
      const Value *P = LI ? LI->getPointerOperand() : SI->getPointerOperand();
      const Value *V = LI ? LI : SI->getValueOperand();
      if (kindOf(V) != Kind::Unknown &&
          spansMixedFields(P, F.getDataLayout().getTypeStoreSize(T)))
        Found |= MixedAccesses.insert(&I).second;
    }
    if (!Found)
      return;
    Kinds.clear();
    Layouts.clear();
    LayoutVersions.clear();
    JoinedVersions.clear();
    Strides.clear();
    TBAAStructs.clear();
    VectorElements.clear();
    VectorStructs.clear();
  }
}

void TypeAnalysis::analyse() {
  // Stack variables and struct fields keep the types Clang declared them
  // with.
  for (Instruction &I : instructions(F)) {
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      seedFromAllocatedType(AI, *AI);
    if (auto *GEP = dyn_cast<GEPOperator>(&I)) {
      if (isDeclaredIntegerField(*GEP))
        joinMemory(GEP, 0, Kind::Integer);
      seedFromStructGEP(*GEP);
    }
  }
  seedFromCallers();
  seedFromFieldPointees();
  seedFromCallees();
  for (Argument &A : F.args())
    join(&A, kindOfType(A.getType()));
  // What the C++ parameter types say (SourceTypes.cpp).
  SignatureSeeds Seeds = seedsFromSignature(F);
  auto PointerArg = [&](unsigned ArgNo) -> const Argument * {
    const Argument *A = F.getArg(ArgNo);
    return A->getType()->isPointerTy() ? A : nullptr;
  };
  for (auto [ArgNo, K] : Seeds.Pointees)
    if (const Argument *A = PointerArg(ArgNo)) {
      joinMemory(A, 0, K);
      joinMemory(A, -1, K);
    }
  // What the parameter types of callees inlined into a simplified copy
  // said (support/IRMarks.h, PointeeMetadata).
  seedFromPointeeMarks();
  // A `point*` parameter: elements of the struct's size, with its fields
  // (std::__relocate_a_1<point, point> only calls memmove).
  for (auto [ArgNo, ST] : Seeds.Structs)
    if (const Argument *A = PointerArg(ArgNo))
      seedStructElements(A, ST);
  // A member function's `this`: the fields of its class (one object).
  if (Seeds.This)
    if (const Argument *A = PointerArg(Seeds.This->first)) {
      SmallVector<std::pair<int64_t, Kind>, 8> Fields;
      if (declaredFields(F.getParent(), F.getDataLayout(), Seeds.This->second, 0, Fields))
        for (auto [Offset, K] : Fields)
          joinMemory(A, Offset, K);
    }
  // A `std::vector<double> const&` or a dynamic-size Eigen object: its
  // pointers point to the elements (how a copy of them is typed where
  // nothing else says: -fno-strict-aliasing leaves no TBAA).
  for (const SignatureSeeds::Container &C : Seeds.Containers)
    if (const Argument *A = PointerArg(C.ArgNo)) {
      for (int64_t Offset : C.PointerOffsets)
        joinMemory(A, Offset, Kind::Pointer);
      if (C.ElementStruct)
        VectorStructs[A] = C.ElementStruct;
      else
        VectorElements[A] = C.Elements;
    }
  // Kinds only rise in a finite lattice: the iteration terminates.
  bool Changed = true;
  for (unsigned Round = 0; Changed && Round < 64; ++Round) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      Changed |= join(&I, kindOfType(I.getType()));
      for (const Use &Idx : I.operands())
        if (isa<GetElementPtrInst>(I) && Idx.getOperandNo() > 0)
          Changed |= join(Idx.get(), Kind::Integer);
      Changed |= visit(I);
    }
  }
}

void TypeAnalysis::print(raw_ostream &OS) const {
  OS << "types of '" << F.getName() << "'\n";
  auto Line = [&](const Value &V) {
    Kind K = kindOf(&V);
    auto It = Layouts.find(&V);
    if (K == Kind::Unknown && It == Layouts.end())
      return;
    OS << "  ";
    V.printAsOperand(OS, /*PrintType=*/false);
    OS << ": " << kindName(K);
    if (It != Layouts.end() && !It->second.empty()) {
      OS << " ->";
      for (auto [Offset, MK] : It->second) {
        OS << " [";
        if (Offset < 0)
          OS << "*";
        else
          OS << Offset;
        OS << "]:" << kindName(MK);
      }
    }
    if (uint64_t S = elementSize(&V))
      OS << " (elements of " << S << " bytes)";
    OS << "\n";
  };
  for (const Argument &A : F.args())
    Line(A);
  for (const Instruction &I : instructions(F))
    if (!I.getType()->isVoidTy())
      Line(I);
}

} // namespace adcore
