//===- weft_rt_stage_file.h - Weights of one pipeline stage -----*- C++ -*-===//
//
// `weft build-model` quantizes a checkpoint per the plan's bits and writes
// one file per pipeline stage; the generated `serve` program of that stage
// reads only its own file. Format (little-endian, docs/serving.md):
//
//   header   "WEFTSTG1", u32 version (2; version 1 lacks arch and gelu and
//            is read as LLaMA),
//            LlamaConfig: i32 dim hidden layers heads kvHeads vocab seqLen,
//                         u8 tied, f32 rmsEps ropeTheta, u8 arch gelu
//            StageFileSpec: u32 name length + model name bytes,
//                         i32 stage numStages firstLayer endLayer,
//                         u8 hasEmbedding hasHead,
//                         per layer i32 attnBits ffnBits, i32 headBits
//                         groupSize
//   [stage 0]      token embedding, fp16 [vocab][dim]
//                  (OPT) position embedding, fp16 [seqLen + 2][dim]
//   per layer      LLaMA: rmsAtt f32[dim], wq wk wv wo (attnBits),
//                         rmsFfn f32[dim], w1 w2 w3 (ffnBits)
//                  OPT:   norm weight, bias f32[dim], then each of
//                         q k v out (attnBits) followed by its f32 bias,
//                         norm weight, bias, fc1 + bias[hidden], fc2 +
//                         bias[dim] (ffnBits)
//   [last stage]   rmsFinal f32[dim], (OPT) final norm bias f32[dim],
//                  classifier [vocab][dim] (headBits)
//   trailer  u64 FNV-1a checksum of everything before it
//
// A Linear record is: i32 rows, cols, bits, groupSize, then fp32 / fp16
// values or the quantized codes, scales and zero-points of
// docs/quantization.md.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_STAGE_FILE_H
#define WEFT_RT_STAGE_FILE_H

#include "weft_rt_checkpoint.h"
#include "weft_rt_llama.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace weft::rt {

/// What one stage holds, as the plan assigns it.
struct StageFileSpec {
  std::string model;          ///< the plan's model name (checked by serve)
  int stage = 0, numStages = 1;
  int firstLayer = 0, endLayer = 0; ///< half-open layer range
  bool hasEmbedding = false;  ///< stage 0
  bool hasHead = false;       ///< last stage: final norm and classifier
  std::vector<int> attnBits, ffnBits; ///< one entry per layer of the stage
  int headBits = 16;
  int groupSize = kDefaultGroupSize;
};

/// The weights of one stage in memory, in their stored formats.
struct StageWeights {
  LlamaConfig config;
  StageFileSpec spec;
  std::vector<uint16_t> embeddingF16; ///< [vocab][dim], stage 0 only
  /// OPT, stage 0 only: learned positions [seqLen + 2][dim].
  std::vector<uint16_t> positionEmbeddingF16;
  std::vector<LlamaLayer> layers;     ///< spec.firstLayer .. endLayer-1
  std::vector<float> rmsFinal;        ///< last stage only
  std::vector<float> normFinalBias;   ///< last stage, OPT only
  Linear classifier;                  ///< last stage only
  /// Bytes of all stored weights (what the memory model predicts).
  int64_t storageBytes() const;
};

/// Where writeStageFile takes a tensor from: fills `out` with the
/// tensorShape(config, t).elements() fp32 values of `t` in `layer`
/// (ignored for model tensors), or returns false with *error naming the
/// source and what is wrong.
using TensorReader = std::function<bool(
    Tensor t, int layer, std::vector<float> &out, std::string *error)>;

/// Quantizes the stage's part of the model per `spec` and writes it to
/// `path` (through a temporary file and a rename), tensor by tensor: each
/// is read just before it is stored and dropped after, so the writer holds
/// one fp32 tensor and its stored copy, whatever the model's size. Returns
/// false with *error for a spec that does not fit the model (layer range,
/// bits list lengths, unsupported widths), a tensor `read` refuses, or an
/// I/O failure; nothing is left at `path` then.
bool writeStageFile(const std::string &path, const LlamaConfig &config,
                    const TensorReader &read, const StageFileSpec &spec,
                    std::string *error);
/// The same from an open checkpoint (weft build-model).
bool writeStageFile(const std::string &path, const Checkpoint &checkpoint,
                    const StageFileSpec &spec, std::string *error);
/// The same from a model in memory.
bool writeStageFile(const std::string &path, const LlamaWeights &weights,
                    const StageFileSpec &spec, std::string *error);

/// The trailer a stage file's first `n` bytes need: their FNV-1a checksum.
uint64_t stageFileChecksum(const void *data, size_t n);

/// Reads a stage file; errors name the file and what is wrong (magic,
/// version, truncation, checksum, inconsistent sizes).
bool readStageFile(const std::string &path, StageWeights &out,
                   std::string *error);

} // namespace weft::rt

#endif
