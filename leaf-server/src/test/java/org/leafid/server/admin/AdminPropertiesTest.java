package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules of {@code leaf.admin.token} and {@code leaf.admin.trusted-proxies}. */
class AdminPropertiesTest {

    @Test
    void noTokenOrAnEmptyOneSwitchesTheAdminApiOff() {
        assertThat(new AdminProperties(null, List.of()).enabled()).isFalse();
        assertThat(new AdminProperties("", List.of()).enabled()).isFalse();
        assertThat(new AdminProperties("0123456789abcdef0123456789abcdef", List.of()).enabled()).isTrue();
    }

    @Test
    void tokensThatAreShortOrCannotTravelInAHeaderAreRefusedWithoutEchoingThem() {
        String[] bads = {"short", " ".repeat(40), "0123456789abcdef0123456789abcde", "thirty-two chars with spaces ok!",
                "tab\tin-the-middle-x-0123456789abcdef", "é".repeat(40)};
        for (String bad : bads) {
            assertThatThrownBy(() -> new AdminProperties(bad, List.of())).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaf.admin.token")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain(bad));
        }
    }

    @Test
    void toStringNeverShowsTheToken() {
        assertThat(new AdminProperties("a-very-secret-token-0123456789abcdef", List.of())).hasToString(
                "AdminProperties[token=(set), trustedProxies=[]]");
        assertThat(new AdminProperties(null, List.of())).hasToString("AdminProperties[token=(none), trustedProxies=[]]");
    }

    @Test
    void trustedProxiesAreAddressesOrCidrBlocksAndNamesAreRefused() {
        assertThat(new AdminProperties(null, List.of("10.0.0.7", "10.0.0.0/8", "fd00::/8", "::1")).trustedProxyRanges())
                .hasSize(4);
        for (String bad : List.of("proxy.example", "10.0.0.0/33", "10.0.0", "fd00::/129", "10.0.0.1/x")) {
            assertThatThrownBy(() -> new AdminProperties(null, List.of(bad))).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaf.admin.trusted-proxies");
        }
    }
}
