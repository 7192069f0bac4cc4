package org.vectorjce.fs.nio;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded least-recently-used map, safe for many threads (one lock, held only for the map
 * operation): what a read-only filesystem may keep without limit on its memory.
 */
final class LruCache<K, V> {
    private final LinkedHashMap<K, V> map;

    LruCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        map = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }

    V get(K key) {
        synchronized (map) {
            return map.get(key);
        }
    }

    void put(K key, V value) {
        synchronized (map) {
            map.put(key, value);
        }
    }

    int size() {
        synchronized (map) {
            return map.size();
        }
    }
}
