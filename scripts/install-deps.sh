#!/usr/bin/env bash
# Installs the Debian 12 (bookworm) packages weft needs. Runs apt-get only
# when something is missing, so it is cheap to call before every build.
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ pkg-config python3
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools libzstd-dev
  clang-19 libclang-19-dev libclang-cpp19-dev libclang-rt-19-dev
  libisl-dev openmpi-bin libopenmpi-dev libgtest-dev libeigen3-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "weft: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
