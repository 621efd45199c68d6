//===- weft_rt_serve.cpp - What generated serving programs call -----------===//
//
// Rank r is pipeline stage r. Every rank parses the same command line and
// derives the same schedule (which sequences form each micro-batch, in which
// order, with how many rows), so messages need no headers: stage k receives
// micro-batch i's hidden states from k-1 with tag kHiddenTag, and stage 0
// receives the tokens sampled for micro-batch i from the last stage with tag
// kTokenTag, both in schedule order (MPI keeps order per sender and tag).
//
// Errors: an error every rank sees alike (command line, world size) is
// "global": run() returns 1 at once, without collectives, since ranks
// outside the plan never call run(). Other errors (a weight file) are
// agreed on by an allreduce in run(); finish() sends the lowest failing
// rank's message to rank 0, which prints it.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_serve.h"

#include "weft_rt_sample.h"
#include "weft_rt_serve_args.h"
#include "weft_rt_serve_backend.h"

// The C API only: OpenMPI's C++ bindings warn under -Wextra.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/resource.h>
#include <unistd.h>

namespace weft::rt::serve {

namespace {
constexpr int kHiddenTag = 101, kTokenTag = 102, kErrorTag = 103;
} // namespace

/// The command line (ServeArgs) and the state of this rank's stage.
struct Server : ServeArgs {
  int rank = 0, size = 1, numStages = 1;
  std::string model;
  // First error; `global` when every rank records the same one.
  std::string error;
  bool global = false;
  // This stage's weights, as the generated code declares them.
  std::string path;
  StageWeights weights;
  bool opened = false, embeddingLoaded = false, headLoaded = false;
  int firstLayer = 0, endLayer = 0, loadedLayers = 0;
  int64_t predicted = -1;
  std::unique_ptr<Backend> backend;
  // Results.
  std::vector<std::vector<int>> generated; ///< stage 0 (and the last stage)
  int numSeqs = 0;
  double prefillSeconds = 0, decodeSeconds = 0;
  int64_t decodeTokens = 0, libraryBytes = 0;
  bool ran = false;
};

struct Batch {
  std::vector<SeqRows> spans;
  int rows = 0;
  bool prefill = false;
  const int *tokens = nullptr; ///< stage 0: the rows' token ids
  std::vector<int> headRows;   ///< rows whose logits lmHead computes
  float *logits = nullptr;     ///< [headRows][vocab]
  bool embedded = false, headDone = false;
};

namespace {

void fail(Server *s, const std::string &what, bool global = false) {
  if (s->error.empty()) {
    s->error = what;
    s->global = global;
  }
}

std::string executableDir(const char *argv0) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  std::string exe = n > 0 ? std::string(buf, size_t(n))
                          : std::string(argv0 ? argv0 : "");
  size_t slash = exe.rfind('/');
  return slash == std::string::npos ? "." : exe.substr(0, slash);
}

bool usable(Server *s) { return s && s->error.empty(); }

int64_t peakRssBytes() {
  struct rusage u;
  if (getrusage(RUSAGE_SELF, &u) != 0)
    return -1;
  return int64_t(u.ru_maxrss) * 1024; // Linux reports KiB
}

/// One micro-batch of the schedule.
struct MicroBatch {
  bool prefill = false;
  int step = 0; ///< decode: feeds the step-th generated token (1-based)
  std::vector<int> seqs;
  int rows = 0;
};

/// Bytes of memory this process may use: the machine's, or its cgroup's
/// limit when that is lower.
double memoryLimitBytes() {
  double bytes = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  if (std::FILE *f = std::fopen("/sys/fs/cgroup/memory.max", "r")) {
    unsigned long long limit = 0;
    if (std::fscanf(f, "%llu", &limit) == 1 && limit > 0 &&
        (bytes <= 0 || double(limit) < bytes))
      bytes = double(limit);
    std::fclose(f);
  }
  return bytes > 0 ? bytes : 1e300;
}

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  return text;
}

