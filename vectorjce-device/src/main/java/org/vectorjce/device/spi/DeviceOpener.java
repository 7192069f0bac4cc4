package org.vectorjce.device.spi;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.vectorjce.device.Device;

/**
 * Opens an image that needs more than reading, an encrypted volume, as the device of its
 * plaintext: found with {@link java.util.ServiceLoader} by readers that need no cipher themselves
 * (the filesystems' {@code FileSystems.newFileSystem(image, env)}), and provided by
 * vectorjce-volumes when it is present.
 */
public interface DeviceOpener {
    /**
     * The plaintext of {@code image} when it holds a format this opener reads, unlocked with the
     * secrets in {@code env} (the keys each opener documents); {@code null} when it holds none of
     * them, so that the caller reads the image as it is.
     *
     * @throws IOException when the image holds such a format but cannot be opened (a wrong or
     *     missing secret, a damaged header): never {@code null} then
     */
    Device open(Path image, Map<String, ?> env) throws IOException;
}
