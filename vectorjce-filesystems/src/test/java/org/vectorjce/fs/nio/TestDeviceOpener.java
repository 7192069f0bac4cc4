package org.vectorjce.fs.nio;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.vectorjce.device.Device;
import org.vectorjce.device.spi.DeviceOpener;

/**
 * A device opener for the provider's tests, registered in the test class path's services: it
 * ignores every image unless env has {@code "test-opener"}, so other tests never meet it.
 * {@code "wrong"}: the image is "recognised" but its secret is wrong; {@code "open"}: the image as it is.
 */
public final class TestDeviceOpener implements DeviceOpener {
    static final String KEY = "test-opener";

    @Override
    public Device open(Path image, Map<String, ?> env) throws IOException {
        Object v = env.get(KEY);
        if ("wrong".equals(v)) {
            throw new IOException("test opener: wrong passphrase for " + image);
        }
        if ("open".equals(v)) {
            return Device.open(image, false);
        }
        return null;
    }
}
