# Sourced by the serving tests: build a plan into a program and run it.
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# Generated programs compile the same runtime sources every time.
MPICXX=mpicxx
if command -v ccache >/dev/null; then MPICXX="ccache mpicxx"; fi
inputs=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

plan() { python3 "$inputs/make-plan.py" "$@"; }

# build PLAN WEIGHTS DIR [build-model options]: weft build-model, then make.
build() {
  local plan=$1 weights=$2 dir=$3
  shift 3
  weft build-model --plan "$plan" --weights "$weights" -o "$dir" "$@"
  make -s -j2 -C "$dir" MPICXX="$MPICXX" >"$dir.make.log" 2>&1 ||
    { cat "$dir.make.log" >&2; return 1; }
}

# serve NP DIR ARGS...: the program under mpirun.
serve() {
  local np=$1 dir=$2
  shift 2
  timeout 300 mpirun --oversubscribe -np "$np" "$dir/serve" "$@"
}
