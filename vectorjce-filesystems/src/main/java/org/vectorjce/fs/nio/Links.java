package org.vectorjce.fs.nio;

import java.nio.file.LinkOption;
import java.nio.file.OpenOption;

/** Whether an operation follows a last symbolic link: yes unless {@link LinkOption#NOFOLLOW_LINKS} is given. */
final class Links {
    private Links() {
    }

    static boolean follow(OpenOption... options) {
        for (OpenOption o : options) {
            if (o == LinkOption.NOFOLLOW_LINKS) {
                return false;
            }
            if (o == null) {
                throw new NullPointerException();
            }
        }
        return true;
    }

    static boolean follow(Iterable<? extends OpenOption> options) {
        for (OpenOption o : options) {
            if (o == LinkOption.NOFOLLOW_LINKS) {
                return false;
            }
        }
        return true;
    }
}
