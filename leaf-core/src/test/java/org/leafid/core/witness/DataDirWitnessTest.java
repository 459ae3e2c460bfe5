package org.leafid.core.witness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The witness file: what it keeps across a restart, a crash mid-line, a second process, and what it refuses. */
class DataDirWitnessTest {

    @TempDir
    Path dir;

    @Test
    void whatIsRecordedIsReadBackAfterARestartAndNeverLowered() {
        try (DataDirWitness witness = DataDirWitness.open(dir, "leaf_alloc")) {
            assertThat(witness.witnessed("order")).isEqualTo(Long.MIN_VALUE);
            witness.record("order", 1_000);
            witness.record("order", 900); // never lowered
            witness.record("tag with spaces/and\ttabs", 5);
        }
        try (DataDirWitness again = DataDirWitness.open(dir, "leaf_alloc")) {
            assertThat(again.witnessed("order")).isEqualTo(1_000);
            assertThat(again.witnessed("tag with spaces/and\ttabs")).isEqualTo(5);
            assertThat(again.size()).isEqualTo(2);
        }
    }

    @Test
    void aLineCutShortByACrashIsDroppedAndAnythingElseUnreadableStopsTheStart() throws Exception {
        try (DataDirWitness witness = DataDirWitness.open(dir, "leaf_alloc")) {
            witness.record("order", 1_000);
        }
        Path file = dir.resolve("leaf_alloc-0.log");
        Files.writeString(file, Files.readString(file) + "2000\tord"); // no line break: never confirmed
        try (DataDirWitness again = DataDirWitness.open(dir, "leaf_alloc")) {
            assertThat(again.witnessed("order")).isEqualTo(1_000);
            assertThat(again.witnessed("ord")).isEqualTo(Long.MIN_VALUE);
        }

        Files.writeString(file, "not a number\torder\n");
        assertThatThrownBy(() -> DataDirWitness.open(dir, "leaf_alloc")).isInstanceOf(WitnessException.class)
                .hasMessageContaining("line 1").hasMessageContaining(file.toString());
    }

    @Test
    void aSecondProcessOnTheSameDirectoryWritesAFileOfItsOwnAndEachReadsBoth() {
        try (DataDirWitness first = DataDirWitness.open(dir, "leaf_alloc")) {
            first.record("order", 1_000);
            try (DataDirWitness second = DataDirWitness.open(dir, "leaf_alloc")) {
                assertThat(second.file()).isNotEqualTo(first.file());
                assertThat(second.witnessed("order")).isEqualTo(1_000);
                second.record("order", 3_000);
            }
        }
        try (DataDirWitness restarted = DataDirWitness.open(dir, "leaf_alloc")) {
            assertThat(restarted.witnessed("order")).isEqualTo(3_000);
        }
    }

    @Test
    void aDirectoryThatCannotBeMadeIsAClearError() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        assertThatThrownBy(() -> DataDirWitness.open(notADirectory.resolve("witness"), "leaf_alloc"))
                .isInstanceOf(WitnessException.class).hasMessageContaining("leaf.data-dir");
    }
}
