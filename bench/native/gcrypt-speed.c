/*
 * libgcrypt's throughput for the pairs VectorJCE's `speed` measures, in the same units
 * (MiB/s, encryption and decryption of one buffer per call), so bench/libgcrypt.sh can put the
 * two side by side in one minute.
 *
 *   gcrypt-speed [--size BYTES] [--ms MILLIS]
 *
 * Prints one line per algorithm, mode and key size:
 *   libgcrypt <version> Twofish XTS 256b  enc MiB/s  dec MiB/s
 * (XTS key sizes are the whole K1||K2 key, as cryptsetup and `speed` print them.)
 */
#include <gcrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what, gcry_error_t e) {
    fprintf(stderr, "gcrypt-speed: %s: %s\n", what, gcry_strerror(e));
    exit(1);
}

/* MiB/s of one direction: calls of `size` bytes until `ms` milliseconds have passed. */
static double rate(gcry_cipher_hd_t h, int mode, int enc, unsigned char *buf, size_t size, int ms) {
    unsigned char iv[16] = {0};
    double start = now(), end = start + ms / 1000.0, t;
    long calls = 0;
    do {
        for (int i = 0; i < 16; i++) {
            iv[0] = (unsigned char) calls;
            gcry_error_t e = mode == GCRY_CIPHER_MODE_CTR ? gcry_cipher_setctr(h, iv, 16)
                                                          : gcry_cipher_setiv(h, iv, 16);
            if (e) die("setiv", e);
            e = enc ? gcry_cipher_encrypt(h, buf, size, NULL, 0) : gcry_cipher_decrypt(h, buf, size, NULL, 0);
            if (e) die(enc ? "encrypt" : "decrypt", e);
            calls++;
        }
        t = now();
    } while (t < end);
    return (double) calls * size / (t - start) / (1024.0 * 1024.0);
}

int main(int argc, char **argv) {
    size_t size = 8192;
    int ms = 1000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--size")) size = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--ms")) ms = atoi(argv[i + 1]);
        else { fprintf(stderr, "usage: gcrypt-speed [--size BYTES] [--ms MILLIS]\n"); return 2; }
    }
    if (size < 16 || size % 16 != 0) { fprintf(stderr, "gcrypt-speed: --size must be a multiple of 16\n"); return 2; }
    const char *version = gcry_check_version(NULL);
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);

    struct { const char *name; int algo128, algo256; } algs[] = {
        {"AES", GCRY_CIPHER_AES128, GCRY_CIPHER_AES256},
        {"Twofish", GCRY_CIPHER_TWOFISH128, GCRY_CIPHER_TWOFISH},
        {"Serpent", GCRY_CIPHER_SERPENT128, GCRY_CIPHER_SERPENT256},
    };
    struct { const char *name; int mode, keyFactor; } modes[] = {
        {"CTR", GCRY_CIPHER_MODE_CTR, 1},
        {"XTS", GCRY_CIPHER_MODE_XTS, 2},
    };
    unsigned char *buf = aligned_alloc(64, size);
    unsigned char key[64];
    for (int i = 0; i < 64; i++) key[i] = (unsigned char) (i * 37 + 11);
    memset(buf, 0x5a, size);
    for (int a = 0; a < (int) (sizeof algs / sizeof algs[0]); a++) {
        for (int m = 0; m < 2; m++) {
            for (int k = 0; k < 2; k++) {
                int algo = k == 0 ? algs[a].algo128 : algs[a].algo256;
                size_t keyLen = (k == 0 ? 16 : 32) * modes[m].keyFactor;
                gcry_cipher_hd_t h;
                gcry_error_t e = gcry_cipher_open(&h, algo, modes[m].mode, 0);
                if (e) die("open", e);
                if ((e = gcry_cipher_setkey(h, key, keyLen))) die("setkey", e);
                rate(h, modes[m].mode, 1, buf, size, ms / 4); /* warm-up */
                double enc = rate(h, modes[m].mode, 1, buf, size, ms);
                double dec = rate(h, modes[m].mode, 0, buf, size, ms);
                printf("libgcrypt %s %-8s %s %4zub %10.1f %10.1f\n", version, algs[a].name, modes[m].name,
                       keyLen * 8, enc, dec);
                fflush(stdout);
                gcry_cipher_close(h);
            }
        }
    }
    free(buf);
    return 0;
}
