//! The learned player's network: a feed-forward network over the OBS-3 encoding of the acting
//! seat's observation, read from the `.rvnn` weight format of `spec/learned.md`, whose first
//! 106 outputs score the action ids of ACT-2. The decision is the legal id with the highest
//! score, the lowest id among equals. A network of format version 2 has one more output, its
//! value: its estimate of the acting seat's score for the hand (LRN-7).
//!
//! The format, little-endian: the magic `RVNN`, a `u16` format version (1 or 2), a `u16` number of
//! layers (1 to 8), a `u32` metadata length (0 to 65,536) and that many bytes of a UTF-8 JSON
//! object; then one 12-byte header per layer (`u32` inputs, `u32` outputs, a `u8` activation,
//! 0 identity or 1 relu, and three zero bytes); then, layer by layer, the `outputs × inputs`
//! weights row by row (row `o` holds output `o`'s) and the `outputs` biases, every value an
//! IEEE 754 binary16; and nothing after. The first layer takes the 1,435 integers of OBS-3, the
//! last gives 106 values (107 in version 2) with the identity, each layer takes what the one before gives, every
//! size is 1 to 4,096 and every value finite.
//!
//! Most of the encoding is 0 (the cards are one-hot blocks), so the weights are kept by input,
//! column by column, and a layer adds only the columns of its nonzero inputs.

use std::sync::Arc;

use reversis_core::{Card, Error, ErrorCode, ENCODING_LENGTH, ENCODING_VERSION, NUM_ACTIONS};
use serde_json::{Map, Value};

/// The first four bytes of a weight file.
pub const WEIGHTS_MAGIC: [u8; 4] = *b"RVNN";
/// The newest version of the weight format, which this module reads with every older one:
/// version 1 networks give the 106 logits, version 2 networks the logits and a value (LRN-7).
pub const WEIGHTS_VERSION: u16 = 2;
/// The most layers a network has.
pub const MAX_LAYERS: usize = 8;
/// The most bytes of a network's metadata.
pub const MAX_METADATA_BYTES: usize = 65_536;
/// The most inputs or outputs of one layer.
pub const MAX_WIDTH: usize = 4096;

const ACTIONS: usize = NUM_ACTIONS as usize;
const HEADER_BYTES: usize = 12;
const LAYER_HEADER_BYTES: usize = 12;

fn invalid(message: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::InvalidSetup,
        format!("invalid setup: invalid weights: {message}"),
    )
}

/// What a layer does to its outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// The outputs as they are (code 0).
    Identity,
    /// `max(0, x)` of each output (code 1).
    Relu,
}

impl Activation {
    /// The activation of code `code` in a layer header.
    pub fn from_code(code: u8) -> Option<Activation> {
        match code {
            0 => Some(Activation::Identity),
            1 => Some(Activation::Relu),
            _ => None,
        }
    }

    /// Its name: `identity` or `relu`.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Identity => "identity",
            Activation::Relu => "relu",
        }
    }
}

/// A value of an input to a network: the OBS-3 integers as the vector environment's buffers
/// hold them (`i32`, or `u8` where they fit in a byte), or `f32`.
pub trait InputValue: Copy + Send + Sync {
    /// The value as the network reads it.
    fn value(self) -> f32;
}

impl InputValue for f32 {
    #[inline]
    fn value(self) -> f32 {
        self
    }
}

impl InputValue for i32 {
    #[inline]
    fn value(self) -> f32 {
        self as f32
    }
}

impl InputValue for u8 {
    #[inline]
    fn value(self) -> f32 {
        f32::from(self)
    }
}

