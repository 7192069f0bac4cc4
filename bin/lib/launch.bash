# Shared by bin/vectorjce and bin/volume (sourced, not run): finds a JDK 25 or newer where the
# build's toolchain search looks for one, and runs a runnable jar of this checkout on it with the
# Vector API module; without one, says what it found on stderr and runs the default java (the
# base kernels).
#
#   launch NAME JAR_GLOB [ARGS...]
#
# JAR_GLOB is relative to the repository root. JAVA_OPTS, when set, goes to the JVM before -jar
# (e.g. JAVA_OPTS="-XX:UseAVX=2 -Dvectorjce.constantTime=true"). On a JDK 25+, the jar's AOT cache
# (the same name with .aot) is used where the build made one.

# The Java feature release of the JDK at $1 (its release file, else its java's own report).
jdk_feature() {
  local home=$1 v=""
  [ -x "$home/bin/java" ] || return 1
  if [ -r "$home/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$home/release")
  fi
  if [ -z "$v" ]; then
    v=$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  fi
  case $v in 1.*) v=${v#1.}; v=${v%%.*} ;; esac
  [ -n "$v" ] && echo "$v"
}

# The home of the java first on PATH, or nothing.
default_java_home() {
  local j
  j=$(command -v java 2>/dev/null) || return 1
  j=$(readlink -f "$j" 2>/dev/null || echo "$j")
  dirname "$(dirname "$j")"
}

# Prints the home of a JDK 25+ and returns 0, or returns 1. In the build's order: JAVA_HOME, the
# java on PATH, the JAVAnn_HOME variables (newest first), then the places JDK installers and
# version managers use, newest first.
find_jdk25() {
  local home v best="" bestv=0 var n
  for home in "${JAVA_HOME:-}" "$(default_java_home)"; do
    [ -n "$home" ] || continue
    v=$(jdk_feature "$home") || continue
    if [ "$v" -ge 25 ] 2>/dev/null; then echo "$home"; return 0; fi
  done
  for n in $(compgen -v | sed -n 's/^JAVA\([0-9][0-9]*\)_HOME$/\1/p' | sort -rn); do
    var=JAVA${n}_HOME
    home=${!var}
    v=$(jdk_feature "$home") || continue
    if [ "$v" -ge 25 ] 2>/dev/null; then echo "$home"; return 0; fi
  done
  for home in /usr/lib/jvm/* /usr/java/* /usr/jdk/* /opt/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home \
      "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* "$HOME"/.m2/jdks/* "$HOME"/.gradle/jdks/* \
      "$HOME"/.jbang/cache/jdks/* "$HOME"/.asdf/installs/java/* "$HOME"/.jenv/versions/*; do
    [ -L "$home" ] && continue  # aliases such as default-java or sdkman's current
    v=$(jdk_feature "$home") || continue
    if [ "$v" -ge 25 ] 2>/dev/null && [ "$v" -gt "$bestv" ]; then best=$home; bestv=$v; fi
  done
  [ -n "$best" ] && { echo "$best"; return 0; }
  return 1
}

launch() {
  local name=$1 glob=$2; shift 2
  local root jar home java opts=()
  root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}" 2>/dev/null || echo "${BASH_SOURCE[0]}")")/../.." && pwd)
  jar=$(ls -t "$root"/$glob 2>/dev/null | head -n 1) || true
  if [ -z "$jar" ]; then
    echo "$name: $glob is not built; build it from $root with: ./mvnw -B -q package -DskipTests" >&2
    return 1
  fi
  if home=$(find_jdk25); then
    java=$home/bin/java
    opts=(--add-modules jdk.incubator.vector)
    # The JDK 25 AOT cache the build made next to the jar (bin/lib/aot-train.bash), when it is newer
    # than the jar and JAVA_OPTS names no cache or sharing of its own. A cache made by another JDK
    # is refused by the JVM, which then starts as without one; -Xlog:aot/cds off keeps its notes
    # off stdout. JAVA_OPTS=-XX:AOTMode=off runs without it.
    local aot=${jar%.jar}.aot
    case " ${JAVA_OPTS:-} " in
      *AOTCache*|*AOTMode*|*-Xshare*|*SharedArchiveFile*) ;;
      *) if [ -f "$aot" ] && [ "$aot" -nt "$jar" ]; then
           opts+=(-XX:AOTCache="$aot" -Xlog:aot=off -Xlog:cds=off)
         fi ;;
    esac
  else
    local dh dv
    dh=$(default_java_home) || true
    dv=$( [ -n "$dh" ] && jdk_feature "$dh" ) || true
    if [ -z "$dh" ] || [ -z "$dv" ]; then
      echo "$name: no java found (JAVA_HOME, PATH, JAVAnn_HOME, /usr/lib/jvm, ~/.sdkman/candidates/java, ...): install a JDK 25 or newer" >&2
      return 127
    fi
    echo "$name: no JDK 25 or newer found (JAVA_HOME=${JAVA_HOME:-unset}; the java on PATH is $dv at $dh; nor in the JAVAnn_HOME variables, /usr/lib/jvm, ~/.sdkman/candidates/java, ...): running on Java $dv with the base kernels only; set JAVA25_HOME or JAVA_HOME to a JDK 25+ for the Vector API kernels" >&2
    java=$dh/bin/java
  fi
  # shellcheck disable=SC2086 # JAVA_OPTS is a list of words
  exec "$java" "${opts[@]}" ${JAVA_OPTS:-} -jar "$jar" "$@"
}
