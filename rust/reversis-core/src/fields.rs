//! The table of the ruleset fields (spec `ruleset.md`), written by `build.rs` from
//! `spec/schemas/ruleset.schema.json`, the one place they are declared: each field's name,
//! clause, JSON type, kind, whether it is optional (RS-19) and its default.
//!
//! A field of a simple kind (a boolean, an enumeration, an integer) is read, checked, defaulted,
//! written and exposed by `ruleset.rs` from its entry alone, and the kernel reads its value with
//! [`Ruleset::value`](crate::Ruleset::value); so a new rule switched by such a field needs no
//! code outside the kernel. The fields of kind [`FieldKind::Other`] (nested objects, cards,
//! strings) are read by `ruleset.rs` itself.
//!
//! # Examples
//!
//! ```
//! use reversis_core::{Field, FieldKind, FIELDS};
//! let ban = Field::FirstTrickBan.spec();
//! assert_eq!((ban.name, ban.clause, ban.kind), ("first_trick_ban", "RS-7", FieldKind::Boolean));
//! assert_eq!(FIELDS[Field::CountDown as usize].default, Some("false"));
//! assert_eq!(Field::from_name("hearts_breaking"), Some(Field::HeartsBreaking));
//! ```

use serde_json::Value;

/// What a field holds, as far as the table knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// `true` or `false`, held as 1 and 0.
    Boolean,
    /// One of these strings, held as its index.
    Enum(&'static [&'static str]),
    /// An integer within these bounds (inclusive), held as itself.
    Integer {
        /// The least value, if any.
        min: Option<i128>,
        /// The greatest value, if any.
        max: Option<i128>,
    },
    /// Anything else (an object, a card, a string, an array): read by `ruleset.rs` itself.
    Other,
}

/// One entry of [`FIELDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldSpec {
    /// The field.
    pub field: Field,
    /// Its key in a ruleset object.
    pub name: &'static str,
    /// The clause of `ruleset.md` that states it, `RS-n`.
    pub clause: &'static str,
    /// Its JSON type as the schema states it: `boolean`, `string`, `integer`, `array`,
    /// `object`, or alternatives joined by `|` (`null|object`).
    pub json_type: &'static str,
    /// Its kind.
    pub kind: FieldKind,
    /// Whether a ruleset may leave it out (RS-19).
    pub optional: bool,
    /// Whether it may be `null` (which then means what its absence does).
    pub nullable: bool,
    /// The JSON text of the value its absence means, for an optional field that states one.
    pub default: Option<&'static str>,
}

include!(concat!(env!("OUT_DIR"), "/fields.rs"));

impl Field {
    /// The field's entry of [`FIELDS`].
    #[inline]
    pub const fn spec(self) -> &'static FieldSpec {
        &FIELDS[self as usize]
    }

    /// The field named `name`, if any.
    pub fn from_name(name: &str) -> Option<Field> {
        FIELDS.iter().find(|f| f.name == name).map(|f| f.field)
    }
}

impl FieldSpec {
    /// Whether the field is of a simple kind, read from this entry alone.
    pub fn is_simple(&self) -> bool {
        self.kind != FieldKind::Other
    }

    /// The value its absence means, `Value::Null` where it states none.
    pub fn default_value(&self) -> Value {
        self.default.map_or(Value::Null, |d| {
            serde_json::from_str(d).expect("build.rs writes defaults as JSON")
        })
    }
}

impl FieldKind {
    /// The code of a JSON value of this kind (see the variants), `None` for a value of another
    /// type or out of bounds, and always for [`FieldKind::Other`].
    pub fn read(self, v: &Value) -> Option<i64> {
        match self {
            FieldKind::Boolean => v.as_bool().map(i64::from),
            FieldKind::Enum(names) => {
                let s = v.as_str()?;
                names.iter().position(|&n| n == s).map(|i| i as i64)
            }
            FieldKind::Integer { min, max } => {
                let x = v.as_i64()?;
                let x128 = i128::from(x);
                (min.map_or(true, |m| x128 >= m) && max.map_or(true, |m| x128 <= m)).then_some(x)
            }
            FieldKind::Other => None,
        }
    }

    /// The JSON value of a code.
    pub fn write(self, code: i64) -> Value {
        match self {
            FieldKind::Boolean => Value::Bool(code != 0),
            FieldKind::Enum(names) => Value::from(names[code as usize]),
            FieldKind::Integer { .. } | FieldKind::Other => Value::from(code),
        }
    }

    /// What a value of this kind must be, the end of the sentence of an `invalid-ruleset`
    /// error: "a boolean", the names as "a, b or c", "a positive integer", "an integer from 3
    /// to 10".
    pub fn expected(self) -> String {
        match self {
            FieldKind::Boolean => "a boolean".to_string(),
            FieldKind::Enum(names) => match names.split_last() {
                Some((last, [])) => (*last).to_string(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            },
            FieldKind::Integer { min, max } => match (min, max) {
                (Some(1), None) => "a positive integer".to_string(),
                (Some(lo), Some(hi)) => format!("an integer from {lo} to {hi}"),
                (Some(lo), None) => format!("an integer of at least {lo}"),
                (None, Some(hi)) => format!("an integer of at most {hi}"),
                (None, None) => "an integer".to_string(),
            },
            FieldKind::Other => "a value of its own kind".to_string(),
        }
    }
}

/// The table as JSON, what the bindings export: one object per field, in the table's order,
/// with `name`, `clause`, `type` (the JSON type), `kind` (`boolean`, `enum`, `integer` or
/// `other`), `values` (an enumeration's strings, else null), `minimum` and `maximum` (an
/// integer's bounds, else null), `optional`, `nullable` and `default` (the value absence means,
/// null where none is stated).
///
/// # Examples
///
/// ```
/// let table = reversis_core::ruleset_field_table();
/// assert_eq!(table[7]["name"], "opening_card");
/// assert_eq!(table[9]["values"], serde_json::json!(["none", "heart", "heart-or-QS"]));
/// ```
pub fn ruleset_field_table() -> Value {
    let bound = |b: Option<i128>| match b {
        Some(b) if b >= 0 => Value::from(b as u64),
        Some(b) => Value::from(b as i64),
        None => Value::Null,
    };
    FIELDS
        .iter()
        .map(|f| {
            let (kind, values, min, max) = match f.kind {
                FieldKind::Boolean => ("boolean", Value::Null, None, None),
                FieldKind::Enum(names) => ("enum", Value::from(names.to_vec()), None, None),
                FieldKind::Integer { min, max } => ("integer", Value::Null, min, max),
                FieldKind::Other => ("other", Value::Null, None, None),
            };
            serde_json::json!({
                "name": f.name,
                "clause": f.clause,
                "type": f.json_type,
                "kind": kind,
                "values": values,
                "minimum": bound(min),
                "maximum": bound(max),
                "optional": f.optional,
                "nullable": f.nullable,
                "default": f.default_value(),
            })
        })
        .collect()
}
