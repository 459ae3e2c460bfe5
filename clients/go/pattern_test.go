package leafid

import "testing"

func TestPatternsAreRead(t *testing.T) {
	for _, text := range []string{"O{yyyy}{seq:6}{check}", "B-{yy}{MM}-{seq36:5}{check}", "{seq62:11}{dd}{HH}", "ORD{seq:12}"} {
		if _, err := parsePattern(text); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
	for _, text := range []string{"", "{seq:0}", "{check}{seq:3}", "A{seq:3}{seq:2}", "{yyyy:4}{seq:2}", "{seq}",
		"a b{seq:2}", "{seq:20}", "x{", "{seq:3}{check}{check}", "{seq:3}{nope}", "{seq:99999999999999999999}",
		"A{yyyy}", "x{seq:125}"} {
		if _, err := parsePattern(text); err == nil {
			t.Errorf("%q was read as a pattern", text)
		}
	}
}

// The strings of the conformance suite's good format server and of the real server's base-36
// format (worked out with the Python client's formats.py), and what is wrong with others.
func TestStringsAgainstTheirPattern(t *testing.T) {
	decimal, _ := parsePattern("O{yyyy}{seq:6}{check}")
	base36, _ := parsePattern("B-{yy}{MM}-{seq36:5}{check}")
	for _, c := range []struct {
		p    *pattern
		text string
		good bool
	}{
		{decimal, "O20260000011", true},
		{decimal, "O20260000029", true},
		{decimal, "O20260000425", true},
		{decimal, "O20269999999", true},
		{decimal, "O20260000012", false}, // a wrong Luhn digit
		{decimal, "O2026000001", false},  // too short
		{decimal, "X20260000011", false}, // the literal
		{decimal, "O19690000011", false}, // a year before 1970
		{decimal, "O2026000a011", false}, // not a number
		{decimal, "O２026000001", false},  // not ASCII
		{base36, "B-2612-000019", true},
		{base36, "B-2612-ZZZZZG", true},
		{base36, "B-2612-zzzzzg", true}, // base 36 is read in either case
		{base36, "B-2601-0A1B2N", true},
		{base36, "B-2612-0000zC", true},
		{base36, "B-2612-0000zc", true},
		{base36, "B-2612-0000zD", false},
		{base36, "B-2613-000019", false}, // month 13
		{base36, "B-2612-00001!", false},
	} {
		if problem := c.p.problem(c.text); (problem == "") != c.good {
			t.Errorf("%q against %q: %q", c.text, c.p.text, problem)
		}
	}
}
