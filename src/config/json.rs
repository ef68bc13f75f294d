//! A small JSON reader that keeps the line and column of every value and key (serde_json's `Value` does not),
//! so the page's config errors are located like the TOML ones. Strict JSON (RFC 8259); never panics.

use super::{ConfigError, Node, Pos, Val};

const MAX_DEPTH: usize = 64;

pub fn parse(text: &str) -> Result<Node, Vec<ConfigError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut p = P {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
    };
    let r = p.value(0).and_then(|n| {
        p.ws();
        if p.i < p.chars.len() {
            Err(p.error("unexpected text after the JSON value"))
        } else {
            Ok(n)
        }
    });
    r.map_err(|e| vec![e])
}

struct P {
    chars: Vec<char>,
    i: usize,
    line: u32,
    col: u32,
}

impl P {
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.col,
        }
    }
    fn error(&self, message: &str) -> ConfigError {
        let found = match self.peek() {
            Some(c) => format!(", found `{c}`"),
            None => ", found the end of the text".into(),
        };
        ConfigError {
            line: self.line,
            column: self.col,
            path: String::new(),
            message: format!("{message}{found}"),
        }
    }
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else {
            self.col = self.col.saturating_add(1);
        }
        Some(c)
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.bump();
        }
    }
    fn expect(&mut self, c: char, what: &str) -> Result<(), ConfigError> {
        self.ws();
        if self.peek() == Some(c) {
            self.bump();
            Ok(())
        } else {
            Err(self.error(&format!("expected {what}")))
        }
    }
    fn value(&mut self, depth: usize) -> Result<Node, ConfigError> {
        self.ws();
        let pos = self.pos();
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        let val = match self.peek() {
            Some('{') => {
                self.bump();
                let mut t: Vec<(String, Pos, Node)> = Vec::new();
                self.ws();
                if self.peek() == Some('}') {
                    self.bump();
                } else {
                    loop {
                        self.ws();
                        let kpos = self.pos();
                        if self.peek() != Some('"') {
                            return Err(self.error("expected a key in double quotes"));
                        }
                        let k = self.string()?;
                        if t.iter().any(|(x, _, _)| *x == k) {
                            return Err(ConfigError {
                                line: kpos.line,
                                column: kpos.column,
                                path: k,
                                message: "duplicate key".into(),
                            });
                        }
                        self.expect(':', "`:` after the key")?;
                        let v = self.value(depth + 1)?;
                        t.push((k, kpos, v));
                        self.ws();
                        match self.peek() {
                            Some(',') => {
                                self.bump();
                            }
                            Some('}') => {
                                self.bump();
                                break;
                            }
                            _ => return Err(self.error("expected `,` or `}`")),
                        }
                    }
                }
                Val::Table(t)
            }
            Some('[') => {
                self.bump();
                let mut a = Vec::new();
                self.ws();
                if self.peek() == Some(']') {
                    self.bump();
                } else {
                    loop {
                        a.push(self.value(depth + 1)?);
                        self.ws();
                        match self.peek() {
                            Some(',') => {
                                self.bump();
                            }
                            Some(']') => {
                                self.bump();
                                break;
                            }
                            _ => return Err(self.error("expected `,` or `]`")),
                        }
                    }
                }
                Val::Arr(a)
            }
            Some('"') => Val::Str(self.string()?),
            Some('t' | 'f' | 'n') => {
                let word: String = self.chars[self.i..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect();
                let v = match word.as_str() {
                    "true" => Val::Bool(true),
                    "false" => Val::Bool(false),
                    "null" => Val::Null,
                    _ => return Err(self.error("expected a JSON value")),
                };
                for _ in 0..word.len() {
                    self.bump();
                }
                v
            }
            Some(c) if c == '-' || c.is_ascii_digit() => self.number()?,
            _ => return Err(self.error("expected a JSON value")),
        };
        Ok(Node { val, pos })
    }
    fn number(&mut self) -> Result<Val, ConfigError> {
        let start = self.i;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit() || "+-.eE".contains(c)) {
            self.bump();
        }
        let s: String = self.chars[start..self.i].iter().collect();
        let int_like = !s.contains(['.', 'e', 'E']);
        let valid = {
            let t = s.strip_prefix('-').unwrap_or(&s);
            let digits_start = t.chars().next().is_some_and(|c| c.is_ascii_digit());
            let no_leading_zero = !(t.len() > 1
                && t.starts_with('0')
                && t.as_bytes().get(1).is_some_and(u8::is_ascii_digit));
            digits_start && no_leading_zero && !t.ends_with(['.', 'e', 'E', '+', '-'])
        };
        if !valid {
            return Err(self.error(&format!("`{s}` is not a JSON number")));
        }
        if int_like {
            if let Ok(i) = s.parse::<i64>() {
                return Ok(Val::Int(i));
            }
        }
        match s.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Val::Float(x)),
            _ => Err(self.error(&format!("`{s}` is not a JSON number"))),
        }
    }
    fn string(&mut self) -> Result<String, ConfigError> {
        self.bump(); // opening quote
        let mut out = String::new();
        loop {
            match self.bump() {
                None => return Err(self.error("unclosed string")),
                Some('"') => return Ok(out),
                Some('\\') => match self.bump() {
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('/') => out.push('/'),
                    Some('b') => out.push('\u{8}'),
                    Some('f') => out.push('\u{c}'),
                    Some('n') => out.push('\n'),
                    Some('r') => out.push('\r'),
                    Some('t') => out.push('\t'),
                    Some('u') => {
                        let hi = self.hex4()?;
                        let c = if (0xD800..0xDC00).contains(&hi) {
                            if self.bump() != Some('\\') || self.bump() != Some('u') {
                                return Err(self.error("expected a low surrogate \\uDC00..\\uDFFF"));
                            }
                            let lo = self.hex4()?;
                            if !(0xDC00..0xE000).contains(&lo) {
                                return Err(self.error("expected a low surrogate \\uDC00..\\uDFFF"));
                            }
                            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                        } else {
                            char::from_u32(hi)
                        };
                        match c {
                            Some(c) => out.push(c),
                            None => return Err(self.error("invalid \\u escape")),
                        }
                    }
                    _ => return Err(self.error("invalid escape")),
                },
                Some(c) if (c as u32) < 0x20 => {
                    return Err(self.error("control character in a string (escape it)"))
                }
                Some(c) => out.push(c),
            }
        }
    }
    fn hex4(&mut self) -> Result<u32, ConfigError> {
        let mut v = 0u32;
        for _ in 0..4 {
            match self.bump().and_then(|c| c.to_digit(16)) {
                Some(d) => v = v * 16 + d,
                None => return Err(self.error("expected four hex digits after \\u")),
            }
        }
        Ok(v)
    }
}