/// What this stage is about to allocate for `numSeqs` sequences of up to
/// `context` positions: the schedule, message and logit buffers, and with a
/// host backend the KV caches and activations. Checked before anything is
/// allocated, so a --batch, --max-new-tokens or micro-batch size too large
/// for this machine is an error, not an out-of-memory kill; "" or why.
std::string checkMemory(const Server &s, const LlamaConfig &c, int longest,
                        bool hostBackend) {
  const bool first = s.rank == 0, last = s.rank == s.numStages - 1;
  const double seqs = s.numSeqs, steps = s.maxNew, context = longest + s.maxNew - 1;
  const double prefillRows = double(std::min(s.numSeqs, s.prefillMb)) * longest;
  const double maxRows = std::max(prefillRows, double(s.decodeMb));
  // A micro-batch's hidden states are one MPI message of int-counted floats.
  if (maxRows * c.dim > double(INT_MAX))
    return "a prefill micro-batch of up to " +
           std::to_string((long long)prefillRows) + " rows of " +
           std::to_string(c.dim) +
           " values does not fit one MPI message (2^31 - 1 values); lower "
           "--prefill-microbatch or --batch";
  const double microBatches =
      std::ceil(seqs / s.prefillMb) + (steps - 1) * std::ceil(seqs / s.decodeMb);
  // Per micro-batch: its entry, sequence list, token message and request;
  // per generated token: its id in the schedule, the message and the output.
  const double schedule = microBatches * 128 + seqs * steps * 12;
  const double layers = s.endLayer - s.firstLayer;
  const double kv = hostBackend ? 2.0 * seqs * layers * context * c.kvDim() * 4 : 0;
  const double activations =
      hostBackend
          ? maxRows * (8.0 * c.dim + 2.0 * c.kvDim() + 2.0 * c.hiddenDim) * 4
          : 0;
  double buffers = ((first ? 0 : 2) + (last ? 0 : 2)) * maxRows * c.dim * 4;
  if (last) {
    double rows = std::min(seqs, double(std::max(s.prefillMb, s.decodeMb)));
    double promptRows = s.logitsOut.empty() ? 0 : double(s.prompts[0].size());
    buffers += (rows + 2 * promptRows + 1) * c.vocabSize * 4;
  }
  const double total = schedule + kv + activations + buffers;
  const double limit = memoryLimitBytes();
  if (total <= limit)
    return "";
  return "stage " + std::to_string(s.rank) + " needs about " +
         gigabytes(total) + " of memory for " +
         std::to_string(s.numSeqs) + " sequences of up to " +
         std::to_string((long long)context) + " positions (KV cache " +
         gigabytes(kv) + ", schedule " + gigabytes(schedule) +
         "), more than the " + gigabytes(limit) +
         " here; lower --batch or --max-new-tokens";
}

} // namespace

Server *init(int *argc, char ***argv, const char *model, int numStages,
             int prefillMicrobatch, int decodeMicrobatch) {
  Server *s = new Server;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &s->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s->size);
  s->model = model ? model : "";
  s->numStages = numStages;
  s->prefillMb = std::max(1, prefillMicrobatch);
  s->decodeMb = std::max(1, decodeMicrobatch);
  // Every rank sees the same world size and command line, so these errors
  // need no communication to agree on.
  if (s->size != numStages)
    fail(s,
         "this program runs " + std::to_string(numStages) +
             " pipeline stages, one per MPI rank; start it with mpirun -np " +
             std::to_string(numStages) + " (it has " +
             std::to_string(s->size) + " ranks)",
         true);
  else if (std::string why =
               parseServeArgs(argc ? *argc : 0, argv ? *argv : nullptr, *s);
           !why.empty())
    fail(s, why, true);
  if (s->weightsDir.empty())
    s->weightsDir =
        executableDir(argv && *argv && *argc > 0 ? (*argv)[0] : nullptr) +
        "/weights";
  return s;
}

int stageIndex(Server *s) { return s->rank; }

