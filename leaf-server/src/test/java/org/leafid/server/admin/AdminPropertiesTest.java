package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The rules of {@code leaf.admin.token}. */
class AdminPropertiesTest {

    @Test
    void noTokenOrAnEmptyOneSwitchesTheAdminApiOff() {
        assertThat(new AdminProperties(null).enabled()).isFalse();
        assertThat(new AdminProperties("").enabled()).isFalse();
        assertThat(new AdminProperties("0123456789abcdef").enabled()).isTrue();
    }

    @Test
    void tokensThatAreShortOrCannotTravelInAHeaderAreRefusedWithoutEchoingThem() {
        String[] bads = {"short", " ".repeat(20), "sixteen chars ok", "tab\tin-the-middle-x", "é".repeat(20)};
        for (String bad : bads) {
            assertThatThrownBy(() -> new AdminProperties(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaf.admin.token")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain(bad));
        }
    }

    @Test
    void toStringNeverShowsTheToken() {
        assertThat(new AdminProperties("a-very-secret-token-1234")).hasToString("AdminProperties[token=(set)]");
        assertThat(new AdminProperties(null)).hasToString("AdminProperties[token=(none)]");
    }
}
