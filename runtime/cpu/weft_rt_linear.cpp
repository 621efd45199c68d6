//===- weft_rt_linear.cpp - A linear layer's weight in any format ---------===//
#include "weft_rt_linear.h"

#include "weft_rt_gemm.h"
#include "weft_rt_half.h"
#include "weft_rt_qgemm.h"

namespace weft::rt {

void Linear::apply(const float *x, float *y, int m) const {
  if (bits == 32)
    gemmF32(x, f32.data(), y, m, rows, cols);
  else if (bits == 16)
    gemmF16(x, f16.data(), y, m, rows, cols);
  else
    gemmQuant(x, quant.view(), y, m);
}

int64_t Linear::storageBytes() const {
  return int64_t(f32.size()) * 4 + int64_t(f16.size()) * 2 +
         quant.storageBytes();
}

bool makeLinear(const float *w, int rows, int cols, int bits, int groupSize,
                Linear &out, std::string *error) {
  out = Linear();
  out.rows = rows;
  out.cols = cols;
  out.bits = bits;
  size_t n = size_t(rows) * size_t(cols);
  if (bits == 32) {
    out.f32.assign(w, w + n);
    return true;
  }
  if (bits == 16) {
    out.f16.resize(n);
    floatToHalfArray(w, out.f16.data(), n);
    return true;
  }
  return quantizeRTN(w, rows, cols, bits, groupSize, out.quant, error);
}

} // namespace weft::rt
