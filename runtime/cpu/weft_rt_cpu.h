//===- weft_rt_cpu.h - weft's CPU runtime, all of it ------------*- C++ -*-===//
//
// The kernels (runtime/cpu) and the model formats (runtime/format) in one
// header. No LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_CPU_H
#define WEFT_RT_CPU_H

#include "weft_rt_attention.h"
#include "weft_rt_checkpoint.h"
#include "weft_rt_ffn.h"
#include "weft_rt_ffn_block.h"
#include "weft_rt_gemm.h"
#include "weft_rt_half.h"
#include "weft_rt_hf_config.h"
#include "weft_rt_linear.h"
#include "weft_rt_llama.h"
#include "weft_rt_llama2c.h"
#include "weft_rt_norm.h"
#include "weft_rt_parallel.h"
#include "weft_rt_qgemm.h"
#include "weft_rt_quant.h"
#include "weft_rt_rope.h"
#include "weft_rt_safetensors.h"
#include "weft_rt_sample.h"

#endif
