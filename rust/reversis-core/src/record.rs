//! Game records (spec `records.md`, REC-1 … REC-3): JSON objects, their JSON and MessagePack
//! encodings, and replay.

use serde_json::{json, Map, Number, Value};

use crate::action::Action;
use crate::error::{Error, ErrorCode};
use crate::game::Game;
use crate::ruleset::{as_int, describe, Ruleset};

/// The `format` of every record (REC-1).
pub const RECORD_FORMAT: &str = "reversis-record";
/// The `version` this implementation writes and reads (REC-1).
pub const RECORD_VERSION: u64 = 1;

/// The most actions a record may hold (ERR-6): a longer record is `invalid-record`, refused
/// before anything is replayed. A 100-point match of `hearts-4` takes about a thousand.
pub const MAX_RECORD_ACTIONS: usize = 100_000;
/// The largest encoded record [`load_record`] reads (ERR-6), 64 MiB.
pub const MAX_RECORD_BYTES: usize = 64 * 1024 * 1024;

/// The encoding of a record (API-4, REC-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// UTF-8 JSON text; its first byte is `{`.
    Json,
    /// MessagePack: maps with string keys, arrays, integers, strings, booleans and nil.
    MsgPack,
}

impl RecordFormat {
    /// Parses `json` or `msgpack`.
    pub fn from_name(s: &str) -> Option<RecordFormat> {
        match s {
            "json" => Some(RecordFormat::Json),
            "msgpack" => Some(RecordFormat::MsgPack),
            _ => None,
        }
    }
}

fn bad(msg: impl std::fmt::Display) -> Error {
    Error::new(ErrorCode::InvalidRecord, format!("invalid record: {msg}"))
}

/// The parts of a record whose structure has been checked (REC-1), before replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordParts {
    /// The ruleset, validated.
    pub ruleset: Ruleset,
    /// The seed, or `None`.
    pub seed: Option<u64>,
    /// `start.hand_number`.
    pub hand_number: u64,
    /// `start.scores`.
    pub scores: Vec<i64>,
    /// The actions, read (not yet replayed).
    pub actions: Vec<Action>,
}

