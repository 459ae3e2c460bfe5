package org.leafid.core.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class OpaquePermutationTest {

    private static final String KEY_HEX = "00112233445566778899aabbccddeeff0123456789abcdef0123456789abcdef";
    private final OpaquePermutation perm = OpaquePermutation.fromKeyText(KEY_HEX);

    @Test
    void everySmallDomainIsMappedOntoItselfOneToOne() {
        for (long n : new long[] {1, 2, 3, 4, 5, 7, 8, 9, 64, 255, 256, 257, 1000, 4097, 65_537}) {
            BitSet seen = new BitSet((int) n);
            for (long x = 0; x < n; x++) {
                long y = perm.permute(x, n);
                assertThat(y).as("perm(%d) over %d", x, n).isBetween(0L, n - 1);
                assertThat(seen.get((int) y)).as("perm(%d) over %d repeats %d", x, n, y).isFalse();
                seen.set((int) y);
                assertThat(perm.unpermute(y, n)).isEqualTo(x);
            }
            assertThat(seen.cardinality()).isEqualTo((int) n);
        }
    }

    @Test
    void aMillionConsecutiveIndexesOfALargeRangeAreUniqueInRangeAndSpread() {
        for (long n : new long[] {262_143, 1L << 40, (1L << 49) - 1, 1L << 49}) {
            int count = (int) Math.min(1_000_000, n); // 262,143: the whole range of a 2^32 limit
            long[] out = new long[count];
            double sumDiff = 0;
            int close = 0;
            for (int i = 0; i < count; i++) {
                out[i] = perm.permute(i, n);
                assertThat(out[i]).isBetween(0L, n - 1);
                if (i > 0) {
                    long diff = Math.abs(out[i] - out[i - 1]);
                    sumDiff += diff;
                    if (diff < n / 1000) {
                        close++;
                    }
                }
            }
            long[] sorted = out.clone();
            Arrays.sort(sorted);
            for (int i = 1; i < count; i++) {
                assertThat(sorted[i]).as("n=%d", n).isNotEqualTo(sorted[i - 1]);
            }
            // Two independent uniform values differ by n/3 on average, and by less than n/1000
            // about 0.2 % of the time; counting indexes would give 1 and 100 %.
            double meanDiff = sumDiff / (count - 1);
            assertThat(meanDiff / n).as("mean |difference| / n for n=%d", n).isBetween(0.30, 0.36);
            assertThat(close).as("pairs closer than n/1000 for n=%d", n).isLessThan(count / 100);
        }
    }

    @Test
    void inverseRoundTripsOnLargeDomains() {
        for (long n : new long[] {(1L << 49) - 1, 1L << 49, 262_143, 1_000_003}) {
            for (long x : new long[] {0, 1, 2, n / 2, n - 2, n - 1}) {
                assertThat(perm.unpermute(perm.permute(x, n), n)).isEqualTo(x);
                assertThat(perm.permute(perm.unpermute(x, n), n)).isEqualTo(x);
            }
        }
    }

    @Test
    void differentKeysGiveDifferentPermutationsAndFingerprints() {
        OpaquePermutation other = OpaquePermutation.fromKeyText(KEY_HEX.replace('0', '1'));
        long n = 1L << 32;
        int same = 0;
        for (long x = 0; x < 1000; x++) {
            if (perm.permute(x, n) == other.permute(x, n)) {
                same++;
            }
        }
        assertThat(same).isLessThan(5);
        assertThat(other.fingerprint()).isNotEqualTo(perm.fingerprint());
    }

    @Test
    void theFingerprintIsStableAndTheSameForHexAndBase64OfOneKey() {
        byte[] key = HexFormat.of().parseHex(KEY_HEX);
        // SHA-256 of the key bytes, first 16 hex digits: a value the server stores and compares.
        assertThat(perm.fingerprint()).hasSize(16).matches("[0-9a-f]{16}");
        assertThat(new OpaquePermutation(key).fingerprint()).isEqualTo(perm.fingerprint());
        String base64 = java.util.Base64.getEncoder().encodeToString(key);
        assertThat(OpaquePermutation.fromKeyText(base64).fingerprint()).isEqualTo(perm.fingerprint());
        assertThat(OpaquePermutation.fromKeyText(base64).permute(12_345, 1L << 30))
                .isEqualTo(perm.permute(12_345, 1L << 30));
        assertThat(perm.toString()).doesNotContain(KEY_HEX).contains(perm.fingerprint());
    }

    @Test
    void aKeyShorterThan128BitsIsRefusedWithHowToMakeOne() {
        assertThatThrownBy(() -> OpaquePermutation.fromKeyText("00112233445566778899aabbccddee"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("120 bits")
                .hasMessageContaining("at least 128")
                .hasMessageContaining("openssl rand -hex 32");
        assertThatThrownBy(() -> new OpaquePermutation(new byte[15])).hasMessageContaining("at least 128");
        assertThatThrownBy(() -> OpaquePermutation.fromKeyText("  ")).hasMessageContaining("empty");
        assertThatThrownBy(() -> OpaquePermutation.fromKeyText("not a key!"))
                .hasMessageContaining("neither hex digits nor base64");
        assertThat(new OpaquePermutation(new byte[16]).fingerprint()).hasSize(16);
    }

    @Test
    void valuesOutsideTheDomainAreRefused() {
        assertThatThrownBy(() -> perm.permute(5, 5)).hasMessageContaining("outside [0, 5)");
        assertThatThrownBy(() -> perm.permute(-1, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> perm.permute(0, 0)).hasMessageContaining("n must be 1..");
        assertThatThrownBy(() -> perm.permute(0, (1L << 49) + 1)).hasMessageContaining("n must be 1..");
        assertThat(perm.permute(0, 1)).isZero();
    }
}
