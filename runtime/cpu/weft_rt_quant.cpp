//===- weft_rt_quant.cpp - Group-wise weight-only quantization ------------===//
#include "weft_rt_quant.h"

#include "weft_rt_half.h"
#include "weft_rt_quant_decode.h"

#include <cmath>

namespace weft::rt {

std::string checkQuantParams(int rows, int cols, int bits, int groupSize) {
  if (rows <= 0 || cols <= 0)
    return "matrix shape " + std::to_string(rows) + "x" + std::to_string(cols) +
           " is empty";
  if (bits < kMinQuantBits || bits > kMaxQuantBits)
    return "bit width " + std::to_string(bits) + " is outside [" +
           std::to_string(kMinQuantBits) + ", " +
           std::to_string(kMaxQuantBits) + "]";
  if (groupSize <= 0 || groupSize % 8 != 0)
    return "group size " + std::to_string(groupSize) +
           " is not a positive multiple of 8";
  return "";
}

GroupParams minMaxGroupParams(const float *w, int n, int bits) {
  float lo = 0.0f, hi = 0.0f;
  for (int i = 0; i < n; ++i) {
    lo = w[i] < lo ? w[i] : lo;
    hi = w[i] > hi ? w[i] : hi;
  }
  const int qmax = (1 << bits) - 1;
  GroupParams p;
  float scale = (hi - lo) / float(qmax);
  if (!(scale > 0.0f))
    scale = 1.0f; // all-zero group: any scale reproduces it exactly
  p.scaleHalf = floatToHalf(scale);
  p.scale = halfToFloat(p.scaleHalf);
  if (p.scale == 0.0f) { // below fp16's range: use its smallest subnormal
    p.scaleHalf = 1;
    p.scale = halfToFloat(1);
  }
  long zero = std::lround(-lo / p.scale);
  p.zero = int(zero < 0 ? 0 : zero > qmax ? qmax : zero);
  return p;
}

unsigned quantizeValue(float w, const GroupParams &p, int bits) {
  const long qmax = (1L << bits) - 1;
  long q = std::lround(w / p.scale) + p.zero;
  return unsigned(q < 0 ? 0 : q > qmax ? qmax : q);
}

void setCode(uint8_t *row, int index, int bits, unsigned code) {
  int64_t bit = int64_t(index) * bits;
  for (int b = 0; b < bits; ++b, ++bit) {
    uint8_t mask = uint8_t(1u << (bit & 7));
    if ((code >> b) & 1u)
      row[bit >> 3] |= mask;
    else
      row[bit >> 3] &= uint8_t(~mask);
  }
}

unsigned getCode(const uint8_t *row, int index, int bits) {
  int64_t bit = int64_t(index) * bits;
  unsigned code = 0;
  for (int b = 0; b < bits; ++b, ++bit)
    code |= unsigned((row[bit >> 3] >> (bit & 7)) & 1u) << b;
  return code;
}

bool quantizeRTN(const float *w, int rows, int cols, int bits, int groupSize,
                 QuantMatrix &out, std::string *error) {
  std::string problem = checkQuantParams(rows, cols, bits, groupSize);
  if (!problem.empty()) {
    if (error)
      *error = problem;
    return false;
  }
  const int groups = quantGroupsPerRow(cols, groupSize);
  const int64_t rowBytes = quantRowBytes(cols, bits);
  out.rows = rows;
  out.cols = cols;
  out.bits = bits;
  out.groupSize = groupSize;
  out.codes.assign(size_t(rows) * rowBytes, 0);
  out.scales.assign(size_t(rows) * groups, 0);
  out.zeros.assign(size_t(rows) * groups, 0);
  for (int r = 0; r < rows; ++r) {
    const float *src = w + int64_t(r) * cols;
    uint8_t *codes = out.codes.data() + int64_t(r) * rowBytes;
    for (int g = 0; g < groups; ++g) {
      int begin = g * groupSize;
      int n = cols - begin < groupSize ? cols - begin : groupSize;
      GroupParams p = minMaxGroupParams(src + begin, n, bits);
      if (std::isinf(p.scale) || std::isnan(p.scale)) {
        if (error)
          *error = "row " + std::to_string(r) + " group " + std::to_string(g) +
                   ": weights are not finite or too large for an fp16 scale";
        return false;
      }
      out.scales[size_t(r) * groups + g] = p.scaleHalf;
      out.zeros[size_t(r) * groups + g] = uint8_t(p.zero);
      for (int i = 0; i < n; ++i)
        setCode(codes, begin + i, bits, quantizeValue(src[begin + i], p, bits));
    }
  }
  return true;
}

void dequantizeRows(const QuantView &q, int firstRow, int count, float *out) {
  detail::dispatchBits(q.bits, [&](auto bits) {
    for (int r = 0; r < count; ++r)
      detail::dequantizeRow<decltype(bits)::value>(q, int64_t(firstRow) + r,
                                                   out + int64_t(r) * q.cols);
  });
}

} // namespace weft::rt
