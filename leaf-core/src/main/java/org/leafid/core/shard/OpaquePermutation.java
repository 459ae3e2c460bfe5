package org.leafid.core.shard;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A keyed permutation of {@code [0, n)} for any {@code 1 <= n <= 2^49}: shard mode's opaque
 * indexes. An alternating Feistel network runs on the bit width of {@code n - 1}; a value that
 * lands at or above {@code n} is permuted again (cycle walking) until it does not, which keeps the result a permutation of exactly {@code [0, n)}: IDs stay unique and
 * within the app's limit, yet consecutive indexes land far apart.
 *
 * <p>The round function is integer mixing (multiply and xor-shift with round keys derived once
 * from the secret), not a block cipher: about 50 million permutations a second rather than a few
 * million. It hides the business volume from anyone reading IDs; it is not meant to resist a
 * cryptanalyst holding many (index, ID) pairs. Thread-safe and immutable.
 */
public final class OpaquePermutation {

    /** The shortest secret accepted, in bytes: 128 bits. */
    public static final int MIN_SECRET_BYTES = 16;
    /** The largest domain: every index below 2^49 (shard mode's index space). */
    public static final long MAX_N = 1L << 49;
    /**
     * Six rounds: four already make a Feistel network of good round functions indistinguishable
     * from a random permutation (Luby-Rackoff); two more for the margin a fast mixer needs. An
     * even number, so that the alternating halves end at their starting sizes.
     */
    private static final int ROUNDS = 6;
    private static final String HOW_TO_MAKE = "make one with `openssl rand -hex 32` (64 hex digits, 256 bits)";

    private final long[] roundKeys;
    private final String fingerprint;

    /**
     * @param secret at least {@value #MIN_SECRET_BYTES} bytes of random
     * @throws IllegalArgumentException when the secret is shorter
     */
    public OpaquePermutation(byte[] secret) {
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the opaque key has " + secret.length * 8 + " bits; at least "
                    + MIN_SECRET_BYTES * 8 + " are needed: " + HOW_TO_MAKE);
        }
        this.roundKeys = deriveRoundKeys(secret);
        this.fingerprint = HexFormat.of().formatHex(sha256(secret)).substring(0, 16);
    }

    /**
     * A permutation from the text of {@code leaf.shard.opaque-key}: hex digits (as
     * {@code openssl rand -hex 32} prints them), or base64 ({@code openssl rand -base64 32}).
     * The text is decoded, never used as characters, so the 128-bit minimum counts random bits.
     */
    public static OpaquePermutation fromKeyText(String keyText) {
        return new OpaquePermutation(decodeKeyText(keyText));
    }

    static byte[] decodeKeyText(String keyText) {
        String text = keyText.strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("the opaque key is empty: " + HOW_TO_MAKE);
        }
        if (text.length() % 2 == 0 && text.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return HexFormat.of().parseHex(text);
        }
        try {
            return text.indexOf('-') >= 0 || text.indexOf('_') >= 0
                    ? Base64.getUrlDecoder().decode(text)
                    : Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the opaque key is neither hex digits nor base64 (" + e.getMessage()
                    + "): " + HOW_TO_MAKE, e);
        }
    }

    /**
     * A stable name of the key: the first 16 hex digits of its SHA-256. The server records it per
     * app and refuses to start with another key, since a changed key would reissue IDs.
     */
    public String fingerprint() {
        return fingerprint;
    }

    /** The image of {@code x} in {@code [0, n)}. */
    public long permute(long x, long n) {
        int bits = checkAndWidth(x, n);
        if (bits == 0) {
            return 0;
        }
        long y = x;
        do {
            y = encrypt(y, bits);
        } while (y >= n);
        return y;
    }

    /** The {@code x} whose {@link #permute} is {@code y}: decoding an index needs the key. */
    public long unpermute(long y, long n) {
        int bits = checkAndWidth(y, n);
        if (bits == 0) {
            return 0;
        }
        long x = y;
        do {
            x = decrypt(x, bits);
        } while (x >= n);
        return x;
    }

    /** The bit width of {@code [0, n)}; 0 for n = 1, whose only value is 0. */
    private static int checkAndWidth(long x, long n) {
        if (n < 1 || n > MAX_N) {
            throw new IllegalArgumentException("n must be 1.." + MAX_N + ": " + n);
        }
        if (x < 0 || x >= n) {
            throw new IllegalArgumentException("value " + x + " is outside [0, " + n + ")");
        }
        return Long.SIZE - Long.numberOfLeadingZeros(n - 1);
    }

    /**
     * An alternating Feistel network on exactly {@code bits} bits: the value is split into a high
     * part of {@code ceil(bits / 2)} and a low part of {@code floor(bits / 2)} bits; each round
     * xors the high part with the round function of the low one and moves it below, so the two
     * sizes swap every round and are back where they started after the (even) number of rounds.
     * Working on the exact width, not the next even one, keeps cycle walking to about one pass
     * at most (n is more than half of 2^bits) instead of two for odd widths.
     */
    private long encrypt(long value, int bits) {
        int high = bits - (bits >>> 1);
        int low = bits >>> 1;
        long a = value >>> low;
        long b = value & mask(low);
        for (int round = 0; round < ROUNDS; round++) {
            long c = a ^ round(b, round, bits, high);
            a = b;
            b = c;
            int size = high;
            high = low;
            low = size;
        }
        return a << low | b;
    }

    /** {@link #encrypt} backwards: each round recovers the part that was moved below. */
    private long decrypt(long value, int bits) {
        int high = bits - (bits >>> 1);
        int low = bits >>> 1;
        long a = value >>> low;
        long b = value & mask(low);
        for (int round = ROUNDS - 1; round >= 0; round--) {
            long previous = b ^ round(a, round, bits, low);
            b = a;
            a = previous;
            int size = high;
            high = low;
            low = size;
        }
        return a << low | b;
    }

    private static long mask(int bits) {
        return bits == 0 ? 0 : -1L >>> (Long.SIZE - bits);
    }

    /**
     * The Feistel round function: {@code outBits} well-mixed bits of (part, round key, width).
     * The width is mixed in so that apps with different limits get unrelated permutations.
     */
    private long round(long part, int round, int bits, int outBits) {
        long x = (part + roundKeys[round]) * 0x9E3779B97F4A7C15L ^ bits;
        x ^= x >>> 32;
        x *= 0xD6E8FEB86659FD93L;
        x ^= x >>> 29;
        // The high bits of a product depend on every input bit: take those.
        return outBits == 0 ? 0 : x >>> (Long.SIZE - outBits);
    }

    private static long[] deriveRoundKeys(byte[] secret) {
        long[] keys = new long[ROUNDS];
        for (int block = 0; block * 4 < ROUNDS; block++) {
            MessageDigest digest = newSha256();
            digest.update(("leaf-shard-opaque-v1/" + block).getBytes(StandardCharsets.US_ASCII));
            digest.update(secret);
            ByteBuffer words = ByteBuffer.wrap(digest.digest());
            for (int i = 0; i < 4 && block * 4 + i < ROUNDS; i++) {
                keys[block * 4 + i] = words.getLong();
            }
        }
        return keys;
    }

    private static byte[] sha256(byte[] bytes) {
        return newSha256().digest(bytes);
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        // Never the key itself: this may end up in a log.
        return "OpaquePermutation[fingerprint=" + fingerprint + "]";
    }
}
