package org.vectorjce.tool.volume;

import java.util.concurrent.Callable;

import picocli.CommandLine.Option;

/**
 * What every verb of {@code volume} has: the {@link Session} of its command line and
 * {@code --help} ({@code -h} is {@code --hash} in the verbs, as in cryptsetup). Each verb's own
 * options are the annotated fields of its class; picocli fills them, then calls {@link #call}.
 */
abstract class Verb implements Callable<Integer> {
    final Session session;

    @Option(names = {"--help", "-?"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    Verb(Session session) {
        this.session = session;
    }
}
