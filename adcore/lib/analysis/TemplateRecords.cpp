//===- TemplateRecords.cpp - Layouts of class templates -------------------===//
//
// See adcore/TemplateRecords.h.
//
//===----------------------------------------------------------------------===//

#include "adcore/TemplateRecords.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *TemplateRecordsMetadata = "adcc.template.records";

/// "0d8,8d8,16u32": each piece's offset, kind and bytes.
std::string encode(const RecordShape &S) {
  std::string Text;
  for (const RecordPiece &P : S.Pieces) {
    if (!Text.empty())
      Text += ',';
    Text += utostr(P.Offset);
    Text += P.Kind;
    Text += utostr(P.Bytes);
  }
  return Text;
}

std::optional<RecordShape> decode(uint64_t Size, StringRef Text) {
  RecordShape S;
  S.Size = Size;
  SmallVector<StringRef, 16> Items;
  Text.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Item : Items) {
    RecordPiece P;
    if (Item.consumeInteger(10, P.Offset) || Item.empty())
      return std::nullopt;
    P.Kind = Item.front();
    if (Item.drop_front().getAsInteger(10, P.Bytes) || P.Bytes == 0)
      return std::nullopt;
    S.Pieces.push_back(P);
  }
  return S;
}

/// A union's \p Bytes bytes: a `union.` struct of bytes, which no analysis
/// types (its members are not in the IR).
StructType *unionBytes(LLVMContext &C, uint64_t Bytes) {
  std::string Name = "union.adcc.bytes" + utostr(Bytes);
  if (StructType *ST = StructType::getTypeByName(C, Name))
    return ST;
  return StructType::create(C, {ArrayType::get(Type::getInt8Ty(C), Bytes)},
                            Name);
}

/// The IR type of the piece \p P; null for a kind this file does not know.
Type *pieceType(LLVMContext &C, const RecordPiece &P) {
  switch (P.Kind) {
  case 'd':
    return P.Bytes == 8 ? Type::getDoubleTy(C) : nullptr;
  case 'f':
    return P.Bytes == 4 ? Type::getFloatTy(C) : nullptr;
  case 'p':
    return P.Bytes == 8 ? PointerType::getUnqual(C) : nullptr;
  case 'i':
    return P.Bytes <= 16 ? Type::getIntNTy(C, unsigned(P.Bytes * 8)) : nullptr;
  case 'b':
    return ArrayType::get(Type::getInt8Ty(C), P.Bytes);
  case 'u':
    return unionBytes(C, P.Bytes);
  default:
    return nullptr;
  }
}

/// The packed struct of \p S's pieces, bytes between them; null where they
/// overlap or the size comes out other than the record's.
StructType *structOf(const Module &M, const RecordShape &S) {
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 16> Fields;
  uint64_t At = 0;
  auto Pad = [&](uint64_t To) {
    if (To > At)
      Fields.push_back(ArrayType::get(Type::getInt8Ty(C), To - At));
    At = To;
  };
  for (const RecordPiece &P : S.Pieces) {
    Type *T = pieceType(C, P);
    if (!T || P.Offset < At)
      return nullptr;
    Pad(P.Offset);
    Fields.push_back(T);
    At += P.Bytes;
  }
  if (At > S.Size)
    return nullptr;
  Pad(S.Size);
  auto *ST = StructType::get(C, Fields, /*isPacked=*/true);
  return M.getDataLayout().getTypeAllocSize(ST) == S.Size ? ST : nullptr;
}

} // namespace

void attachTemplateRecords(Module &M, const TemplateRecordTable &Table) {
  if (Table.empty())
    return;
  LLVMContext &C = M.getContext();
  NamedMDNode *N = M.getOrInsertNamedMetadata(TemplateRecordsMetadata);
  for (const auto &[Name, Shape] : Table)
    N->addOperand(MDNode::get(
        C, {MDString::get(C, Name),
            ConstantAsMetadata::get(
                ConstantInt::get(Type::getInt64Ty(C), Shape.Size)),
            MDString::get(C, encode(Shape))}));
}

StructType *templateRecordStruct(const Module &M, StringRef Name) {
  const NamedMDNode *N = M.getNamedMetadata(TemplateRecordsMetadata);
  if (!N || Name.empty())
    return nullptr;
  StructType *Found = nullptr;
  for (const MDNode *E : N->operands()) {
    auto *S = E->getNumOperands() == 3 ? dyn_cast<MDString>(E->getOperand(0))
                                       : nullptr;
    if (!S || S->getString() != Name)
      continue;
    auto *Size = mdconst::dyn_extract<ConstantInt>(E->getOperand(1));
    auto *Text = dyn_cast<MDString>(E->getOperand(2));
    std::optional<RecordShape> Shape =
        Size && Text ? decode(Size->getZExtValue(), Text->getString())
                     : std::nullopt;
    StructType *ST = Shape ? structOf(M, *Shape) : nullptr;
    // (Files linked together that disagree on a name: one definition
    // rule broken, or local classes of the same name; say nothing.)
    if (!ST || (Found && Found != ST))
      return nullptr;
    Found = ST;
  }
  return Found;
}

} // namespace adcore
