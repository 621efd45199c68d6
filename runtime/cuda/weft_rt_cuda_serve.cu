//===- weft_rt_cuda_serve.cu - The serving library's CUDA stage backend ---===//
//
// Runs one pipeline stage's parts on a GPU with the kernels of
// weft_rt_cuda.h, following the CPU reference composition of
// weft_rt_llama.cpp step for step. Weights stay in their stored formats on
// the device (fp32, fp16, or the packed quantized codes byte for byte);
// hidden states and KV caches are fp32. Linears run batched over every row
// of a micro-batch; RoPE, the KV append and attention run per sequence
// span, since each span has its own cache and positions.
//
// Failures never abort: the first one is recorded (error()) and every
// later call does nothing. MPI-free: the serving library moves host
// buffers between ranks.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_cuda_common.cuh"
#include "weft_rt_serve_backend.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace weft::rt::cuda {
namespace {
using namespace detail;
using serve::SeqRows;

// out[t][i] = embedding[tokens[t]][i] as fp32; ids are checked on the host.
__global__ void embedKernel(const int *tokens, const __half *embedding,
                            float *out, int m, int dim) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= int64_t(m) * dim)
    return;
  int64_t t = i / dim, c = i % dim;
  out[i] = __half2float(embedding[int64_t(tokens[t]) * dim + c]);
}

// out[j][i] = x[rows[j]][i]: gathers the rows lmHead asked for.
__global__ void gatherRowsKernel(const float *x, const int *rows, float *out,
                                 int n, int dim) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= int64_t(n) * dim)
    return;
  int64_t j = i / dim, c = i % dim;
  out[i] = x[int64_t(rows[j]) * dim + c];
}

/// A linear weight [rows][cols] on the device, in its stored format.
struct DeviceLinear {
  int rows = 0, cols = 0, bits = 32, groupSize = 0;
  float *f32 = nullptr;
  __half *f16 = nullptr;
  uint8_t *codes = nullptr, *zeros = nullptr;
  __half *scales = nullptr;
  QuantWeight quant() const {
    return {codes, scales, zeros, rows, cols, bits, groupSize};
  }
};

struct DeviceLayer {
  float *rmsAtt = nullptr, *rmsFfn = nullptr;
  DeviceLinear wq, wk, wv, wo, w1, w2, w3;
};

