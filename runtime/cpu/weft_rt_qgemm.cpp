//===- weft_rt_qgemm.cpp - Weight-only quantized GEMM / GEMV --------------===//
#include "weft_rt_qgemm.h"

#include "weft_rt_gemm_kernel.h"
#include "weft_rt_quant_decode.h"

namespace weft::rt {

namespace {
/// Dequantizes kNR rows at a time into the L1 panel of the blocked GEMM;
/// fp32 weights never exist for the whole matrix.
template <int Bits> struct QuantRows {
  const QuantView &w;
  template <typename F>
  void visit(int64_t j, int nr, int, float *panel, const F &f) const {
    const int ld = detail::roundUp8(w.cols);
    for (int r = 0; r < nr; ++r)
      detail::dequantizeRowFast<Bits>(w, j + r, panel + int64_t(r) * ld);
    f(static_cast<const float *>(panel), int64_t(ld));
  }
};
} // namespace

void gemmQuant(const float *x, const QuantView &w, float *y, int m) {
  detail::dispatchBits(w.bits, [&](auto bits) {
    detail::blockedGemm(x, m, w.rows, w.cols, y, w.rows,
                        QuantRows<decltype(bits)::value>{w});
  });
}

} // namespace weft::rt
