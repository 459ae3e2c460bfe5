package leafid

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// A format's pattern, as a server names it in Leaf-Format, and the test of a string against it:
// its length, literal text, date parts, number and check character (docs/formats.md). The client
// serves a string only when it is one the pattern can produce. The same rules as the Python
// client's leafid/formats.py.

const (
	decimalDigits = "0123456789"
	base36Digits  = decimalDigits + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	base62Digits  = base36Digits + "abcdefghijklmnopqrstuvwxyz"
	// The longest string a pattern makes.
	longestFormatString = 128
)

type datePart struct {
	width, lowest, highest int
}

var datePartsByToken = map[string]datePart{
	"yyyy": {4, 1970, 9999}, "yy": {2, 0, 99}, "MM": {2, 1, 12}, "dd": {2, 1, 31}, "HH": {2, 0, 23},
}

type numberPart struct {
	alphabet   string
	widest     int
	eitherCase bool // seq36 is read in either case
}

var numberPartsByToken = map[string]numberPart{
	"seq":   {decimalDigits, 19, false},
	"seq36": {base36Digits, 13, true},
	"seq62": {base62Digits, 11, false},
}

// patternPart is one piece of a pattern: literal text, a date part, the number or the check
// character, at a position (in characters) of the strings it makes.
type patternPart struct {
	kind   string // literal, date, number, check
	at     int
	width  int
	detail string // the literal text, or the token's name
}

type pattern struct {
	text   string
	parts  []patternPart
	number string // seq, seq36 or seq62
	length int
}

func parsePattern(text string) (*pattern, error) {
	p := &pattern{text: text}
	at, position, checked := 0, 0, false
	for position < len(text) {
		name, width, end, isToken := token(text, position)
		if !isToken {
			literalEnd := position
			for literalEnd < len(text) && isLiteralByte(text[literalEnd]) {
				literalEnd++
			}
			if literalEnd == position {
				return nil, fmt.Errorf("%q has %q at %d, neither text nor a token", text, text[position:position+1], position+1)
			}
			literal := text[position:literalEnd]
			p.parts = append(p.parts, patternPart{"literal", at, len(literal), literal})
			at += len(literal)
			position = literalEnd
			continue
		}
		date, isDate := datePartsByToken[name]
		number, isNumber := numberPartsByToken[name]
		switch {
		case isDate && width == "":
			p.parts = append(p.parts, patternPart{"date", at, date.width, name})
			at += date.width
		case isNumber && width != "":
			n, err := strconv.Atoi(width)
			if p.number != "" || err != nil || n < 1 || n > number.widest {
				return nil, fmt.Errorf("%q: one number of width 1..%d", text, number.widest)
			}
			p.number = name
			p.parts = append(p.parts, patternPart{"number", at, n, name})
			at += n
		case name == "check" && width == "":
			if p.number == "" || checked {
				return nil, fmt.Errorf("%q: one {check}, after the number", text)
			}
			checked = true
			p.parts = append(p.parts, patternPart{"check", at, 1, ""})
			at++
		default:
			return nil, fmt.Errorf("%q has an unknown token %s", text, text[position:end])
		}
		position = end
	}
	if p.number == "" || at > longestFormatString {
		return nil, fmt.Errorf("%q: a pattern has one number and at most %d characters", text, longestFormatString)
	}
	p.length = at
	return p, nil
}

// token reads {name} or {name:width} at position: name of ASCII letters and digits, width of digits.
func token(text string, position int) (name, width string, end int, ok bool) {
	if text[position] != '{' {
		return "", "", 0, false
	}
	i := position + 1
	for i < len(text) && isAlphanumeric(text[i]) {
		i++
	}
	name = text[position+1 : i]
	if name == "" {
		return "", "", 0, false
	}
	if i < len(text) && text[i] == ':' {
		j := i + 1
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j == i+1 {
			return "", "", 0, false
		}
		width, i = text[i+1:j], j
	}
	if i >= len(text) || text[i] != '}' {
		return "", "", 0, false
	}
	return name, width, i + 1, true
}

func isAlphanumeric(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

func isLiteralByte(c byte) bool { return isAlphanumeric(c) || c == '_' || c == '.' || c == '-' }

// problem is what is wrong with value as a string of this pattern, or "".
func (p *pattern) problem(value string) string {
	// Positions count characters, as the server's pattern does: a string is read as runes.
	runes := []rune(value)
	if len(runes) != p.length {
		return fmt.Sprintf("has %d characters, not %d", len(runes), p.length)
	}
	for _, part := range p.parts {
		piece := runes[part.at : part.at+part.width]
		switch part.kind {
		case "literal":
			if string(piece) != part.detail {
				return fmt.Sprintf("does not have %q at %d", part.detail, part.at+1)
			}
		case "date":
			date := datePartsByToken[part.detail]
			n, ok := asciiNumber(piece)
			if !ok || n < date.lowest || n > date.highest {
				return fmt.Sprintf("has no %s at %d", part.detail, part.at+1)
			}
		case "number":
			number := numberPartsByToken[part.detail]
			for _, c := range piece {
				if number.eitherCase {
					c = unicode.ToUpper(c)
				}
				if !strings.ContainsRune(number.alphabet, c) {
					return fmt.Sprintf("has no %s number at %d", part.detail, part.at+1)
				}
			}
		case "check":
			if !checkMatches(runes, part.at, p.number) {
				return fmt.Sprintf("has a wrong check character at %d", part.at+1)
			}
		}
	}
	return ""
}

func asciiNumber(piece []rune) (int, bool) {
	n := 0
	for _, c := range piece {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// checkMatches: Luhn mod 10 over the digits before the check (a decimal number), else mod 36 over
// the letters and digits before it in either case; other characters are not counted.
func checkMatches(runes []rune, at int, number string) bool {
	alphabet := base36Digits
	if number == "seq" {
		alphabet = decimalDigits
	}
	modulus := len(alphabet)
	total, doubled := 0, true
	for i := at - 1; i >= 0; i-- {
		digit := strings.IndexRune(alphabet, unicode.ToUpper(runes[i]))
		if digit < 0 {
			continue
		}
		if doubled {
			digit *= 2
			digit = digit/modulus + digit%modulus
		}
		total += digit
		doubled = !doubled
	}
	expected := rune(base36Digits[(modulus-total%modulus)%modulus])
	return runes[at] == expected || (expected >= 'A' && expected <= 'Z' && runes[at] == unicode.ToLower(expected))
}