std::string mib(int64_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

/// The local rank under Open MPI (MPICH and Slurm as fallbacks), or 0.
int localRank() {
  for (const char *name : {"OMPI_COMM_WORLD_LOCAL_RANK",
                           "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char *value = std::getenv(name))
      return std::atoi(value);
  return 0;
}

class CudaBackend final : public serve::Backend {
public:
  ~CudaBackend() override;
  bool init(StageWeights weights, int maxSeqs, int maxContext, int maxRows,
            std::string *error) override;
  void begin(const SeqRows *spans, int numSpans) override;
  void embed(const int *tokens) override;
  void setHidden(const float *x) override;
  void getHidden(float *x) override;
  void decoderLayer(int layer) override;
  void finalNorm() override;
  void lmHead(const int *rows, int n, float *logits) override;
  std::string error() const override { return firstError; }
  int64_t weightBytes() const override { return bytes[Weights]; }
  int64_t kvCacheBytes() const override { return bytes[KvCache]; }
  int64_t activationBytes() const override { return bytes[Activations]; }
  const char *name() const override { return "cuda"; }

private:
  enum Kind { Weights, KvCache, Activations };

  /// Records the first failure; returns whether everything is still fine.
  bool fail(const std::string &what) {
    if (firstError.empty())
      firstError = what;
    return false;
  }
  bool check(cudaError_t status, const char *what) {
    if (status == cudaSuccess)
      return firstError.empty();
    return fail(std::string("CUDA error in ") + what + ": " +
                cudaGetErrorString(status));
  }
  template <typename T>
  bool alloc(T *&ptr, int64_t count, Kind kind, const char *what);
  template <typename T>
  bool upload(T *&ptr, const T *host, int64_t count, const char *what);
  bool uploadLinear(const Linear &host, int rows, int cols, DeviceLinear &dev,
                    const std::string &what);
  bool uploadNorm(float *&ptr, const std::vector<float> &host,
                  const std::string &what);
  bool apply(const DeviceLinear &w, const float *x, float *y, int m);
  /// Usable now: initialised, no recorded error.
  bool ready() const { return initialised && firstError.empty(); }
  float *cache(std::vector<float *> &caches, int seq, int layer) {
    return caches[size_t(seq) * layers.size() + layer];
  }

  bool initialised = false;
  std::string firstError;
  int64_t bytes[3] = {0, 0, 0};
  std::vector<void *> allocations;

  LlamaConfig config;
  StageFileSpec spec;
  int maxSeqs = 0, maxContext = 0, maxRows = 0;
  int device = 0; ///< local rank modulo the visible devices
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;

  __half *embedding = nullptr;
  std::vector<DeviceLayer> layers;
  float *rmsFinal = nullptr;
  DeviceLinear classifier;
  bool hasHead = false;

  /// [seq * layers + layer] -> [maxContext][kvDim]
  std::vector<float *> keys, values;

  // Activations for maxRows rows.
  float *x = nullptr, *norm = nullptr, *q = nullptr, *k = nullptr,
        *v = nullptr, *att = nullptr, *proj = nullptr, *ffnA = nullptr,
        *ffnB = nullptr, *selected = nullptr, *logitsBuf = nullptr;
  int *tokens = nullptr, *rowIds = nullptr;
  __half *halfWorkspace = nullptr; ///< fp16 activations for cuBLAS
  __half *dequantBuffer = nullptr; ///< one dequantized weight (prefill)

  std::vector<SeqRows> spans;
  int rows = 0; ///< rows of the current micro-batch
};

CudaBackend::~CudaBackend() {
  // Errors are ignored here: nothing useful can be done with them.
  if (stream)
    cudaStreamSynchronize(stream);
  for (void *p : allocations)
    cudaFree(p);
  if (cublas)
    cublasDestroy(cublas);
  if (stream)
    cudaStreamDestroy(stream);
}

template <typename T>
bool CudaBackend::alloc(T *&ptr, int64_t count, Kind kind, const char *what) {
  ptr = nullptr;
  if (count <= 0)
    return true;
  int64_t size = count * int64_t(sizeof(T));
  void *p = nullptr;
  cudaError_t status = cudaMalloc(&p, size_t(size));
  if (status != cudaSuccess) {
    cudaGetLastError(); // an allocation failure is not sticky: clear it
    size_t freeBytes = 0, totalBytes = 0;
    cudaMemGetInfo(&freeBytes, &totalBytes);
    return fail(std::string("cannot allocate ") + mib(size) + " of GPU " +
                "memory for " + what + " (" + cudaGetErrorString(status) +
                "; " + mib(int64_t(freeBytes)) + " free of " +
                mib(int64_t(totalBytes)) + ", " +
                mib(bytes[Weights] + bytes[KvCache] + bytes[Activations]) +
                " already allocated by this stage)");
  }
  allocations.push_back(p);
  bytes[kind] += size;
  ptr = static_cast<T *>(p);
  return true;
}

template <typename T>
bool CudaBackend::upload(T *&ptr, const T *host, int64_t count,
                         const char *what) {
  if (!alloc(ptr, count, Weights, what))
    return false;
  if (count <= 0)
    return true;
  // Synchronous: the host copies are released right after init.
  return check(cudaMemcpy(ptr, host, size_t(count) * sizeof(T),
                          cudaMemcpyHostToDevice),
               what);
}

bool CudaBackend::uploadNorm(float *&ptr, const std::vector<float> &host,
                             const std::string &what) {
  if (int64_t(host.size()) != config.dim)
    return fail(what + ": " + std::to_string(host.size()) +
                " weights for a hidden size of " + std::to_string(config.dim));
  return upload(ptr, host.data(), config.dim, what.c_str());
}

bool CudaBackend::uploadLinear(const Linear &host, int rows, int cols,
                               DeviceLinear &dev, const std::string &what) {
  if (host.rows != rows || host.cols != cols)
    return fail(what + ": weight is " + std::to_string(host.rows) + "x" +
                std::to_string(host.cols) + ", the model needs " +
                std::to_string(rows) + "x" + std::to_string(cols));
  dev = DeviceLinear();
  dev.rows = rows;
  dev.cols = cols;
  dev.bits = host.bits;
  const int64_t n = int64_t(rows) * cols;
  auto wrongSize = [&](const char *part, size_t got, int64_t want) {
    return fail(what + ": " + std::to_string(got) + " " + part + " for " +
                std::to_string(want));
  };
  if (host.bits == 32) {
    if (int64_t(host.f32.size()) != n)
      return wrongSize("fp32 values", host.f32.size(), n);
    return upload(dev.f32, host.f32.data(), n, what.c_str());
  }
  if (host.bits == 16) {
    if (int64_t(host.f16.size()) != n)
      return wrongSize("fp16 values", host.f16.size(), n);
    // IEEE binary16 bits either way: the host array is copied unchanged.
    return upload(dev.f16, reinterpret_cast<const __half *>(host.f16.data()),
                  n, what.c_str());
  }
  const QuantMatrix &qm = host.quant;
  // The CUDA quantized kernels are specialised for these widths only.
  if (host.bits != 3 && host.bits != 4 && host.bits != 8)
    return fail(what + ": " + std::to_string(host.bits) +
                "-bit weights are not supported by the CUDA backend "
                "(quantized widths 3, 4 and 8; or 16, 32)");
  if (qm.groupSize <= 0 || qm.groupSize % 8 != 0)
    return fail(what + ": quantization group size " +
                std::to_string(qm.groupSize) +
                " is not supported by the CUDA backend (a multiple of 8)");
  if (qm.rows != rows || qm.cols != cols || qm.bits != host.bits)
    return fail(what + ": quantized matrix header does not match the layer");
  const int64_t codeBytes = int64_t(rows) * quantRowBytes(cols, host.bits);
  const int64_t groups = int64_t(rows) * quantGroupsPerRow(cols, qm.groupSize);
  if (int64_t(qm.codes.size()) != codeBytes)
    return wrongSize("code bytes", qm.codes.size(), codeBytes);
  if (int64_t(qm.scales.size()) != groups)
    return wrongSize("scales", qm.scales.size(), groups);
  if (int64_t(qm.zeros.size()) != groups)
    return wrongSize("zero-points", qm.zeros.size(), groups);
  dev.groupSize = qm.groupSize;
  return upload(dev.codes, qm.codes.data(), codeBytes, what.c_str()) &&
         upload(dev.scales, reinterpret_cast<const __half *>(qm.scales.data()),
                groups, what.c_str()) &&
         upload(dev.zeros, qm.zeros.data(), groups, what.c_str());
}

bool CudaBackend::init(StageWeights weights, int maxSeqs_, int maxContext_,
                       int maxRows_, std::string *error) {
  auto finish = [&](bool ok) {
    if (!ok && error)
      *error = firstError;
    initialised = ok;
    return ok;
  };
  auto reject = [&](const std::string &what) {
    fail(what);
    return finish(false);
  };
  if (initialised) { // keep the working state: only report the misuse
    if (error)
      *error = "the CUDA backend was initialised twice";
    return false;
  }
  config = weights.config;
  spec = weights.spec;
  maxSeqs = maxSeqs_;
  maxContext = maxContext_;
  maxRows = maxRows_;
  const LlamaConfig &c = config;
  if (maxSeqs <= 0 || maxContext <= 0 || maxRows <= 0)
    return reject("the CUDA backend needs positive sequence, context and row "
                  "counts");
  // The OPT composition (LayerNorm, biases, learned positions) exists only
  // in the CPU backend so far.
  if (c.isOpt())
    return reject("the CUDA backend does not serve OPT models yet; build "
                  "with --target=cpu");
  if (c.dim <= 0 || c.heads <= 0 || c.kvHeads <= 0 || c.dim % c.heads != 0 ||
      c.heads % c.kvHeads != 0 || c.headSize() % 2 != 0 || c.hiddenDim <= 0 ||
      c.vocabSize <= 0)
    return reject("the CUDA backend got an inconsistent model configuration");
  if (c.headSize() > 256)
    return reject("head size " + std::to_string(c.headSize()) +
                " exceeds the CUDA attention kernel's limit of 256");
  if (maxContext > maxAttentionContext())
    return reject("context of " + std::to_string(maxContext) +
                " positions exceeds the CUDA attention kernel's limit of " +
                std::to_string(maxAttentionContext()));
  const int numLayers = spec.endLayer - spec.firstLayer;
  if (numLayers < 0 || int(weights.layers.size()) != numLayers)
    return reject("stage holds " + std::to_string(weights.layers.size()) +
                " layers for the range [" + std::to_string(spec.firstLayer) +
                ", " + std::to_string(spec.endLayer) + ")");

  int devices = 0;
  cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0)
    return reject(std::string("no usable CUDA device: ") +
                (status != cudaSuccess ? cudaGetErrorString(status)
                                       : "none found"));
  device = localRank() % devices;
  if (!check(cudaSetDevice(device), "cudaSetDevice") ||
      !check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
             "cudaStreamCreate"))
    return finish(false);
  if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS) {
    cublas = nullptr;
    return reject("cannot create a cuBLAS handle on device " +
                std::to_string(device));
  }
  if (cublasSetStream(cublas, stream) != CUBLAS_STATUS_SUCCESS)
    return reject("cublasSetStream failed");

  // Weights, in file order.
  const int64_t D = c.dim, KV = c.kvDim(), H = c.hiddenDim;
  bool ok = true;
  if (spec.hasEmbedding) {
    const int64_t n = int64_t(c.vocabSize) * D;
    if (int64_t(weights.embeddingF16.size()) != n)
      return reject("token embedding holds " +
                  std::to_string(weights.embeddingF16.size()) +
                  " values for " + std::to_string(n));
    ok = upload(embedding,
                reinterpret_cast<const __half *>(weights.embeddingF16.data()),
                n, "the token embedding");
    std::vector<uint16_t>().swap(weights.embeddingF16);
  }
  layers.resize(numLayers);
  int64_t largestQuant = 0; // halves of the biggest dequantized weight
  for (int l = 0; ok && l < numLayers; ++l) {
    LlamaLayer &src = weights.layers[l];
    DeviceLayer &dst = layers[l];
    const std::string at = "layer " + std::to_string(spec.firstLayer + l);
    const struct {
      const Linear &src;
      int64_t rows, cols;
      DeviceLinear &dst;
      const char *name;
    } linears[] = {{src.wq, D, D, dst.wq, " wq"},  {src.wk, KV, D, dst.wk, " wk"},
                   {src.wv, KV, D, dst.wv, " wv"}, {src.wo, D, D, dst.wo, " wo"},
                   {src.w1, H, D, dst.w1, " w1"},  {src.w2, D, H, dst.w2, " w2"},
                   {src.w3, H, D, dst.w3, " w3"}};
    ok = uploadNorm(dst.rmsAtt, src.rmsAtt, at + " attention norm") &&
         uploadNorm(dst.rmsFfn, src.rmsFfn, at + " FFN norm");
    for (const auto &lin : linears) {
      if (!ok)
        break;
      ok = uploadLinear(lin.src, int(lin.rows), int(lin.cols), lin.dst,
                        at + lin.name);
      if (lin.dst.codes)
        largestQuant = std::max(largestQuant, lin.rows * lin.cols);
    }
    src = LlamaLayer(); // release the host copy now: stages can be large
  }
  hasHead = spec.hasHead;
  if (ok && hasHead) {
    ok = uploadNorm(rmsFinal, weights.rmsFinal, "final norm") &&
         uploadLinear(weights.classifier, c.vocabSize, c.dim, classifier,
                      "classifier");
    if (classifier.codes)
      largestQuant = std::max(largestQuant, int64_t(c.vocabSize) * D);
    weights.classifier = Linear();
  }
  if (!ok)
    return finish(false);

  // KV caches: one pair per (sequence, layer) of this stage.
  keys.assign(size_t(maxSeqs) * numLayers, nullptr);
  values.assign(keys.size(), nullptr);
  for (size_t i = 0; ok && i < keys.size(); ++i)
    ok = alloc(keys[i], int64_t(maxContext) * KV, KvCache, "KV caches") &&
         alloc(values[i], int64_t(maxContext) * KV, KvCache, "KV caches");

  // Activations. cuBLAS paths (m > 2) convert X to fp16 (halfWorkspace)
  // and, for quantized weights, dequantize W first (dequantBuffer).
  const int64_t R = maxRows, widest = std::max(D, H);
  ok = ok && alloc(x, R * D, Activations, "activations") &&
       alloc(norm, R * D, Activations, "activations") &&
       alloc(q, R * D, Activations, "activations") &&
       alloc(k, R * KV, Activations, "activations") &&
       alloc(v, R * KV, Activations, "activations") &&
       alloc(att, R * D, Activations, "activations") &&
       alloc(proj, R * D, Activations, "activations") &&
       alloc(tokens, R, Activations, "activations");
  if (ok && numLayers > 0)
    ok = alloc(ffnA, R * H, Activations, "activations") &&
         alloc(ffnB, R * H, Activations, "activations");
  if (ok && maxRows > 2)
    ok = alloc(halfWorkspace, R * widest, Activations, "activations") &&
         alloc(dequantBuffer, largestQuant, Activations,
               "dequantized weights");
  if (ok && hasHead)
    ok = alloc(selected, R * D, Activations, "activations") &&
         alloc(rowIds, R, Activations, "activations") &&
         alloc(logitsBuf, R * c.vocabSize, Activations, "logits");
  return finish(ok);
}

