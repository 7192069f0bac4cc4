package org.vectorjce.tool.volume;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;

/**
 * {@code volume mount}: one volume's plaintext as the single file {@code DIR/NAME} of a FUSE mount
 * (module vectorjce-fuse, jfuse over libfuse3), or with {@code --files} the filesystem inside it as
 * the tree of {@code DIR}, until {@code fusermount3 -u DIR}, SIGINT or SIGTERM.
 *
 * <p>jfuse is Java 22 code (the foreign function API): this class, compiled for Java 17 as the
 * rest of the command, finds {@code org.vectorjce.fuse.VolumeMount} and
 * {@code org.vectorjce.fuse.FileTreeMount} by name only after checking
 * the JVM's version, so every other verb keeps running on Java 17 and never loads it.
 */
final class MountCommand {
    static final int JAVA = 22;
    private static final String MOUNT = "org.vectorjce.fuse.VolumeMount";
    private static final String TREE = "org.vectorjce.fuse.FileTreeMount";

    private final PrintStream out, err;
    private final boolean signals;

    MountCommand(PrintStream out, PrintStream err, boolean signals) {
        this.out = out;
        this.err = err;
        this.signals = signals;
    }

    /**
     * {@code className} of module vectorjce-fuse, after checking that this JVM and this machine
     * can run it: Java {@value #JAVA}+, the class in the jar, libfuse3 and {@code /dev/fuse}
     * (its {@code problem()}).
     */
    private static Class<?> fuse(String className) throws Exception {
        int feature = Runtime.version().feature();
        if (feature < JAVA) {
            throw new VolumeException("volume mount needs Java " + JAVA + " or newer (FUSE through the foreign function"
                    + " API); this is Java " + feature + ": run it with bin/volume, which looks for a JDK 25, or set"
                    + " JAVA_HOME to a JDK " + JAVA + "+");
        }
        Class<?> c;
        try {
            c = Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new VolumeException("volume mount: " + className + " (module vectorjce-fuse) is not in this jar");
        }
        String problem = (String) c.getMethod("problem").invoke(null);
        if (problem != null) {
            throw new VolumeException(problem);
        }
        return c;
    }

    /** Refuses a mount point that is not an existing folder. */
    private static void mountPoint(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            throw new NoSuchFileException(dir.toString());
        }
        if (!Files.isDirectory(dir)) {
            throw new VolumeException("DIR " + dir + " is not a folder: mount needs an existing folder to mount on");
        }
    }

    @SuppressWarnings("try") // the lock is held, not read
    int mount(Path image, Path dir, boolean readOnly, ServeCommand.Unlocker unlocker) throws Exception {
        Class<?> c = fuse(MOUNT);
        Checks.image(image);
        mountPoint(dir);
        String name = image.getFileName().toString();
        ImageLock.probe(image, !readOnly);
        try (Volume v = unlocker.open(!readOnly);
             ImageLock lock = ImageLock.hold(image, !readOnly && !v.readOnly())) {
            boolean ro = readOnly || v.readOnly();
            AutoCloseable m = (AutoCloseable) call(c.getMethod("mount", Volume.class, Path.class, String.class,
                    boolean.class), null, v, dir, name, ro);
            serve(c, m, dir.resolve(name).toString(), "Mounted " + image + " (" + v.info().format().typeName()
                    + ", " + v.payloadSize() + " bytes, " + (ro ? "read-only" : "read-write") + ") as "
                    + dir.resolve(name) + "; fusermount3 -u " + dir + ", SIGINT or SIGTERM unmounts.");
            v.flush();
        }
        return Exits.OK;
    }

    /**
     * {@code volume mount --files}: the filesystem on the device {@code opener} opens (chosen by
     * {@code env}, as {@code ls} chooses it) as the read-only tree of {@code dir}, through
     * {@code org.vectorjce.fuse.FileTreeMount}, until unmounted; the image is locked shared.
     */
    @SuppressWarnings("try") // the lock is held, not read
    int mountFiles(Path image, Path dir, Map<String, Object> env, DiskFiles.Opener opener) throws Exception {
        Class<?> c = fuse(TREE);
        Checks.image(image);
        mountPoint(dir);
        ImageLock.probe(image, false);
        try (DiskFiles.Opened o = opener.open();
             ImageLock lock = ImageLock.hold(image, false);
             FileSystem fs = DiskFiles.fileSystem(o, env)) {
            Map<String, String> facts = DiskFiles.facts(o, fs);
            AutoCloseable m;
            try {
                m = (AutoCloseable) call(c.getMethod("mount", Path.class, Path.class, String.class), null,
                        fs.getPath("/"), dir, image.getFileName().toString());
            } catch (IOException e) {
                throw new VolumeException("Cannot mount on " + dir + ": " + e.getMessage());
            }
            serve(c, m, dir.toString(), "Mounted the files of " + image + " (" + DiskFiles.describe(facts)
                    + ") read-only on " + dir + "; fusermount3 -u " + dir + ", Ctrl-C or SIGTERM unmounts.");
        }
        return Exits.OK;
    }

    /**
     * Runs the mount {@code m} (of class {@code c}) until it is gone: SIGINT and SIGTERM unmount
     * it, {@code line} goes to standard error and {@code path} to standard output, then it waits
     * for the unmount and closes {@code m} whatever happens.
     */
    private void serve(Class<?> c, AutoCloseable m, String path, String line) throws Exception {
        List<Object> restore = new ArrayList<>();
        try {
            if (signals) {
                Signals.onStop(() -> {
                    try {
                        m.close();
                    } catch (Exception e) {
                        // the loop did not end in time: the main thread's close reports it
                    }
                }, restore);
            }
            err.println(line);
            err.flush();
            out.println(path);
            out.flush();
            call(c.getMethod("awaitUnmount"), m);
        } finally {
            m.close();
            Signals.restore(restore);
        }
    }

    /** {@code method} on {@code target}, its own exception unwrapped. */
    private static Object call(Method method, Object target, Object... args) throws Exception {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof Exception x) {
                throw x;
            }
            if (t instanceof Error x) {
                throw x;
            }
            throw new IOException(t);
        }
    }
}
