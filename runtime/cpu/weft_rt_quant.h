//===- weft_rt_quant.h - Group-wise weight-only quantization ----*- C++ -*-===//
//
// Format (docs/quantization.md has the full description): a weight [N][K]
// is quantized row by row in groups of `groupSize` consecutive inputs (the
// last group of a row is shorter when groupSize does not divide K). Each
// group has an fp16 scale and an integer zero-point; a code q in
// [0, 2^bits - 1] stands for scale * (q - zero). Codes of one row form a
// little-endian bit stream (code i at bit i * bits), padded to a multiple of
// 8 codes so that every block of 8 codes is exactly `bits` bytes.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_QUANT_H
#define WEFT_RT_QUANT_H

#include <cstdint>
#include <string>
#include <vector>

namespace weft::rt {

constexpr int kMinQuantBits = 2;
constexpr int kMaxQuantBits = 8;
/// Default group size: divides the hidden sizes of common models and keeps
/// the scale overhead at 0.75 bits per weight.
constexpr int kDefaultGroupSize = 32;

/// Non-owning view of a quantized matrix; what kernels (and generated code
/// pointing into a weight file) take.
struct QuantView {
  const uint8_t *codes = nullptr;   ///< rows * quantRowBytes(cols, bits)
  const uint16_t *scales = nullptr; ///< fp16, rows * groups per row
  const uint8_t *zeros = nullptr;   ///< rows * groups per row
  int rows = 0, cols = 0, bits = 0, groupSize = 0;
};

/// Owning storage of a quantized matrix.
struct QuantMatrix {
  int rows = 0, cols = 0, bits = 0, groupSize = 0;
  std::vector<uint8_t> codes;
  std::vector<uint16_t> scales;
  std::vector<uint8_t> zeros;
  QuantView view() const {
    return {codes.data(), scales.data(), zeros.data(), rows,
            cols,         bits,          groupSize};
  }
  /// Bytes of weight storage (codes + scales + zero-points).
  int64_t storageBytes() const {
    return int64_t(codes.size()) + 2 * int64_t(scales.size()) +
           int64_t(zeros.size());
  }
};

/// Bytes of one packed row: ceil(cols / 8) blocks of `bits` bytes.
inline int64_t quantRowBytes(int cols, int bits) {
  return int64_t((cols + 7) / 8) * bits;
}
inline int quantGroupsPerRow(int cols, int groupSize) {
  return cols / groupSize + (cols % groupSize != 0); // no int overflow
}

/// Why a (bits, groupSize, shape) combination is unsupported, or "".
std::string checkQuantParams(int rows, int cols, int bits, int groupSize);

/// Scale and zero-point of one group. Other quantizers (GPTQ, AWQ) choose
/// their own codes but store them with the same parameters and packing.
struct GroupParams {
  uint16_t scaleHalf = 0; ///< fp16 bits
  float scale = 0.0f;     ///< the same value as fp32
  int zero = 0;
};
/// Asymmetric min/max parameters; the range always contains 0 so that 0 is
/// exact and the zero-point fits in [0, 2^bits - 1].
GroupParams minMaxGroupParams(const float *w, int n, int bits);
/// Nearest code of w under p, clamped to [0, 2^bits - 1].
unsigned quantizeValue(float w, const GroupParams &p, int bits);

/// Writes / reads code `index` of a packed row.
void setCode(uint8_t *row, int index, int bits, unsigned code);
unsigned getCode(const uint8_t *row, int index, int bits);

/// Round-to-nearest quantization of w[rows][cols]. Returns false and sets
/// *error when the parameters are unsupported or a scale does not fit fp16.
bool quantizeRTN(const float *w, int rows, int cols, int bits, int groupSize,
                 QuantMatrix &out, std::string *error);

/// Dequantizes `count` rows starting at `firstRow` into out[count][cols].
void dequantizeRows(const QuantView &q, int firstRow, int count, float *out);

} // namespace weft::rt

#endif