bool CudaBackend::apply(const DeviceLinear &w, const float *in, float *out,
                        int m) {
  if (w.bits == 32) {
    // Row-major Y = X W^T is column-major Y^T = W X^T; W's row-major
    // storage read column-major is W^T, so op(A) = T (as in gemm.cu).
    const float alpha = 1.0f, beta = 0.0f;
    cublasStatus_t status =
        cublasSgemm(cublas, CUBLAS_OP_T, CUBLAS_OP_N, w.rows, m, w.cols,
                    &alpha, w.f32, w.cols, in, w.cols, &beta, out, w.rows);
    return status == CUBLAS_STATUS_SUCCESS ||
           fail("cuBLAS SGEMM failed (status " + std::to_string(int(status)) +
                ")");
  }
  if (w.bits == 16)
    return check(gemmF16(cublas, in, w.f16, out, m, w.rows, w.cols,
                         halfWorkspace, stream),
                 "gemmF16");
  return check(gemmQuant(cublas, in, w.quant(), out, m, dequantBuffer,
                         halfWorkspace, stream),
               "gemmQuant");
}

void CudaBackend::begin(const SeqRows *spans_, int numSpans) {
  spans.clear();
  rows = 0;
  if (!ready())
    return;
  // The current device is per host thread: make sure it is ours.
  if (!check(cudaSetDevice(device), "cudaSetDevice"))
    return;
  for (int i = 0; i < numSpans; ++i) {
    const SeqRows &s = spans_[i];
    if (s.seq < 0 || s.seq >= maxSeqs || s.rows <= 0 || s.pos < 0 ||
        s.pos + s.rows > maxContext) {
      fail("micro-batch span (sequence " + std::to_string(s.seq) +
           ", positions " + std::to_string(s.pos) + ".." +
           std::to_string(s.pos + s.rows - 1) + ") is outside the " +
           std::to_string(maxSeqs) + " sequences of " +
           std::to_string(maxContext) + " positions the backend holds");
      return;
    }
    rows += s.rows;
    spans.push_back(s);
  }
  if (rows > maxRows) {
    fail("micro-batch of " + std::to_string(rows) + " rows exceeds the " +
         std::to_string(maxRows) + " the backend was sized for");
    spans.clear();
    rows = 0;
  }
}

