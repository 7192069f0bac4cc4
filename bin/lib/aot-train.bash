#!/usr/bin/env bash
# Makes the JDK 25 AOT caches that bin/volume starts with (JEP 483/514/515: the classes the verbs
# load, linked, and the JIT's profiles), next to the jar: JAR with .aot for .jar; and two for the
# command lines bin/volume runs without the vector module (bin/lib/launch.bash): .help.aot for
# --version and --help, .base.aot for test, info and decrypt of a BitLocker volume. The build's
# package phase runs it (vectorjce-tool/pom.xml); by hand:
#
#   bin/lib/aot-train.bash vectorjce-tool/target/vectorjce-tool-VERSION-volume.jar
#
# One training JVM per cache (org.vectorjce.tool.volume.AotTraining, on the JDK 25+ that bin/volume
# finds, with or without the vector module as bin/volume runs the commands): over a small LUKS2
# volume it makes in a temporary folder, and cryptsetup's BitLocker test image from testvectors/.
# Without a JDK 25 it says so and makes nothing (bin/volume then runs without a cache). It never
# fails the build: a cache it could not make is only missing.
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
source "$root/bin/lib/launch.bash"
jar=$(readlink -f "${1:?usage: bin/lib/aot-train.bash JAR}")
rm -f "${jar%.jar}.aot" "${jar%.jar}.help.aot" "${jar%.jar}.base.aot"
if ! home=$(find_jdk25); then
  echo "aot-train: no JDK 25 or newer found: no AOT cache for $jar (bin/volume runs without one)" >&2
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bitlk=()
if tar -xJSf "$root/testvectors/bitlk-images/bitlk-images.tar.xz" -C "$work" bitlk-images/bitlk-aes-xts-128.img 2>/dev/null; then
  bitlk=("$work/bitlk-images/bitlk-aes-xts-128.img")
fi
mkdir "$work/run"

# train NAME SECONDS JAVA_ARGS...: one training JVM that writes the cache ${jar%.jar}NAME, or says why not
train() {
  local out=${jar%.jar}$1 limit=$2; shift 2
  # -Xlog:aot/cds off: the JVM reports on stdout, and what matters is whether the file appears;
  # timeout: a training that stops answering cannot hold up the build
  if timeout "$limit" "$home/bin/java" -XX:AOTCacheOutput="$work/new.aot" -Xlog:aot=off -Xlog:cds=off "$@" \
      >/dev/null 2>"$work/err" && [ -s "$work/new.aot" ]; then
    mv "$work/new.aot" "$out"
    echo "aot-train: wrote $out ($(du -h "$out" | cut -f1), for $("$home/bin/java" -version 2>&1 | sed -n 2p))" >&2
  else
    echo "aot-train: no $out (bin/volume runs without it): $(grep -v '^WARNING: Using incubator' "$work/err" | head -n 3 | tr '\n' ' ')" >&2
  fi
  rm -f "$work/new.aot"
}
train .aot 300 --add-modules jdk.incubator.vector -cp "$jar" org.vectorjce.tool.volume.AotTraining "$work/run"
# without the vector module and with the serial collector, as bin/volume runs these command lines
# (so that the JVM can use the caches' linked classes)
train .help.aot 120 -XX:+UseSerialGC -cp "$jar" org.vectorjce.tool.volume.AotTraining --help-cache
if [ ${#bitlk[@]} -gt 0 ]; then
  train .base.aot 120 -XX:+UseSerialGC -cp "$jar" org.vectorjce.tool.volume.AotTraining --base-cache "$work/run" "${bitlk[0]}"
fi
exit 0
