#!/usr/bin/env bash
# The system packages the tests need, installed when missing: Debian's Chromium (browser tests, driven by
# Playwright) and the WenQuanYi Zen Hei font (the example report generator embeds it). Used by `make test` and
# .ci/run alike. Where it cannot install (not Debian/Ubuntu, or neither root nor sudo), it stops with the command.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
[ -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || need+=(fonts-wqy-zenhei)
[ ${#need[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: missing ${need[*]}; install Chromium (as /usr/bin/chromium) and the WenQuanYi Zen Hei font (wqy-zenhei.ttc under /usr/share/fonts/truetype/wqy/) with your system's package manager, then run make test again" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "system-deps: missing ${need[*]}; run: sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "system-deps: installing ${need[*]} from Debian's packages" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