void CudaBackend::embed(const int *ids) {
  if (!ready() || rows == 0)
    return;
  if (!embedding) {
    fail("embed() on a stage without the token embedding");
    return;
  }
  for (int t = 0; t < rows; ++t)
    if (ids[t] < 0 || ids[t] >= config.vocabSize) {
      fail("token id " + std::to_string(ids[t]) +
           " is outside the vocabulary [0, " +
           std::to_string(config.vocabSize) + ")");
      return;
    }
  if (!check(cudaMemcpyAsync(tokens, ids, sizeof(int) * rows,
                             cudaMemcpyHostToDevice, stream),
             "token upload"))
    return;
  embedKernel<<<blocksFor(int64_t(rows) * config.dim), kBlock, 0, stream>>>(
      tokens, embedding, x, rows, config.dim);
  check(cudaGetLastError(), "embedding gather");
}

void CudaBackend::setHidden(const float *host) {
  if (!ready() || rows == 0)
    return;
  check(cudaMemcpyAsync(x, host, sizeof(float) * rows * config.dim,
                        cudaMemcpyHostToDevice, stream),
        "hidden state upload");
}

void CudaBackend::getHidden(float *host) {
  if (!ready() || rows == 0)
    return;
  if (check(cudaMemcpyAsync(host, x, sizeof(float) * rows * config.dim,
                            cudaMemcpyDeviceToHost, stream),
            "hidden state download"))
    check(cudaStreamSynchronize(stream), "stage computation");
}

