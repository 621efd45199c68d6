# -*- Python -*-
import os
import shutil
import subprocess
import tempfile
import time

import lit.formats
from lit.llvm import llvm_config

config.name = "WEFT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.weft_obj_root, "test")
config.excludes = ["Inputs", "unittests", "CMakeLists.txt", "README.md"]

llvm_config.use_default_substitutions()
# Tests run scripts that call weft by name: put the tools on PATH.
llvm_config.with_environment("PATH", config.weft_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["weft", "weft-opt", "weft-translate", "weft-llama-ref"],
                                   [config.weft_tools_dir])
llvm_config.add_tool_substitutions(["mlir-translate"], [config.llvm_tools_dir])

for tool in ["gcc", "g++", "make", "mpicc", "mpirun", "nvcc"]:
    if shutil.which(tool):
        config.available_features.add(tool)

# Open MPI 4.1 creates its session directory <base>/ompi.<host>.<uid> with a
# check-then-mkdir race, and the last job to finish removes it again: two
# tests starting mpirun at once can fail with "File exists". Tests call
# mpirun by name; a wrapper first on PATH gives every mpirun its own base.
real_mpirun = shutil.which("mpirun")
if real_mpirun:
    ompi_root = os.path.join(tempfile.gettempdir(), "weft-ompi-%d" % os.getuid())
    os.makedirs(ompi_root, exist_ok=True)
    # Bases of runs an hour old or more are leftovers of killed jobs.
    for stale in os.listdir(ompi_root):
        path = os.path.join(ompi_root, stale)
        try:
            if time.time() - os.path.getmtime(path) > 3600:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass
    wrapper_dir = os.path.join(config.weft_obj_root, "test", "mpirun-wrapper")
    os.makedirs(wrapper_dir, exist_ok=True)
    wrapper = os.path.join(wrapper_dir, "mpirun")
    with open(wrapper + ".tmp", "w") as f:
        f.write("#!/bin/sh\n"
                "base=$(mktemp -d '%s/run.XXXXXX') || exit 1\n"
                "OMPI_MCA_orte_tmpdir_base=$base exec '%s' \"$@\"\n"
                % (ompi_root, real_mpirun))
    os.chmod(wrapper + ".tmp", 0o755)
    os.replace(wrapper + ".tmp", wrapper)
    llvm_config.with_environment("PATH", wrapper_dir, append_path=True)
config.substitutions.append(("%weft_src", config.weft_src_root))
# The serving runtime built with weft (runtime/Makefile); its CUDA part
# exists where weft was built with nvcc.
weft_runtime = os.path.join(config.weft_obj_root, "lib", "weft-runtime")
config.substitutions.append(("%weft_runtime", weft_runtime))
if os.path.exists(os.path.join(weft_runtime, "lib", "libweft_rt_cuda.a")):
    config.available_features.add("cuda-runtime")

# Sanitized builds (WEFT_SANITIZE, WEFT_FUZZ): any report fails the test.
# Leak checking stays on for weft itself; generated MPI programs are built
# by the system compiler without sanitizers.
if config.weft_sanitize:
    config.available_features.add("sanitize")
    config.environment["ASAN_OPTIONS"] = "abort_on_error=0:detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1"
    # The generated programs are rank-generic and unsanitized: the main tree
    # runs them on every rank count; here one (the largest) is enough.
    config.environment["WEFT_E2E_LARGEST_RANKS_ONLY"] = "1"
if config.weft_fuzz:
    config.available_features.add("fuzz")

# A usable GPU (not only the toolkit) enables the tests that run kernels.
if shutil.which("nvidia-smi"):
    try:
        listing = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                                 text=True, timeout=20)
        if listing.returncode == 0 and "GPU" in listing.stdout:
            config.available_features.add("cuda-gpu")
    except (OSError, subprocess.SubprocessError):
        pass

# The real tiny LLaMA (shared/data, never committed): tests that need it
# say `REQUIRES: stories260k` and are unsupported where it is absent.
shared_data = os.environ.get(
    "WEFT_SHARED_DATA", os.path.join(config.weft_src_root, "..", "shared", "data"))
stories = os.path.join(shared_data, "models", "stories260K.bin")
if os.path.exists(stories):
    config.available_features.add("stories260k")
    config.substitutions.append(("%stories", stories))

# PolyBench/C 4.2.1, unpacked (never committed): $POLYBENCH_DIR, else
# /tmp/polybench, where this project's machines keep it
# (docs/performance.md). Tests that run its kernels say `REQUIRES: polybench`.
polybench = os.environ.get("POLYBENCH_DIR", "/tmp/polybench")
if os.path.exists(os.path.join(polybench, "utilities", "polybench.c")):
    config.available_features.add("polybench")
    config.substitutions.append(("%polybench", polybench))

# Measured LLM-PQ serving runs (shared/data, never committed): tests that fit
# runtime profiles on them say `REQUIRES: llmpq-runs`.
llmpq_runs = os.path.join(shared_data, "measured-runs", "llmpq", "runs.json")
if os.path.exists(llmpq_runs):
    config.available_features.add("llmpq-runs")
    config.substitutions.append(("%llmpq_runs", llmpq_runs))
