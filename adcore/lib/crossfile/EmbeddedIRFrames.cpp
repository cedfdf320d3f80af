//===- EmbeddedIRFrames.cpp - How EmbeddedIRSection stores modules -------===//
//
// See EmbeddedIR.h. A frame is a tag of 8 bytes, the length of what follows
// (64 bits, little-endian), the payload, zeros up to a multiple of
// FrameAlign. The tag says how the payload holds the bitcode (FrameKinds):
// as it is, or the bitcode's length (64 bits, little-endian) and the
// bitcode compressed.
//
//===----------------------------------------------------------------------===//

#include "adcore/EmbeddedIR.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;

namespace adcore {
namespace {

constexpr size_t FrameAlign = 8, FrameHeader = 16, LengthSize = 8;

struct FrameKind {
  StringLiteral Tag;
  /// None: the bitcode as it is.
  std::optional<compression::Format> Format;
  /// The level packBitcode compresses at: the default. Bitcode is dense
  /// already: zstd's level 9 makes a section 1% smaller than its default
  /// level 5, level 19 4%, for several times the time.
  int Level;
};

/// The frames adcc reads, in the order packBitcode prefers them. (ADCC.IR1,
/// uncompressed, is what adcc 0.1 wrote before compression; an -flto
/// object's own module is read as such a frame.)
const FrameKind FrameKinds[] = {
    {"ADCC.IRZ", compression::Format::Zstd, compression::zstd::DefaultCompression},
    {"ADCC.IRL", compression::Format::Zlib, compression::zlib::DefaultCompression},
    {"ADCC.IR1", std::nullopt, 0},
};

const FrameKind *kindOf(StringRef Tag) {
  for (const FrameKind &K : FrameKinds)
    if (K.Tag == Tag)
      return &K;
  return nullptr;
}

bool isAvailable(const FrameKind &K) {
  return !K.Format || !compression::getReasonIfUnsupported(*K.Format);
}

std::string frame(StringRef Tag, StringRef Payload) {
  std::string Frame(Tag);
  char Length[LengthSize];
  support::endian::write64le(Length, Payload.size());
  Frame.append(Length, sizeof(Length));
  Frame += Payload;
  Frame.resize(alignTo(Frame.size(), FrameAlign), '\0');
  return Frame;
}

Error malformed(const Twine &Why) {
  return createStringError("malformed section " + EmbeddedIRSection + ": " +
                           Why);
}

/// The bitcode of a frame of kind \p K with \p Payload.
Expected<std::string> unpack(const FrameKind &K, StringRef Payload) {
  if (!K.Format)
    return Payload.str();
  if (const char *Why = compression::getReasonIfUnsupported(*K.Format))
    return createStringError(Twine("its IR is compressed, but ") + Why);
  if (Payload.size() < LengthSize)
    return malformed("a compressed frame without its length");
  uint64_t Length = support::endian::read64le(Payload.data());
  // (No bitcode compresses a thousandfold: a larger length is corrupt, and
  // would only make the allocation below fail.)
  if (Length > 1024 * Payload.size())
    return malformed("a compressed frame with an impossible length");
  SmallVector<uint8_t, 0> Bitcode;
  if (Error E = compression::decompress(
          *K.Format, arrayRefFromStringRef(Payload.drop_front(LengthSize)),
          Bitcode, Length))
    return std::move(E);
  return std::string(toStringRef(Bitcode));
}

} // namespace

std::string frameBitcode(StringRef Bitcode) {
  return frame(FrameKinds[std::size(FrameKinds) - 1].Tag, Bitcode);
}

std::string packBitcode(StringRef Bitcode) {
  for (const FrameKind &K : FrameKinds) {
    if (!isAvailable(K))
      continue;
    if (!K.Format)
      return frame(K.Tag, Bitcode);
    char Length[LengthSize];
    support::endian::write64le(Length, Bitcode.size());
    SmallVector<uint8_t, 0> Payload(Length, Length + LengthSize);
    SmallVector<uint8_t, 0> Compressed;
    compression::compress(compression::Params(*K.Format, K.Level),
                          arrayRefFromStringRef(Bitcode), Compressed);
    Payload.append(Compressed.begin(), Compressed.end());
    return frame(K.Tag, toStringRef(Payload));
  }
  llvm_unreachable("uncompressed frames are always available");
}

Expected<SmallVector<std::string, 2>> embeddedModules(StringRef Section) {
  SmallVector<std::string, 2> Modules;
  while (!Section.empty()) {
    // (Padding a linker put between two objects' sections.)
    if (Section.size() >= FrameAlign &&
        Section.take_front(FrameAlign).find_first_not_of('\0') ==
            StringRef::npos) {
      Section = Section.drop_front(FrameAlign);
      continue;
    }
    if (Section.size() < FrameHeader)
      return malformed("a frame cut short");
    const FrameKind *K = kindOf(Section.take_front(FrameHeader - LengthSize));
    if (!K)
      return malformed("not written by this version of adcc");
    uint64_t Length = support::endian::read64le(Section.data() + 8);
    Section = Section.drop_front(FrameHeader);
    if (Length > Section.size())
      return malformed("a frame longer than the section");
    Expected<std::string> Bitcode = unpack(*K, Section.take_front(Length));
    if (!Bitcode)
      return Bitcode.takeError();
    Modules.push_back(std::move(*Bitcode));
    Section = Section.drop_front(
        std::min<uint64_t>(alignTo(Length, FrameAlign), Section.size()));
  }
  return Modules;
}

} // namespace adcore
