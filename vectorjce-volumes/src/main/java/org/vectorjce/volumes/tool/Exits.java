package org.vectorjce.volumes.tool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;

/**
 * The {@code volume} command's exit statuses, and the one line on standard error that goes with a
 * failure: 0 success, 2 no key slot or header opened with the secrets given (cryptsetup's code), 1
 * anything else. Shared by the LUKS and the TrueCrypt/VeraCrypt verbs.
 */
public final class Exits {
    public static final int OK = 0, FAIL = 1, NO_KEY = 2;

    /** A command's body: returns its exit status or throws what {@link #run} reports. */
    @FunctionalInterface
    public interface Body {
        int run() throws Exception;
    }

    private Exits() {
    }

    /**
     * Runs {@code body} and returns its status; a failure becomes its exit status and one line on
     * {@code err} (a usage error's message as it is), never a stack trace.
     */
    public static int run(PrintStream err, Body body) {
        try {
            return body.run();
        } catch (WrongPassphraseException e) {
            String m = e.getMessage();
            err.println(Character.toUpperCase(m.charAt(0)) + m.substring(1) + ".");
            return NO_KEY;
        } catch (VolumeException e) {
            err.println(e.getMessage());
            return FAIL;
        } catch (NoSuchFileException e) {
            err.println("No such file: " + e.getFile());
            return FAIL;
        } catch (FileAlreadyExistsException e) {
            err.println("Refusing to overwrite " + e.getFile() + ": it exists");
            return FAIL;
        } catch (IOException e) {
            err.println("I/O error: " + e.getMessage());
            return FAIL;
        } catch (OutOfMemoryError e) {
            err.println("Out of memory: run java with a larger -Xmx");
            return FAIL;
        } catch (RuntimeException e) {
            err.println("Internal error: " + e);
            return FAIL;
        } catch (Exception e) { // UsageException and any other checked failure
            err.println(e.getMessage());
            return FAIL;
        }
    }
}
