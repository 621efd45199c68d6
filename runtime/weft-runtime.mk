# weft's serving runtime, built once (runtime/Makefile). The Makefiles that
# `weft build-model` and `weft cost profile` write include this file and
# compile only their own code against it:
#   WEFT_RT_CPPFLAGS     the runtime's headers
#   WEFT_RT_CPU_LIBS     the MPI serving library, the CPU backend, the kernels
#   WEFT_RT_CUDA_LIBS    the same with the CUDA backend
#   WEFT_RT_CPU_BACKEND  the CPU backend and the kernels (no MPI)
#   WEFT_RT_CUDA_BACKEND the CUDA backend and the kernels (no MPI)
#   WEFT_RT_CUDA_LDLIBS  cuBLAS and the CUDA runtime (CUDA_HOME)
#   WEFT_RT_BENCH_OBJ    the kernel benchmark's main
# WEFT_ISA chooses the CPU libraries: x86-64-v3 (AVX2, FMA and F16C, what
# the kernels use) where the compiler's native target has them, else the
# first level built; `make WEFT_ISA=x86-64` chooses one.

WEFT_RT_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
WEFT_RT_ISAS := $(notdir $(patsubst %/,%,$(dir \
  $(wildcard $(WEFT_RT_DIR)/lib/*/libweft_rt.a))))
ifndef WEFT_ISA
WEFT_RT_NATIVE := $(shell $(CXX) -march=native -dM -E -x c++ /dev/null \
  2>/dev/null | grep -cE '^\#define __(AVX2|FMA|F16C)__ ')
WEFT_ISA := $(if $(and $(filter x86-64-v3,$(WEFT_RT_ISAS)),\
  $(filter 3,$(WEFT_RT_NATIVE))),x86-64-v3,$(firstword $(WEFT_RT_ISAS)))
endif

WEFT_RT_CPPFLAGS := -I$(WEFT_RT_DIR)/include
WEFT_RT_CPU_BACKEND := $(WEFT_RT_DIR)/lib/$(WEFT_ISA)/libweft_rt_serve_cpu.a \
  $(WEFT_RT_DIR)/lib/$(WEFT_ISA)/libweft_rt.a
WEFT_RT_CUDA_BACKEND := $(WEFT_RT_DIR)/lib/libweft_rt_cuda.a \
  $(WEFT_RT_DIR)/lib/$(WEFT_ISA)/libweft_rt.a
WEFT_RT_CPU_LIBS := $(WEFT_RT_DIR)/lib/libweft_rt_serve.a $(WEFT_RT_CPU_BACKEND)
WEFT_RT_CUDA_LIBS := $(WEFT_RT_DIR)/lib/libweft_rt_serve.a \
  $(WEFT_RT_CUDA_BACKEND)
WEFT_RT_BENCH_OBJ := $(WEFT_RT_DIR)/lib/$(WEFT_ISA)/weft_rt_kernel_bench.o
CUDA_HOME ?= /usr/local/cuda
WEFT_RT_CUDA_LDLIBS = -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 \
  -lcublas -lcudart

# A library of the runtime that is not there: say how to build it.
$(WEFT_RT_DIR)/lib/%:
	@echo "weft runtime: $@ is missing; build it with" \
	  "make -C <weft source>/runtime OUT=$(WEFT_RT_DIR) cpu (or cuda, which" \
	  "needs nvcc)" >&2
	@exit 1
