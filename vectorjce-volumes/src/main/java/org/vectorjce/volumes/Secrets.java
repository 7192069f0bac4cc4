package org.vectorjce.volumes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.vectorjce.VectorJceProvider;

/**
 * Every secret and option one open may be given, whatever the format, as {@link Volumes.Builder}
 * collects them: the one place they are kept and the one {@link #wipe()} that wipes them. A
 * {@link VolumeDriver} reads those its format takes; {@link #given()} names every one given, in
 * order, so that a format refuses the others by name. Arrays are copied in and handed to drivers
 * as they are (a driver copies what it keeps); made only by {@link Volumes.Builder}. Not
 * thread-safe; the secrets never appear in {@link #toString()}.
 */
public final class Secrets {
    private char[] passphraseChars;
    private byte[] passphraseBytes;
    private final List<Path> keyFiles = new ArrayList<>();
    private Integer pim;
    private char[] recoveryPassword;
    private Path startupKey;
    private byte[] startupKeyBytes;
    private byte[] volumeKey;
    private Path header;
    private boolean hidden, system, readWrite;
    private Executor executor;
    private VectorJceProvider provider;
    private final Set<String> given = new LinkedHashSet<>();

    Secrets() {
    }

    void passphrase(char[] p) {
        wipePassphrase();
        passphraseChars = p.clone();
        given.add("passphrase");
    }

    void passphrase(byte[] p) {
        wipePassphrase();
        passphraseBytes = p.clone();
        given.add("passphrase");
    }

    private void wipePassphrase() {
        passphraseChars = wipe(passphraseChars);
        passphraseBytes = wipe(passphraseBytes);
    }

    void keyFile(Path k) {
        keyFiles.add(k);
        given.add("key file");
    }

    void pim(int p) {
        pim = p;
        given.add("PIM");
    }

    void recoveryPassword(char[] rp) {
        wipe(recoveryPassword);
        recoveryPassword = rp.clone();
        given.add("recovery password");
    }

    void startupKey(Path bek) {
        startupKey = bek;
        given.add("startup key");
    }

    void startupKey(byte[] bek) {
        wipe(startupKeyBytes);
        startupKeyBytes = bek.clone();
        given.add("startup key");
    }

    void volumeKey(byte[] key) {
        wipe(volumeKey);
        volumeKey = key.clone();
        given.add("volume key");
    }

    void header(Path h) {
        header = h;
        given.add("header");
    }

    void setHidden() {
        hidden = true;
        given.add("hidden");
    }

    void setSystem() {
        system = true;
        given.add("system");
    }

    void setReadWrite() {
        readWrite = true;
        given.add("read-write");
    }

    void executor(Executor e) {
        executor = e;
        given.add("executor");
    }

    void provider(VectorJceProvider p) {
        provider = p;
    }

    /**
     * Hands the passphrase to {@code chars} when it was given as characters, else to {@code bytes}
     * when it was given as bytes; to neither when none was given.
     *
     * @param chars takes a passphrase given as characters
     * @param bytes takes a passphrase given as bytes
     */
    public void passphraseTo(Consumer<char[]> chars, Consumer<byte[]> bytes) {
        if (passphraseChars != null) {
            chars.accept(passphraseChars);
        } else if (passphraseBytes != null) {
            bytes.accept(passphraseBytes);
        }
    }

    /**
     * Hands {@code value} to {@code to} when it was given (is not null): a driver's way to pass an
     * option to its format's builder.
     *
     * @param <T> the option's type
     * @param value the option, or null
     * @param to takes it
     */
    public static <T> void ifGiven(T value, Consumer<T> to) {
        if (value != null) {
            to.accept(value);
        }
    }

    /** The passphrase as characters, or null (given as bytes, or not at all). */
    public char[] passphraseChars() {
        return passphraseChars;
    }

    /** The passphrase as bytes (a key file's, standard input's), or null. */
    public byte[] passphraseBytes() {
        return passphraseBytes;
    }

    /** The key files, in the order given. */
    public List<Path> keyFiles() {
        return Collections.unmodifiableList(keyFiles);
    }

    /** VeraCrypt's PIM, or null. */
    public Integer pim() {
        return pim;
    }

    /** A BitLocker recovery password, or null. */
    public char[] recoveryPassword() {
        return recoveryPassword;
    }

    /** A BitLocker startup key's file, or null. */
    public Path startupKeyFile() {
        return startupKey;
    }

    /** A BitLocker startup key's bytes, or null. */
    public byte[] startupKeyBytes() {
        return startupKeyBytes;
    }

    /** The volume key itself, or null. */
    public byte[] volumeKey() {
        return volumeKey;
    }

    /** A detached header's file, or null. */
    public Path header() {
        return header;
    }

    /** TrueCrypt/VeraCrypt: the hidden volume's header. */
    public boolean hidden() {
        return hidden;
    }

    /** TrueCrypt/VeraCrypt: system encryption's header. */
    public boolean system() {
        return system;
    }

    /** Whether the payload opens for writing. */
    public boolean readWrite() {
        return readWrite;
    }

    /** Where key derivation's parallel work runs, or null: threads of the call's own. */
    public Executor executor() {
        return executor;
    }

    /** The provider the ciphers come from, or null: {@link Volumes#defaultProvider()}. */
    public VectorJceProvider provider() {
        return provider;
    }

    /** The names of the options given ("passphrase", "key file", "PIM", …), in the order given. */
    public Set<String> given() {
        return Collections.unmodifiableSet(given);
    }

    /** Wipes every secret given; called once, by {@link Volumes.Builder#open()}, whatever it returns or throws. */
    void wipe() {
        wipePassphrase();
        recoveryPassword = wipe(recoveryPassword);
        startupKeyBytes = wipe(startupKeyBytes);
        volumeKey = wipe(volumeKey);
    }

    private static char[] wipe(char[] c) {
        if (c != null) {
            Arrays.fill(c, '\0');
        }
        return null;
    }

    private static byte[] wipe(byte[] b) {
        if (b != null) {
            Arrays.fill(b, (byte) 0);
        }
        return null;
    }

    /** The options given, never a secret. */
    @Override
    public String toString() {
        return "Secrets" + given;
    }
}
