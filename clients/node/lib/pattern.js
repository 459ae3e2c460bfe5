'use strict';
// A format's pattern, as a server names it in Leaf-Format, and the test of a string against it:
// its length, literal text, date parts, number and check character (docs/formats.md). A string is
// served only when it is one the pattern can produce.

const DECIMAL = '0123456789';
const BASE36 = DECIMAL + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const BASE62 = BASE36 + 'abcdefghijklmnopqrstuvwxyz';
// token -> [width, lowest, highest] of a date part
const DATES = { yyyy: [4, 1970, 9999], yy: [2, 0, 99], MM: [2, 1, 12], dd: [2, 1, 31], HH: [2, 0, 23] };
// token -> [alphabet, widest, read in either case]
const NUMBERS = { seq: [DECIMAL, 19, false], seq36: [BASE36, 13, true], seq62: [BASE62, 11, false] };
const TOKEN = /\{([A-Za-z0-9]+)(?::([0-9]+))?\}/y;
const LITERAL = /[A-Za-z0-9_.-]+/y;
const LONGEST = 128;

class Pattern {
  /** @throws {Error} when the text is not a pattern the servers could have */
  constructor(text) {
    this.text = text;
    this.parts = []; // {kind, at, width, detail}
    this.number = undefined;
    let at = 0;
    let position = 0;
    let checked = false;
    while (position < text.length) {
      TOKEN.lastIndex = position;
      const token = TOKEN.exec(text);
      if (!token) {
        LITERAL.lastIndex = position;
        const literal = LITERAL.exec(text);
        if (!literal) throw new Error(`${JSON.stringify(text)} has ${JSON.stringify(text[position])} at ${position + 1}, neither text nor a token`);
        this.parts.push({ kind: 'literal', at, width: literal[0].length, detail: literal[0] });
        at += literal[0].length;
        position = LITERAL.lastIndex;
        continue;
      }
      const [whole, name, width] = token;
      if (name in DATES && width === undefined) {
        this.parts.push({ kind: 'date', at, width: DATES[name][0], detail: name });
        at += DATES[name][0];
      } else if (name in NUMBERS && width !== undefined) {
        const n = Number(width);
        if (this.number !== undefined || n < 1 || n > NUMBERS[name][1]) {
          throw new Error(`${JSON.stringify(text)}: one number of width 1..${NUMBERS[name][1]}`);
        }
        this.number = name;
        this.parts.push({ kind: 'number', at, width: n, detail: name });
        at += n;
      } else if (name === 'check' && width === undefined) {
        if (this.number === undefined || checked) throw new Error(`${JSON.stringify(text)}: one {check}, after the number`);
        checked = true;
        this.parts.push({ kind: 'check', at, width: 1, detail: undefined });
        at += 1;
      } else {
        throw new Error(`${JSON.stringify(text)} has an unknown token ${whole}`);
      }
      position = TOKEN.lastIndex;
    }
    if (this.number === undefined || at > LONGEST) {
      throw new Error(`${JSON.stringify(text)}: a pattern has one number and at most ${LONGEST} characters`);
    }
    this.length = at;
  }

  /** What is wrong with value as a string of this pattern, or undefined. */
  problem(value) {
    if (value.length !== this.length) return `has ${value.length} characters, not ${this.length}`;
    for (const { kind, at, width, detail } of this.parts) {
      const piece = value.slice(at, at + width);
      if (kind === 'literal' && piece !== detail) return `does not have ${JSON.stringify(detail)} at ${at + 1}`;
      if (kind === 'date') {
        const [, lowest, highest] = DATES[detail];
        if (!/^[0-9]+$/.test(piece) || Number(piece) < lowest || Number(piece) > highest) return `has no ${detail} at ${at + 1}`;
      }
      if (kind === 'number') {
        const [alphabet, , eitherCase] = NUMBERS[detail];
        for (const c of piece) {
          if (!alphabet.includes(eitherCase ? c.toUpperCase() : c)) return `has no ${detail} number at ${at + 1}`;
        }
      }
      if (kind === 'check' && !checkMatches(value, at, this.number)) return `has a wrong check character at ${at + 1}`;
    }
    return undefined;
  }
}

// Luhn mod 10 over the digits before the check (a decimal number), else mod 36 over the letters
// and digits before it in either case; other characters are not counted.
function checkMatches(value, at, number) {
  const alphabet = number === 'seq' ? DECIMAL : BASE36;
  const modulus = alphabet.length;
  let total = 0;
  let doubled = true;
  for (let i = at - 1; i >= 0; i--) {
    let digit = alphabet.indexOf(value[i].toUpperCase());
    if (digit < 0) continue;
    if (doubled) {
      digit *= 2;
      digit = Math.floor(digit / modulus) + (digit % modulus);
    }
    total += digit;
    doubled = !doubled;
  }
  const expected = BASE36[(modulus - (total % modulus)) % modulus];
  return value[at] === expected || (expected >= 'A' && value[at] === expected.toLowerCase());
}

module.exports = { Pattern };