void openStage(Server *s, int firstLayer, int endLayer) {
  if (!usable(s))
    return;
  s->path = s->weightsDir + "/stage" + std::to_string(s->rank) + ".weft";
  s->firstLayer = firstLayer;
  s->endLayer = endLayer;
  std::string why;
  if (!readStageFile(s->path, s->weights, &why))
    return fail(s, why);
  const StageFileSpec &spec = s->weights.spec;
  auto mismatch = [&](const char *field, const std::string &has,
                      const std::string &expected) {
    fail(s, s->path + ": field " + field + " is " + has +
                ", the program expects " + expected);
  };
  auto str = [](int v) { return std::to_string(v); };
  if (spec.model != s->model)
    return mismatch("model", "'" + spec.model + "'", "'" + s->model + "'");
  if (spec.numStages != s->numStages)
    return mismatch("numStages", str(spec.numStages), str(s->numStages));
  if (spec.stage != s->rank)
    return mismatch("stage", str(spec.stage), str(s->rank));
  if (spec.firstLayer != firstLayer)
    return mismatch("firstLayer", str(spec.firstLayer), str(firstLayer));
  if (spec.endLayer != endLayer)
    return mismatch("endLayer", str(spec.endLayer), str(endLayer));
  s->opened = true;
}

void loadEmbedding(Server *s) {
  if (!usable(s))
    return;
  if (!s->opened)
    return fail(s, "loadEmbedding before openStage");
  if (!s->weights.spec.hasEmbedding)
    return fail(s, s->path + ": field hasEmbedding is false, the program "
                             "loads the token embedding");
  if (s->loadedLayers > 0)
    return fail(s, s->path + ": the embedding must be loaded before layers");
  s->embeddingLoaded = true;
}

void loadDecoderLayer(Server *s, int layer, int attnBits, int ffnBits) {
  if (!usable(s))
    return;
  if (!s->opened)
    return fail(s, "loadDecoderLayer before openStage");
  const StageFileSpec &spec = s->weights.spec;
  const int expected = s->firstLayer + s->loadedLayers;
  if (layer != expected || layer >= s->endLayer)
    return fail(s, s->path + ": the program loads layer " +
                       std::to_string(layer) + " where the file holds " +
                       (expected < s->endLayer
                            ? "layer " + std::to_string(expected)
                            : std::string("no more layers")));
  const int i = layer - s->firstLayer;
  if (spec.attnBits[i] != attnBits)
    return fail(s, s->path + ": field attnBits of layer " +
                       std::to_string(layer) + " is " +
                       std::to_string(spec.attnBits[i]) +
                       ", the program expects " + std::to_string(attnBits));
  if (spec.ffnBits[i] != ffnBits)
    return fail(s, s->path + ": field ffnBits of layer " +
                       std::to_string(layer) + " is " +
                       std::to_string(spec.ffnBits[i]) +
                       ", the program expects " + std::to_string(ffnBits));
  ++s->loadedLayers;
}

void loadHead(Server *s, int headBits) {
  if (!usable(s))
    return;
  if (!s->opened)
    return fail(s, "loadHead before openStage");
  const StageFileSpec &spec = s->weights.spec;
  if (!spec.hasHead)
    return fail(s, s->path + ": field hasHead is false, the program loads "
                             "the final norm and classifier");
  if (spec.headBits != headBits)
    return fail(s, s->path + ": field headBits is " +
                       std::to_string(spec.headBits) +
                       ", the program expects " + std::to_string(headBits));
  s->headLoaded = true;
}

void setPredictedMemory(Server *s, int64_t bytes) { s->predicted = bytes; }

void embed(Server *s, Batch *b) {
  if (!s->backend)
    return;
  if (!s->embeddingLoaded || !b->tokens)
    return fail(s, "embed runs on a stage without the token embedding");
  s->backend->embed(b->tokens);
  b->embedded = true;
}

void decoderLayer(Server *s, Batch *, int layer) {
  if (!s->backend)
    return;
  if (layer < s->firstLayer || layer >= s->endLayer)
    return fail(s, "stage " + std::to_string(s->rank) + " runs layer " +
                       std::to_string(layer) + ", outside its layers [" +
                       std::to_string(s->firstLayer) + ", " +
                       std::to_string(s->endLayer) + ")");
  s->backend->decoderLayer(layer);
}

void finalNorm(Server *s, Batch *) {
  if (!s->backend)
    return;
  if (!s->headLoaded)
    return fail(s, "finalNorm runs on a stage without the head");
  s->backend->finalNorm();
}

void lmHead(Server *s, Batch *b) {
  if (!s->backend)
    return;
  if (!s->headLoaded)
    return fail(s, "lmHead runs on a stage without the head");
  s->backend->lmHead(b->headRows.data(), int(b->headRows.size()), b->logits);
  b->headDone = true;
}