/// The value of an IEEE 754 binary16 `bits`, exactly (every binary16 is an `f32`).
///
/// # Examples
///
/// ```
/// use reversis_players::f16_to_f32;
/// assert_eq!(f16_to_f32(0x3C00), 1.0);
/// assert_eq!(f16_to_f32(0xC000), -2.0);
/// assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24)); // the smallest subnormal
/// assert!(f16_to_f32(0x7C00).is_infinite() && f16_to_f32(0x7E00).is_nan());
/// ```
pub fn f16_to_f32(bits: u16) -> f32 {
    let negative = bits & 0x8000 != 0;
    let exponent = u32::from((bits >> 10) & 0x1F);
    let fraction = u32::from(bits & 0x3FF);
    let magnitude = match exponent {
        // Zero and the subnormals: fraction × 2^−24, exact in an f32.
        0 => fraction as f32 * (1.0 / 16_777_216.0),
        0x1F => f32::from_bits(0x7F80_0000 | (fraction << 13)),
        // Rebiased from 15 to 127.
        _ => f32::from_bits(((exponent + 112) << 23) | (fraction << 13)),
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

#[derive(Clone, Debug)]
struct Layer {
    inputs: usize,
    outputs: usize,
    activation: Activation,
    // Column `i` (`outputs` values from `i × outputs`) holds every output's weight of input `i`.
    columns: Vec<f32>,
    biases: Vec<f32>,
}

// The working memory of a forward pass, kept from one row to the next of a batch.
#[derive(Default)]
pub(crate) struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
    // The nonzero inputs of the layer at hand, (index, value) in input order.
    nonzero: Vec<(u32, f32)>,
}

impl Layer {
    // `out` = the layer's outputs of `input`, activated. A zero input costs nothing: output `o`
    // is its bias plus the products of the nonzero inputs, added one after the other in input
    // order, four inputs' columns streamed together so that the sums are loaded and stored
    // once for four products.
    fn apply<T: InputValue>(&self, input: &[T], nonzero: &mut Vec<(u32, f32)>, out: &mut Vec<f32>) {
        nonzero.clear();
        for (i, v) in input.iter().enumerate() {
            let x = v.value();
            if x != 0.0 {
                nonzero.push((i as u32, x));
            }
        }
        let width = self.outputs;
        let column = |i: u32| &self.columns[i as usize * width..(i as usize + 1) * width];
        out.clear();
        out.extend_from_slice(&self.biases);
        let mut inputs = nonzero.chunks_exact(4);
        for four in &mut inputs {
            let [(i0, x0), (i1, x1), (i2, x2), (i3, x3)] = [four[0], four[1], four[2], four[3]];
            let columns = column(i0)
                .iter()
                .zip(column(i1))
                .zip(column(i2))
                .zip(column(i3));
            for (o, (((w0, w1), w2), w3)) in out.iter_mut().zip(columns) {
                // Left to right, as if the four inputs came one after the other.
                *o = *o + x0 * w0 + x1 * w1 + x2 * w2 + x3 * w3;
            }
        }
        for &(i, x) in inputs.remainder() {
            for (o, &w) in out.iter_mut().zip(column(i)) {
                *o += x * w;
            }
        }
        if self.activation == Activation::Relu {
            for o in out.iter_mut() {
                *o = o.max(0.0);
            }
        }
    }
}

/// A network read from the weight format (see the module): OBS-3 in, one value per action id
/// out. Cheap to clone (the weights are shared).
///
/// # Examples
///
/// ```
/// use reversis_players::Network;
/// // One layer, 1435 inputs to 106 outputs, every weight 0 and the bias of id 7 one.
/// let mut file = b"RVNN".to_vec();
/// file.extend(1u16.to_le_bytes());
/// file.extend(1u16.to_le_bytes());
/// file.extend(0u32.to_le_bytes());
/// file.extend(1435u32.to_le_bytes());
/// file.extend(106u32.to_le_bytes());
/// file.extend([0, 0, 0, 0]);
/// file.extend(vec![0u8; 2 * 106 * 1435]);
/// for id in 0..106 {
///     let bias: u16 = if id == 7 { 0x3C00 } else { 0 }; // 1.0 as binary16
///     file.extend(bias.to_le_bytes());
/// }
/// let net = Network::from_bytes(&file).unwrap();
/// let encoding = vec![1i32; 1435];
/// assert_eq!(net.logits(&encoding).unwrap()[7], 1.0);
/// assert_eq!(net.decide(&encoding, 1 << 3 | 1 << 7).unwrap(), 7);
/// assert_eq!(net.decide(&encoding, 1 << 3 | 1 << 9).unwrap(), 3); // a tie: the lowest id
/// ```
#[derive(Clone, Debug)]
pub struct Network {
    layers: Arc<Vec<Layer>>,
    // Format version 2: the last layer's output 106 is the value (LRN-7).
    value_head: bool,
    metadata: Arc<Map<String, Value>>,
}

// The bytes of a weight file read front to back.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let Some(end) = end else {
            return Err(invalid(format!(
                "truncated file: {what} needs {n} bytes at offset {}, the file has {}",
                self.at,
                self.bytes.len()
            )));
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u16(&mut self, what: &str) -> Result<u16, Error> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32, Error> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn read_metadata(bytes: &[u8]) -> Result<Map<String, Value>, Error> {
    if bytes.is_empty() {
        return Ok(Map::new());
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| invalid(format!("the metadata is not UTF-8: {e}")))?;
    let value: Value = serde_json::from_str(text)
        .map_err(|e| invalid(format!("the metadata is not JSON: {e}")))?;
    let Value::Object(map) = value else {
        return Err(invalid(format!(
            "the metadata must be a JSON object, not {}",
            shorten(text)
        )));
    };
    if let Some(v) = map.get("encoding_version") {
        if v.as_u64() != Some(u64::from(ENCODING_VERSION)) {
            return Err(invalid(format!(
                "the metadata's encoding_version is {v}, and the network's input is OBS-3 version \
                 {ENCODING_VERSION}"
            )));
        }
    }
    Ok(map)
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

// The outputs of the last layer of a network of format `version`: the logits, and the value
// from version 2 on.
fn last_outputs(version: u16) -> usize {
    if version >= 2 {
        ACTIONS + 1
    } else {
        ACTIONS
    }
}

// The layer headers' sizes and activations, checked one by one and then as a chain.
fn read_shapes(
    r: &mut Reader<'_>,
    count: usize,
    version: u16,
) -> Result<Vec<(usize, usize, Activation)>, Error> {
    let mut shapes = Vec::with_capacity(count);
    for k in 0..count {
        let what = format!("layer {k}'s header");
        let inputs = r.u32(&what)? as usize;
        let outputs = r.u32(&what)? as usize;
        let tail = r.take(4, &what)?;
        let activation = Activation::from_code(tail[0]).ok_or_else(|| {
            invalid(format!(
                "layer {k}: unknown activation {} (0 is identity, 1 is relu)",
                tail[0]
            ))
        })?;
        if tail[1..] != [0, 0, 0] {
            return Err(invalid(format!(
                "layer {k}: the three bytes after the activation must be 0, got {:?}",
                &tail[1..]
            )));
        }
        for (name, size) in [("inputs", inputs), ("outputs", outputs)] {
            if !(1..=MAX_WIDTH).contains(&size) {
                return Err(invalid(format!(
                    "layer {k}: {name} must be 1 to {MAX_WIDTH}, got {size}"
                )));
            }
        }
        shapes.push((inputs, outputs, activation));
    }
    if shapes[0].0 != ENCODING_LENGTH {
        return Err(invalid(format!(
            "size mismatch: layer 0 takes {} inputs, and the OBS-3 encoding has {ENCODING_LENGTH}",
            shapes[0].0
        )));
    }
    for k in 1..count {
        if shapes[k].0 != shapes[k - 1].1 {
            return Err(invalid(format!(
                "size mismatch: layer {k} takes {} inputs, and layer {} gives {}",
                shapes[k].0,
                k - 1,
                shapes[k - 1].1
            )));
        }
    }
    let (_, outputs, activation) = shapes[count - 1];
    let expected = last_outputs(version);
    if outputs != expected {
        let what = if version >= 2 {
            "the 106 action ids' logits and the value"
        } else {
            "one per action id"
        };
        return Err(invalid(format!(
            "size mismatch: the last layer gives {outputs} outputs, and a version {version} \
             network gives {expected} ({what})"
        )));
    }
    if activation != Activation::Identity {
        return Err(invalid(format!(
            "the last layer's activation must be identity, not {}",
            activation.name()
        )));
    }
    Ok(shapes)
}

fn value_at(bytes: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]])
}

