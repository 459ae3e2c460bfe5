package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Stripes of several stores: each block inside one stripe of its own store, none of two stores meeting. */
class StripesTest {

    @Test
    void aBlockStaysInItsStripeOrMovesToTheStoresNextOne() {
        Stripes second = new Stripes(0, 100, 3, 1); // stripes [100, 200), [400, 500), ...
        assertThat(second.blockStart(0, 10)).isEqualTo(100);
        assertThat(second.blockStart(150, 10)).isEqualTo(150);
        assertThat(second.blockStart(190, 10)).as("fits to the stripe's end").isEqualTo(190);
        assertThat(second.blockStart(191, 10)).as("the rest of the stripe is a gap").isEqualTo(400);
        assertThat(second.blockStart(250, 100)).isEqualTo(400);
        assertThat(second.owns(199)).isTrue();
        assertThat(second.owns(200)).isFalse();
        assertThat(second.owns(-1)).isFalse();

        Stripes above = new Stripes(1_000, 100, 2, 0);
        assertThat(above.blockStart(0, 5)).as("nothing below the base").isEqualTo(1_000);
        assertThat(above.blockStart(1_099, 5)).isEqualTo(1_200);
        assertThat(new Stripes(0, 100, 1, 0).blockStart(99, 2)).as("one store: the next stripe").isEqualTo(100);
    }

    @Test
    void badBlocksAndStripesAreRefused() {
        Stripes stripes = new Stripes(0, 100, 3, 2);
        assertThatThrownBy(() -> stripes.blockStart(0, 101)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stripe width");
        assertThatThrownBy(() -> stripes.blockStart(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> stripes.blockStart(Long.MAX_VALUE - 50, 100)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> new Stripes(0, 100, 3, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Stripes(0, 0, 3, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Stripes(-1, 10, 3, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Three stores, each a row reserving blocks of random sizes from random floors (a server that switched
     * stores asks above what it served): every block lies in its store's stripes, starts at the lowest place
     * that fits, and no number is given by two stores.
     */
    @Test
    void randomReservationsOfThreeStoresNeverMeet() {
        long width = 1_000;
        SplittableRandom random = new SplittableRandom(44_45);
        List<long[]> blocks = new ArrayList<>();
        long[] rows = new long[3];
        for (int i = 0; i < 30_000; i++) {
            int store = random.nextInt(3);
            Stripes stripes = new Stripes(5_000, width, 3, store);
            long size = 1 + random.nextInt((int) width);
            long floor = random.nextInt(10) == 0 ? rows[store] + random.nextInt(5_000) : rows[store];
            long start = stripes.blockStart(floor, size);
            assertThat(start).isGreaterThanOrEqualTo(Math.max(floor, 5_000));
            assertThat(stripes.owns(start)).isTrue();
            assertThat(stripes.owns(start + size - 1)).isTrue();
            assertThat((start - 5_000) / width).as("one stripe").isEqualTo((start + size - 1 - 5_000) / width);
            if (start > Math.max(floor, 5_000)) {
                long at = Math.max(floor, 5_000);
                assertThat(stripes.owns(at) && stripes.owns(at + size - 1)
                        && (at - 5_000) / width == (at + size - 1 - 5_000) / width).as("a lower start fitted").isFalse();
            }
            rows[store] = start + size;
            blocks.add(new long[] {start, start + size, store});
        }
        blocks.sort((a, b) -> Long.compare(a[0], b[0]));
        for (int i = 1; i < blocks.size(); i++) {
            long[] before = blocks.get(i - 1);
            long[] block = blocks.get(i);
            assertThat(block[0]).as("block %d..%d of store %d overlaps store %d's", block[0], block[1], block[2],
                    before[2]).isGreaterThanOrEqualTo(before[1]);
        }
    }
}
