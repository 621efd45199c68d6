//===- weft_rt_stage_file.cpp - Weights of one pipeline stage -------------===//
#include "weft_rt_stage_file.h"

#include "weft_rt_file.h"
#include "weft_rt_half.h"

#include <algorithm>
#include <cstring>

namespace weft::rt {

namespace {
constexpr char kMagic[8] = {'W', 'E', 'F', 'T', 'S', 'T', 'G', '1'};
/// Version 2 added the architecture (OPT's biases, LayerNorm biases and
/// learned positions); version 1 files are LLaMA and still read.
constexpr uint32_t kVersion = 2;
/// Longest model name a file may declare (garbage guard).
constexpr uint32_t kMaxNameBytes = 4096;

bool hostIsLittleEndian() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

uint64_t fnv1a(uint64_t hash, const void *data, size_t n) {
  const uint8_t *p = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < n; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

/// Streams bytes to a file while hashing them. Sticky failure: after the
/// first short write every call does nothing and ok() is false.
class Writer {
public:
  explicit Writer(std::FILE *f) : f(f) {}
  void bytes(const void *data, size_t n) {
    if (!good || n == 0)
      return;
    hash = fnv1a(hash, data, n);
    good = std::fwrite(data, 1, n, f) == n;
  }
  void i32(int32_t v) { bytes(&v, 4); }
  void u32(uint32_t v) { bytes(&v, 4); }
  void f32(float v) { bytes(&v, 4); }
  void u8(uint8_t v) { bytes(&v, 1); }
  template <typename T> void array(const std::vector<T> &v) {
    bytes(v.data(), v.size() * sizeof(T));
  }
  void trailer() {
    uint64_t h = hash;
    if (good)
      good = std::fwrite(&h, 1, 8, f) == 8;
  }
  bool ok() const { return good; }

private:
  std::FILE *f;
  uint64_t hash = kFnvOffset;
  bool good = true;
};

/// Bounds-checked cursor over the file's bytes; a read past the end sets
/// `failed` and names what was being read.
/// Reads the parts of a stage file from the stream, never more than the
/// `size` bytes it was told remain. Sticky failure like Writer.
class Reader {
public:
  Reader(std::FILE *f, size_t size) : f(f), left(size) {}
  bool bytes(void *out, size_t n, const char *what) {
    if (!failed.empty())
      return false;
    if (left < n || std::fread(out, 1, n, f) != n) {
      failed = std::string("truncated while reading ") + what;
      return false;
    }
    left -= n;
    return true;
  }
  int32_t i32(const char *what) {
    int32_t v = 0;
    bytes(&v, 4, what);
    return v;
  }
  float f32(const char *what) {
    float v = 0;
    bytes(&v, 4, what);
    return v;
  }
  uint8_t u8(const char *what) {
    uint8_t v = 0;
    bytes(&v, 1, what);
    return v;
  }
  /// Reads n elements, refusing (before allocating) when fewer bytes remain.
  template <typename T>
  bool array(std::vector<T> &v, int64_t n, const char *what) {
    if (!failed.empty())
      return false;
    if (n < 0 || uint64_t(n) > left / sizeof(T)) {
      failed = std::string("truncated while reading ") + what;
      return false;
    }
    v.resize(size_t(n));
    return bytes(v.data(), size_t(n) * sizeof(T), what);
  }
  size_t remaining() const { return left; }
  std::string failed;

private:
  std::FILE *f;
  size_t left;
};

bool validBits(int bits) {
  return bits == 32 || bits == 16 ||
         (bits >= kMinQuantBits && bits <= kMaxQuantBits);
}

void writeLinear(Writer &w, const Linear &l, int groupSize) {
  w.i32(l.rows);
  w.i32(l.cols);
  w.i32(l.bits);
  w.i32(l.bits < 16 ? l.quant.groupSize : groupSize);
  if (l.bits == 32)
    w.array(l.f32);
  else if (l.bits == 16)
    w.array(l.f16);
  else {
    w.array(l.quant.codes);
    w.array(l.quant.scales);
    w.array(l.quant.zeros);
  }
}

/// Reads a Linear record that must be [rows][cols] at `bits`; returns "" or
/// what is wrong, naming `what`.
std::string readLinear(Reader &r, Linear &l, const std::string &what,
                       int rows, int cols, int bits) {
  l = Linear();
  l.rows = r.i32(what.c_str());
  l.cols = r.i32(what.c_str());
  l.bits = r.i32(what.c_str());
  int groupSize = r.i32(what.c_str());
  if (!r.failed.empty())
    return r.failed;
  if (l.rows != rows || l.cols != cols)
    return what + ": shape " + std::to_string(l.rows) + "x" +
           std::to_string(l.cols) + ", expected " + std::to_string(rows) +
           "x" + std::to_string(cols);
  if (l.bits != bits)
    return what + ": stored at " + std::to_string(l.bits) +
           " bits, the header says " + std::to_string(bits);
  const int64_t n = int64_t(rows) * cols;
  if (bits == 32)
    r.array(l.f32, n, what.c_str());
  else if (bits == 16)
    r.array(l.f16, n, what.c_str());
  else {
    std::string problem = checkQuantParams(rows, cols, bits, groupSize);
    if (!problem.empty())
      return what + ": " + problem;
    QuantMatrix &q = l.quant;
    q.rows = rows;
    q.cols = cols;
    q.bits = bits;
    q.groupSize = groupSize;
    const int64_t groups = int64_t(rows) * quantGroupsPerRow(cols, groupSize);
    r.array(q.codes, int64_t(rows) * quantRowBytes(cols, bits), what.c_str());
    r.array(q.scales, groups, what.c_str());
    r.array(q.zeros, groups, what.c_str());
    if (r.failed.empty())
      for (uint8_t z : q.zeros)
        if (z >= (1u << bits))
          return what + ": zero-point " + std::to_string(z) +
                 " does not fit " + std::to_string(bits) + " bits";
  }
  return r.failed;
}

/// An OPT layer record (see the header); returns "" or what is wrong.
std::string readOptLayer(Reader &r, LlamaLayer &layer, const std::string &at,
                         int D, int H, int attnBits, int ffnBits) {
  r.array(layer.rmsAtt, D, (at + "attn_norm").c_str());
  r.array(layer.normAttBias, D, (at + "attn_norm_bias").c_str());
  const struct {
    Linear &dst;
    std::vector<float> &bias;
    const char *name;
    int rows, cols, bits;
  } linears[] = {{layer.wq, layer.bq, "q_proj", D, D, attnBits},
                 {layer.wk, layer.bk, "k_proj", D, D, attnBits},
                 {layer.wv, layer.bv, "v_proj", D, D, attnBits},
                 {layer.wo, layer.bo, "out_proj", D, D, attnBits},
                 {layer.w1, layer.b1, "fc1", H, D, ffnBits},
                 {layer.w2, layer.b2, "fc2", D, H, ffnBits}};
  for (const auto &lin : linears) {
    if (&lin.dst == &layer.w1) { // the FFN norm sits between out_proj and fc1
      r.array(layer.rmsFfn, D, (at + "ffn_norm").c_str());
      r.array(layer.normFfnBias, D, (at + "ffn_norm_bias").c_str());
    }
    std::string problem =
        readLinear(r, lin.dst, at + lin.name, lin.rows, lin.cols, lin.bits);
    if (!problem.empty())
      return problem;
    r.array(lin.bias, lin.rows, (at + lin.name + " bias").c_str());
  }
  return r.failed;
}

/// The sizes of the OPT-only arrays; returns "" or the first wrong one.
std::string checkOptWeights(const LlamaWeights &w) {
  const LlamaConfig &c = w.config;
  const int64_t L = c.layers, D = c.dim, H = c.hiddenDim;
  const struct {
    const char *name;
    const std::vector<float> &v;
    int64_t size;
  } arrays[] = {
      {"position_embedding", w.positionEmbedding,
       (c.seqLen + kOptPositionOffset) * D},
      {"attn_norm_bias", w.normAttBias, L * D},
      {"ffn_norm_bias", w.normFfnBias, L * D},
      {"final_norm_bias", w.normFinalBias, D},
      {"q_proj bias", w.bq, L * D},
      {"k_proj bias", w.bk, L * D},
      {"v_proj bias", w.bv, L * D},
      {"out_proj bias", w.bo, L * D},
      {"fc1 bias", w.b1, L * H},
      {"fc2 bias", w.b2, L * D}};
  for (const auto &a : arrays)
    if (int64_t(a.v.size()) != a.size)
      return std::string("OPT weights: ") + a.name + " has " +
             std::to_string(a.v.size()) + " values, expected " +
             std::to_string(a.size);
  return "";
}

std::string checkSpec(const LlamaConfig &c, const StageFileSpec &s) {
  if (s.numStages < 1 || s.stage < 0 || s.stage >= s.numStages)
    return "stage " + std::to_string(s.stage) + " is outside [0, " +
           std::to_string(s.numStages) + ")";
  if (s.firstLayer < 0 || s.endLayer < s.firstLayer || s.endLayer > c.layers)
    return "layer range [" + std::to_string(s.firstLayer) + ", " +
           std::to_string(s.endLayer) + ") is not inside the model's " +
           std::to_string(c.layers) + " layers";
  const size_t n = size_t(s.endLayer - s.firstLayer);
  if (s.attnBits.size() != n || s.ffnBits.size() != n)
    return "got " + std::to_string(s.attnBits.size()) + " attention and " +
           std::to_string(s.ffnBits.size()) + " FFN bit widths for " +
           std::to_string(n) + " layers";
  for (size_t i = 0; i < n; ++i)
    for (int bits : {s.attnBits[i], s.ffnBits[i]})
      if (!validBits(bits))
        return "layer " + std::to_string(s.firstLayer + int(i)) +
               ": unsupported bit width " + std::to_string(bits);
  if (s.hasHead && !validBits(s.headBits))
    return "headBits: unsupported bit width " + std::to_string(s.headBits);
  if (s.groupSize <= 0 || s.groupSize % 8 != 0)
    return "groupSize " + std::to_string(s.groupSize) +
           " is not a positive multiple of 8";
  return "";
}
} // namespace

int64_t StageWeights::storageBytes() const {
  int64_t bytes = int64_t(embeddingF16.size() + positionEmbeddingF16.size()) * 2 +
                  int64_t(rmsFinal.size() + normFinalBias.size()) * 4 +
                  classifier.storageBytes();
  for (const LlamaLayer &l : layers)
    bytes += l.storageBytes();
  return bytes;
}

bool writeStageFile(const std::string &path, const LlamaWeights &w,
                    const StageFileSpec &spec, std::string *error) {
  if (!hostIsLittleEndian())
    return fileError(error, path,
                     "stage files are written on little-endian hosts");
  const LlamaConfig &c = w.config;
  std::string problem = checkLlamaConfig(c);
  if (problem.empty() && c.isOpt())
    problem = checkOptWeights(w);
  if (problem.empty())
    problem = checkSpec(c, spec);
  if (!problem.empty())
    return fileError(error, path, problem);
  if (spec.model.size() > kMaxNameBytes)
    return fileError(error, path,
                     "model name is longer than " +
                         std::to_string(kMaxNameBytes) + " bytes");

  const std::string tmp = path + ".tmp";
  File f(std::fopen(tmp.c_str(), "wb"));
  if (!f)
    return fileError(error, tmp, "cannot create");
  Writer out(f.get());
  out.bytes(kMagic, 8);
  out.u32(kVersion);
  for (int v : {c.dim, c.hiddenDim, c.layers, c.heads, c.kvHeads, c.vocabSize,
                c.seqLen})
    out.i32(v);
  out.u8(c.tiedClassifier ? 1 : 0);
  out.f32(c.rmsEps);
  out.f32(c.ropeTheta);
  out.u8(uint8_t(c.arch));
  out.u8(c.geluFfn ? 1 : 0);
  out.u32(uint32_t(spec.model.size()));
  out.bytes(spec.model.data(), spec.model.size());
  for (int v : {spec.stage, spec.numStages, spec.firstLayer, spec.endLayer})
    out.i32(v);
  out.u8(spec.hasEmbedding ? 1 : 0);
  out.u8(spec.hasHead ? 1 : 0);
  for (size_t i = 0; i < spec.attnBits.size(); ++i) {
    out.i32(spec.attnBits[i]);
    out.i32(spec.ffnBits[i]);
  }
  out.i32(spec.headBits);
  out.i32(spec.groupSize);

  const int64_t D = c.dim;
  if (spec.hasEmbedding) {
    std::vector<uint16_t> half(w.tokenEmbedding.size());
    floatToHalfArray(w.tokenEmbedding.data(), half.data(), half.size());
    out.array(half);
    if (c.isOpt()) {
      half.resize(w.positionEmbedding.size());
      floatToHalfArray(w.positionEmbedding.data(), half.data(), half.size());
      out.array(half);
    }
  }
  // One layer at a time, so a big model never holds two quantized copies.
  LlamaWeights one;
  one.config = c;
  one.config.layers = 1;
  for (int l = spec.firstLayer; l < spec.endLayer && out.ok(); ++l) {
    const int i = l - spec.firstLayer;
    const int64_t KV = c.kvDim(), H = c.hiddenDim;
    auto slice = [&](const std::vector<float> &v, int64_t per) {
      return std::vector<float>(v.begin() + l * per, v.begin() + (l + 1) * per);
    };
    LlamaLayer layer;
    layer.rmsAtt = slice(w.rmsAtt, D);
    layer.rmsFfn = slice(w.rmsFfn, D);
    if (c.isOpt()) {
      layer.normAttBias = slice(w.normAttBias, D);
      layer.normFfnBias = slice(w.normFfnBias, D);
      layer.bq = slice(w.bq, D);
      layer.bk = slice(w.bk, D);
      layer.bv = slice(w.bv, D);
      layer.bo = slice(w.bo, D);
      layer.b1 = slice(w.b1, H);
      layer.b2 = slice(w.b2, D);
    }
    const struct {
      const std::vector<float> &src;
      int64_t rows, cols;
      int bits;
      Linear &dst;
      const char *name;
    } linears[] = {
        {w.wq, D, D, spec.attnBits[i], layer.wq, "wq"},
        {w.wk, KV, D, spec.attnBits[i], layer.wk, "wk"},
        {w.wv, KV, D, spec.attnBits[i], layer.wv, "wv"},
        {w.wo, D, D, spec.attnBits[i], layer.wo, "wo"},
        {w.w1, H, D, spec.ffnBits[i], layer.w1, "w1"},
        {w.w2, D, H, spec.ffnBits[i], layer.w2, "w2"},
        {w.w3, H, D, spec.ffnBits[i], layer.w3, "w3"}};
    for (const auto &lin : linears) {
      if (c.isOpt() && &lin.dst == &layer.w3)
        continue; // OPT's FFN has no up projection
      std::string why;
      if (!makeLinear(lin.src.data() + l * lin.rows * lin.cols, int(lin.rows),
                      int(lin.cols), lin.bits, spec.groupSize, lin.dst,
                      &why)) {
        std::remove(tmp.c_str());
        return fileError(error, path,
                         "layer " + std::to_string(l) + " " + lin.name + ": " +
                             why);
      }
    }
    if (c.isOpt()) {
      out.array(layer.rmsAtt);
      out.array(layer.normAttBias);
      for (auto [lin, bias] : {std::pair{&layer.wq, &layer.bq},
                               {&layer.wk, &layer.bk},
                               {&layer.wv, &layer.bv},
                               {&layer.wo, &layer.bo}}) {
        writeLinear(out, *lin, spec.groupSize);
        out.array(*bias);
      }
      out.array(layer.rmsFfn);
      out.array(layer.normFfnBias);
      writeLinear(out, layer.w1, spec.groupSize);
      out.array(layer.b1);
      writeLinear(out, layer.w2, spec.groupSize);
      out.array(layer.b2);
      continue;
    }
    out.array(layer.rmsAtt);
    writeLinear(out, layer.wq, spec.groupSize);
    writeLinear(out, layer.wk, spec.groupSize);
    writeLinear(out, layer.wv, spec.groupSize);
    writeLinear(out, layer.wo, spec.groupSize);
    out.array(layer.rmsFfn);
    writeLinear(out, layer.w1, spec.groupSize);
    writeLinear(out, layer.w2, spec.groupSize);
    writeLinear(out, layer.w3, spec.groupSize);
  }
  if (spec.hasHead && out.ok()) {
    out.array(w.rmsFinal);
    if (c.isOpt())
      out.array(w.normFinalBias);
    // A tied classifier is the embedding itself: quantize a copy of it.
    const std::vector<float> &cls =
        c.tiedClassifier ? w.tokenEmbedding : w.wcls;
    Linear head;
    std::string why;
    if (!makeLinear(cls.data(), c.vocabSize, c.dim, spec.headBits,
                    spec.groupSize, head, &why)) {
      std::remove(tmp.c_str());
      return fileError(error, path, "classifier: " + why);
    }
    writeLinear(out, head, spec.groupSize);
  }
  out.trailer();
  bool closed = std::fclose(f.release()) == 0;
  if (!out.ok() || !closed) {
    std::remove(tmp.c_str());
    return fileError(error, tmp, "write failed (disk full?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return fileError(error, path, "cannot rename " + tmp + " to it");
  }
  return true;
}

uint64_t stageFileChecksum(const void *data, size_t n) {
  return fnv1a(kFnvOffset, data, n);
}

bool readStageFile(const std::string &path, StageWeights &out,
                   std::string *error) {
  if (!hostIsLittleEndian())
    return fileError(error, path,
                     "stage files are read on little-endian hosts");
  // Two passes over the file, so that no copy of it is ever held in memory
  // (a stage's peak memory is its weights): the checksum first, then the
  // parts, each read straight into its final buffer.
  int64_t length = 0;
  File f = openForReading(path, &length, error);
  if (!f)
    return false;
  const size_t size = size_t(length);
  uint8_t head[12] = {};
  uint64_t hash = kFnvOffset, stored = 0;
  if (size >= 8) {
    uint8_t chunk[1 << 16];
    for (size_t done = 0, want = size - 8; done < want;) {
      size_t n = std::fread(chunk, 1, std::min(sizeof chunk, want - done),
                            f.get());
      if (n == 0)
        return fileError(error, path, "read error");
      if (done < sizeof head)
        std::memcpy(head + done, chunk, std::min(n, sizeof head - done));
      hash = fnv1a(hash, chunk, n);
      done += n;
    }
    if (std::fread(&stored, 1, 8, f.get()) != 8)
      return fileError(error, path, "read error");
  }
  if (size < 8 || std::memcmp(head, kMagic, 8) != 0)
    return fileError(error, path,
                     "not a weft stage file (magic is not WEFTSTG1)");
  if (size < 12 + 8)
    return fileError(error, path, "truncated header");
  uint32_t version;
  std::memcpy(&version, head + 8, 4);
  if (version != kVersion && version != 1)
    return fileError(error, path,
                     "version " + std::to_string(version) +
                         ", this runtime reads version " +
                         std::to_string(kVersion));
  if (hash != stored)
    return fileError(error, path,
                     "checksum mismatch (truncated or corrupt file)");
  if (std::fseek(f.get(), 12, SEEK_SET) != 0)
    return fileError(error, path, "cannot seek");

  Reader r(f.get(), size - 12 - 8);
  StageWeights w;
  LlamaConfig &c = w.config;
  c.dim = r.i32("dim");
  c.hiddenDim = r.i32("hidden_dim");
  c.layers = r.i32("n_layers");
  c.heads = r.i32("n_heads");
  c.kvHeads = r.i32("n_kv_heads");
  c.vocabSize = r.i32("vocab_size");
  c.seqLen = r.i32("seq_len");
  c.tiedClassifier = r.u8("tied") != 0;
  c.rmsEps = r.f32("rms_eps");
  c.ropeTheta = r.f32("rope_theta");
  if (version >= 2) {
    uint8_t arch = r.u8("arch");
    if (r.failed.empty() && arch > uint8_t(ModelArch::Opt))
      return fileError(error, path,
                       "arch " + std::to_string(arch) +
                           " is not an architecture "
                           "this runtime knows");
    c.arch = ModelArch(arch);
    c.geluFfn = r.u8("gelu_ffn") != 0;
  }
  if (!r.failed.empty())
    return fileError(error, path, r.failed);
  std::string problem = checkLlamaConfig(c);
  if (!problem.empty())
    return fileError(error, path, problem);
  StageFileSpec &s = w.spec;
  uint32_t nameBytes;
  if (!r.bytes(&nameBytes, 4, "model name") || nameBytes > kMaxNameBytes)
    return fileError(error, path,
                     r.failed.empty()
                         ? "model name length " + std::to_string(nameBytes) +
                               " is implausible"
                         : r.failed);
  s.model.resize(nameBytes);
  r.bytes(s.model.data(), nameBytes, "model name");
  s.stage = r.i32("stage");
  s.numStages = r.i32("numStages");
  s.firstLayer = r.i32("firstLayer");
  s.endLayer = r.i32("endLayer");
  s.hasEmbedding = r.u8("hasEmbedding") != 0;
  s.hasHead = r.u8("hasHead") != 0;
  if (!r.failed.empty())
    return fileError(error, path, r.failed);
  if (s.firstLayer < 0 || s.endLayer < s.firstLayer || s.endLayer > c.layers)
    return fileError(error, path,
                     "layer range [" + std::to_string(s.firstLayer) + ", " +
                         std::to_string(s.endLayer) + ") is not inside the " +
                         std::to_string(c.layers) + " layers");
  for (int l = s.firstLayer; l < s.endLayer; ++l) {
    s.attnBits.push_back(r.i32("attnBits"));
    s.ffnBits.push_back(r.i32("ffnBits"));
  }
  s.headBits = r.i32("headBits");
  s.groupSize = r.i32("groupSize");
  if (!r.failed.empty())
    return fileError(error, path, r.failed);
  problem = checkSpec(c, s);
  if (!problem.empty())
    return fileError(error, path, problem);

  const int D = c.dim, KV = c.kvDim(), H = c.hiddenDim;
  if (s.hasEmbedding)
    r.array(w.embeddingF16, int64_t(c.vocabSize) * D, "token embedding");
  if (s.hasEmbedding && c.isOpt())
    r.array(w.positionEmbeddingF16,
            int64_t(c.seqLen + kOptPositionOffset) * D, "position embedding");
  for (int l = s.firstLayer; l < s.endLayer && r.failed.empty(); ++l) {
    const int i = l - s.firstLayer;
    const std::string at = "layer " + std::to_string(l) + " ";
    w.layers.emplace_back();
    LlamaLayer &layer = w.layers.back();
    if (c.isOpt()) {
      problem = readOptLayer(r, layer, at, D, H, s.attnBits[i], s.ffnBits[i]);
      if (!problem.empty())
        return fileError(error, path, problem);
      continue;
    }
    r.array(layer.rmsAtt, D, (at + "rms_att").c_str());
    const struct {
      Linear &dst;
      const char *name;
      int rows, cols, bits;
    } linears[] = {{layer.wq, "wq", D, D, s.attnBits[i]},
                   {layer.wk, "wk", KV, D, s.attnBits[i]},
                   {layer.wv, "wv", KV, D, s.attnBits[i]},
                   {layer.wo, "wo", D, D, s.attnBits[i]},
                   {layer.w1, "w1", H, D, s.ffnBits[i]},
                   {layer.w2, "w2", D, H, s.ffnBits[i]},
                   {layer.w3, "w3", H, D, s.ffnBits[i]}};
    for (const auto &lin : linears) {
      if (&lin.dst == &layer.w1) // rms_ffn sits between wo and w1
        r.array(layer.rmsFfn, D, (at + "rms_ffn").c_str());
      problem = readLinear(r, lin.dst, at + lin.name, lin.rows, lin.cols,
                           lin.bits);
      if (!problem.empty())
        return fileError(error, path, problem);
    }
  }
  if (s.hasHead && r.failed.empty()) {
    r.array(w.rmsFinal, D, "rms_final");
    if (c.isOpt())
      r.array(w.normFinalBias, D, "final_norm_bias");
    problem = readLinear(r, w.classifier, "classifier", c.vocabSize, D,
                         s.headBits);
    if (!problem.empty())
      return fileError(error, path, problem);
  }
  if (!r.failed.empty())
    return fileError(error, path, r.failed);
  if (r.remaining() != 0)
    return fileError(error, path,
                     std::to_string(r.remaining()) +
                         " unexpected bytes before the checksum");
  out = std::move(w);
  return true;
}

} // namespace weft::rt
