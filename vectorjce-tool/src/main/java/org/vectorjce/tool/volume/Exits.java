package org.vectorjce.tool.volume;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;

import picocli.CommandLine;

/**
 * The {@code volume} command's exit statuses, the only place that maps a failure to one, and the
 * one line on standard error that goes with it: 0 success, 2 no key slot or header opened with the
 * secrets given (cryptsetup's code), 1 anything else. Shared by the LUKS and the
 * TrueCrypt/VeraCrypt verbs; picocli calls {@link #onParameterError} for a command line it cannot
 * parse and {@link #onExecutionError} for a verb that throws.
 */
public final class Exits {
    public static final int OK = 0, FAIL = 1, NO_KEY = 2;

    /** The exit statuses as every verb's help lists them ({@code exitCodeList}). */
    static final Map<String, String> HELP = help();

    private static Map<String, String> help() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("0", "Success.");
        m.put("1", "Anything else: a wrong option or argument, a missing file, a bad header, ... (one line on "
                + "standard error).");
        m.put("2", "No key slot (LUKS), header (TrueCrypt/VeraCrypt), VMK (BitLocker) or key bag (FileVault 2) "
                + "opened with the secrets given.");
        return java.util.Collections.unmodifiableMap(m);
    }

    private Exits() {
    }

    /**
     * A command line picocli could not parse (unknown option or verb, missing argument, a value of
     * the wrong type): its message as one line, with a pointer to the verb's help; status 1.
     */
    static int onParameterError(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        String message = e.getMessage() == null ? "Bad command line" : e.getMessage().lines().findFirst().orElse("");
        if (e instanceof CommandLine.UnmatchedArgumentException u && cl.getParent() == null
                && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
            message = "Unknown command " + u.getUnmatched().get(0);
        } else if (e instanceof CommandLine.UnmatchedArgumentException u) {
            // picocli lists an unknown option's would-be value too: name the options only
            java.util.List<String> options = u.getUnmatched().stream().filter(a -> a.startsWith("-")).toList();
            if (!options.isEmpty()) {
                message = (options.size() == 1 ? "Unknown option: " : "Unknown options: ")
                        + String.join(", ", options.stream().map(o -> "'" + o + "'").toList());
            }
        }
        cl.getErr().println(message + " (see '" + cl.getCommandSpec().qualifiedName() + " --help')");
        cl.getErr().flush();
        return FAIL;
    }

    /** A verb that failed: {@link #report}'s line and status. */
    static int onExecutionError(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        Throwable t = e instanceof CommandLine.ExecutionException && e.getCause() != null ? e.getCause() : e;
        return report(cl.getErr(), t);
    }

    /**
     * Writes the one line for {@code t} to {@code err} (a usage error's message as it is, never a
     * stack trace) and returns its exit status.
     */
    static int report(PrintWriter err, Throwable t) {
        int rc = FAIL;
        if (t instanceof WrongPassphraseException e) {
            String m = e.getMessage();
            err.println(Character.toUpperCase(m.charAt(0)) + m.substring(1) + ".");
            rc = NO_KEY;
        } else if (t instanceof VolumeException || t instanceof UsageException) {
            err.println(t.getMessage());
        } else if (t instanceof org.vectorjce.fs.CorruptFileSystemException
                || t instanceof org.vectorjce.fs.UnknownFileSystemException) {
            err.println(t.getMessage());
        } else if (t instanceof java.nio.file.FileSystemLoopException e) {
            err.println("Loop in the filesystem: " + e.getFile());
        } else if (t instanceof NoSuchFileException e) {
            err.println("No such file: " + e.getFile());
        } else if (t instanceof FileAlreadyExistsException e) {
            err.println("Refusing to overwrite " + e.getFile() + ": it exists");
        } else if (t instanceof IOException) {
            err.println("I/O error: " + t.getMessage());
        } else if (t instanceof OutOfMemoryError) {
            err.println("Out of memory: run java with a larger -Xmx");
        } else if (t instanceof RuntimeException) {
            err.println("Internal error: " + t);
        } else if (t instanceof Error e) {
            throw e;
        } else {
            err.println(t.getMessage());
        }
        err.flush();
        return rc;
    }
}
