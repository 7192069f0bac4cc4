# Shared by bin/vectorjce and bin/volume (sourced, not run): finds a JDK 25 or newer where the
# build's toolchain search looks for one, and runs a runnable jar of this checkout on it with the
# Vector API module; without one, says what it found on stderr and runs the default java (the
# base kernels).
#
#   launch NAME JAR_GLOB [ARGS...]
#
# JAR_GLOB is relative to the repository root. JAVA_OPTS, when set, goes to the JVM before -jar
# (e.g. JAVA_OPTS="-XX:UseAVX=2 -Dvectorjce.constantTime=true"). On a JDK 25+, the jar's AOT cache
# (the same name with .aot) is used where the build made one; the command lines no vector kernel
# serves run without the vector module, on caches of their own (.help.aot for --version and
# --help; .base.aot for volume test, info and decrypt of a BitLocker volume).

# The search below runs before every command, so it starts no process of its own: bash builtins
# read each candidate's release file (a JDK's, JEP 220), and the results come back in variables.

# Sets feature to the Java feature release of the JDK at $1, from its release file's JAVA_VERSION;
# returns 1 where $1 has no java or no readable release file.
jdk_feature() {
  local line v=""
  feature=""
  [ -x "$1/bin/java" ] && [ -r "$1/release" ] || return 1
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in JAVA_VERSION=*) v=${line#JAVA_VERSION=}; v=${v//\"/}; break ;; esac
  done < "$1/release"
  case $v in 1.*) v=${v#1.} ;; esac
  v=${v%%[!0-9]*}
  [ -n "$v" ] || return 1
  feature=$v
}

# Sets default_home to the home of the java first on PATH (through its symbolic links), or returns 1.
default_java_home() {
  local d j="" dirs
  default_home=""
  IFS=: read -r -a dirs <<<"${PATH:-}"
  for d in "${dirs[@]}"; do
    [ -n "$d" ] && [ -x "$d/java" ] && [ ! -d "$d/java" ] && { j=$d/java; break; }
  done
  [ -n "$j" ] || return 1
  [ -L "$j" ] && j=$(readlink -f "$j" 2>/dev/null || echo "$j")
  default_home=${j%/bin/java}
}