fn non_finite(k: usize, what: String, bits: u16) -> Error {
    let kind = if bits & 0x3FF == 0 { "infinite" } else { "NaN" };
    invalid(format!(
        "non-finite value: layer {k}'s {what} is {kind} (0x{bits:04x})"
    ))
}

impl Network {
    /// Reads a network from the bytes of a weight file.
    ///
    /// # Errors
    ///
    /// `invalid-setup`, the message naming the problem: a truncated file, a bad magic, an
    /// unsupported version, a number of layers or a metadata length out of range, metadata that
    /// is not a UTF-8 JSON object or whose `encoding_version` is not 3, an unknown activation or
    /// nonzero reserved bytes, a size out of range or a size mismatch (the first layer's inputs
    /// against OBS-3's 1,435, one layer's inputs against the previous one's outputs, the last
    /// layer's outputs against the 106 ids, or 107 with version 2's value), a last activation
    /// other than identity, trailing bytes, or a value that is infinite or NaN.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, Error> {
        let mut r = Reader { bytes, at: 0 };
        let magic = r.take(4, "the magic")?;
        if magic != WEIGHTS_MAGIC {
            return Err(invalid(format!(
                "bad magic: a weight file starts with \"RVNN\", not {:?}",
                String::from_utf8_lossy(magic)
            )));
        }
        let version = r.u16("the format version")?;
        if !(1..=WEIGHTS_VERSION).contains(&version) {
            return Err(invalid(format!(
                "unsupported version {version}: this reader reads versions 1 to {WEIGHTS_VERSION}"
            )));
        }
        let count = usize::from(r.u16("the number of layers")?);
        if !(1..=MAX_LAYERS).contains(&count) {
            return Err(invalid(format!(
                "the number of layers must be 1 to {MAX_LAYERS}, got {count}"
            )));
        }
        let length = r.u32("the metadata length")? as usize;
        if length > MAX_METADATA_BYTES {
            return Err(invalid(format!(
                "the metadata length must be at most {MAX_METADATA_BYTES} bytes, got {length}"
            )));
        }
        debug_assert_eq!(r.at, HEADER_BYTES);
        let metadata = read_metadata(r.take(length, "the metadata")?)?;
        let shapes = read_shapes(&mut r, count, version)?;
        debug_assert_eq!(r.at, HEADER_BYTES + length + count * LAYER_HEADER_BYTES);
        // At most 8 × (4096 × 4096 + 4096) values: no overflow.
        let needed: usize = shapes.iter().map(|&(i, o, _)| 2 * (o * i + o)).sum();
        let rest = bytes.len() - r.at;
        if rest < needed {
            return Err(invalid(format!(
                "truncated file: the layers' values need {needed} bytes after the headers, and \
                 {rest} are there"
            )));
        }
        if rest > needed {
            return Err(invalid(format!(
                "trailing bytes: {} bytes after the last layer's biases",
                rest - needed
            )));
        }
        let mut layers = Vec::with_capacity(count);
        for (k, &(inputs, outputs, activation)) in shapes.iter().enumerate() {
            let weights = r.take(2 * outputs * inputs, "the weights")?;
            let mut columns = vec![0f32; outputs * inputs];
            for o in 0..outputs {
                for i in 0..inputs {
                    let bits = value_at(weights, o * inputs + i);
                    let w = f16_to_f32(bits);
                    if !w.is_finite() {
                        return Err(non_finite(k, format!("weight ({o}, {i})"), bits));
                    }
                    columns[i * outputs + o] = w;
                }
            }
            let raw = r.take(2 * outputs, "the biases")?;
            let mut biases = Vec::with_capacity(outputs);
            for o in 0..outputs {
                let bits = value_at(raw, o);
                let b = f16_to_f32(bits);
                if !b.is_finite() {
                    return Err(non_finite(k, format!("bias {o}"), bits));
                }
                biases.push(b);
            }
            layers.push(Layer {
                inputs,
                outputs,
                activation,
                columns,
                biases,
            });
        }
        Ok(Network {
            layers: Arc::new(layers),
            value_head: version >= 2,
            metadata: Arc::new(metadata),
        })
    }

    /// Whether the network gives a value (format version 2, LRN-7).
    pub fn has_value(&self) -> bool {
        self.value_head
    }

    /// The metadata object (empty where the file has none).
    pub fn metadata(&self) -> &Map<String, Value> {
        &self.metadata
    }

    /// Each layer's inputs, outputs and activation, in order.
    pub fn shapes(&self) -> Vec<(usize, usize, Activation)> {
        self.layers
            .iter()
            .map(|l| (l.inputs, l.outputs, l.activation))
            .collect()
    }

    fn check_length(len: usize) -> Result<(), Error> {
        if len != ENCODING_LENGTH {
            return Err(Error::new(
                ErrorCode::InvalidSetup,
                format!(
                    "invalid setup: an encoding holds {ENCODING_LENGTH} values (OBS-3), got {len}"
                ),
            ));
        }
        Ok(())
    }

    // Every output of an encoding of the right length, left in `scratch.a`.
    fn outputs<'s, T: InputValue>(&self, encoding: &[T], scratch: &'s mut Scratch) -> &'s [f32] {
        let Scratch { a, b, nonzero } = scratch;
        let (first, rest) = self.layers.split_first().expect("a network has a layer");
        first.apply(encoding, nonzero, a);
        for layer in rest {
            layer.apply(a.as_slice(), nonzero, b);
            std::mem::swap(a, b);
        }
        a
    }

    // The logits of an encoding of the right length.
    fn forward<T: InputValue>(&self, encoding: &[T], scratch: &mut Scratch) -> [f32; ACTIONS] {
        let mut out = [0f32; ACTIONS];
        out.copy_from_slice(&self.outputs(encoding, scratch)[..ACTIONS]);
        out
    }

    // The value (a network with one) for `encoding`, an encoding of the right length, with the
    // working memory of `scratch`.
    pub(crate) fn leaf_value(&self, encoding: &[i32], scratch: &mut Scratch) -> f32 {
        self.outputs(encoding, scratch)[ACTIONS]
    }

    // The legal play of `legal` (a non-empty set of cards) with the highest logit for
    // `encoding`, an encoding of the right length, with the working memory of `scratch`.
    // A card's play id is its card id, so the card mask is the ids' mask.
    pub(crate) fn best_play(&self, encoding: &[i32], legal: u64, scratch: &mut Scratch) -> Card {
        let logits: &[f32; ACTIONS] = self.outputs(encoding, scratch)[..ACTIONS]
            .try_into()
            .expect("the outputs begin with the actions' logits");
        let id = best_legal(logits, u128::from(legal)).expect("a legal card");
        Card::new(u8::try_from(id).expect("a play id is a card id"))
    }

    /// The network's 106 outputs for `encoding`, OBS-3's 1,435 values.
    ///
    /// # Errors
    ///
    /// `invalid-setup` when `encoding` does not hold 1,435 values.
    pub fn logits<T: InputValue>(&self, encoding: &[T]) -> Result<[f32; ACTIONS], Error> {
        Self::check_length(encoding.len())?;
        Ok(self.forward(encoding, &mut Scratch::default()))
    }

    /// The network's value for `encoding` (LRN-7): its estimate of the acting seat's score for
    /// the hand, lower being better; `None` for a network without one (format version 1).
    ///
    /// # Errors
    ///
    /// `invalid-setup` when `encoding` does not hold 1,435 values.
    pub fn value<T: InputValue>(&self, encoding: &[T]) -> Result<Option<f32>, Error> {
        Self::check_length(encoding.len())?;
        if !self.value_head {
            return Ok(None);
        }
        Ok(Some(
            self.outputs(encoding, &mut Scratch::default())[ACTIONS],
        ))
    }

    /// The decision for `encoding` among the ids of `legal` (bit `i` for id `i`): see
    /// [`best_legal`].
    ///
    /// # Errors
    ///
    /// `invalid-setup` when `encoding` does not hold 1,435 values; `invalid-action` when
    /// `legal` has no id, or a bit beyond id 105.
    pub fn decide<T: InputValue>(&self, encoding: &[T], legal: u128) -> Result<u16, Error> {
        check_mask(legal, None)?;
        let logits = self.logits(encoding)?;
        Ok(best_legal(&logits, legal).expect("the mask has an id"))
    }

    /// The decision for each row of `encodings` (1,435 values a row) among the legal ids of
    /// the same row of `masks` (106 bytes a row, nonzero for a legal id), as the buffers of a
    /// vector environment hold them; on `threads` threads (0 counts as 1), with the same
    /// result whatever their number.
    ///
    /// # Errors
    ///
    /// `invalid-setup` when the buffers are not whole rows or not as many; `invalid-action`
    /// when a row of `masks` has no legal id, naming the row.
    pub fn decide_batch<T: InputValue>(
        &self,
        encodings: &[T],
        masks: &[u8],
        threads: usize,
    ) -> Result<Vec<u16>, Error> {
        let rows = encodings.len() / ENCODING_LENGTH;
        if encodings.len() % ENCODING_LENGTH != 0
            || masks.len() % ACTIONS != 0
            || masks.len() / ACTIONS != rows
        {
            return Err(Error::new(
                ErrorCode::InvalidSetup,
                format!(
                    "invalid setup: a batch is rows of {ENCODING_LENGTH} encoding values and of \
                     {ACTIONS} mask values, as many of each; got {} values and {} mask values",
                    encodings.len(),
                    masks.len()
                ),
            ));
        }
        let legal: Vec<u128> = masks
            .chunks_exact(ACTIONS)
            .enumerate()
            .map(|(row, m)| {
                let mask = m
                    .iter()
                    .enumerate()
                    .fold(0u128, |acc, (i, &b)| acc | u128::from(b != 0) << i);
                check_mask(mask, Some(row)).map(|()| mask)
            })
            .collect::<Result<_, _>>()?;
        let mut out = vec![0u16; rows];
        let run = |base: usize, ids: &mut [u16]| {
            let mut scratch = Scratch::default();
            for (j, id) in ids.iter_mut().enumerate() {
                let row = base + j;
                let encoding = &encodings[row * ENCODING_LENGTH..(row + 1) * ENCODING_LENGTH];
                let logits = self.forward(encoding, &mut scratch);
                *id = best_legal(&logits, legal[row]).expect("the mask has an id");
            }
        };
        let threads = threads.clamp(1, rows.max(1));
        if threads == 1 {
            run(0, &mut out);
            return Ok(out);
        }
        let size = rows.div_ceil(threads);
        std::thread::scope(|scope| {
            for (k, ids) in out.chunks_mut(size).enumerate() {
                let run = &run;
                scope.spawn(move || run(k * size, ids));
            }
        });
        Ok(out)
    }
}

