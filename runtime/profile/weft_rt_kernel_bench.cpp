//===- weft_rt_kernel_bench.cpp - Times a serving backend's parts ---------===//
//
// The program `weft cost profile` builds and runs: it links the same
// runtime sources and backend as a generated serving program, compiled
// with the same flags, and times what a pipeline stage does: passes of
// decoder layers over micro-batches (prefill rows and decode rows, at every
// bit-width, over several model shapes and context lengths), an empty pass
// (the stage's fixed cost), the LM head with greedy sampling, the
// embedding lookup, and a hand-off of hidden states between two threads.
// Weights are random, quantised and loaded through the stage-file writer
// and reader, so every layer is stored exactly as in a served model.
//
//   weft-kernel-bench --out FILE [--threads N] [--repeats R] [--layers L]
//                     [--quick]
//
// FILE is JSON ("weft-kernel-samples", docs/cost-model.md); weft fits a
// runtime profile to it. Each time is the fastest of R rounds, each of
// which runs one batch of calls of every timing.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_parallel.h"
#include "weft_rt_sample.h"
#include "weft_rt_serve_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace weft::rt;
using namespace weft::rt::serve;

namespace {

struct Shape {
  int dim, hidden, heads, kvHeads;
};

/// Shape classes of small served models: the coefficients weft fits are
/// per weight element and per attention position, so they carry over to
/// other shapes of the same kernels.
const Shape kShapes[] = {
    {256, 688, 8, 4}, {512, 1376, 8, 4}, {768, 2048, 12, 4}};
const int kBits[] = {16, 8, 4, 3};
constexpr int kVocab = 4096;
constexpr int kMaxSeqs = 8;

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}

/// Uniform values in [-scale, scale) from a fixed xorshift stream.
void fillRandom(std::vector<float> &v, size_t n, float scale, uint32_t &state) {
  v.resize(n);
  for (float &x : v) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    x = scale * (float(state & 0xffffff) / float(1 << 23) - 1.0f);
  }
}

LlamaWeights randomWeights(const Shape &s, int layers) {
  LlamaWeights w;
  LlamaConfig &c = w.config;
  c.dim = s.dim;
  c.hiddenDim = s.hidden;
  c.layers = layers;
  c.heads = s.heads;
  c.kvHeads = s.kvHeads;
  c.vocabSize = kVocab;
  c.seqLen = 1024;
  c.tiedClassifier = false;
  uint32_t state = 2463534242u;
  const size_t L = size_t(layers), D = size_t(s.dim), H = size_t(s.hidden),
               KV = size_t(c.kvDim());
  float scale = 0.5f / float(s.dim);
  fillRandom(w.tokenEmbedding, kVocab * D, 0.1f, state);
  w.rmsAtt.assign(L * D, 1.0f);
  w.rmsFfn.assign(L * D, 1.0f);
  w.rmsFinal.assign(D, 1.0f);
  fillRandom(w.wq, L * D * D, scale, state);
  fillRandom(w.wk, L * KV * D, scale, state);
  fillRandom(w.wv, L * KV * D, scale, state);
  fillRandom(w.wo, L * D * D, scale, state);
  fillRandom(w.w1, L * H * D, scale, state);
  fillRandom(w.w2, L * D * H, scale, state);
  fillRandom(w.w3, L * H * D, scale, state);
  fillRandom(w.wcls, kVocab * D, scale, state);
  return w;
}

/// One stage holding every layer of `w` at `bits`, with the embedding and
/// the head, written and read back as a served stage is.
bool loadStage(const LlamaWeights &w, int bits, const std::string &dir,
               StageWeights &out, std::string *error) {
  StageFileSpec spec;
  spec.model = "kernel-bench";
  spec.firstLayer = 0;
  spec.endLayer = w.config.layers;
  spec.hasEmbedding = spec.hasHead = true;
  spec.attnBits.assign(size_t(w.config.layers), bits);
  spec.ffnBits = spec.attnBits;
  std::string path = dir + "/kernel-bench-stage.weft";
  bool ok =
      writeStageFile(path, w, spec, error) && readStageFile(path, out, error);
  std::remove(path.c_str());
  return ok;
}

/// One timed call and what it measures. Calls run in batches of at least
/// kBatchMs (timer and scheduler jitter average out within a batch); every
/// round of the benchmark runs one batch of every timing, and the fastest
/// batch counts, so a disturbance on a shared machine spoils one round of
/// a few timings instead of every repeat of one.
constexpr double kBatchMs = 5;
struct Timing {
  std::string part, phase;
  const Shape *shape = nullptr;
  int bits = 16, seqs = 1, rows = 1, past = 0;
  std::function<void()> fn;
  int empty = -1; ///< layers: the timing of the same pass without layers
  int calls = 0;
  double best = 1e300;

  void runBatch() {
    fn(); // warm caches and the thread pool
    if (calls == 0) {
      double t0 = nowMs();
      fn();
      calls = std::clamp(int(kBatchMs / std::max(nowMs() - t0, 1e-4)), 1, 1000);
    }
    double t0 = nowMs();
    for (int c = 0; c < calls; ++c)
      fn();
    best = std::min(best, (nowMs() - t0) / calls);
  }
};

