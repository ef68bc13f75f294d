#!/usr/bin/env python3
"""dropscore's `pycompat` module (src/pycompat/) against CPython 3.11 itself: repr(float), float(str),
str.split() and str.lower(), on random values, through the hidden command `dropscore pycompat`.

Needs CPython 3.11 (the Unicode 14.0 tables of str.lower()): run by another python3, the script re-runs itself
with python3.11 when there is one, else fails. No package to install. Build first: cargo build --release.
Usage: python3 tests/reference/pycompat_diff.py [N] [SEED]     (N = 100,000 cases per kind by default)

- repr: N random 64-bit patterns (every exponent, subnormals, NaNs, infinities), N/4 random integers as
  floats, N/4 decimal strings read by float(), negative zero and the boundaries;
- float(): N strings: numbers in every spelling (signs, exponents, underscores, inf/nan in mixed case, ASCII
  and Unicode whitespace around, Unicode decimal digits) and near misses (misplaced underscores and signs,
  inner spaces, U+001C, NUL, letters, fullwidth and superscript digits);
- split(): N strings over an alphabet of every Unicode whitespace and look-alikes (U+200B, U+FEFF, U+180E);
- lower(): every code point alone, then N strings over special letters (İ, I, ẞ, Σ in every final-sigma
  context, ǅ, Georgian, Cherokee, Deseret, Unicode 15/16 letters CPython 3.11 does not know), combining and
  other case-ignorable marks, and random code points.
Prints the number of cases and differences of each kind, with the first differences; exit status 1 on any.
"""
import json, math, os, random, shutil, struct, subprocess, sys, unicodedata

if sys.version_info[:2] != (3, 11):
    other = shutil.which("python3.11")
    if other and os.path.realpath(other) != os.path.realpath(sys.executable):
        os.execv(other, [other] + sys.argv)
    sys.exit(f"pycompat_diff: needs CPython 3.11 (this is {sys.version.split()[0]}) and there is no python3.11")
assert unicodedata.unidata_version == "14.0.0"

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DROPSCORE = os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore"))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20261124)

SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + \
    "\u2028\u2029\u202f\u205f\u3000"
NOT_SPACES = "\u200b\ufeff\u180e\u2060\x00\x1b"
DIGITS = [chr(z + d) for z in (0x660, 0x6F0, 0x966, 0xFF10, 0x1D7CE, 0x1E950, 0x104A0) for d in range(10)]


def run(kind, lines):
    data = "".join(line + "\n" for line in lines).encode()
    out = subprocess.run([DROPSCORE, "pycompat", kind], input=data, capture_output=True, check=True)
    got = out.stdout.decode().split("\n")[:-1]
    assert len(got) == len(lines), (kind, len(got), len(lines))
    return got


def report(kind, cases, got, want, show):
    bad = [(c, g, w) for c, g, w in zip(cases, got, want) if g != w]
    print(f"{kind}: {len(cases)} cases, {len(bad)} differences")
    for c, g, w in bad[:10]:
        print(f"  {show(c)}: dropscore {g!r}, CPython {w!r}")
    return len(bad)


def random_float():
    r = rng.random()
    if r < 0.5:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if r < 0.6:  # subnormals
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(52) | (rng.getrandbits(1) << 63)))[0]
    if r < 0.75:
        return float(rng.randint(-10 ** rng.randint(0, 20), 10 ** rng.randint(0, 20)))
    if r < 0.9:  # short decimals around the fixed/exponent boundaries
        return float(f"{rng.randint(1, 99999)}e{rng.randint(-12, 20)}") * rng.choice([1, -1])
    return rng.choice([0.0, -0.0, 1e16, 1e-4, 1e-5, 9999999999999998.0, 5e-324, 2.2250738585072014e-308,
                       1.7976931348623157e308, math.inf, -math.inf, math.nan, 0.1, 1 / 3])


