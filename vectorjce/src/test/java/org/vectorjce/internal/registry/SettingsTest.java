package org.vectorjce.internal.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The settings' defaults from system properties, and what a bad one does. */
class SettingsTest {
    @Test
    void propertiesGiveTheDefaults() {
        Map<String, String> props = Map.of("vectorjce.kernel.twofish", "twofish-table", "vectorjce.constantTime", "true",
                "vectorjce.arithmetic", "scalar");
        Settings s = Settings.fromProperties(props::get);
        assertNull(s.problem());
        assertEquals("twofish-table", s.kernel("Twofish"));
        assertNull(s.kernel("AES"));
        assertTrue(s.constantTime());
        assertEquals(Settings.Arithmetic.SCALAR, s.arithmetic());
        assertEquals("kernel.twofish=twofish-table constantTime=true arithmetic=scalar", s.toString());
        // configure on top of them overrides one and keeps the rest
        Settings t = s.apply("kernel.twofish=");
        assertNull(t.kernel("Twofish"));
        assertTrue(t.constantTime());
    }

    /** A bad property fails no class initialisation: key set-up with those settings fails, naming it. */
    @Test
    void aBadPropertyFailsKeySetUpByName() {
        Settings s = Settings.fromProperties(Map.of("vectorjce.arithmetic", "fastest", "vectorjce.kernel.aes", "aes-nope")::get);
        String p = s.problem();
        assertTrue(p.contains("-Dvectorjce.arithmetic") && p.contains("'fastest'"), p);
        assertTrue(p.contains("-Dvectorjce.kernel.aes") && p.contains("'aes-nope'"), p);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Kernels.select("AES", s));
        assertTrue(e.getMessage().contains("fastest"), e.getMessage());
    }

    /** Every key in the table parses, and its property is vectorjce. and the key. */
    @Test
    void theTableIsConsistent() {
        for (Settings.Key k : Settings.KEYS) {
            assertEquals("vectorjce." + k.key(), k.property());
            assertTrue(Settings.BUILT_IN.asMap().containsKey(k.key()), k.key());
        }
        assertEquals(Settings.KEYS.length, Settings.BUILT_IN.asMap().size());
    }
}
