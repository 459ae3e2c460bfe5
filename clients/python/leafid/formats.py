"""A format's pattern, as a server names it in Leaf-Format, and the test of a string against it:
its length, literal text, date parts, number and check character (docs/formats.md). The client
serves a string only when it is one the pattern can produce."""
import re

DECIMAL = "0123456789"
BASE36 = DECIMAL + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BASE62 = BASE36 + "abcdefghijklmnopqrstuvwxyz"
# token -> (width, lowest, highest) of a date part
DATES = {"yyyy": (4, 1970, 9999), "yy": (2, 0, 99), "MM": (2, 1, 12), "dd": (2, 1, 31), "HH": (2, 0, 23)}
# token -> (alphabet, widest, read in either case)
NUMBERS = {"seq": (DECIMAL, 19, False), "seq36": (BASE36, 13, True), "seq62": (BASE62, 11, False)}
TOKEN = re.compile(r"\{([A-Za-z0-9]+)(?::([0-9]+))?\}")
LITERAL = re.compile(r"[A-Za-z0-9_.-]+")
LONGEST = 128


class Pattern:
    """The parts of a pattern, each (kind, at, width, detail)."""

    def __init__(self, text):
        self.text = text
        self.parts = []
        self.number = None
        self.check_at = None
        at = position = 0
        while position < len(text):
            token = TOKEN.match(text, position)
            if token is None:
                literal = LITERAL.match(text, position)
                if literal is None:
                    raise ValueError(f"{text!r} has {text[position]!r} at {position + 1}, neither text nor a token")
                self.parts.append(("literal", at, len(literal.group()), literal.group()))
                at += len(literal.group())
                position = literal.end()
                continue
            name, width = token.group(1), token.group(2)
            if name in DATES and width is None:
                self.parts.append(("date", at, DATES[name][0], name))
                at += DATES[name][0]
            elif name in NUMBERS and width is not None:
                alphabet, widest, _ = NUMBERS[name]
                if self.number is not None or not 1 <= int(width) <= widest:
                    raise ValueError(f"{text!r}: one number of width 1..{widest}")
                self.number = name
                self.parts.append(("number", at, int(width), name))
                at += int(width)
            elif name == "check" and width is None:
                if self.number is None or self.check_at is not None:
                    raise ValueError(f"{text!r}: one {{check}}, after the number")
                self.check_at = at
                self.parts.append(("check", at, 1, None))
                at += 1
            else:
                raise ValueError(f"{text!r} has an unknown token {token.group()}")
            position = token.end()
        if self.number is None or at > LONGEST:
            raise ValueError(f"{text!r}: a pattern has one number and at most {LONGEST} characters")
        self.length = at

    def problem(self, value):
        """What is wrong with `value` as a string of this pattern, or None."""
        if len(value) != self.length:
            return f"has {len(value)} characters, not {self.length}"
        for kind, at, width, detail in self.parts:
            piece = value[at:at + width]
            if kind == "literal" and piece != detail:
                return f"does not have {detail!r} at {at + 1}"
            if kind == "date":
                _, lowest, highest = DATES[detail]
                if not piece.isascii() or not piece.isdigit() or not lowest <= int(piece) <= highest:
                    return f"has no {detail} at {at + 1}"
            if kind == "number":
                alphabet, _, either_case = NUMBERS[detail]
                if any((c.upper() if either_case else c) not in alphabet for c in piece):
                    return f"has no {detail} number at {at + 1}"
            if kind == "check" and not _check_matches(value, at, self.number):
                return f"has a wrong check character at {at + 1}"
        return None


def _check_matches(value, at, number):
    """Luhn mod 10 over the digits before the check (a decimal number), else mod 36 over the
    letters and digits before it in either case; other characters are not counted."""
    alphabet = DECIMAL if number == "seq" else BASE36
    modulus = len(alphabet)
    total, doubled = 0, True
    for c in reversed(value[:at]):
        digit = alphabet.find(c.upper())
        if digit < 0:
            continue
        if doubled:
            digit *= 2
            digit = digit // modulus + digit % modulus
        total += digit
        doubled = not doubled
    expected = BASE36[(modulus - total % modulus) % modulus]
    return value[at] == expected or (expected.isalpha() and value[at] == expected.lower())
