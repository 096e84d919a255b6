// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! JSON (RFC 8259), enough for Wycheproof's files: objects, arrays, strings with every escape,
//! integers, true, false, null. A fraction or an exponent, a duplicate member name, or anything
//! after the value is an error: the reader never guesses (as tests/vecfile.c's). Kept here rather
//! than taken from serde_json so that the test build compiles nothing it does not need.

#[derive(Debug)]
pub enum Json {
    Null,
    #[allow(dead_code)] // read only by Debug in failure messages
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `name`, which must exist; panics naming `ctx` otherwise.
    pub fn at(&self, name: &str, ctx: &str) -> &Json {
        self.get(name).unwrap_or_else(|| panic!("{ctx}: no member {name:?}"))
    }

    pub fn str(&self, ctx: &str) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("{ctx}: expected a string, found {other:?}"),
        }
    }

    pub fn int(&self, ctx: &str) -> i64 {
        match self {
            Json::Int(i) => *i,
            other => panic!("{ctx}: expected an integer, found {other:?}"),
        }
    }

    pub fn arr(&self, ctx: &str) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            other => panic!("{ctx}: expected an array, found {other:?}"),
        }
    }

    pub fn members(&self, ctx: &str) -> &[(String, Json)] {
        match self {
            Json::Obj(m) => m,
            other => panic!("{ctx}: expected an object, found {other:?}"),
        }
    }
}

pub fn parse(text: &str, file: &str) -> Json {
    let mut p = Parser { s: text.as_bytes(), i: 0, file };
    let v = p.value();
    p.ws();
    if p.i != p.s.len() {
        p.fail("text after the value");
    }
    v
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    file: &'a str,
}

impl<'a> Parser<'a> {
    fn fail(&self, what: &str) -> ! {
        let line = self.s[..self.i.min(self.s.len())].iter().filter(|&&c| c == b'\n').count() + 1;
        panic!("{}: line {line}: {what}", self.file)
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&self) -> u8 {
        if self.i < self.s.len() {
            self.s[self.i]
        } else {
            0
        }
    }

    fn expect(&mut self, c: u8) {
        self.ws();
        if self.peek() != c {
            self.fail(&format!("expected {:?}", c as char));
        }
        self.i += 1;
    }

    fn literal(&mut self, word: &str, v: Json) -> Json {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            v
        } else {
            self.fail("not JSON")
        }
    }

    fn value(&mut self) -> Json {
        self.ws();
        match self.peek() {
            b'{' => {
                self.i += 1;
                let mut members: Vec<(String, Json)> = Vec::new();
                self.ws();
                if self.peek() == b'}' {
                    self.i += 1;
                    return Json::Obj(members);
                }
                loop {
                    self.ws();
                    let name = self.string();
                    if members.iter().any(|(n, _)| *n == name) {
                        self.fail(&format!("duplicate member {name:?}"));
                    }
                    self.expect(b':');
                    let v = self.value();
                    members.push((name, v));
                    self.ws();
                    match self.peek() {
                        b',' => self.i += 1,
                        b'}' => {
                            self.i += 1;
                            return Json::Obj(members);
                        }
                        _ => self.fail("expected , or }"),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == b']' {
                    self.i += 1;
                    return Json::Arr(items);
                }
                loop {
                    items.push(self.value());
                    self.ws();
                    match self.peek() {
                        b',' => self.i += 1,
                        b']' => {
                            self.i += 1;
                            return Json::Arr(items);
                        }
                        _ => self.fail("expected , or ]"),
                    }
                }
            }
            b'"' => Json::Str(self.string()),
            b't' => self.literal("true", Json::Bool(true)),
            b'f' => self.literal("false", Json::Bool(false)),
            b'n' => self.literal("null", Json::Null),
            b'-' | b'0'..=b'9' => {
                let start = self.i;
                if self.peek() == b'-' {
                    self.i += 1;
                }
                while self.peek().is_ascii_digit() {
                    self.i += 1;
                }
                if matches!(self.peek(), b'.' | b'e' | b'E') {
                    self.fail("a number with a fraction or an exponent");
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                Json::Int(text.parse().unwrap_or_else(|_| self.fail("bad integer")))
            }
            _ => self.fail("not JSON"),
        }
    }

    fn hex4(&mut self) -> u32 {
        if self.i + 4 > self.s.len() {
            self.fail("short \\u escape");
        }
        let text = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap_or("x");
        let v = u32::from_str_radix(text, 16).unwrap_or_else(|_| self.fail("bad \\u escape"));
        self.i += 4;
        v
    }

    fn string(&mut self) -> String {
        if self.peek() != b'"' {
            self.fail("expected a string");
        }
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = self.peek();
            self.i += 1;
            match c {
                0 if self.i > self.s.len() => self.fail("unterminated string"),
                b'"' => break,
                b'\\' => {
                    let e = self.peek();
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4();
                            let cp = if (0xd800..0xdc00).contains(&hi) {
                                if self.peek() != b'\\' || self.s.get(self.i + 1) != Some(&b'u') {
                                    self.fail("lone surrogate");
                                }
                                self.i += 2;
                                let lo = self.hex4();
                                if !(0xdc00..0xe000).contains(&lo) {
                                    self.fail("bad surrogate pair");
                                }
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else {
                                hi
                            };
                            char::from_u32(cp).unwrap_or_else(|| self.fail("bad code point"))
                        }
                        _ => self.fail("bad escape"),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c if c < 0x20 => self.fail("control character in a string"),
                c => out.push(c),
            }
        }
        String::from_utf8(out).unwrap_or_else(|_| self.fail("string is not UTF-8"))
    }
}
