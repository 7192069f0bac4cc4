package org.vectorjce.tool.volume;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** The checks of a command line's values every verb makes the same way, each failure one line naming the value. */
final class Checks {
    private Checks() {
    }

    /** Refuses {@code v} outside {@code [min, max]}, with the option's name. */
    static void range(Number v, String option, long min, long max) throws UsageException {
        if (v != null && (v.longValue() < min || v.longValue() > max)) {
            throw new UsageException(option + " " + v + ": a number from " + min + " to " + max);
        }
    }

    /** Refuses an IMAGE that does not exist, or that is a directory, naming it. */
    static void image(Path image) throws NoSuchFileException, UsageException {
        if (!Files.exists(image)) {
            throw new NoSuchFileException(image.toString());
        }
        if (Files.isDirectory(image)) {
            throw new UsageException(image + " is a directory, not a volume image");
        }
    }

    /** Refuses a key file ({@code what}: how the message names it) that is a directory. */
    static void keyFile(Path file, String what) throws UsageException {
        if (Files.isDirectory(file)) {
            throw new UsageException(what + " " + file + " is a directory");
        }
    }

    /** Refuses decrypt's OUT when it exists, or when the folder to create it in does not. */
    static void out(Path target) throws FileAlreadyExistsException, UsageException {
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        Path folder = target.getParent();
        if (folder != null && !Files.exists(folder)) {
            throw new UsageException(target + " cannot be created: the folder " + folder + " does not exist");
        }
    }

    /** The default number of workers: the processor count. */
    static int processors() {
        return Runtime.getRuntime().availableProcessors();
    }
}