struct Options {
  std::string out;
  int threads = 1, repeats = 5;
  /// Decoder layers of the timed stage: enough that its weights stream
  /// from memory as a served stage's do, not from a warm cache.
  int layers = 8;
  bool quick = false;
};

class Bench {
public:
  Bench(const Options &o, std::FILE *f) : opts(o), out(f) {}

  bool run(std::string *error) {
    std::string dir = opts.out.substr(0, opts.out.find_last_of('/') + 1);
    if (dir.empty())
      dir = ".";
    const int numShapes = opts.quick ? 1 : int(std::size(kShapes));
    for (int si = 0; si < numShapes; ++si) {
      const Shape &s = kShapes[si];
      LlamaWeights w = randomWeights(s, opts.layers);
      for (int bits : kBits) {
        StageWeights stage;
        if (!loadStage(w, bits, dir, stage, error))
          return false;
        backends.push_back(makeBackend());
        if (!backends.back()->init(std::move(stage), kMaxSeqs, 512, 192, error))
          return false;
        addShape(*backends.back(), s, bits);
      }
    }
    for (int r = 0; r < opts.repeats; ++r)
      for (Timing &t : timings)
        t.runBatch();
    for (const std::unique_ptr<Backend> &b : backends)
      if (!b->error().empty()) {
        *error = b->error();
        return false;
      }
    std::fprintf(out,
                 "{\"format\": \"weft-kernel-samples\", \"version\": 1,\n"
                 " \"threads\": %d, \"repeats\": %d,\n",
                 opts.threads, opts.repeats);
    for (const Timing &t : timings)
      if (t.part != "empty-pass")
        sample(t, t.empty >= 0 ? timings[size_t(t.empty)].best : 0);
    timeTransfers();
    std::fprintf(out, "\n]}\n");
    return true;
  }

private:
  /// One record; `emptyMs` (layer passes only) is the same pass without
  /// its layers.
  void sample(const Timing &t, double emptyMs) {
    const Shape &s = *t.shape;
    std::fprintf(
        out,
        "%s{\"part\": \"%s\", \"phase\": \"%s\", \"bits\": %d, "
        "\"dim\": %d, \"hidden\": %d, \"heads\": %d, \"kv_heads\": %d, "
        "\"vocab\": %d, \"layers\": %d, \"seqs\": %d, \"rows\": %d, "
        "\"past\": %d, \"ms\": %.6f, \"empty_ms\": %.6f}",
        first ? " \"samples\": [\n  " : ",\n  ", t.part.c_str(),
        t.phase.c_str(), t.bits, s.dim, s.hidden, s.heads, s.kvHeads, kVocab,
        opts.layers, t.seqs, t.rows, t.past, t.best, emptyMs);
    first = false;
  }

  void add(const char *part, const char *phase, const Shape &s, int bits,
           int seqs, int rows, int past, std::function<void()> fn) {
    Timing t;
    t.part = part;
    t.phase = phase;
    t.shape = &s;
    t.bits = bits;
    t.seqs = seqs;
    t.rows = rows;
    t.past = past;
    t.fn = std::move(fn);
    timings.push_back(std::move(t));
  }

  /// A pass of the stage's decoder layers over `seqs` sequences of `rows`
  /// new rows each at position `past`, and the same pass without layers.
  void addPass(Backend &b, const Shape &s, int bits, bool prefill, int seqs,
               int rows, int past) {
    struct Buffers {
      std::vector<SeqRows> spans;
      std::vector<float> x, out;
    };
    auto buf = std::make_shared<Buffers>();
    for (int q = 0; q < seqs; ++q)
      buf->spans.push_back({q, past, rows});
    // Every pass starts from the same hidden states, of the magnitude an
    // embedding gives: feeding a pass its own output would drift towards
    // denormal or overflowing values, whose arithmetic is not what serving
    // costs.
    buf->out.resize(size_t(seqs) * rows * s.dim);
    uint32_t state = 88172645u;
    fillRandom(buf->x, buf->out.size(), 1.0f, state);
    auto pass = [&b, buf](int layers) {
      b.begin(buf->spans.data(), int(buf->spans.size()));
      b.setHidden(buf->x.data());
      for (int l = 0; l < layers; ++l)
        b.decoderLayer(l);
      b.getHidden(buf->out.data());
    };
    const char *phase = prefill ? "prefill" : "decode";
    int layers = opts.layers;
    add("layers", phase, s, bits, seqs, rows, past,
        [pass, layers] { pass(layers); });
    add("empty-pass", phase, s, bits, seqs, rows, past, [pass] { pass(0); });
    timings[timings.size() - 2].empty = int(timings.size() - 1);
  }