int run(Server *s, StageForward forward) {
  if (!s->error.empty() && s->global)
    return 1; // every rank knows; ranks outside the plan never get here
  const bool first = s->rank == 0, last = s->rank == s->numStages - 1;
  const LlamaConfig c = s->weights.config; // weights move to the backend

  // Checks that need this stage's file; their errors are agreed on below.
  if (s->error.empty()) {
    if (!s->opened)
      fail(s, "stage " + std::to_string(s->rank) + " never opened its weights");
    else if (s->loadedLayers != s->endLayer - s->firstLayer)
      fail(s, s->path + ": the program loads " +
                  std::to_string(s->loadedLayers) + " of its " +
                  std::to_string(s->endLayer - s->firstLayer) + " layers");
    else if (first && !s->embeddingLoaded)
      fail(s, "stage 0 does not load the token embedding");
    else if (last && !s->headLoaded)
      fail(s, "the last stage does not load the head");
  }
  s->numSeqs = s->batch > 0 ? s->batch : int(s->prompts.size());
  auto promptOf = [&](int seq) -> const std::vector<int> & {
    return s->prompts[size_t(seq) % s->prompts.size()];
  };
  int longest = 0;
  if (s->error.empty()) {
    for (const std::vector<int> &p : s->prompts) {
      for (int id : p)
        if (id >= c.vocabSize) {
          fail(s, "--prompt: token id " + std::to_string(id) +
                      " is outside the vocabulary [0, " +
                      std::to_string(c.vocabSize) + ")");
          break;
        }
      if (int(p.size()) > c.seqLen && s->error.empty())
        fail(s, "--prompt: " + std::to_string(p.size()) +
                    " tokens do not fit the context of " +
                    std::to_string(c.seqLen) + " positions");
      longest = std::max(longest, int(p.size()));
    }
  }
  // The last generated token is never fed back, so a sequence needs
  // prompt + maxNew - 1 positions; clamp maxNew to what the context holds.
  if (s->error.empty() && longest + s->maxNew - 1 > c.seqLen) {
    int clamped = c.seqLen - longest + 1;
    if (first)
      std::fprintf(stderr,
                   "serve: warning: --max-new-tokens %d exceeds the context "
                   "of %d positions; generating %d\n",
                   s->maxNew, c.seqLen, clamped);
    s->maxNew = clamped;
  }

  // No micro-batch holds more sequences than there are.
  s->prefillMb = std::min(s->prefillMb, std::max(1, s->numSeqs));
  s->decodeMb = std::min(s->decodeMb, std::max(1, s->numSeqs));
  if (s->error.empty()) {
    s->backend = makeBackend();
    std::string why = checkMemory(*s, c, longest,
                                  std::strcmp(s->backend->name(), "cpu") == 0);
    if (!why.empty()) {
      fail(s, why);
      s->backend.reset();
    }
  }

  // The schedule, identical on every rank (empty after an error: run then
  // only agrees on the failure).
  std::vector<MicroBatch> schedule;
  int maxRows = 1;
  for (int q = 0; s->error.empty() && q < s->numSeqs; q += s->prefillMb) {
    MicroBatch mb;
    mb.prefill = true;
    for (int seq = q; seq < std::min(s->numSeqs, q + s->prefillMb); ++seq) {
      mb.seqs.push_back(seq);
      mb.rows += int(promptOf(seq).size());
    }
    maxRows = std::max(maxRows, mb.rows);
    schedule.push_back(mb);
  }
  for (int step = 1; s->error.empty() && step < s->maxNew; ++step)
    for (int q = 0; q < s->numSeqs; q += s->decodeMb) {
      MicroBatch mb;
      mb.step = step;
      for (int seq = q; seq < std::min(s->numSeqs, q + s->decodeMb); ++seq)
        mb.seqs.push_back(seq);
      mb.rows = int(mb.seqs.size());
      maxRows = std::max(maxRows, mb.rows);
      schedule.push_back(mb);
    }
  const int context = longest + s->maxNew - 1;

  if (s->error.empty()) {
    std::string why;
    bool ok = false;
    try {
      ok = s->backend->init(std::move(s->weights), s->numSeqs, context,
                            maxRows, &why);
    } catch (const std::bad_alloc &) {
      why = "stage " + std::to_string(s->rank) +
            ": out of memory allocating the KV caches and buffers of " +
            std::to_string(s->numSeqs) + " sequences; lower --batch or "
            "--max-new-tokens";
    }
    if (!ok) {
      fail(s, why);
      s->backend.reset();
    }
  }
  // Agree on failures, and on the model shape every stage file declares.
  int local[4] = {s->error.empty() ? 0 : 1, c.dim, c.vocabSize, c.seqLen};
  int hi[4], lo[4];
  MPI_Allreduce(local, hi, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(local, lo, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (hi[0])
    return 1;
  if (hi[1] != lo[1] || hi[2] != lo[2] || hi[3] != lo[3]) {
    fail(s, "the stage files disagree on the model shape (dim, vocab_size "
            "or seq_len)");
    return 1;
  }

  const int D = c.dim, V = c.vocabSize;
  const int n = int(schedule.size());
  s->generated.assign(size_t(s->numSeqs), {});
  std::vector<float> sendBuf[2], recvBuf[2];
  MPI_Request sendReq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Request recvReq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  for (int i = 0; i < 2; ++i) {
    if (!last)
      sendBuf[i].resize(size_t(maxRows) * D);
    if (!first)
      recvBuf[i].resize(size_t(maxRows) * D);
  }
  // Tokens of every micro-batch travel last stage -> stage 0; stage 0 posts
  // all receives up front so the last stage's sends never wait on it.
  std::vector<std::vector<int>> tokenMsg(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    tokenMsg[i].resize(schedule[i].seqs.size());
  std::vector<MPI_Request> tokenReq(static_cast<size_t>(n), MPI_REQUEST_NULL);
  const bool remoteTokens = s->numStages > 1;
  if (first && remoteTokens)
    for (int i = 0; i < n; ++i)
      MPI_Irecv(tokenMsg[i].data(), int(tokenMsg[i].size()), MPI_INT,
                s->numStages - 1, kTokenTag, MPI_COMM_WORLD, &tokenReq[i]);
  // Logits: the sampled rows of one micro-batch, plus sequence 0's prompt.
  const bool wantLogits = last && !s->logitsOut.empty();
  std::vector<float> logits, promptLogits, sampleScratch;
  std::vector<int> tokens(static_cast<size_t>(maxRows));
  if (last) {
    size_t logitRows = size_t(std::max(s->decodeMb, s->prefillMb)) +
                       (wantLogits ? promptOf(0).size() : 0);
    logits.resize(logitRows * V);
    sampleScratch.resize(size_t(V));
    if (wantLogits)
      promptLogits.resize(promptOf(0).size() * size_t(V));
  }
  s->libraryBytes =
      int64_t(sendBuf[0].size() + sendBuf[1].size() + recvBuf[0].size() +
              recvBuf[1].size() + logits.size() + promptLogits.size() +
              sampleScratch.size()) *
          4 +
      int64_t(tokens.size()) * 4;
  Rng rng(s->seed);

  // Stage 0 applies token messages in schedule order.
  int tokensApplied = 0;
  auto applyTokens = [&](int i) {
    for (size_t j = 0; j < schedule[i].seqs.size(); ++j)
      s->generated[schedule[i].seqs[j]].push_back(tokenMsg[i][j]);
  };
  auto now = [] { return std::chrono::steady_clock::now(); };
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = now();
  auto prefillEnd = start;
  bool prefillDone = false;
  auto notePrefill = [&] {
    if (prefillDone)
      return;
    for (const std::vector<int> &g : s->generated)
      if (g.empty())
        return;
    prefillDone = true;
    prefillEnd = now();
  };

  if (!first)
    MPI_Irecv(recvBuf[0].data(), schedule[0].rows * D, MPI_FLOAT, s->rank - 1,
              kHiddenTag, MPI_COMM_WORLD, &recvReq[0]);
  std::vector<MPI_Request> tokenSendReq;
  for (int i = 0; i < n; ++i) {
    const MicroBatch &mb = schedule[i];
    Batch b;
    b.prefill = mb.prefill;
    b.rows = mb.rows;
    for (int seq : mb.seqs) {
      int len = int(promptOf(seq).size());
      if (mb.prefill)
        b.spans.push_back({seq, 0, len});
      else
        b.spans.push_back({seq, len + mb.step - 1, 1});
    }
    if (first) {
      int row = 0;
      for (int seq : mb.seqs) {
        if (mb.prefill) {
          for (int id : promptOf(seq))
            tokens[row++] = id;
          continue;
        }
        // The token this sequence feeds comes back from the last stage.
        while (int(s->generated[seq].size()) < mb.step &&
               tokensApplied < i && remoteTokens) {
          MPI_Wait(&tokenReq[tokensApplied], MPI_STATUS_IGNORE);
          applyTokens(tokensApplied++);
          notePrefill();
        }
        tokens[row++] = s->generated[seq][mb.step - 1];
      }
      b.tokens = tokens.data();
    } else {
      MPI_Wait(&recvReq[i % 2], MPI_STATUS_IGNORE);
      if (i + 1 < n)
        MPI_Irecv(recvBuf[(i + 1) % 2].data(), schedule[i + 1].rows * D,
                  MPI_FLOAT, s->rank - 1, kHiddenTag, MPI_COMM_WORLD,
                  &recvReq[(i + 1) % 2]);
    }
    if (last) {
      int row = 0;
      for (const SeqRows &sp : b.spans) {
        if (wantLogits && mb.prefill && sp.seq == 0)
          for (int r = 0; r + 1 < sp.rows; ++r)
            b.headRows.push_back(row + r);
        b.headRows.push_back(row + sp.rows - 1);
        row += sp.rows;
      }
      b.logits = logits.data();
    }
    s->backend->begin(b.spans.data(), int(b.spans.size()));
    if (!first)
      s->backend->setHidden(recvBuf[i % 2].data());
    forward(s, &b);
    if (first && !b.embedded)
      fail(s, "stage 0's forward does not call embed");
    if (!last) {
      // Double buffering: buffer i%2 is free once its previous send is done.
      MPI_Wait(&sendReq[i % 2], MPI_STATUS_IGNORE);
      s->backend->getHidden(sendBuf[i % 2].data());
      MPI_Isend(sendBuf[i % 2].data(), mb.rows * D, MPI_FLOAT, s->rank + 1,
                kHiddenTag, MPI_COMM_WORLD, &sendReq[i % 2]);
      continue;
    }
    if (!b.headDone) {
      fail(s, "the last stage's forward does not call lmHead");
      std::fill(logits.begin(), logits.end(), 0.0f);
    }
    size_t logitRow = 0;
    for (size_t j = 0; j < b.spans.size(); ++j) {
      const SeqRows &sp = b.spans[j];
      if (wantLogits && mb.prefill && sp.seq == 0)
        std::copy(logits.begin() + logitRow * V,
                  logits.begin() + (logitRow + sp.rows) * V,
                  promptLogits.begin());
      logitRow += size_t(wantLogits && mb.prefill && sp.seq == 0 ? sp.rows : 1);
      const float *row = logits.data() + (logitRow - 1) * V;
      tokenMsg[i][j] = s->temperature > 0.0f
                           ? sampleTemperature(row, V, s->temperature, rng,
                                               sampleScratch.data())
                           : argmax(row, V);
    }
    if (remoteTokens) {
      tokenSendReq.emplace_back();
      MPI_Isend(tokenMsg[i].data(), int(tokenMsg[i].size()), MPI_INT, 0,
                kTokenTag, MPI_COMM_WORLD, &tokenSendReq.back());
    } else {
      applyTokens(i);
      notePrefill();
    }
  }
  if (first && remoteTokens)
    while (tokensApplied < n) {
      MPI_Wait(&tokenReq[tokensApplied], MPI_STATUS_IGNORE);
      applyTokens(tokensApplied++);
      notePrefill();
    }
  MPI_Waitall(2, sendReq, MPI_STATUSES_IGNORE);
  if (!tokenSendReq.empty())
    MPI_Waitall(int(tokenSendReq.size()), tokenSendReq.data(),
                MPI_STATUSES_IGNORE);
  const auto end = now();
  s->prefillSeconds = std::chrono::duration<double>(prefillEnd - start).count();
  s->decodeSeconds = std::chrono::duration<double>(end - prefillEnd).count();
  s->decodeTokens = int64_t(s->numSeqs) * (s->maxNew - 1);
  s->ran = true;

  std::string backendError = s->backend->error();
  if (!backendError.empty())
    fail(s, "stage " + std::to_string(s->rank) + " (" + s->backend->name() +
                "): " + backendError);
  if (wantLogits && s->error.empty()) {
    std::FILE *f = std::fopen(s->logitsOut.c_str(), "wb");
    bool ok = f && std::fwrite(promptLogits.data(), sizeof(float),
                               promptLogits.size(),
                               f) == promptLogits.size();
    if (f)
      ok = std::fclose(f) == 0 && ok;
    if (!ok)
      fail(s, s->logitsOut + ": cannot write the logits");
  }
  int failed = s->error.empty() ? 0 : 1, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any;
}

int finish(Server *s) {
  // Every rank calls finish, so collectives are safe here in every case.
  int mine = s->error.empty() ? INT_MAX : s->rank, culprit = INT_MAX;
  MPI_Allreduce(&mine, &culprit, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int ran = s->ran ? 1 : 0, allRan = 0;
  MPI_Allreduce(&ran, &allRan, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int rc = 0;
  if (culprit != INT_MAX) {
    rc = 1;
    std::string message = s->error;
    if (culprit != 0 && s->rank == culprit) {
      MPI_Send(message.data(), int(message.size()), MPI_CHAR, 0, kErrorTag,
               MPI_COMM_WORLD);
    } else if (culprit != 0 && s->rank == 0) {
      MPI_Status status;
      int count = 0;
      MPI_Probe(culprit, kErrorTag, MPI_COMM_WORLD, &status);
      MPI_Get_count(&status, MPI_CHAR, &count);
      message.assign(size_t(count), '\0');
      MPI_Recv(message.data(), count, MPI_CHAR, culprit, kErrorTag,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (s->rank == 0)
      std::fprintf(stderr, "serve: error: %s\n", message.c_str());
  } else if (allRan) {
    if (s->rank == 0) {
      for (const std::vector<int> &g : s->generated) {
        std::string line;
        for (size_t i = 0; i < g.size(); ++i)
          line += (i ? " " : "") + std::to_string(g[i]);
        std::printf("%s\n", line.c_str());
      }
      std::fflush(stdout);
    }
    if (s->stats) {
      int64_t row[8] = {s->backend->weightBytes(),
                        s->backend->kvCacheBytes(),
                        s->backend->activationBytes() + s->libraryBytes,
                        0,
                        s->predicted,
                        peakRssBytes(),
                        s->firstLayer,
                        s->endLayer};
      row[3] = row[0] + row[1] + row[2];
      std::vector<int64_t> all(size_t(8) * s->size);
      MPI_Gather(row, 8, MPI_INT64_T, all.data(), 8, MPI_INT64_T, 0,
                 MPI_COMM_WORLD);
      if (s->rank == 0) {
        std::fprintf(stderr,
                     "serve: %d sequences on %d stages (%s backend), "
                     "prefill %.3f ms\n",
                     s->numSeqs, s->numStages, s->backend->name(),
                     s->prefillSeconds * 1e3);
        if (s->decodeTokens > 0 && s->decodeSeconds > 0)
          std::fprintf(stderr,
                       "serve: decode %lld tokens in %.3f ms: %.1f tokens/s\n",
                       (long long)s->decodeTokens, s->decodeSeconds * 1e3,
                       double(s->decodeTokens) / s->decodeSeconds);
        else
          std::fprintf(stderr, "serve: decode 0 tokens\n");
        for (int r = 0; r < s->size; ++r) {
          const int64_t *v = all.data() + size_t(8) * r;
          std::string predicted =
              v[4] < 0 ? "n/a" : std::to_string((long long)v[4]) + " B";
          std::fprintf(stderr,
                       "serve: stage %d layers [%lld, %lld): weights %lld B, "
                       "KV cache %lld B, activations %lld B, total %lld B, "
                       "predicted %s, peak RSS %lld B\n",
                       r, (long long)v[6], (long long)v[7], (long long)v[0],
                       (long long)v[1], (long long)v[2], (long long)v[3],
                       predicted.c_str(), (long long)v[5]);
        }
      }
    }
  }
  s->backend.reset();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
  delete s;
  return rc;
}

} // namespace weft::rt::serve