def digits(n, unicode=False):
    s = "".join(rng.choice("0123456789") for _ in range(n))
    if unicode:
        s = "".join(rng.choice(DIGITS) if rng.random() < 0.3 else c for c in s)
    return s


def underscored(s):
    if len(s) > 1 and rng.random() < 0.3:
        i = rng.randint(1, len(s) - 1)
        s = s[:i] + "_" + s[i:]
    return s


def number_text():
    uni = rng.random() < 0.1
    r = rng.random()
    if r < 0.1:
        body = rng.choice(["inf", "infinity", "nan"])
        body = "".join(c.upper() if rng.random() < 0.5 else c for c in body)
    else:
        body = underscored(digits(rng.randint(0, 25), uni))
        if rng.random() < 0.6:
            body += "." + underscored(digits(rng.randint(0, 20), uni))
        if rng.random() < 0.4:
            body += rng.choice("eE") + rng.choice(["", "+", "-"]) + underscored(digits(rng.randint(1, 4), uni))
    s = rng.choice(["", "", "+", "-"]) + body
    if rng.random() < 0.2:
        s = "".join(rng.choice(SPACES) for _ in range(rng.randint(1, 3))) + s
    if rng.random() < 0.2:
        s += "".join(rng.choice(SPACES) for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.25:  # a near miss
        junk = rng.choice(["_", "__", " ", "+", "-", ".", "e", "x", "\x1c", "\x00", "\u200b", "１", "²", "½",
                           "0x", "a", "ⅷ", "\U0001d7d8", "٫"])
        i = rng.randint(0, len(s))
        s = s[:i] + junk + s[i:]
    return s


ALPHABET = list(SPACES + NOT_SPACES) + list("aAzZ'.:^`-ÀÉÿĀİIıiΣσςΑΩάΆǅǄǆẞßﬁΐŉǰДЁёЯѠҀ") + [
    "\u0300", "\u0301", "\u0307", "\u0345", "\u00ad", "\u02b0", "\u1d2c", "\u2160", "\u24b6", "\u10a0",
    "\u13a0", "\uab70", "\U00010400", "\U0001e900", "\U00016e40", "\u1c90", "\u1e9e", "\u2126", "\u212a",
    "\u1c89", "\U00010d50", "\ua7cb", "\ua7dc", "\u0130", "\u03a3\u0301", "\u1f88", "\u0149",
]


def random_text(alphabet, most):
    out = []
    for _ in range(rng.randint(0, most)):
        if rng.random() < 0.15:
            c = rng.randrange(0x110000)
            out.append(chr(c) if not 0xD800 <= c < 0xE000 else "x")
        else:
            out.append(rng.choice(alphabet))
    return "".join(out)


def main():
    bad = 0
    floats = [random_float() for _ in range(N + N // 4)]
    floats += [float(f"{rng.randint(0, 10 ** 17)}e{rng.randint(-340, 310)}") for _ in range(N // 4)]
    cases = [struct.pack("<d", x)[::-1].hex() for x in floats]
    bad += report("repr", cases, run("repr", cases), [repr(x) for x in floats], lambda c: c)

    texts = [number_text() for _ in range(N)]

    def py_float(s):
        try:
            return repr(float(s))
        except ValueError:
            return "ValueError"
    lines = [json.dumps(t) for t in texts]
    bad += report("float", texts, run("float", lines), [py_float(t) for t in texts], ascii)

    texts = [random_text(ALPHABET, 12) for _ in range(N)]
    lines = [json.dumps(t) for t in texts]
    got = [json.loads(g) for g in run("split", lines)]
    bad += report("split", texts, got, [t.split() for t in texts], ascii)

    every = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    texts = every + [random_text(ALPHABET, 10) for _ in range(N)]
    lines = [json.dumps(t) for t in texts]
    got = [json.loads(g) for g in run("lower", lines)]
    bad += report("lower", texts, got, [t.lower() for t in texts], ascii)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
