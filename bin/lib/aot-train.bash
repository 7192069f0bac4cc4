#!/usr/bin/env bash
# Makes the JDK 25 AOT caches that bin/volume starts with (JEP 483/514/515: the classes the verbs
# load, linked, and the JIT's profiles), next to the jar: JAR with .aot for .jar, and .help.aot for
# --version and --help, which bin/volume runs without the vector module. The build's
# package phase runs it (vectorjce-tool/pom.xml); by hand:
#
#   bin/lib/aot-train.bash vectorjce-tool/target/vectorjce-tool-VERSION-volume.jar
#
# One training JVM (org.vectorjce.tool.volume.AotTraining, on the JDK 25+ that bin/volume finds,
# with the vector module as bin/volume runs it) over a small LUKS2 volume it makes in a temporary
# folder, and cryptsetup's BitLocker test image from testvectors/. Without a JDK 25 it says so and
# makes nothing (bin/volume then runs without a cache). It never fails the build: a cache it could
# not make is only missing.
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
source "$root/bin/lib/launch.bash"
jar=$(readlink -f "${1:?usage: bin/lib/aot-train.bash JAR}")
cache=${jar%.jar}.aot
rm -f "$cache"
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
# -Xlog:aot/cds off: the JVM reports on stdout, and what matters is whether the file appears;
# timeout: a training that stops answering cannot hold up the build
if timeout 300 "$home/bin/java" -XX:AOTCacheOutput="$work/volume.aot" -Xlog:aot=off -Xlog:cds=off \
    --add-modules jdk.incubator.vector -cp "$jar" org.vectorjce.tool.volume.AotTraining "$work/run" "${bitlk[@]}" \
    >/dev/null 2>"$work/err" && [ -s "$work/volume.aot" ]; then
  mv "$work/volume.aot" "$cache"
  echo "aot-train: wrote $cache ($(du -h "$cache" | cut -f1), for $("$home/bin/java" -version 2>&1 | sed -n 2p))" >&2
else
  echo "aot-train: no AOT cache for $jar (bin/volume runs without one): $(grep -v '^WARNING: Using incubator' "$work/err" | head -n 3 | tr '\n' ' ')" >&2
fi
# The second cache, for --version and --help (bin/volume runs them without the vector module, so
# that the JVM can use the cache's linked classes): one training run of --help.
help_cache=${jar%.jar}.help.aot
rm -f "$help_cache"
if timeout 120 "$home/bin/java" -XX:AOTCacheOutput="$work/help.aot" -Xlog:aot=off -Xlog:cds=off -jar "$jar" --help \
    >/dev/null 2>"$work/err" && [ -s "$work/help.aot" ]; then
  mv "$work/help.aot" "$help_cache"
  echo "aot-train: wrote $help_cache ($(du -h "$help_cache" | cut -f1))" >&2
else
  echo "aot-train: no AOT cache for --version and --help: $(head -n 3 "$work/err" | tr '\n' ' ')" >&2
fi
exit 0
