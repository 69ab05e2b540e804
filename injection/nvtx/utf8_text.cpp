#include "injection/nvtx/utf8_text.h"

#include <cstdint>
#include <cstring>

namespace prof::injection::nvtx {
namespace {

constexpr uint32_t kReplacementCharacter = 0xFFFD;

bool IsScalarValue(uint32_t code_point) {
  return code_point <= 0x10FFFF && (code_point < 0xD800 || code_point > 0xDFFF);
}

size_t EncodedLength(uint32_t code_point) {
  if (code_point < 0x80) return 1;
  if (code_point < 0x800) return 2;
  if (code_point < 0x10000) return 3;
  return 4;
}

void Encode(uint32_t code_point, size_t length, char* out) {
  static constexpr unsigned char kLeadMarks[] = {0, 0x00, 0xC0, 0xE0, 0xF0};
  for (size_t i = length - 1; i > 0; --i) {
    out[i] = static_cast<char>(0x80 | (code_point & 0x3F));
    code_point >>= 6;
  }
  out[0] = static_cast<char>(kLeadMarks[length] | code_point);
}

}  // namespace

size_t Utf8PrefixLength(const char* text, size_t length, size_t limit) {
  if (length <= limit) return length;
  size_t cut = limit;
  // text[cut] is the first byte left out; while it continues a character, that character is cut.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

size_t WideToUtf8(const wchar_t* wide, char* out, size_t capacity) {
  size_t used = 0;
  for (; *wide != L'\0'; ++wide) {
    uint32_t code_point = static_cast<uint32_t>(*wide);
    if (!IsScalarValue(code_point)) code_point = kReplacementCharacter;
    const size_t length = EncodedLength(code_point);
    if (used + length > capacity) break;
    Encode(code_point, length, out + used);
    used += length;
  }
  return used;
}

Utf8Text::Utf8Text(const char* text) {
  if (text == nullptr) return;
  // One byte past the budget tells Utf8PrefixLength whether the cut splits a character.
  const size_t length = strnlen(text, protocol::kMaxTextLength + 1);
  data_ = text;
  size_ = Utf8PrefixLength(text, length, protocol::kMaxTextLength);
}

Utf8Text::Utf8Text(const wchar_t* text) {
  if (text == nullptr) return;
  size_ = WideToUtf8(text, buffer_, sizeof(buffer_));
  data_ = buffer_;
}

}  // namespace prof::injection::nvtx
