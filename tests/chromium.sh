#!/bin/sh
# Debian's Chromium for the end-to-end tests and the bench, with its --disable-features switches
# merged into one. Chromium keeps only the last switch of a name, and Playwright passes a list of its
# own; playwright.config.ts adds CHROMIUM_DISABLED_FEATURES, which would otherwise replace it.
# CHROMIUM_PATH chooses another Chromium.
features=''
for arg do
  shift
  case $arg in
    --disable-features=*) features="${features:+$features,}${arg#--disable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec "${CHROMIUM_PATH:-/usr/bin/chromium}" "$@" ${features:+"--disable-features=$features"}
