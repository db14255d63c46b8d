#!/usr/bin/env bash
# Installs a software Vulkan driver (Mesa lavapipe) so the WebGPU kernels can be tested natively through wgpu on
# a machine without a GPU (CI, dev containers). Does nothing when libvulkan and the lavapipe ICD are present.
#   bash scripts/install-vulkan.sh
set -euo pipefail
have_loader() { ldconfig -p 2>/dev/null | grep -q libvulkan; }
have_lvp() { compgen -G "/usr/share/vulkan/icd.d/lvp_icd*.json" >/dev/null; }
if have_loader && have_lvp; then
  echo "[install-vulkan] libvulkan and the lavapipe ICD are present: nothing to do"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
command -v apt-get >/dev/null || { echo "[install-vulkan] ERROR: apt-get not found; install Mesa's lavapipe (mesa-vulkan-drivers) and the Vulkan loader (libvulkan1) by hand" >&2; exit 1; }
echo "[install-vulkan] installing mesa-vulkan-drivers libvulkan1 (lavapipe, software Vulkan)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends mesa-vulkan-drivers libvulkan1
have_loader && have_lvp || { echo "[install-vulkan] ERROR: installed, but libvulkan or /usr/share/vulkan/icd.d/lvp_icd*.json is still missing" >&2; exit 1; }
echo "[install-vulkan] ok: $(ls /usr/share/vulkan/icd.d/lvp_icd*.json)"
