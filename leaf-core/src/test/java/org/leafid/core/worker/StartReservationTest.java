package org.leafid.core.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.leafid.core.worker.ReservationFile.Recorded;

class StartReservationTest {

    @Test
    void withoutCacheTheRegistrysReservationIsHonoured() {
        assertThat(StartReservation.of(Optional.empty(), 4, 1_000)).isEqualTo(new StartReservation(1_000, false));
    }

    @Test
    void aCacheOfTheSameWorkerIdAheadOfTheRegistryWins() {
        // The cache is written first, and alone while the registry is down.
        assertThat(StartReservation.of(Optional.of(new Recorded(4, 5_000)), 4, 1_000))
                .isEqualTo(new StartReservation(5_000, false));
    }

    @Test
    void aRegistryAheadOfACacheOfTheSameWorkerIdWins() {
        // An older cache file restored from a backup.
        assertThat(StartReservation.of(Optional.of(new Recorded(4, 1_000)), 4, 5_000))
                .isEqualTo(new StartReservation(5_000, false));
    }

    @Test
    void aCacheOfAnotherWorkerIdIsOverruledHoweverFarItReaches() {
        assertThat(StartReservation.of(Optional.of(new Recorded(7, 9_000)), 4, 1_000))
                .isEqualTo(new StartReservation(1_000, true));
    }
}
