//===- weft_rt_serve.cpp - What generated serving programs call -----------===//
//
// Rank r is pipeline stage r. This file sets a rank up (command line,
// weights the generated code declares), runs the parts of the forward pass
// on the backend and reports (tokens, --stats, errors); the schedule's
// helpers are in weft_rt_serve_pipeline.cpp.
//
// Errors: an error every rank sees alike (command line, world size) is
// "global": the pipeline does nothing and needs no collective, since ranks
// outside the plan never start one. Other errors (a weight file) are agreed
// on by an allreduce in startPipeline()/endPipeline(); finish() sends the
// lowest failing rank's message to rank 0, which prints it.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_serve_state.h"

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

void fail(Server *s, const std::string &what, bool global) {
  if (s->error.empty()) {
    s->error = what;
    s->global = global;
  }
}

namespace {

std::string executableDir(const char *argv0) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  std::string exe = n > 0 ? std::string(buf, size_t(n))
                          : std::string(argv0 ? argv0 : "");
  size_t slash = exe.rfind('/');
  return slash == std::string::npos ? "." : exe.substr(0, slash);
}

int64_t peakRssBytes() {
  struct rusage u;
  if (getrusage(RUSAGE_SELF, &u) != 0)
    return -1;
  return int64_t(u.ru_maxrss) * 1024; // Linux reports KiB
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