void CudaBackend::decoderLayer(int layer) {
  if (!ready() || rows == 0)
    return;
  const int local = layer - spec.firstLayer;
  if (local < 0 || local >= int(layers.size())) {
    fail("decoder layer " + std::to_string(layer) +
         " is not in this stage's range [" + std::to_string(spec.firstLayer) +
         ", " + std::to_string(spec.endLayer) + ")");
    return;
  }
  const LlamaConfig &c = config;
  const DeviceLayer &w = layers[local];
  const int m = rows, D = c.dim, KV = c.kvDim(), hs = c.headSize();
  bool ok = check(rmsNorm(x, w.rmsAtt, norm, m, D, c.rmsEps, stream),
                  "rmsNorm") &&
            apply(w.wq, norm, q, m) && apply(w.wk, norm, k, m) &&
            apply(w.wv, norm, v, m);
  // Positions and caches differ per sequence.
  int row = 0;
  for (const SeqRows &s : spans) {
    if (!ok)
      return;
    float *qs = q + int64_t(row) * D, *ks = k + int64_t(row) * KV,
          *vs = v + int64_t(row) * KV;
    float *kc = cache(keys, s.seq, local), *vc = cache(values, s.seq, local);
    ok = check(rope(qs, s.rows, c.heads, hs, s.pos, c.ropeTheta, stream),
               "rope") &&
         check(rope(ks, s.rows, c.kvHeads, hs, s.pos, c.ropeTheta, stream),
               "rope") &&
         check(kvCacheAppend(kc, vc, ks, vs, s.pos, s.rows, KV, stream),
               "kvCacheAppend") &&
         check(attention(qs, kc, vc, att + int64_t(row) * D, s.rows, s.pos,
                         c.heads, c.kvHeads, hs, stream),
               "attention");
    row += s.rows;
  }
  ok = ok && apply(w.wo, att, proj, m) &&
       check(addInPlace(x, proj, int64_t(m) * D, stream), "addInPlace") &&
       check(rmsNorm(x, w.rmsFfn, norm, m, D, c.rmsEps, stream), "rmsNorm") &&
       apply(w.w1, norm, ffnA, m) && apply(w.w3, norm, ffnB, m) &&
       check(swiglu(ffnA, ffnB, int64_t(m) * c.hiddenDim, stream), "swiglu") &&
       apply(w.w2, ffnA, proj, m) &&
       check(addInPlace(x, proj, int64_t(m) * D, stream), "addInPlace");
}

