# Sourced by the bench scripts (from bench/): JAVA_HOME is the JDK 25+ they run on — $JAVA_HOME
# when it is one, else Temurin 25 where Debian's package puts it — and java_major JAVA prints a
# java's release.
java_major() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
if [ -z "${JAVA_HOME:-}" ] || [ "$(java_major "$JAVA_HOME/bin/java")" -lt 25 ] 2>/dev/null; then
  JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