fn check_mask(mask: u128, row: Option<usize>) -> Result<(), Error> {
    let at = row.map_or(String::new(), |r| format!("row {r}: "));
    if mask == 0 {
        return Err(Error::new(
            ErrorCode::InvalidAction,
            format!("invalid action: {at}no action id is legal, so there is nothing to decide"),
        ));
    }
    if mask >> ACTIONS != 0 {
        return Err(Error::new(
            ErrorCode::InvalidAction,
            format!(
                "invalid action: {at}an action id is an integer from 0 to {}",
                ACTIONS - 1
            ),
        ));
    }
    Ok(())
}

/// The id of `legal` (bit `i` for id `i`) with the highest of `logits`, the lowest id among
/// equal ones; a NaN counts below every number. `None` when `legal` has no id below 106.
///
/// # Examples
///
/// ```
/// use reversis_players::best_legal;
/// let mut logits = [0.0f32; 106];
/// logits[5] = 2.0;
/// logits[9] = 3.0;
/// assert_eq!(best_legal(&logits, 1 << 5 | 1 << 9), Some(9));
/// assert_eq!(best_legal(&logits, 1 << 1 | 1 << 5), Some(5));
/// assert_eq!(best_legal(&logits, 1 << 1 | 1 << 2), Some(1));
/// assert_eq!(best_legal(&logits, 0), None);
/// ```
pub fn best_legal(logits: &[f32; ACTIONS], legal: u128) -> Option<u16> {
    let mut best: Option<(u16, f32)> = None;
    let mut m = legal & ((1u128 << ACTIONS) - 1);
    while m != 0 {
        let id = m.trailing_zeros() as u16;
        m &= m - 1;
        let x = logits[usize::from(id)];
        match best {
            Some((_, b)) if !(x > b || (b.is_nan() && !x.is_nan())) => {}
            _ => best = Some((id, x)),
        }
    }
    best.map(|(id, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;

    // A layer: inputs, outputs, activation code, weights row by row and biases as f16 bits.
    type RawLayer = (usize, usize, u8, Vec<u16>, Vec<u16>);

    // A weight file of `layers` with the metadata `meta`, format version 1.
    fn file(meta: &str, layers: &[RawLayer]) -> Vec<u8> {
        file_of_version(1, meta, layers)
    }

    fn file_of_version(version: u16, meta: &str, layers: &[RawLayer]) -> Vec<u8> {
        let mut out = b"RVNN".to_vec();
        out.extend(version.to_le_bytes());
        out.extend((layers.len() as u16).to_le_bytes());
        out.extend((meta.len() as u32).to_le_bytes());
        out.extend(meta.as_bytes());
        for (i, o, act, _, _) in layers {
            out.extend((*i as u32).to_le_bytes());
            out.extend((*o as u32).to_le_bytes());
            out.extend([*act, 0, 0, 0]);
        }
        for (_, _, _, w, b) in layers {
            for v in w.iter().chain(b) {
                out.extend(v.to_le_bytes());
            }
        }
        out
    }

    const ONE: u16 = 0x3C00;
    const TWO: u16 = 0x4000;
    const HALF: u16 = 0x3800;
    const MINUS_ONE: u16 = 0xBC00;

    // 1435 → 2 (relu) → 106: hidden h0 = relu(x0 + 2·x1 − 1), h1 = relu(−x0 + ½);
    // output o = (o + 1)·h0 for o < 3, output 3 = 2·h1 + 1, the rest 0.
    fn tiny() -> Vec<u8> {
        let (hidden, (w1, b1)) = tiny_layers();
        file(
            "{\"preset\": \"hearts-computer\", \"encoding_version\": 3}",
            &[hidden, (2, ACTIONS, 0, w1, b1)],
        )
    }

    // The first layer of `tiny`, and the weights and biases of its last.
    fn tiny_layers() -> (RawLayer, (Vec<u16>, Vec<u16>)) {
        let mut w0 = vec![0u16; 2 * ENCODING_LENGTH];
        w0[0] = ONE;
        w0[1] = TWO;
        w0[ENCODING_LENGTH] = MINUS_ONE;
        let b0 = vec![MINUS_ONE, HALF];
        let mut w1 = vec![0u16; ACTIONS * 2];
        w1[0] = ONE;
        w1[2] = TWO;
        w1[4] = 0x4200; // 3
        w1[3 * 2 + 1] = TWO;
        let mut b1 = vec![0u16; ACTIONS];
        b1[3] = ONE;
        ((ENCODING_LENGTH, 2, 1, w0, b0), (w1, b1))
    }

    // `tiny` with a value (format version 2): value = −h0 + ½·h1 + 2.
    fn tiny_with_value() -> Vec<u8> {
        let (hidden, (mut w1, mut b1)) = tiny_layers();
        w1.extend([MINUS_ONE, HALF]);
        b1.push(TWO);
        file_of_version(2, "", &[hidden, (2, ACTIONS + 1, 0, w1, b1)])
    }

    fn encoding(x0: i32, x1: i32) -> Vec<i32> {
        let mut e = vec![0; ENCODING_LENGTH];
        e[0] = x0;
        e[1] = x1;
        // Inputs the weights do not read.
        e[700] = 5;
        e
    }

    #[test]
    fn the_forward_pass_is_the_hand_computed_one() {
        let net = Network::from_bytes(&tiny()).unwrap();
        assert_eq!(net.metadata()["preset"], "hearts-computer");
        // x = (1, 1): h0 = relu(1 + 2 − 1) = 2, h1 = relu(−1 + ½) = 0.
        let l = net.logits(&encoding(1, 1)).unwrap();
        assert_eq!(&l[..5], &[2.0, 4.0, 6.0, 1.0, 0.0]);
        assert!(l[5..].iter().all(|&x| x == 0.0));
        // x = (0, 0): h0 = 0, h1 = ½, so output 3 is 2 and every other 0.
        let l = net.logits(&encoding(0, 0)).unwrap();
        assert_eq!(&l[..5], &[0.0, 0.0, 0.0, 2.0, 0.0]);
        // The same through f32 and u8 inputs.
        let f: Vec<f32> = encoding(1, 1).iter().map(|&v| v as f32).collect();
        let b: Vec<u8> = encoding(1, 1).iter().map(|&v| v as u8).collect();
        assert_eq!(
            net.logits(&f).unwrap(),
            net.logits(&encoding(1, 1)).unwrap()
        );
        assert_eq!(
            net.logits(&b).unwrap(),
            net.logits(&encoding(1, 1)).unwrap()
        );
        // Decisions: the best legal id, ties to the lowest.
        assert_eq!(net.decide(&encoding(1, 1), 0b1111).unwrap(), 2);
        assert_eq!(net.decide(&encoding(0, 0), 0b0111).unwrap(), 0);
        assert_eq!(net.decide(&encoding(0, 0), 1 << 50 | 1 << 3).unwrap(), 3);
        let batch: Vec<i32> = [encoding(1, 1), encoding(0, 0)].concat();
        let mut masks = vec![0u8; 2 * ACTIONS];
        masks[..4].fill(1);
        masks[ACTIONS + 60] = 1;
        masks[ACTIONS + 61] = 1;
        for threads in [1, 2, 5] {
            assert_eq!(net.decide_batch(&batch, &masks, threads).unwrap(), [2, 60]);
        }
    }

    #[test]
    fn a_version_2_network_gives_its_value_beside_the_same_logits() {
        let plain = Network::from_bytes(&tiny()).unwrap();
        let net = Network::from_bytes(&tiny_with_value()).unwrap();
        assert!(net.has_value() && !plain.has_value());
        for (x0, x1) in [(1, 1), (0, 0), (3, 0)] {
            let e = encoding(x0, x1);
            assert_eq!(net.logits(&e).unwrap(), plain.logits(&e).unwrap());
            assert_eq!(plain.value(&e).unwrap(), None);
        }
        // x = (1, 1): h0 = 2, h1 = 0; x = (0, 0): h0 = 0, h1 = ½.
        assert_eq!(net.value(&encoding(1, 1)).unwrap(), Some(0.0));
        assert_eq!(net.value(&encoding(0, 0)).unwrap(), Some(2.25));
        assert_eq!(net.decide(&encoding(1, 1), 0b1111).unwrap(), 2);
        let e = net.value(&[0i32; 10]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidSetup);
        // Each version's last layer has its own width.
        let mut v2_of_106 = tiny();
        v2_of_106[4] = 2;
        assert!(message(&v2_of_106).contains("a version 2 network gives 107"));
        let mut v1_of_107 = tiny_with_value();
        v1_of_107[4] = 1;
        assert!(message(&v1_of_107).contains("a version 1 network gives 106"));
    }

    #[test]
    fn half_precision_values_decode_exactly() {
        assert_eq!(f16_to_f32(0x0000), 0.0);
        assert!(f16_to_f32(0x8000).is_sign_negative());
        assert_eq!(f16_to_f32(0x7BFF), 65504.0);
        assert_eq!(f16_to_f32(0x0400), 2f32.powi(-14));
        assert_eq!(f16_to_f32(0x03FF), 1023.0 * 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(0xFC00), f32::NEG_INFINITY);
    }

    fn message(bytes: &[u8]) -> String {
        let e = Network::from_bytes(bytes).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidSetup);
        e.message().to_owned()
    }

    #[test]
    fn every_broken_file_is_refused_naming_its_problem() {
        let good = tiny();
        let meta_len = u32::from_le_bytes(good[8..12].try_into().unwrap()) as usize;
        let headers = HEADER_BYTES + meta_len;
        for cut in [0, 3, 7, 11, 20, headers + 5, headers + 24, good.len() - 1] {
            assert!(
                message(&good[..cut]).contains("truncated file"),
                "cut {cut}"
            );
        }
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(message(&bad).contains("bad magic"));
        let mut bad = good.clone();
        bad[4] = 3;
        assert!(message(&bad).contains("unsupported version 3"));
        for layers in [0u8, 9] {
            let mut bad = good.clone();
            bad[6] = layers;
            assert!(message(&bad).contains("number of layers"));
        }
        let mut bad = good.clone();
        bad[8..12].copy_from_slice(&65_537u32.to_le_bytes());
        assert!(message(&bad).contains("metadata length"));
        let mut bad = good.clone();
        bad.extend([0, 0]);
        assert!(message(&bad).contains("trailing bytes: 2 bytes"));
        // A value: the first weight, then the last bias.
        for at in [headers + 24, good.len() - 2] {
            for bits in [0x7C00u16, 0x7E01] {
                let mut bad = good.clone();
                bad[at..at + 2].copy_from_slice(&bits.to_le_bytes());
                assert!(message(&bad).contains("non-finite value"), "{at} {bits:x}");
            }
        }
        let w = |n| vec![0u16; n];
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("{\"encoding_version\": 2}", "encoding_version"),
            ("[1, 2]", "must be a JSON object"),
            ("{", "not JSON"),
        ]
        .into_iter()
        .map(|(meta, why)| {
            (
                why,
                file(
                    meta,
                    &[(
                        ENCODING_LENGTH,
                        ACTIONS,
                        0,
                        w(ENCODING_LENGTH * ACTIONS),
                        w(ACTIONS),
                    )],
                ),
            )
        })
        .chain([
            (
                "size mismatch: layer 0",
                file("", &[(1049, ACTIONS, 0, w(1049 * ACTIONS), w(ACTIONS))]),
            ),
            (
                "size mismatch: the last layer",
                file(
                    "",
                    &[(ENCODING_LENGTH, 105, 0, w(ENCODING_LENGTH * 105), w(105))],
                ),
            ),
            (
                "size mismatch: layer 1",
                file(
                    "",
                    &[
                        (ENCODING_LENGTH, 4, 1, w(ENCODING_LENGTH * 4), w(4)),
                        (3, ACTIONS, 0, w(3 * ACTIONS), w(ACTIONS)),
                    ],
                ),
            ),
            (
                "activation must be identity",
                file(
                    "",
                    &[(
                        ENCODING_LENGTH,
                        ACTIONS,
                        1,
                        w(ENCODING_LENGTH * ACTIONS),
                        w(ACTIONS),
                    )],
                ),
            ),
            (
                "unknown activation 2",
                file(
                    "",
                    &[(
                        ENCODING_LENGTH,
                        ACTIONS,
                        2,
                        w(ENCODING_LENGTH * ACTIONS),
                        w(ACTIONS),
                    )],
                ),
            ),
            (
                "outputs must be 1 to 4096",
                file(
                    "",
                    &[
                        (ENCODING_LENGTH, 4097, 1, vec![], vec![]),
                        (4097, ACTIONS, 0, vec![], vec![]),
                    ],
                ),
            ),
        ])
        .collect();
        for (why, bytes) in cases {
            assert!(message(&bytes).contains(why), "{why}: {}", message(&bytes));
        }
        let mut bad = good.clone();
        bad[headers + 9] = 1;
        assert!(message(&bad).contains("three bytes after the activation"));
        let mut bad = good.clone();
        bad[12] = 0xFF;
        assert!(message(&bad).contains("not UTF-8"));
        // Metadata may be absent.
        let none = file(
            "",
            &[(
                ENCODING_LENGTH,
                ACTIONS,
                0,
                w(ENCODING_LENGTH * ACTIONS),
                w(ACTIONS),
            )],
        );
        assert!(Network::from_bytes(&none).unwrap().metadata().is_empty());
    }

    #[test]
    fn bad_arguments_are_errors() {
        let net = Network::from_bytes(&tiny()).unwrap();
        let e = net.logits(&[0i32; 10]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidSetup);
        let e = net.decide(&encoding(0, 0), 0).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidAction);
        let e = net.decide(&encoding(0, 0), 1 << 106).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidAction);
        let rows = [encoding(0, 0), encoding(1, 1)].concat();
        let mut masks = vec![1u8; 2 * ACTIONS];
        masks[ACTIONS..].fill(0);
        let e = net.decide_batch(&rows, &masks, 1).unwrap_err();
        assert!(e.message().contains("row 1"), "{}", e.message());
        let e = net.decide_batch(&rows, &masks[..ACTIONS], 1).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidSetup);
    }

    #[test]
    fn nan_logits_lose_to_numbers() {
        let mut logits = [0.0f32; ACTIONS];
        logits[1] = f32::NAN;
        logits[2] = -5.0;
        assert_eq!(best_legal(&logits, 0b110), Some(2));
        assert_eq!(best_legal(&logits, 0b010), Some(1));
    }
}
