//===- weft_rt_llama2c.h - llama2.c checkpoint files ------------*- C++ -*-===//
//
// File layout (Karpathy's llama2.c, "version 0"): 7 int32 header fields
// (dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len; a
// negative vocab_size means an untied classifier follows), then fp32 arrays:
// token_embedding, rms_att, wq, wk, wv, wo, rms_ffn, w1, w2, w3, rms_final,
// freq_cis_real, freq_cis_imag (ignored), and wcls when untied. Reading the
// weights goes through weft_rt_checkpoint.h, one tensor at a time.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_LLAMA2C_H
#define WEFT_RT_LLAMA2C_H

#include "weft_rt_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft::rt {

/// Reads and checks the 28-byte header (the weights are not looked at):
/// the config and, in *fileBytes, the file's size. Errors read "<path>:
/// <what is wrong>".
bool readLlama2cHeader(const std::string &path, LlamaConfig &out,
                       int64_t *fileBytes, std::string *error);

/// One array of a llama2.c file.
struct Llama2cArray {
  const char *name;      ///< as llama2.c names it
  bool isTensor;         ///< false for the RoPE tables
  Tensor tensor;         ///< when isTensor: all layers of it, stacked
  int64_t offset, count; ///< in bytes from the file's start; in floats
};

/// The arrays of a file with this (checked) header, in file order; empty
/// when their sizes overflow int64.
std::vector<Llama2cArray> llama2cLayout(const LlamaConfig &config);

/// Number of bytes a llama2.c file with this (valid) header must have, or
/// -1 when that number does not fit in int64_t.
int64_t llama2cFileBytes(const LlamaConfig &config);

/// Whether a file of `fileBytes` bytes holds exactly what the header
/// implies; returns what is wrong (naming the first array that does not
/// fit, its offset and the file's size), or "".
std::string checkLlama2cSize(const LlamaConfig &config, int64_t fileBytes);

/// Writes a checkpoint (for tests and generated benchmark models).
bool writeLlama2c(const std::string &path, const LlamaWeights &weights,
                  std::string *error);

} // namespace weft::rt

#endif