  void addShape(Backend &b, const Shape &s, int bits) {
    // Decode: one row per sequence, short and long contexts.
    for (int seqs : {1, 3, 8})
      for (int past : {16, 384})
        if (!opts.quick || seqs <= 3)
          addPass(b, s, bits, /*prefill=*/false, seqs, 1, past);
    // Prefill: whole prompts from position 0.
    for (int seqs : {1, 3})
      for (int rows : {16, 64})
        if (!opts.quick || rows == 16)
          addPass(b, s, bits, /*prefill=*/true, seqs, rows, 0);
    if (bits != 16)
      return; // the head and the embedding are stored at 16 bits
    for (int n : {1, 4, 8}) {
      struct Buffers {
        std::vector<SeqRows> spans;
        std::vector<int> tokens, rowIds;
        std::vector<float> logits, hidden;
      };
      auto buf = std::make_shared<Buffers>();
      for (int q = 0; q < n; ++q) {
        buf->spans.push_back({q, 0, 1});
        buf->rowIds.push_back(q);
      }
      buf->tokens.assign(size_t(n), 7);
      buf->logits.resize(size_t(n) * kVocab);
      buf->hidden.resize(size_t(n) * s.dim);
      add("head", "decode", s, 16, n, 1, 0, [&b, buf, n] {
        b.begin(buf->spans.data(), n);
        b.finalNorm();
        b.lmHead(buf->rowIds.data(), n, buf->logits.data());
        for (int q = 0; q < n; ++q)
          buf->tokens[size_t(q)] =
              argmax(buf->logits.data() + size_t(q) * kVocab, kVocab);
      });
      // Downloading the hidden states waits for an asynchronous device.
      add("embed", "decode", s, 16, n, 1, 0, [&b, buf, n] {
        b.begin(buf->spans.data(), n);
        b.embed(buf->tokens.data());
        b.getHidden(buf->hidden.data());
      });
    }
  }

  /// Hidden states handed from one thread to another through a shared
  /// buffer: what a stage-to-stage message costs inside one machine
  /// without the MPI library (weft's serving programs send fp32 rows).
  void timeTransfers() {
    for (int bytes : {4096, 65536, 1 << 20}) {
      std::vector<char> src(size_t(bytes), 1);
      std::vector<char> dst(src.size());
      std::atomic<int> turn{0};
      constexpr int kTrips = 200;
      std::thread peer([&] {
        for (int i = 0; i < kTrips; ++i) {
          while (turn.load(std::memory_order_acquire) != 1)
            std::this_thread::yield();
          std::memcpy(src.data(), dst.data(), dst.size());
          turn.store(0, std::memory_order_release);
        }
      });
      double t0 = nowMs();
      for (int i = 0; i < kTrips; ++i) {
        std::memcpy(dst.data(), src.data(), src.size());
        turn.store(1, std::memory_order_release);
        while (turn.load(std::memory_order_acquire) != 0)
          std::this_thread::yield();
      }
      double oneWay = (nowMs() - t0) / (2.0 * kTrips);
      peer.join();
      std::fprintf(out,
                   ",\n  {\"part\": \"transfer\", \"bytes\": %d, \"ms\": %.6f}",
                   bytes, oneWay);
    }
  }

  const Options &opts;
  std::FILE *out;
  bool first = true;
  std::vector<std::unique_ptr<Backend>> backends;
  std::vector<Timing> timings;
};

bool parseInt(const char *s, int lo, int hi, int &out) {
  char *end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (!*s || *end || v < lo || v > hi)
    return false;
  out = int(v);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool hasValue = i + 1 < argc;
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--out" && hasValue) {
      o.out = argv[++i];
    } else if (a == "--threads" && hasValue) {
      if (!parseInt(argv[++i], 1, 1024, o.threads)) {
        std::fprintf(stderr,
                     "weft-kernel-bench: --threads: expected 1..1024\n");
        return 2;
      }
    } else if (a == "--layers" && hasValue) {
      if (!parseInt(argv[++i], 1, 64, o.layers)) {
        std::fprintf(stderr, "weft-kernel-bench: --layers: expected 1..64\n");
        return 2;
      }
    } else if (a == "--repeats" && hasValue) {
      if (!parseInt(argv[++i], 1, 1000, o.repeats)) {
        std::fprintf(stderr,
                     "weft-kernel-bench: --repeats: expected 1..1000\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: weft-kernel-bench --out FILE [--threads N] "
                           "[--repeats R] [--layers L] [--quick]\n");
      return 2;
    }
  }
  if (o.out.empty()) {
    std::fprintf(stderr, "weft-kernel-bench: --out FILE is required\n");
    return 2;
  }
  setMaxThreads(o.threads);
  std::FILE *f = std::fopen(o.out.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "weft-kernel-bench: %s: cannot write\n",
                 o.out.c_str());
    return 1;
  }
  std::string error;
  bool ok = Bench(o, f).run(&error);
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    std::fprintf(stderr, "weft-kernel-bench: %s\n",
                 error.empty() ? "cannot write the samples" : error.c_str());
    std::remove(o.out.c_str());
    return 1;
  }
  return 0;
}
