//===- DeclaredPointees.cpp - Pointee types of struct fields --------------===//
//
// See adcore/DeclaredPointees.h.
//
//===----------------------------------------------------------------------===//

#include "adcore/DeclaredPointees.h"
#include "adcore/MergedStructTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *DeclaredPointeesMetadata = "adcc.declared.pointees";

constexpr char KindLetters[] = {'u', 'i', 'p', 'f', 'd', 's', 'b'};

/// "8i,16d": each pointer field's offset and the letter of its pointee.
std::string encode(const std::map<uint64_t, DeclaredPointee> &Fields) {
  std::string Text;
  for (auto [Offset, K] : Fields) {
    if (!Text.empty())
      Text += ',';
    Text += utostr(Offset);
    Text += KindLetters[unsigned(K)];
  }
  return Text;
}

/// What \p Text says of the field at \p Offset; nullopt where it says
/// nothing of it (or cannot be read).
std::optional<DeclaredPointee> decodeAt(StringRef Text, uint64_t Offset) {
  SmallVector<StringRef, 8> Items;
  Text.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Item : Items) {
    uint64_t At;
    if (Item.consumeInteger(10, At) || Item.size() != 1)
      return std::nullopt;
    if (At != Offset)
      continue;
    for (unsigned K = 0; K < std::size(KindLetters); ++K)
      if (Item.front() == KindLetters[K])
        return DeclaredPointee(K);
    return std::nullopt;
  }
  return std::nullopt;
}

/// \p Name without the `.N` suffixes that make IR type names unique.
StringRef baseName(StringRef Name) {
  for (;;) {
    auto [Head, Tail] = Name.rsplit('.');
    if (Head.empty() || Tail.empty() || Head == Name ||
        !all_of(Tail, isDigit) || Head == "struct" || Head == "class")
      return Name;
    Name = Head;
  }
}

/// Whether \p ST holds a pointer (not in an array) at byte \p Offset.
bool holdsPointerAt(const DataLayout &DL, const StructType *Type,
                    uint64_t Offset) {
  auto *ST = const_cast<StructType *>(Type);
  if (ST->isOpaque() || Offset >= DL.getTypeAllocSize(ST))
    return false;
  const StructLayout *SL = DL.getStructLayout(ST);
  unsigned I = SL->getElementContainingOffset(Offset);
  return SL->getElementOffset(I) == Offset &&
         ST->getElementType(I)->isPointerTy();
}

} // namespace

void attachDeclaredPointees(Module &M, const DeclaredPointeeTable &Table) {
  if (Table.empty())
    return;
  LLVMContext &C = M.getContext();
  NamedMDNode *N = M.getOrInsertNamedMetadata(DeclaredPointeesMetadata);
  for (const auto &[Name, Fields] : Table)
    if (!Fields.empty())
      N->addOperand(MDNode::get(
          C, {MDString::get(C, Name), MDString::get(C, encode(Fields))}));
}

DeclaredPointee declaredPointee(const Module &M, const StructType *ST,
                                uint64_t Offset) {
  if (!ST || !ST->hasName() ||
      !holdsPointerAt(M.getDataLayout(), ST, Offset))
    return DeclaredPointee::Unknown;
  const NamedMDNode *N = M.getNamedMetadata(DeclaredPointeesMetadata);
  if (!N)
    return DeclaredPointee::Unknown;
  StringRef Name = baseName(ST->getName());
  std::optional<DeclaredPointee> Said;
  for (const MDNode *E : N->operands()) {
    auto *S = E->getNumOperands() == 2 ? dyn_cast<MDString>(E->getOperand(0))
                                       : nullptr;
    auto *Fields = S ? dyn_cast<MDString>(E->getOperand(1)) : nullptr;
    if (!Fields || S->getString() != Name)
      continue;
    std::optional<DeclaredPointee> K = decodeAt(Fields->getString(), Offset);
    // (A struct of the name that says nothing of the offset holds no
    // pointer there: another struct, whose loads are not this one's.)
    if (!K)
      continue;
    if (Said && *Said != *K)
      return DeclaredPointee::Unknown;
    Said = K;
  }
  return Said.value_or(DeclaredPointee::Unknown);
}

