# seed_dirs ROOT TARGET: the directories of a fuzz target's seeds and,
# when it has any, regression inputs (fuzz/regressions/TARGET), under the
# source root ROOT (sourced by scripts/fuzz.sh and test/Fuzz). Seeds that
# exist elsewhere in the tree (examples, test inputs) are read where they
# are; fuzz/corpus holds only what fuzz/make-seeds.sh writes.
seed_dirs() {
  local dir
  for dir in $(seed_dirs_relative "$2"); do echo "$1/$dir"; done
  [ ! -d "$1/fuzz/regressions/$2" ] || echo "$1/fuzz/regressions/$2"
}

seed_dirs_relative() {
  case $1 in
    c-seq | c-mpi) echo examples/hpc test/E2E/seq test/E2E/mpi test/Driver ;;
    c-cuda) echo examples/hpc test/E2E/seq test/E2E/mpi test/Driver test/Target/CUDA ;;
    # Fewer seeds (each compiles twice as slowly): test/Fuzz replays them
    # in CI.
    c-mpi-cuda) echo examples/hpc test/E2E/mpi-cuda test/Target/CUDA ;;
    cluster) echo examples/llm/clusters test/Planner/Inputs ;;
    model-config) echo examples/llm/models test/Planner/Inputs ;;
    plan) echo fuzz/corpus/plan test/Planner/Inputs ;;
    profile) echo examples/llm/profiles test/Planner/Inputs/profiles ;;
    kernel-samples) echo fuzz/corpus/kernel-samples ;;
    *) echo "fuzz/corpus/$1" ;;
  esac
}
