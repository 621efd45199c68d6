//===- weft_rt_cuda_attention.cu - RoPE, KV cache, causal GQA attention ---===//
#include "weft_rt_cuda_common.cuh"

namespace weft::rt::cuda {
using namespace detail;

namespace {
constexpr int kAttentionBlock = 128;
/// Dynamic shared memory available without an opt-in on every target.
constexpr int kSharedBytes = 48 * 1024;

// One thread per (row, head, pair).
__global__ void ropeKernel(float *x, int m, int heads, int headSize,
                           int firstPos, float theta) {
  int half = headSize / 2;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= int64_t(m) * heads * half)
    return;
  int pair = int(i % half), t = int(i / (int64_t(heads) * half));
  float freq = powf(theta, -float(2 * pair) / float(headSize));
  float s, c;
  sincosf(float(firstPos + t) * freq, &s, &c);
  float *v = x + (i / half) * headSize + 2 * pair;
  float a = v[0], b = v[1];
  v[0] = a * c - b * s;
  v[1] = a * s + b * c;
}

// One block per (query row, head). Shared memory: the query, then scores.
__global__ void attentionKernel(const float *q, const float *keys,
                                const float *values, float *out, int pastLen,
                                int heads, int kvHeads, int headSize) {
  extern __shared__ float shared[];
  float *query = shared, *scores = shared + headSize;
  int t = blockIdx.x / heads, h = blockIdx.x % heads;
  int visible = pastLen + t + 1;
  int dim = heads * headSize, kvDim = kvHeads * headSize;
  int64_t kvOffset = int64_t(h / (heads / kvHeads)) * headSize;
  const float *qRow = q + int64_t(t) * dim + int64_t(h) * headSize;
  for (int i = threadIdx.x; i < headSize; i += blockDim.x)
    query[i] = qRow[i];
  __syncthreads();
  float scale = rsqrtf(float(headSize)), localMax = -INFINITY;
  for (int p = threadIdx.x; p < visible; p += blockDim.x) {
    const float *key = keys + int64_t(p) * kvDim + kvOffset;
    float dot = 0.0f;
    for (int i = 0; i < headSize; ++i)
      dot += query[i] * key[i];
    scores[p] = dot * scale;
    localMax = fmaxf(localMax, scores[p]);
  }
  float maxScore = blockMax(localMax);
  float localSum = 0.0f;
  for (int p = threadIdx.x; p < visible; p += blockDim.x) {
    scores[p] = __expf(scores[p] - maxScore);
    localSum += scores[p];
  }
  float inv = 1.0f / blockSum(localSum); // blockSum synchronises the block
  float *dst = out + int64_t(t) * dim + int64_t(h) * headSize;
  for (int i = threadIdx.x; i < headSize; i += blockDim.x) {
    float acc = 0.0f;
    for (int p = 0; p < visible; ++p)
      acc += scores[p] * values[int64_t(p) * kvDim + kvOffset + i];
    dst[i] = acc * inv;
  }
}
} // namespace

cudaError_t rope(float *x, int m, int heads, int headSize, int firstPos,
                 float theta, cudaStream_t stream) {
  if (m <= 0 || heads <= 0 || headSize <= 0 || headSize % 2 != 0)
    return cudaErrorInvalidValue;
  int64_t n = int64_t(m) * heads * (headSize / 2);
  ropeKernel<<<blocksFor(n), kBlock, 0, stream>>>(x, m, heads, headSize,
                                                  firstPos, theta);
  return cudaGetLastError();
}

cudaError_t kvCacheAppend(float *keys, float *values, const float *k,
                          const float *v, int firstPos, int m, int kvDim,
                          cudaStream_t stream) {
  size_t bytes = size_t(m) * kvDim * sizeof(float);
  size_t offset = size_t(firstPos) * kvDim;
  cudaError_t status = cudaMemcpyAsync(keys + offset, k, bytes,
                                       cudaMemcpyDeviceToDevice, stream);
  if (status != cudaSuccess)
    return status;
  return cudaMemcpyAsync(values + offset, v, bytes, cudaMemcpyDeviceToDevice,
                         stream);
}

int maxAttentionContext() {
  return kSharedBytes / int(sizeof(float)) - 256; // room for a 256-wide head
}

cudaError_t attention(const float *q, const float *keys, const float *values,
                      float *out, int m, int pastLen, int heads, int kvHeads,
                      int headSize, cudaStream_t stream) {
  if (m <= 0 || heads <= 0 || kvHeads <= 0 || headSize <= 0 || headSize > 256 ||
      pastLen < 0 || heads % kvHeads != 0 ||
      pastLen + m > maxAttentionContext())
    return cudaErrorInvalidValue;
  size_t shared = size_t(headSize + pastLen + m) * sizeof(float);
  attentionKernel<<<unsigned(m) * heads, kAttentionBlock, shared, stream>>>(
      q, keys, values, out, pastLen, heads, kvHeads, headSize);
  return cudaGetLastError();
}

} // namespace weft::rt::cuda