/// Whether the pseudo entries named \p Key in \p M say of a pointer at
/// \p At; nullopt where there are none.
static std::optional<bool> pointerWithinEntries(const Module &M, StringRef Key,
                                                RecordBytes At) {
  const NamedMDNode *N = M.getNamedMetadata(DeclaredPointeesMetadata);
  if (!N)
    return std::nullopt;
  bool Found = false;
  SmallVector<uint64_t, 8> Pointers;
  std::optional<uint64_t> Size, MinSize;
  for (const MDNode *E : N->operands()) {
    auto *S = E->getNumOperands() == 2 ? dyn_cast<MDString>(E->getOperand(0))
                                       : nullptr;
    auto *Fields = S ? dyn_cast<MDString>(E->getOperand(1)) : nullptr;
    if (!Fields || S->getString() != Key)
      continue;
    Found = true;
    SmallVector<StringRef, 8> Items;
    Fields->getString().split(Items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef Item : Items) {
      uint64_t Offset;
      if (Item.consumeInteger(10, Offset) || Item.size() != 1)
        return true; // (unreadable: anything)
      if (Item.front() == KindLetters[unsigned(DeclaredPointee::Bytes)])
        return true;
      if (Item.front() != KindLetters[unsigned(DeclaredPointee::Size)]) {
        Pointers.push_back(Offset);
        continue;
      }
      // (Records of one name whose sizes differ, or a record and those
      // converted to it: no stride to go by.)
      Size = Size && *Size != Offset ? 0 : Offset;
      MinSize = std::min(MinSize.value_or(Offset), Offset);
    }
  }
  if (!Found)
    return std::nullopt;
  if (Pointers.empty())
    return false;
  if (At.Variable)
    return true;
  // (Beyond the record or before it: in the records of an array.)
  int64_t Lo = At.Offset;
  if (Size && *Size > 0)
    Lo = ((Lo % int64_t(*Size)) + int64_t(*Size)) % int64_t(*Size);
  else if (Lo < 0 || (Size && uint64_t(Lo) + At.Bytes > *MinSize))
    return true;
  uint64_t PointerBytes = M.getDataLayout().getPointerSize();
  auto Overlaps = [&](uint64_t From, uint64_t To) {
    return any_of(Pointers, [&](uint64_t P) {
      return P < To && P + PointerBytes > From;
    });
  };
  uint64_t Hi = uint64_t(Lo) + At.Bytes;
  // (Bytes that run into the next record: its first ones too.)
  if (Size && *Size > 0 && Hi > *Size && Overlaps(0, Hi - *Size))
    return true;
  return Overlaps(uint64_t(Lo), Hi);
}

std::optional<bool> recordMayHoldPointer(const Module &M, const StructType *ST,
                                         RecordBytes At) {
  if (!ST || !ST->hasName())
    return std::nullopt;
  return pointerWithinEntries(M, ("@" + baseName(ST->getName())).str(), At);
}

std::optional<bool> fieldPointeeMayHoldPointer(const Module &M,
                                               const StructType *ST,
                                               uint64_t Offset,
                                               RecordBytes At) {
  if (!ST || !ST->hasName())
    return std::nullopt;
  return pointerWithinEntries(
      M, (baseName(ST->getName()) + "@" + utostr(Offset)).str(), At);
}

std::optional<bool> globalPointeeMayHoldPointer(const Module &M,
                                                StringRef Name,
                                                RecordBytes At) {
  return pointerWithinEntries(M, ("=" + Name).str(), At);
}

std::string StructShapes::shapeOf(const StructType *ST, unsigned Depth) const {
  std::string Shape;
  raw_string_ostream OS(Shape);
  OS << (ST->isPacked() ? "<{" : "{");
  for (Type *E : ST->elements()) {
    // (Arrays of structs: by the element's shape too.)
    while (auto *AT = dyn_cast<ArrayType>(E)) {
      OS << '[' << AT->getNumElements() << 'x';
      E = AT->getElementType();
    }
    auto *Inner = dyn_cast<StructType>(E);
    if (Inner && !Inner->isOpaque() && Depth > 0)
      OS << shapeOf(Inner, Depth - 1);
    else if (Inner && Inner->hasName())
      OS << baseName(Inner->getName());
    else
      E->print(OS);
    OS << ',';
  }
  OS << (ST->isPacked() ? "}>" : "}");
  return Shape;
}

void StructShapes::note(const Module &M) {
  for (StructType *ST : M.getIdentifiedStructTypes())
    if (ST->hasName() && !ST->isOpaque())
      NamesByShape[shapeOf(ST, 4)].insert(baseName(ST->getName()).str());
}

void StructShapes::widenDeclaredPointees(Module &Merged) const {
  NamedMDNode *N = Merged.getNamedMetadata(DeclaredPointeesMetadata);
  if (!N)
    return;
  std::map<std::string, SmallVector<MDString *, 2>> FieldsOf;
  for (const MDNode *E : N->operands()) {
    auto *S = E->getNumOperands() == 2 ? dyn_cast<MDString>(E->getOperand(0))
                                       : nullptr;
    auto *Fields = S ? dyn_cast<MDString>(E->getOperand(1)) : nullptr;
    if (Fields)
      FieldsOf[S->getString().str()].push_back(Fields);
  }
  LLVMContext &C = Merged.getContext();
  for (const auto &[Shape, Names] : NamesByShape) {
    if (Names.size() < 2)
      continue;
    for (const std::string &To : Names)
      for (const std::string &From : Names) {
        auto It = FieldsOf.find(From);
        if (From == To || It == FieldsOf.end())
          continue;
        for (MDString *Fields : It->second)
          N->addOperand(MDNode::get(C, {MDString::get(C, To), Fields}));
      }
  }
}

} // namespace adcore
