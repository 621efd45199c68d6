//===- weft_rt_serve_pipeline.cpp - The schedule's helpers ----------------===//
//
// The generated program runs each stage's schedule as loops (prefill
// micro-batches; decode steps and their micro-batches) and calls these for
// what happens around the stage's forward function: which micro-batch is
// next, where its input comes from, where its output goes. Each stage has
// two send and two receive buffers for hidden states, so it computes
// micro-batch i+1 while i is in flight; stage 0 posts every token receive
// up front, so the last stage's token sends never wait on it.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_serve_state.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <unistd.h>

namespace weft::rt::serve {

namespace {

/// Bytes of memory this process may use: the machine's, or its cgroup's
/// limit when that is lower.
double memoryLimitBytes() {
  double bytes =
      double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
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
  const bool first = s.first(), last = s.last();
  const double seqs = s.numSeqs, steps = s.maxNew,
               context = longest + s.maxNew - 1;
  const double prefillRows = double(std::min(s.numSeqs, s.prefillMb)) * longest;
  const double maxRows = std::max(prefillRows, double(s.decodeMb));
  // A micro-batch's hidden states are one MPI message of int-counted floats.
  if (maxRows * c.dim > double(INT_MAX))
    return "a prefill micro-batch of up to " +
           std::to_string((long long)prefillRows) + " rows of " +
           std::to_string(c.dim) +
           " values does not fit one MPI message (2^31 - 1 values); lower "
           "--prefill-microbatch or --batch";
  const double microBatches = std::ceil(seqs / s.prefillMb) +
                              (steps - 1) * std::ceil(seqs / s.decodeMb);
  // Per micro-batch: its entry, sequence list, token message and request;
  // per generated token: its id in the schedule, the message and the output.
  const double schedule = microBatches * 128 + seqs * steps * 12;
  const double layers = s.endLayer - s.firstLayer;
  const double kv =
      hostBackend ? 2.0 * seqs * layers * context * c.kvDim() * 4 : 0;
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
         gigabytes(total) + " of memory for " + std::to_string(s.numSeqs) +
         " sequences of up to " + std::to_string((long long)context) +
         " positions (KV cache " + gigabytes(kv) + ", schedule " +
         gigabytes(schedule) + "), more than the " + gigabytes(limit) +
         " here; lower --batch or --max-new-tokens";
}

/// Checks, before anything is allocated, what this stage loaded against
/// what it must run, and the prompts against the model; returns the
/// longest prompt. Errors are recorded on the server.
int checkInputs(Server *s) {
  const LlamaConfig &c = s->config;
  if (!s->opened)
    fail(s, "stage " + std::to_string(s->rank) + " never opened its weights");
  else if (s->loadedLayers != s->endLayer - s->firstLayer)
    fail(s, s->path + ": the program loads " + std::to_string(s->loadedLayers) +
                " of its " + std::to_string(s->endLayer - s->firstLayer) +
                " layers");
  else if (s->first() && !s->embeddingLoaded)
    fail(s, "stage 0 does not load the token embedding");
  else if (s->last() && !s->headLoaded)
    fail(s, "the last stage does not load the head");
  int longest = 0;
  if (!s->error.empty())
    return longest;
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
  // The last generated token is never fed back, so a sequence needs
  // prompt + maxNew - 1 positions; clamp maxNew to what the context holds.
  if (s->error.empty() && longest + s->maxNew - 1 > c.seqLen) {
    int clamped = c.seqLen - longest + 1;
    if (s->first())
      std::fprintf(stderr,
                   "serve: warning: --max-new-tokens %d exceeds the context "
                   "of %d positions; generating %d\n",
                   s->maxNew, c.seqLen, clamped);
    s->maxNew = clamped;
  }
  return longest;
}

/// The schedule, identical on every rank: prefill micro-batches of all
/// their prompt rows, then decode steps of one row per sequence.
void buildSchedule(Server *s, Pipeline &p) {
  for (int q = 0; q < s->numSeqs; q += s->prefillMb) {
    MicroBatch mb;
    mb.prefill = true;
    for (int seq = q; seq < std::min(s->numSeqs, q + s->prefillMb); ++seq) {
      mb.seqs.push_back(seq);
      mb.rows += int(s->promptOf(seq).size());
    }
    p.maxRows = std::max(p.maxRows, mb.rows);
    p.schedule.push_back(mb);
  }
  p.numPrefill = int(p.schedule.size());
  for (int step = 1; step < s->maxNew; ++step)
    for (int q = 0; q < s->numSeqs; q += s->decodeMb) {
      MicroBatch mb;
      mb.step = step;
      for (int seq = q; seq < std::min(s->numSeqs, q + s->decodeMb); ++seq)
        mb.seqs.push_back(seq);
      mb.rows = int(mb.seqs.size());
      p.maxRows = std::max(p.maxRows, mb.rows);
      p.schedule.push_back(mb);
    }
  p.steps = std::max(0, s->maxNew - 1);
  p.numDecode = p.steps > 0 ? (s->numSeqs + s->decodeMb - 1) / s->decodeMb : 0;
}

/// Allocates the message, token and logit buffers and posts stage 0's
/// token receives.
void allocateBuffers(Server *s, Pipeline &p) {
  const int D = s->config.dim, V = s->config.vocabSize;
  const int n = int(p.schedule.size());
  for (int i = 0; i < 2; ++i) {
    if (!s->last())
      p.sendBuf[i].resize(size_t(p.maxRows) * D);
    if (!s->first())
      p.recvBuf[i].resize(size_t(p.maxRows) * D);
  }
  p.tokenMsg.resize(size_t(n));
  for (int i = 0; i < n; ++i)
    p.tokenMsg[i].resize(p.schedule[i].seqs.size());
  p.tokenReq.assign(size_t(n), MPI_REQUEST_NULL);
  p.remoteTokens = s->numStages > 1;
  if (s->first() && p.remoteTokens)
    for (int i = 0; i < n; ++i)
      MPI_Irecv(p.tokenMsg[i].data(), int(p.tokenMsg[i].size()), MPI_INT,
                s->numStages - 1, kTokenTag, MPI_COMM_WORLD, &p.tokenReq[i]);
  // Logits: the sampled rows of one micro-batch, plus sequence 0's prompt.
  p.wantLogits = s->last() && !s->logitsOut.empty();
  p.tokens.resize(size_t(p.maxRows));
  if (s->last()) {
    size_t logitRows = size_t(std::max(s->decodeMb, s->prefillMb)) +
                       (p.wantLogits ? s->promptOf(0).size() : 0);
    p.logits.resize(logitRows * V);
    p.sampleScratch.resize(size_t(V));
    if (p.wantLogits)
      p.promptLogits.resize(s->promptOf(0).size() * size_t(V));
  }
  s->libraryBytes =
      int64_t(p.sendBuf[0].size() + p.sendBuf[1].size() + p.recvBuf[0].size() +
              p.recvBuf[1].size() + p.logits.size() + p.promptLogits.size() +
              p.sampleScratch.size()) *
          4 +
      int64_t(p.tokens.size()) * 4;
  p.rng = Rng(s->seed);
}

/// Stage 0 applies token messages in schedule order.
void applyTokens(Server *s, int i) {
  Pipeline &p = s->pipeline;
  for (size_t j = 0; j < p.schedule[i].seqs.size(); ++j)
    s->generated[p.schedule[i].seqs[j]].push_back(p.tokenMsg[i][j]);
}

/// Notes the end of prefill: every sequence has its first token.
void notePrefill(Server *s) {
  Pipeline &p = s->pipeline;
  if (p.prefillDone)
    return;
  for (const std::vector<int> &g : s->generated)
    if (g.empty())
      return;
  p.prefillDone = true;
  p.prefillEnd = std::chrono::steady_clock::now();
}

/// Starts the next schedule entry, which the program asks for as `index`.
Batch *beginMicroBatch(Server *s, int64_t index, const char *what) {
  Pipeline &p = s->pipeline;
  if (!p.running || p.next >= int(p.schedule.size()))
    return &p.batch;
  // Messages follow the schedule's order: a program that asks otherwise
  // is reported, and the schedule goes on in its order so no rank hangs.
  if (index != p.next)
    fail(s, std::string(what) + ": the program runs micro-batch " +
                std::to_string(index) + " of the schedule where " +
                std::to_string(p.next) + " is next");
  index = p.next++;
  const MicroBatch &mb = p.schedule[size_t(index)];
  Batch &b = p.batch;
  b = Batch();
  b.index = int(index);
  b.prefill = mb.prefill;
  b.rows = mb.rows;
  for (int seq : mb.seqs) {
    int len = int(s->promptOf(seq).size());
    if (mb.prefill)
      b.spans.push_back({seq, 0, len});
    else
      b.spans.push_back({seq, len + mb.step - 1, 1});
  }
  if (s->last()) {
    int row = 0;
    for (const SeqRows &sp : b.spans) {
      if (p.wantLogits && mb.prefill && sp.seq == 0)
        for (int r = 0; r + 1 < sp.rows; ++r)
          b.headRows.push_back(row + r);
      b.headRows.push_back(row + sp.rows - 1);
      row += sp.rows;
    }
    b.logits = p.logits.data();
  }
  s->backend->begin(b.spans.data(), int(b.spans.size()));
  return &b;
}

/// Whether a step helper may run on `b` on this stage; records why not.
bool stepAllowed(Server *s, Batch *b, bool where, const char *what) {
  if (!s->pipeline.running || b->index < 0)
    return false;
  if (!where) {
    fail(s, std::string(what) + " runs on stage " + std::to_string(s->rank) +
                ", which the schedule does not give it");
    return false;
  }
  return true;
}

} // namespace

void startPipeline(Server *s) {
  Pipeline &p = s->pipeline;
  p = Pipeline();
  if (!s->error.empty() && s->global)
    return; // every rank knows; ranks outside the plan never get here
  s->config = s->weights.config; // the weights move to the backend
  const LlamaConfig &c = s->config;
  int longest = s->error.empty() ? checkInputs(s) : 0;
  s->numSeqs = s->batch > 0 ? s->batch : int(s->prompts.size());
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
  if (s->error.empty())
    buildSchedule(s, p);
  const int context = longest + s->maxNew - 1;
  if (s->error.empty()) {
    std::string why;
    bool ok = false;
    try {
      ok = s->backend->init(std::move(s->weights), s->numSeqs, context,
                            p.maxRows, &why);
    } catch (const std::bad_alloc &) {
      why = "stage " + std::to_string(s->rank) +
            ": out of memory allocating the KV caches and buffers of " +
            std::to_string(s->numSeqs) +
            " sequences; lower --batch or "
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
    return;
  if (hi[1] != lo[1] || hi[2] != lo[2] || hi[3] != lo[3]) {
    fail(s, "the stage files disagree on the model shape (dim, vocab_size "
            "or seq_len)");
    return;
  }
  s->generated.assign(size_t(s->numSeqs), {});
  allocateBuffers(s, p);
  MPI_Barrier(MPI_COMM_WORLD);
  p.start = p.prefillEnd = std::chrono::steady_clock::now();
  if (!s->first())
    MPI_Irecv(p.recvBuf[0].data(), p.schedule[0].rows * c.dim, MPI_FLOAT,
              s->rank - 1, kHiddenTag, MPI_COMM_WORLD, &p.recvReq[0]);
  p.running = true;
}

int64_t prefillMicroBatches(Server *s) {
  return s->pipeline.running ? s->pipeline.numPrefill : 0;
}
int64_t decodeSteps(Server *s) {
  return s->pipeline.running ? s->pipeline.steps : 0;
}
int64_t decodeMicroBatches(Server *s) {
  return s->pipeline.running ? s->pipeline.numDecode : 0;
}

Batch *prefillMicroBatch(Server *s, int64_t i) {
  return beginMicroBatch(s, i, "prefillMicroBatch");
}

Batch *decodeMicroBatch(Server *s, int64_t j, int64_t step) {
  const Pipeline &p = s->pipeline;
  return beginMicroBatch(s, p.numPrefill + step * p.numDecode + j,
                         "decodeMicroBatch");
}

void inputTokens(Server *s, Batch *b) {
  if (!stepAllowed(s, b, s->first(), "inputTokens"))
    return;
  Pipeline &p = s->pipeline;
  const MicroBatch &mb = p.schedule[size_t(b->index)];
  int row = 0;
  for (int seq : mb.seqs) {
    if (mb.prefill) {
      for (int id : s->promptOf(seq))
        p.tokens[row++] = id;
      continue;
    }
    // The token this sequence feeds comes back from the last stage.
    while (int(s->generated[seq].size()) < mb.step &&
           p.tokensApplied < b->index && p.remoteTokens) {
      MPI_Wait(&p.tokenReq[p.tokensApplied], MPI_STATUS_IGNORE);
      applyTokens(s, p.tokensApplied++);
      notePrefill(s);
    }
    p.tokens[row++] = s->generated[seq][mb.step - 1];
  }
  b->tokens = p.tokens.data();
}

void recvHidden(Server *s, Batch *b, int from) {
  if (!stepAllowed(s, b, !s->first() && from == s->rank - 1, "recvHidden"))
    return;
  Pipeline &p = s->pipeline;
  const int i = b->index, n = int(p.schedule.size());
  MPI_Wait(&p.recvReq[i % 2], MPI_STATUS_IGNORE);
  if (i + 1 < n)
    MPI_Irecv(p.recvBuf[(i + 1) % 2].data(),
              p.schedule[i + 1].rows * s->config.dim, MPI_FLOAT, s->rank - 1,
              kHiddenTag, MPI_COMM_WORLD, &p.recvReq[(i + 1) % 2]);
  s->backend->setHidden(p.recvBuf[i % 2].data());
}

void sendHidden(Server *s, Batch *b, int to) {
  if (!stepAllowed(s, b, !s->last() && to == s->rank + 1, "sendHidden"))
    return;
  Pipeline &p = s->pipeline;
  if (s->first() && !b->embedded)
    fail(s, "stage 0's forward does not call embed");
  // Double buffering: buffer i%2 is free once its previous send is done.
  const int i = b->index;
  MPI_Wait(&p.sendReq[i % 2], MPI_STATUS_IGNORE);
  s->backend->getHidden(p.sendBuf[i % 2].data());
  MPI_Isend(p.sendBuf[i % 2].data(), b->rows * s->config.dim, MPI_FLOAT,
            s->rank + 1, kHiddenTag, MPI_COMM_WORLD, &p.sendReq[i % 2]);
}

void sampleTokens(Server *s, Batch *b) {
  if (!stepAllowed(s, b, s->last(), "sampleTokens"))
    return;
  Pipeline &p = s->pipeline;
  if (s->first() && !b->embedded)
    fail(s, "stage 0's forward does not call embed");
  if (!b->headDone) {
    fail(s, "the last stage's forward does not call lmHead");
    std::fill(p.logits.begin(), p.logits.end(), 0.0f);
  }
  const int V = s->config.vocabSize;
  std::vector<int> &out = p.tokenMsg[size_t(b->index)];
  size_t logitRow = 0;
  for (size_t j = 0; j < b->spans.size(); ++j) {
    const SeqRows &sp = b->spans[j];
    const bool promptLogits = p.wantLogits && b->prefill && sp.seq == 0;
    if (promptLogits)
      std::copy(p.logits.begin() + logitRow * V,
                p.logits.begin() + (logitRow + sp.rows) * V,
                p.promptLogits.begin());
    logitRow += size_t(promptLogits ? sp.rows : 1);
    const float *row = p.logits.data() + (logitRow - 1) * V;
    out[j] = s->temperature > 0.0f
                 ? sampleTemperature(row, V, s->temperature, p.rng,
                                     p.sampleScratch.data())
                 : argmax(row, V);
  }
}

void returnTokens(Server *s, Batch *b, int to) {
  if (!stepAllowed(s, b, s->last() && to == 0, "returnTokens"))
    return;
  Pipeline &p = s->pipeline;
  std::vector<int> &msg = p.tokenMsg[size_t(b->index)];
  if (p.remoteTokens) {
    p.tokenSendReq.emplace_back();
    MPI_Isend(msg.data(), int(msg.size()), MPI_INT, 0, kTokenTag,
              MPI_COMM_WORLD, &p.tokenSendReq.back());
    return;
  }
  applyTokens(s, b->index);
  notePrefill(s);
}

int endPipeline(Server *s) {
  Pipeline &p = s->pipeline;
  if (!p.running)
    return 1; // every rank agreed on a failure before the pipeline ran
  const int n = int(p.schedule.size());
  if (p.next != n)
    fail(s, "the program ran " + std::to_string(p.next) + " of the " +
                std::to_string(n) + " micro-batches of its schedule");
  if (s->first() && p.remoteTokens)
    while (p.tokensApplied < n) {
      MPI_Wait(&p.tokenReq[p.tokensApplied], MPI_STATUS_IGNORE);
      applyTokens(s, p.tokensApplied++);
      notePrefill(s);
    }
  MPI_Waitall(2, p.sendReq, MPI_STATUSES_IGNORE);
  if (!p.tokenSendReq.empty())
    MPI_Waitall(int(p.tokenSendReq.size()), p.tokenSendReq.data(),
                MPI_STATUSES_IGNORE);
  const auto end = std::chrono::steady_clock::now();
  s->prefillSeconds =
      std::chrono::duration<double>(p.prefillEnd - p.start).count();
  s->decodeSeconds = std::chrono::duration<double>(end - p.prefillEnd).count();
  s->decodeTokens = int64_t(s->numSeqs) * (s->maxNew - 1);
  s->ran = true;
  p.running = false;

  std::string backendError = s->backend->error();
  if (!backendError.empty())
    fail(s, "stage " + std::to_string(s->rank) + " (" + s->backend->name() +
                "): " + backendError);
  if (p.wantLogits && s->error.empty()) {
    std::FILE *f = std::fopen(s->logitsOut.c_str(), "wb");
    bool ok =
        f && std::fwrite(p.promptLogits.data(), sizeof(float),
                         p.promptLogits.size(), f) == p.promptLogits.size();
    if (f)
      ok = std::fclose(f) == 0 && ok;
    if (!ok)
      fail(s, s->logitsOut + ": cannot write the logits");
  }
  int failed = s->error.empty() ? 0 : 1, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any;
}

} // namespace weft::rt::serve
