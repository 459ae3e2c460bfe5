package org.leafid.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FormatPatternTest {

    @Test
    void theDailyOrderNumberHasAFixedLengthAndAPartForEachToken() {
        FormatPattern pattern = FormatPattern.parse("ORD{yyyy}{MM}{dd}{seq:6}{check}");

        assertThat(pattern.length()).isEqualTo(3 + 8 + 6 + 1);
        assertThat(pattern.number().width()).isEqualTo(6);
        assertThat(pattern.maxNumber()).isEqualTo(999_999);
        assertThat(pattern.check().scheme()).isEqualTo(CheckScheme.LUHN_MOD_10);
        assertThat(pattern.dateFields()).containsExactlyInAnyOrder(DateField.YEAR, DateField.MONTH, DateField.DAY);
    }

    @Test
    void aBase62NumberGetsALuhnMod36CheckAndHoldsEveryLong() {
        FormatPattern pattern = FormatPattern.parse("u-{seq62:11}{check}");

        assertThat(pattern.check().scheme()).isEqualTo(CheckScheme.LUHN_MOD_36);
        assertThat(pattern.maxNumber()).isEqualTo(Long.MAX_VALUE);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "\"\"|is empty",
        "ORD{yyyy}|has no number",
        "ORD{seq}|needs a width",
        "ORD{seq:0}|needs a width",
        "ORD{seq:20}|N from 1 to 19",
        "ORD{seq36:14}|N from 1 to 13",
        "ORD{seq62:12}|N from 1 to 11",
        "ORD{seq:4}{seq:4}|second number",
        "ORD{check}{seq:4}|before the number",
        "ORD{seq:4}{check}{check}|{check} twice",
        "ORD{ddd}{seq:4}|unknown token {ddd}",
        "ORD{seq:4|without its '}'",
        "ORD/{seq:4}|'/' at position 4",
        "ORD {seq:4}|' ' at position 4",
    })
    void aPatternThatCannotBeDecodedIsRefusedSayingWhy(String text, String why) {
        assertThatThrownBy(() -> FormatPattern.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(why);
    }

    @Test
    void decodingReadsEveryPartBackAndNamesThePeriod() {
        FormatPattern pattern = FormatPattern.parse("ORD{yyyy}{MM}{dd}{seq:6}{check}");
        String value = "ORD20261127000123" + CheckScheme.LUHN_MOD_10.checkOf("ORD20261127000123", 17);

        FormatPattern.Decoded decoded = pattern.decode(value, ResetPeriod.DAILY);

        assertThat(decoded.period()).isEqualTo("20261127");
        assertThat(decoded.sequence()).isEqualTo(123);
        assertThat(decoded.date()).containsEntry("yyyy", 2026).containsEntry("MM", 11).containsEntry("dd", 27);
        assertThat(pattern.decode(value, ResetPeriod.MONTHLY).period()).isEqualTo("202611");
        assertThat(pattern.decode(value, ResetPeriod.NEVER).period()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ORD2026112700012|has 16 characters",
        "ORX202611270001233|does not have 'ORD' at position 1",
        "ORD202613270001233|has no MM at position 8",
        "ORD20261127000A233|has no seq number at position 12",
        "ORD202611270001238|wrong check character '8'",
    })
    void aMalformedOrMistypedValueIsRefusedSayingWhatIsWrong(String value, String why) {
        FormatPattern pattern = FormatPattern.parse("ORD{yyyy}{MM}{dd}{seq:6}{check}");
        assertThat(CheckScheme.LUHN_MOD_10.checkOf("ORD202611270001233", 17)).as("the value the cases vary").isEqualTo('3');

        assertThatThrownBy(() -> pattern.decode(value, ResetPeriod.DAILY))
                .isInstanceOf(InvalidFormattedIdException.class).hasMessageContaining(why);
    }
}