/// Checks the structure of a record (REC-1): exactly the keys `format`, `version`, `ruleset`,
/// `seed`, `start`, `actions`, and optionally `spec_version` (REC-5); a valid ruleset; an
/// unsigned 64-bit seed or null; a start with a hand number and one integer total per seat;
/// well-formed actions. Nothing is replayed.
///
/// # Errors
///
/// `invalid-record` naming the first problem.
pub fn parse_record(v: &Value) -> Result<RecordParts, Error> {
    let obj = v
        .as_object()
        .ok_or_else(|| bad(format_args!("expected an object, got {}", describe(v))))?;
    const KEYS: [&str; 6] = ["format", "version", "ruleset", "seed", "start", "actions"];
    // REC-5: the optional `spec_version` is read first, as RS-18 reads a ruleset's.
    crate::ruleset::check_spec_version(obj.get("spec_version"))
        .map_err(|m| bad(format_args!("spec_version {m}")))?;
    for k in obj.keys() {
        if !KEYS.contains(&k.as_str()) && k != "spec_version" {
            return Err(bad(format_args!("unexpected key '{k}'")));
        }
    }
    for k in KEYS {
        if !obj.contains_key(k) {
            return Err(bad(format_args!("missing key '{k}'")));
        }
    }
    if obj["format"].as_str() != Some(RECORD_FORMAT) {
        return Err(bad(format_args!(
            "format must be '{RECORD_FORMAT}', got {}",
            describe(&obj["format"])
        )));
    }
    if obj["version"].as_u64() != Some(RECORD_VERSION) {
        return Err(bad(format_args!(
            "version must be {RECORD_VERSION}, got {}",
            describe(&obj["version"])
        )));
    }
    let ruleset = Ruleset::from_value(&obj["ruleset"]).map_err(|e| bad(e.message))?;
    let seed = match &obj["seed"] {
        Value::Null => None,
        s => Some(s.as_u64().ok_or_else(|| {
            bad(format_args!(
                "seed must be an unsigned 64-bit integer or null, got {}",
                describe(s)
            ))
        })?),
    };
    let start = obj["start"]
        .as_object()
        .ok_or_else(|| bad("start must be an object"))?;
    for k in start.keys() {
        if k != "hand_number" && k != "scores" {
            return Err(bad(format_args!("unexpected key 'start.{k}'")));
        }
    }
    let hn = start
        .get("hand_number")
        .ok_or_else(|| bad("missing key 'start.hand_number'"))?;
    let hand_number = hn.as_u64().ok_or_else(|| {
        bad(format_args!(
            "start.hand_number must be a non-negative integer, got {}",
            describe(hn)
        ))
    })?;
    let sv = start
        .get("scores")
        .ok_or_else(|| bad("missing key 'start.scores'"))?;
    let arr = sv
        .as_array()
        .ok_or_else(|| bad("start.scores must be an array of integers"))?;
    if arr.len() != ruleset.players() {
        return Err(bad(format_args!(
            "start.scores must have one total per seat ({}), got {}",
            ruleset.players(),
            arr.len()
        )));
    }
    let scores = arr
        .iter()
        .map(|x| {
            as_int(x)
                .and_then(|i| i64::try_from(i).ok())
                .ok_or_else(|| bad(format_args!("start.scores holds {}", describe(x))))
        })
        .collect::<Result<Vec<i64>, Error>>()?;
    let acts = obj["actions"]
        .as_array()
        .ok_or_else(|| bad("actions must be an array"))?;
    if acts.len() > MAX_RECORD_ACTIONS {
        return Err(bad(format_args!(
            "{} actions, more than the limit of {MAX_RECORD_ACTIONS}",
            acts.len()
        )));
    }
    let actions = acts
        .iter()
        .enumerate()
        .map(|(i, a)| {
            Action::from_value(a).map_err(|e| bad(format_args!("action {i}: {}", e.message)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RecordParts {
        ruleset,
        seed,
        hand_number,
        scores,
        actions,
    })
}

impl Game {
    /// The game's record (REC-1): the whole ruleset, the seed, the start and every accepted
    /// action in order, deals included.
    pub fn to_record(&self) -> Value {
        let mut o = Map::new();
        o.insert("format".into(), Value::from(RECORD_FORMAT));
        o.insert("version".into(), Value::from(RECORD_VERSION));
        o.insert("ruleset".into(), self.ruleset().to_value());
        o.insert("seed".into(), self.seed().map_or(Value::Null, Value::from));
        o.insert(
            "start".into(),
            json!({"hand_number": self.start_hand_number(), "scores": self.start_scores()}),
        );
        o.insert(
            "actions".into(),
            Value::Array(self.actions().iter().map(|a| a.to_value()).collect()),
        );
        Value::Object(o)
    }

    /// Replays a record (REC-2): builds the game from `ruleset`, `seed` and `start`, then
    /// applies `actions` in order. In a seeded game each recorded `deal` must equal the deal
    /// the seed made at that point, and is not applied as an action of its own: each one is
    /// taken back by [`Game::undo`] with the action that set it off, as in the original game
    /// (API-8). The generator ends positioned after the deals replayed.
    ///
    /// # Errors
    ///
    /// `invalid-record` when the record is malformed, an action is rejected on replay, or a
    /// `deal` differs from what the seed deals.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Game};
    /// let g = Game::new(preset("hearts-4").unwrap(), Some(5), 0, None).unwrap();
    /// let r = g.to_record();
    /// assert_eq!(Game::from_record(&r).unwrap(), g);
    /// ```
    pub fn from_record(record: &Value) -> Result<Game, Error> {
        let parts = parse_record(record)?;
        let mut g = Game::new(
            parts.ruleset,
            parts.seed,
            parts.hand_number,
            Some(parts.scores),
        )
        .map_err(|e| bad(e.message))?;
        g.replay(&parts.actions)
            .map_err(|(i, e)| bad(format_args!("action {i} is rejected: {}", e.message)))?;
        Ok(g)
    }
}

impl Game {
    /// The game's record encoded as JSON or MessagePack (REC-1, REC-3).
    pub fn to_record_bytes(&self, format: RecordFormat) -> Vec<u8> {
        let r = self.to_record();
        match format {
            RecordFormat::Json => r.to_string().into_bytes(),
            RecordFormat::MsgPack => msgpack_encode(&r).expect("records hold no floats"),
        }
    }

    /// Decodes a record from JSON or MessagePack bytes ([`load_record`]) and replays it
    /// ([`Game::from_record`]).
    ///
    /// # Errors
    ///
    /// `invalid-record` as [`load_record`] and [`Game::from_record`].
    pub fn from_record_bytes(data: &[u8]) -> Result<Game, Error> {
        Game::from_record(&load_record(data)?)
    }
}

/// Encodes a record (API-4 `dump_record`) after checking its structure.
///
/// # Errors
///
/// `invalid-record` when the record is malformed (see [`parse_record`]).
///
/// # Examples
///
/// ```
/// use reversis_core::{dump_record, load_record, preset, Game, RecordFormat};
/// let g = Game::new(preset("hearts-4").unwrap(), Some(1), 0, None).unwrap();
/// let bytes = dump_record(&g.to_record(), RecordFormat::MsgPack).unwrap();
/// assert_eq!(load_record(&bytes).unwrap(), g.to_record());
/// ```
pub fn dump_record(record: &Value, format: RecordFormat) -> Result<Vec<u8>, Error> {
    parse_record(record)?;
    match format {
        RecordFormat::Json => serde_json::to_vec(record).map_err(|e| bad(e.to_string())),
        RecordFormat::MsgPack => msgpack_encode(record),
    }
}

/// Decodes a record (API-4 `load_record`): JSON when the first byte is `{`, MessagePack
/// otherwise; then checks its structure.
///
/// # Errors
///
/// `invalid-record` when the bytes are not a well-formed encoding or the record is malformed.
pub fn load_record(data: &[u8]) -> Result<Value, Error> {
    if data.len() > MAX_RECORD_BYTES {
        return Err(bad(format_args!(
            "{} bytes, more than the limit of {MAX_RECORD_BYTES}",
            data.len()
        )));
    }
    let v = if data.first() == Some(&b'{') {
        serde_json::from_slice::<Value>(data)
            .map_err(|e| bad(format_args!("not json: {}", e.to_string().to_lowercase())))?
    } else {
        msgpack_decode(data)?
    };
    parse_record(&v)?;
    Ok(v)
}

/// Encodes a JSON value as MessagePack (REC-3): maps with string keys, arrays, integers,
/// strings, booleans and nil, each in its smallest form.
///
/// # Errors
///
/// `invalid-record` for a value MessagePack records do not hold (a float).
pub fn msgpack_encode(v: &Value) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    encode(v, &mut out)?;
    Ok(out)
}

fn encode_len(out: &mut Vec<u8>, len: usize, fix: Option<(u8, usize)>, tags: [u8; 3]) {
    if let Some((base, max)) = fix {
        if len <= max {
            out.push(base | len as u8);
            return;
        }
    }
    if len <= u8::MAX as usize && tags[0] != 0 {
        out.push(tags[0]);
        out.push(len as u8);
    } else if len <= u16::MAX as usize {
        out.push(tags[1]);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(tags[2]);
        out.extend_from_slice(&(len as u32).to_be_bytes());
    }
}

fn encode(v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
    match v {
        Value::Null => out.push(0xc0),
        Value::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Value::Number(n) => encode_number(n, out)?,
        Value::String(s) => {
            encode_len(out, s.len(), Some((0xa0, 31)), [0xd9, 0xda, 0xdb]);
            out.extend_from_slice(s.as_bytes());
        }
        Value::Array(a) => {
            encode_len(out, a.len(), Some((0x90, 15)), [0, 0xdc, 0xdd]);
            for x in a {
                encode(x, out)?;
            }
        }
        Value::Object(m) => {
            encode_len(out, m.len(), Some((0x80, 15)), [0, 0xde, 0xdf]);
            for (k, x) in m {
                encode(&Value::String(k.clone()), out)?;
                encode(x, out)?;
            }
        }
    }
    Ok(())
}

fn encode_number(n: &Number, out: &mut Vec<u8>) -> Result<(), Error> {
    if let Some(u) = n.as_u64() {
        if u < 0x80 {
            out.push(u as u8);
        } else if u <= u8::MAX as u64 {
            out.push(0xcc);
            out.push(u as u8);
        } else if u <= u16::MAX as u64 {
            out.push(0xcd);
            out.extend_from_slice(&(u as u16).to_be_bytes());
        } else if u <= u32::MAX as u64 {
            out.push(0xce);
            out.extend_from_slice(&(u as u32).to_be_bytes());
        } else {
            out.push(0xcf);
            out.extend_from_slice(&u.to_be_bytes());
        }
    } else if let Some(i) = n.as_i64() {
        // negative
        if i >= -32 {
            out.push(i as i8 as u8);
        } else if i >= i8::MIN as i64 {
            out.push(0xd0);
            out.push(i as i8 as u8);
        } else if i >= i16::MIN as i64 {
            out.push(0xd1);
            out.extend_from_slice(&(i as i16).to_be_bytes());
        } else if i >= i32::MIN as i64 {
            out.push(0xd2);
            out.extend_from_slice(&(i as i32).to_be_bytes());
        } else {
            out.push(0xd3);
            out.extend_from_slice(&i.to_be_bytes());
        }
    } else {
        return Err(bad(format_args!("records hold no floats, got {n}")));
    }
    Ok(())
}

const MAX_DEPTH: usize = 64;

/// Decodes one MessagePack value (REC-3) into JSON data. Every declared length is checked
/// against the bytes that remain before anything is allocated, nesting is limited, and
/// trailing bytes, floats, binary and extension types, non-string map keys and invalid UTF-8
/// are rejected; a repeated map key keeps its last value (REC-3).
///
/// # Errors
///
/// `invalid-record` for malformed input.
pub fn msgpack_decode(data: &[u8]) -> Result<Value, Error> {
    let mut r = Reader { data, pos: 0 };
    let v = r.value(0)?;
    if r.pos != data.len() {
        return Err(bad(format_args!(
            "msgpack has {} trailing bytes",
            data.len() - r.pos
        )));
    }
    Ok(v)
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.data.len() - self.pos < n {
            return Err(bad("msgpack ends early"));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }

    fn uint(&mut self, n: usize) -> Result<u64, Error> {
        let b = self.take(n)?;
        Ok(b.iter().fold(0u64, |acc, &x| (acc << 8) | x as u64))
    }

    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    fn string(&mut self, len: usize) -> Result<String, Error> {
        let b = self.take(len)?;
        std::str::from_utf8(b)
            .map(str::to_string)
            .map_err(|_| bad("msgpack string is not utf-8"))
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        if depth > MAX_DEPTH {
            return Err(bad("msgpack nests too deeply"));
        }
        let t = self.byte()?;
        match t {
            0x00..=0x7f => Ok(Value::from(t as u64)),
            0xe0..=0xff => Ok(Value::from(t as i8 as i64)),
            0xc0 => Ok(Value::Null),
            0xc2 => Ok(Value::Bool(false)),
            0xc3 => Ok(Value::Bool(true)),
            0xcc => Ok(Value::from(self.uint(1)?)),
            0xcd => Ok(Value::from(self.uint(2)?)),
            0xce => Ok(Value::from(self.uint(4)?)),
            0xcf => Ok(Value::from(self.uint(8)?)),
            0xd0 => Ok(Value::from(self.uint(1)? as u8 as i8 as i64)),
            0xd1 => Ok(Value::from(self.uint(2)? as u16 as i16 as i64)),
            0xd2 => Ok(Value::from(self.uint(4)? as u32 as i32 as i64)),
            0xd3 => Ok(Value::from(self.uint(8)? as i64)),
            0xa0..=0xbf => self.string((t & 0x1f) as usize).map(Value::String),
            0xd9 => {
                let n = self.uint(1)? as usize;
                self.string(n).map(Value::String)
            }
            0xda => {
                let n = self.uint(2)? as usize;
                self.string(n).map(Value::String)
            }
            0xdb => {
                let n = self.uint(4)? as usize;
                self.string(n).map(Value::String)
            }
            0x90..=0x9f => self.array((t & 0x0f) as usize, depth),
            0xdc => {
                let n = self.uint(2)? as usize;
                self.array(n, depth)
            }
            0xdd => {
                let n = self.uint(4)? as usize;
                self.array(n, depth)
            }
            0x80..=0x8f => self.map((t & 0x0f) as usize, depth),
            0xde => {
                let n = self.uint(2)? as usize;
                self.map(n, depth)
            }
            0xdf => {
                let n = self.uint(4)? as usize;
                self.map(n, depth)
            }
            0xca | 0xcb => Err(bad("msgpack records hold no floats")),
            0xc4..=0xc6 => Err(bad("msgpack records hold no binary data")),
            0xc7..=0xc9 | 0xd4..=0xd8 => Err(bad("msgpack records hold no extension types")),
            _ => Err(bad(format_args!("msgpack has an invalid byte 0x{t:02x}"))),
        }
    }

    fn array(&mut self, n: usize, depth: usize) -> Result<Value, Error> {
        // Every element takes at least one byte.
        if n > self.remaining() {
            return Err(bad("msgpack array is longer than the input"));
        }
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.value(depth + 1)?);
        }
        Ok(Value::Array(v))
    }

    fn map(&mut self, n: usize, depth: usize) -> Result<Value, Error> {
        // Every entry takes at least two bytes.
        if n > self.remaining() / 2 {
            return Err(bad("msgpack map is longer than the input"));
        }
        let mut m = Map::new();
        for _ in 0..n {
            let k = match self.value(depth + 1)? {
                Value::String(s) => s,
                other => {
                    return Err(bad(format_args!(
                        "msgpack map key must be a string, got {}",
                        describe(&other)
                    )))
                }
            };
            // REC-3: a repeated key keeps its last value, as JSON readers do (RFC 8259 §4).
            let v = self.value(depth + 1)?;
            m.insert(k, v);
        }
        Ok(Value::Object(m))
    }
}
