# -*- Python -*-
import os
import shutil
import socket
import subprocess
import tempfile

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
# check-then-mkdir race: two tests starting mpirun at once can fail with
# "File exists". Every mpirun of the run gets one base whose session
# directory exists before any test starts (jobs get their own pid.<n> in it).
ompi_base = os.path.join(tempfile.gettempdir(), "weft-ompi-%d" % os.getuid())
for host in {socket.gethostname(), socket.gethostname().split(".")[0]}:
    os.makedirs(os.path.join(ompi_base, "ompi.%s.%d" % (host, os.getuid())),
                exist_ok=True)
config.environment["OMPI_MCA_orte_tmpdir_base"] = ompi_base
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
