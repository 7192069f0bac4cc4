package org.vectorjce.fuse;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.cryptomator.jfuse.api.Fuse;
import org.cryptomator.jfuse.api.FuseBuilder;

/**
 * What every mount of this module needs before it mounts: whether FUSE can be used here (Linux,
 * libfuse3's file, a usable {@code /dev/fuse}, {@code fusermount3} on the {@code PATH}), jfuse's
 * builder pointed at that libfuse3, and the uid and gid of the user running the JVM. Loads
 * nothing until {@link #builder()}.
 */
final class FuseLibrary {
    /** The system property naming libfuse3's file, for a system where it is in no usual place. */
    static final String LIBRARY_PROPERTY = "vectorjce.fuse.library";

    private FuseLibrary() {
    }

    /** Why FUSE cannot be used here, or {@code null}: see {@link VolumeMount#problem()}. */
    static String problem() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "FUSE mounts work on Linux only (libfuse3); this is " + System.getProperty("os.name");
        }
        return problem(libraryCandidates(), Path.of("/dev/fuse"), pathDirs());
    }

    /** {@link #problem()} over the given places (for the tests). */
    static String problem(List<Path> libraries, Path devFuse, List<Path> pathDirs) {
        if (library(libraries) == null) {
            return "libfuse3 was not found (" + describe(libraries) + "): install it (Debian, Ubuntu: apt-get install fuse3)"
                    + " or name its file with -D" + LIBRARY_PROPERTY + "=PATH";
        }
        if (!Files.exists(devFuse)) {
            return devFuse + " is missing: load the kernel module (modprobe fuse), or give a container the device";
        }
        if (!Files.isReadable(devFuse) || !Files.isWritable(devFuse)) {
            return devFuse + " is not readable and writable by this user";
        }
        for (Path d : pathDirs) {
            if (Files.isExecutable(d.resolve("fusermount3"))) {
                return null;
            }
        }
        return "fusermount3 was not found on the PATH: install it (Debian, Ubuntu: apt-get install fuse3)";
    }

    /**
     * jfuse's builder for this platform, set to load the libfuse3 {@link #problem()} found.
     *
     * @throws FuseUnavailableException when FUSE cannot be used here, or jfuse has no binding for
     *     this platform
     */
    static FuseBuilder builder() throws FuseUnavailableException {
        String problem = problem();
        if (problem != null) {
            throw new FuseUnavailableException(problem);
        }
        FuseBuilder builder;
        try {
            builder = Fuse.builder();
        } catch (UnsupportedOperationException e) {
            throw new FuseUnavailableException("jfuse has no binding for " + System.getProperty("os.name") + " on "
                    + System.getProperty("os.arch"), e);
        }
        builder.setLibraryPath(library(libraryCandidates()).toString());
        return builder;
    }

    /** The first of {@code candidates} that is a file, or null. */
    static Path library(List<Path> candidates) {
        for (Path p : candidates) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Where libfuse3 may be: the property's file alone when it is set; else libfuse3.so.3 (what
     * the runtime package installs) and libfuse3.so (the development symlink) in
     * {@code java.library.path} and the usual library folders, the multiarch ones first.
     */
    static List<Path> libraryCandidates() {
        String named = System.getProperty(LIBRARY_PROPERTY);
        if (named != null && !named.isEmpty()) {
            return List.of(Path.of(named));
        }
        String arch = System.getProperty("os.arch", "");
        String multiarch = switch (arch) {
            case "amd64", "x86_64" -> "x86_64-linux-gnu";
            case "aarch64", "arm64" -> "aarch64-linux-gnu";
            default -> arch + "-linux-gnu";
        };
        List<String> dirs = new ArrayList<>(List.of("/lib/" + multiarch, "/usr/lib/" + multiarch, "/lib64",
                "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib", "/usr/local/lib/" + multiarch));
        for (String d : System.getProperty("java.library.path", "").split(File.pathSeparator)) {
            if (!d.isEmpty() && !dirs.contains(d)) {
                dirs.add(d);
            }
        }
        List<Path> out = new ArrayList<>();
        for (String name : new String[] {"libfuse3.so.3", "libfuse3.so"}) {
            for (String d : dirs) {
                out.add(Path.of(d, name));
            }
        }
        return out;
    }

    private static String describe(List<Path> candidates) {
        if (candidates.size() == 1) {
            return "no file " + candidates.get(0);
        }
        Set<String> dirs = new LinkedHashSet<>();
        Set<String> names = new LinkedHashSet<>();
        for (Path p : candidates) {
            dirs.add(String.valueOf(p.getParent()));
            names.add(String.valueOf(p.getFileName()));
        }
        return String.join(" or ", names) + " in " + (dirs.size() > 3
                ? String.join(", ", new ArrayList<>(dirs).subList(0, 3)) + " and " + (dirs.size() - 3) + " more folders"
                : String.join(", ", dirs));
    }

    private static List<Path> pathDirs() {
        List<Path> out = new ArrayList<>();
        String path = System.getenv("PATH");
        for (String d : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
            if (!d.isEmpty()) {
                out.add(Path.of(d));
            }
        }
        return out;
    }

    /** The uid and gid of this process (its /proc entry's owner), else of {@code dir}. */
    static int[] owner(Path dir) {
        for (Path p : new Path[] {Path.of("/proc/self"), dir}) {
            try {
                return new int[] {(Integer) Files.getAttribute(p, "unix:uid"), (Integer) Files.getAttribute(p, "unix:gid")};
            } catch (java.io.IOException | RuntimeException e) {
                // the next
            }
        }
        return new int[] {0, 0};
    }
}