void CudaBackend::finalNorm() {
  if (!ready() || rows == 0)
    return;
  if (!hasHead) {
    fail("finalNorm() on a stage without the model head");
    return;
  }
  // In place, as the CPU composition does: each element is read before
  // the same thread overwrites it.
  check(rmsNorm(x, rmsFinal, x, rows, config.dim, config.rmsEps, stream),
        "rmsNorm");
}

void CudaBackend::lmHead(const int *rowList, int n, float *logits) {
  if (!ready() || n <= 0)
    return;
  if (!hasHead) {
    fail("lmHead() on a stage without the model head");
    return;
  }
  for (int j = 0; j < n; ++j)
    if (rowList[j] < 0 || rowList[j] >= rows) {
      fail("lmHead() row " + std::to_string(rowList[j]) +
           " is outside the micro-batch of " + std::to_string(rows) + " rows");
      return;
    }
  if (n > maxRows) {
    fail("lmHead() on " + std::to_string(n) + " rows, more than " +
         std::to_string(maxRows));
    return;
  }
  const int D = config.dim;
  if (!check(cudaMemcpyAsync(rowIds, rowList, sizeof(int) * n,
                             cudaMemcpyHostToDevice, stream),
             "row upload"))
    return;
  gatherRowsKernel<<<blocksFor(int64_t(n) * D), kBlock, 0, stream>>>(
      x, rowIds, selected, n, D);
  if (check(cudaGetLastError(), "row gather") &&
      apply(classifier, selected, logitsBuf, n) &&
      check(cudaMemcpyAsync(logits, logitsBuf,
                            sizeof(float) * n * config.vocabSize,
                            cudaMemcpyDeviceToHost, stream),
            "logits download"))
    check(cudaStreamSynchronize(stream), "stage computation");
}

} // namespace
} // namespace weft::rt::cuda

namespace weft::rt::serve {
std::unique_ptr<Backend> makeBackend() {
  return std::make_unique<cuda::CudaBackend>();
}
} // namespace weft::rt::serve