# Sets jdk25 to the home of a JDK 25+ and returns 0, or returns 1. In the build's order: JAVA_HOME,
# the java on PATH, the JAVAnn_HOME variables (newest first), then the places JDK installers and
# version managers use, newest first. (find_jdk25 prints it instead.)
find_jdk25_home() {
  local home best="" bestv=0 var n feature default_home=""
  jdk25=""
  if [ -n "${JAVA_HOME:-}" ] && jdk_feature "$JAVA_HOME" && [ "$feature" -ge 25 ]; then
    jdk25=$JAVA_HOME; return 0
  fi
  if default_java_home && jdk_feature "$default_home" && [ "$feature" -ge 25 ]; then
    jdk25=$default_home; return 0
  fi
  for var in ${!JAVA*}; do   # the JAVAnn_HOME variables: the highest release that is a JDK 25+
    n=${var#JAVA}; n=${n%_HOME}
    [[ $var == JAVA*_HOME && $n =~ ^[0-9]+$ ]] || continue
    jdk_feature "${!var}" && [ "$feature" -ge 25 ] && [ "$feature" -gt "$bestv" ] && { best=${!var}; bestv=$feature; }
  done
  [ -n "$best" ] && { jdk25=$best; return 0; }
  for home in /usr/lib/jvm/* /usr/java/* /usr/jdk/* /opt/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home \
      "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* "$HOME"/.m2/jdks/* "$HOME"/.gradle/jdks/* \
      "$HOME"/.jbang/cache/jdks/* "$HOME"/.asdf/installs/java/* "$HOME"/.jenv/versions/*; do
    [ -L "$home" ] && continue  # aliases such as default-java or sdkman's current
    jdk_feature "$home" || continue
    if [ "$feature" -ge 25 ] && [ "$feature" -gt "$bestv" ]; then best=$home; bestv=$feature; fi
  done
  [ -n "$best" ] && { jdk25=$best; return 0; }
  return 1
}

# Prints the home of a JDK 25+ and returns 0, or returns 1 (find_jdk25_home's answer).
find_jdk25() {
  local jdk25
  find_jdk25_home && echo "$jdk25"
}

# Whether the arguments of volume test, info or decrypt name a BitLocker volume (--type bitlk, -M
# bitlk): no vector kernel serves them (the key stretch is SHA-256, the keys are unwrapped with a
# few AES blocks, the sectors are AES-CBC or AES-XTS on the JDK's AES). A form this misses runs
# with the vector module, as any other command.
bitlk_type() {
  local a prev=""
  for a in "$@"; do
    case $prev in --type|-M) [ "$a" = bitlk ] && return 0 ;; esac
    case $a in --type=bitlk|-Mbitlk|-M=bitlk) return 0 ;; esac
    prev=$a
  done
  return 1
}

launch() {
  local name=$1 glob=$2; shift 2
  local root jar home java opts=() jdk25 f
  # the checkout: three levels above this file, as an absolute path without . or .. (the JVM
  # matches an AOT cache to the jar's path as written)
  root=${BASH_SOURCE[0]}
  [ -L "$root" ] && root=$(readlink -f "$root")
  case $root in /*) ;; *) root=$PWD/$root ;; esac
  root=${root//\/.\//\/}
  root=${root%/*/*/*}
  case $root in *..*|*/.|"") root=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd -P) ;; esac
  jar=""
  for f in "$root"/$glob; do   # the newest of the jars the glob names
    [ -f "$f" ] && { [ -z "$jar" ] || [ "$f" -nt "$jar" ]; } && jar=$f
  done
  if [ -z "$jar" ]; then
    echo "$name: $glob is not built; build it from $root with: ./mvnw -B -q package -DskipTests" >&2
    return 1
  fi
  if find_jdk25_home; then
    java=$jdk25/bin/java
    # The JDK 25 AOT cache the build made next to the jar (bin/lib/aot-train.bash), when it is newer
    # than the jar and JAVA_OPTS names no cache or sharing of its own. A cache made by another JDK
    # is refused by the JVM, which then starts as without one; -Xlog:aot/cds off keeps its notes
    # off stdout. JAVA_OPTS=-XX:AOTMode=off runs without it.
    local aot=${jar%.jar}.aot
    case "${1:-}" in
      --version|-V|--help|-h|help|"")
        # Only words, no cipher: without the vector module, whose presence keeps the JVM from using
        # a cache's linked classes (JDK 25), and with the cache trained on --version and --help.
        aot=${jar%.jar}.help.aot ;;
      test|info|decrypt)
        if [ "$name" = volume ] && bitlk_type "${@:2}"; then
          aot=${jar%.jar}.base.aot   # as above: no vector kernel would serve them
        else
          opts=(--add-modules jdk.incubator.vector)
        fi ;;
      *) opts=(--add-modules jdk.incubator.vector) ;;
    esac
    # The command lines without the vector module allocate a few MB and end: the serial collector
    # spares them G1's set-up (its regions, remembered sets and threads), ~20 ms; the JVM picks it
    # itself on a machine with one processor or less than 1792 MB. Not where JAVA_OPTS picks a collector.
    case "${opts[*]:-} | ${JAVA_OPTS:-}" in
      *add-modules*|*Use*GC*) ;;
      *) opts+=(-XX:+UseSerialGC) ;;
    esac
    case " ${JAVA_OPTS:-} " in
      *AOTCache*|*AOTMode*|*-Xshare*|*SharedArchiveFile*) ;;
      *) if [ -f "$aot" ] && [ "$aot" -nt "$jar" ]; then
           opts+=(-XX:AOTCache="$aot" -Xlog:aot=off -Xlog:cds=off)
         fi ;;
    esac
  else
    local dh="" dv="" feature default_home
    if default_java_home; then
      dh=$default_home
      jdk_feature "$dh" && dv=$feature
    fi
    if [ -z "$dh" ] || [ -z "$dv" ]; then
      echo "$name: no java found (JAVA_HOME, PATH, JAVAnn_HOME, /usr/lib/jvm, ~/.sdkman/candidates/java, ...): install a JDK 25 or newer" >&2
      return 127
    fi
    echo "$name: no JDK 25 or newer found (JAVA_HOME=${JAVA_HOME:-unset}; the java on PATH is $dv at $dh; nor in the JAVAnn_HOME variables, /usr/lib/jvm, ~/.sdkman/candidates/java, ...): running on Java $dv with the base kernels only; set JAVA25_HOME or JAVA_HOME to a JDK 25+ for the Vector API kernels" >&2
    java=$dh/bin/java
  fi
  # Transparent huge pages for the Java heap where Linux gives them on request (THP mode
  # "madvise"; in mode "always" it gives them anyway): the first touch of each 4 KiB page is a
  # fault, costly on a virtual machine, and Argon2 touches hundreds of MiB at once (docs/performance.md,
  # "Unlocking"). Not on other systems, whose JVMs have no such option, nor where JAVA_OPTS
  # chooses page sizes (JAVA_OPTS=-XX:-UseTransparentHugePages runs without them).
  local thp=""
  case "$OSTYPE | ${JAVA_OPTS:-}" in
    *HugePages*|*LargePages*) ;;
    linux*)
      if [ -r /sys/kernel/mm/transparent_hugepage/enabled ]; then
        read -r thp </sys/kernel/mm/transparent_hugepage/enabled || true
      fi
      case $thp in *"[madvise]"*) opts+=(-XX:+UseTransparentHugePages) ;; esac ;;
  esac
  # shellcheck disable=SC2086 # JAVA_OPTS is a list of words
  exec "$java" "${opts[@]}" ${JAVA_OPTS:-} -jar "$jar" "$@"
}
