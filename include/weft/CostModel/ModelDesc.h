//===- ModelDesc.h - Shape of a decoder-only transformer --------*- C++ -*-===//
//
// What the cost, memory and quality models need to know about a model.
// Importers (lib/Planner/ModelImport.cpp) fill it from config.json or
// llama2.c checkpoints.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_MODELDESC_H
#define WEFT_COSTMODEL_MODELDESC_H

#include <cstdint>
#include <string>

namespace weft::cost {

struct ModelDesc {
  std::string name;
  std::string arch; // llama, mistral, qwen2, opt, bloom, llama2c
  int64_t hidden = 0;
  int64_t intermediate = 0; // FFN inner size
  int64_t layers = 0;
  int64_t heads = 0;
  int64_t kvHeads = 0; // < heads for grouped-query attention
  int64_t vocab = 0;
  int64_t maxSeq = 0;
  bool tiedEmbeddings = false;
  bool gatedFFN = true;   // SwiGLU-style: three FFN matrices instead of two
  bool attnBias = false;  // biases on q/k/v (Qwen2, OPT, BLOOM)
  bool mlpBias = false;   // biases on FFN and output projections
  bool layerNorm = false; // LayerNorm (two vectors) instead of RMSNorm
  // What the llm IR of the model states beyond the shape (lib/LLM).
  double normEps = 1e-5;
  double ropeTheta = 10000;        // 0: no rotary embedding
  std::string activation = "silu"; // FFN: silu, relu, gelu or gelu_tanh
  std::string dtype = "f32";       // checkpoint element type: f32, f16, bf16

  int64_t headDim() const { return heads ? hidden / heads : 0; }
  int64_t kvDim() const { return headDim() * kvHeads; }
  /// Elements of the quantisable matrices of one decoder layer.
  int64_t linearParamsPerLayer() const {
    int64_t attn = hidden * (hidden + 2 * kvDim()) + hidden * hidden;
    int64_t ffn = (gatedFFN ? 3 : 2) * hidden * intermediate;
    return attn + ffn;
  }
  /// Norm weights and biases of one layer (kept in fp16).
  int64_t smallParamsPerLayer() const {
    int64_t n = (layerNorm ? 4 : 2) * hidden;
    if (attnBias)
      n += hidden + 2 * kvDim();
    if (mlpBias)
      n += hidden + intermediate + hidden;
    return n;
  }
};

} // namespace weft::cost

#endif
