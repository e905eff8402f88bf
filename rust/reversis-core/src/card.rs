//! Cards, suits, ranks and card sets (spec `cards.md`, CARD-1 … CARD-5).

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorCode};

/// The rank characters from low to high (CARD-1): index 0 is `2`, index 12 is `A`.
pub const RANK_CHARS: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];

/// The suit characters in sorted order (CARD-2): clubs, diamonds, hearts, spades.
pub const SUIT_CHARS: [char; 4] = ['C', 'D', 'H', 'S'];

/// A suit (CARD-1). The discriminant is the suit index of CARD-2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Clubs, `C`, index 0.
    Clubs = 0,
    /// Diamonds, `D`, index 1.
    Diamonds = 1,
    /// Hearts, `H`, index 2.
    Hearts = 2,
    /// Spades, `S`, index 3.
    Spades = 3,
}

impl Suit {
    /// Every suit in sorted order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (0 … 3).
    ///
    /// # Panics
    ///
    /// Panics if `i > 3`.
    #[inline]
    pub fn from_index(i: usize) -> Suit {
        Suit::ALL[i]
    }

    /// The suit index of CARD-2 (C=0, D=1, H=2, S=3).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The suit letter (`C`, `D`, `H`, `S`).
    #[inline]
    pub fn char(self) -> char {
        SUIT_CHARS[self as usize]
    }

    /// The mask of the 13 cards of this suit.
    #[inline]
    pub fn mask(self) -> CardSet {
        CardSet(SUIT_MASKS[self as usize])
    }
}

/// The 13-card mask of each suit, indexed by suit index.
pub const SUIT_MASKS: [u64; 4] = [0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39];

/// The mask of all 52 cards.
pub const FULL_DECK: u64 = (1u64 << 52) - 1;

/// One card, stored as its id `suit_index * 13 + rank_index` (CARD-2): `2C` is 0, `QS` is 49,
/// `AS` is 51.
///
/// `Display` prints the canonical string (CARD-3); `FromStr` accepts every form of CARD-4.
///
/// # Examples
///
/// ```
/// use reversis_core::Card;
/// let qs: Card = "Q♠".parse().unwrap();
/// assert_eq!(qs.id(), 49);
/// assert_eq!(qs.to_string(), "QS");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The two of clubs, id 0.
    pub const TWO_OF_CLUBS: Card = Card(0);
    /// The queen of spades, id 49 (RS-15).
    pub const QUEEN_OF_SPADES: Card = Card(49);

    /// The card with the given id (0 … 51).
    ///
    /// # Panics
    ///
    /// Panics if `id > 51`.
    #[inline]
    pub fn new(id: u8) -> Card {
        assert!(id < 52, "card id out of range: {id}");
        Card(id)
    }

    /// The card with the given id, or `None` if `id > 51`.
    #[inline]
    pub fn from_id(id: u32) -> Option<Card> {
        (id < 52).then_some(Card(id as u8))
    }

    /// The card of a suit and a rank index (2 → 0, …, A → 12).
    ///
    /// # Panics
    ///
    /// Panics if `rank > 12`.
    #[inline]
    pub fn from_parts(suit: Suit, rank: u8) -> Card {
        assert!(rank < 13, "rank index out of range: {rank}");
        Card(suit as u8 * 13 + rank)
    }

    /// The id of CARD-2.
    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }

    /// The suit.
    #[inline]
    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 13) as usize]
    }

    /// The rank index, 0 for `2` up to 12 for `A`.
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 % 13
    }

    /// The one-card mask `1 << id`.
    #[inline]
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses a card in any form CARD-4 accepts, by the grammar of CARD-6: the whitespace
    /// around it is only U+0020, U+0009, U+000A and U+000D, and letters are ASCII.
    ///
    /// # Errors
    ///
    /// `invalid-card` when `text` is not a card.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::Card;
    /// assert_eq!(Card::parse(" 10♥ ").unwrap().to_string(), "TH");
    /// assert!(Card::parse("1H").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Card, Error> {
        parse_card_inner(text.trim_matches(is_card_whitespace)).ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidCard,
                format!("invalid card: {}", quote(text)),
            )
        })
    }
}

/// CARD-6: the whitespace ignored around a card, JSON's four characters (RFC 8259 §2) and no
/// others.
fn is_card_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fn parse_card_inner(s: &str) -> Option<Card> {
    let mut chars = s.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let (rank, suit_str) = if first == '1' {
        let mut r = rest.chars();
        if r.next()? != '0' {
            return None;
        }
        (8u8, r.as_str())
    } else {
        let up = first.to_ascii_uppercase();
        let rank = RANK_CHARS.iter().position(|&c| c == up)? as u8;
        (rank, rest)
    };
    let mut sc = suit_str.chars();
    let suit_char = sc.next()?;
    if sc.next().is_some() {
        return None;
    }
    let suit = match suit_char {
        'C' | 'c' | '♣' | '♧' => Suit::Clubs,
        'D' | 'd' | '♦' | '♢' => Suit::Diamonds,
        'H' | 'h' | '♥' | '♡' => Suit::Hearts,
        'S' | 's' | '♠' | '♤' => Suit::Spades,
        _ => return None,
    };
    Some(Card::from_parts(suit, rank))
}

/// Quotes a piece of input for an error message, Python-repr style.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for (i, c) in s.chars().enumerate() {
        if i == 80 {
            out.push_str("...");
            break;
        }
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            RANK_CHARS[self.rank() as usize],
            SUIT_CHARS[self.suit() as usize]
        )
    }
}

impl FromStr for Card {
    type Err = Error;
    fn from_str(s: &str) -> Result<Card, Error> {
        Card::parse(s)
    }
}

/// Parses a card and returns its canonical string (API-1 `parse_card`).
///
/// # Errors
///
/// `invalid-card` when `text` is not a card.
///
/// # Examples
///
/// ```
/// assert_eq!(reversis_core::parse_card("q♤").unwrap(), "QS");
/// ```
pub fn parse_card(text: &str) -> Result<String, Error> {
    Card::parse(text).map(|c| c.to_string())
}

/// The id of CARD-2 of a card given in any CARD-4 form (API-1 `card_id`).
///
/// # Errors
///
/// `invalid-card` when `text` is not a card.
pub fn card_id(text: &str) -> Result<u8, Error> {
    Card::parse(text).map(Card::id)
}

/// A set of cards as a 64-bit mask: bit `id` is set for each member (CARD-2).
///
/// Iteration yields the cards in sorted (ascending id) order.
///
/// # Examples
///
/// ```
/// use reversis_core::{Card, CardSet};
/// let s: CardSet = ["QS", "2C", "TH"].iter().map(|c| c.parse::<Card>().unwrap()).collect();
/// assert_eq!(s.len(), 3);
/// assert_eq!(s.to_strings(), ["2C", "TH", "QS"]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set of all 52 cards.
    pub const FULL: CardSet = CardSet(FULL_DECK);

    /// The raw mask.
    #[inline]
    pub fn bits(self) -> u64 {
        self.0
    }

    /// Whether the set has no card.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of cards.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether `card` is a member.
    #[inline]
    pub fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    /// Adds `card`.
    #[inline]
    pub fn insert(&mut self, card: Card) {
        self.0 |= card.bit();
    }

    /// Removes `card`.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.0 &= !card.bit();
    }

    /// The lowest card (smallest id), if any.
    #[inline]
    pub fn first(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(self.0.trailing_zeros() as u8))
    }

    /// The highest card (largest id), if any.
    #[inline]
    pub fn last(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(63 - self.0.leading_zeros() as u8))
    }

    /// The `n`-th card in sorted order (from 0), if any.
    #[inline]
    pub fn nth(self, n: usize) -> Option<Card> {
        let mut m = self.0;
        for _ in 0..n {
            if m == 0 {
                return None;
            }
            m &= m - 1;
        }
        CardSet(m).first()
    }

    /// The cards of one suit.
    #[inline]
    pub fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & SUIT_MASKS[suit as usize])
    }

    /// The cards as canonical strings, sorted.
    pub fn to_strings(self) -> Vec<String> {
        self.into_iter().map(|c| c.to_string()).collect()
    }

    /// The cards, sorted.
    pub fn to_vec(self) -> Vec<Card> {
        self.into_iter().collect()
    }
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitand(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & rhs.0)
    }
}

impl std::ops::Not for CardSet {
    type Output = CardSet;
    #[inline]
    fn not(self) -> CardSet {
        CardSet(!self.0 & FULL_DECK)
    }
}

impl std::ops::BitOrAssign for CardSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl std::ops::BitAndAssign for CardSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: CardSet) {
        self.0 &= rhs.0;
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl From<Card> for CardSet {
    #[inline]
    fn from(c: Card) -> CardSet {
        CardSet(c.bit())
    }
}

/// Iterator over a [`CardSet`] in sorted order.
#[derive(Clone, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let id = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(id))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    #[inline]
    fn into_iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

// Cards as canonical strings separated by single spaces, in the order given.
fn write_spaced(f: &mut fmt::Formatter<'_>, cards: impl IntoIterator<Item = Card>) -> fmt::Result {
    for (i, c) in cards.into_iter().enumerate() {
        if i > 0 {
            f.write_str(" ")?;
        }
        write!(f, "{c}")?;
    }
    Ok(())
}

impl fmt::Display for CardSet {
    /// Canonical strings, sorted, separated by single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_spaced(f, *self)
    }
}

/// A multiset of cards (CARD-2, D-15): with two packs a seat may hold both copies of a card.
/// Two masks: `set`, the cards held at least once, and `twice`, the cards held twice (a subset
/// of `set`). With one pack `twice` is always empty and `set` is the one-pack mask, so the
/// one-pack paths read `set` alone.
///
/// Iteration yields the cards in sorted order, a card held twice twice in a row.
///
/// # Examples
///
/// ```
/// use reversis_core::{Card, CardMultiset};
/// let mut m = CardMultiset::EMPTY;
/// for s in ["3C", "2C", "2C"] {
///     m.insert(s.parse::<Card>().unwrap());
/// }
/// assert_eq!(m.len(), 3);
/// assert_eq!(m.to_strings(), ["2C", "2C", "3C"]);
/// assert_eq!(m.count("2C".parse().unwrap()), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardMultiset {
    /// The cards held at least once.
    pub set: u64,
    /// The cards held twice (a subset of `set`).
    pub twice: u64,
}

impl CardMultiset {
    /// The empty multiset.
    pub const EMPTY: CardMultiset = CardMultiset { set: 0, twice: 0 };

    /// One copy of every card of `set`.
    #[inline]
    pub const fn from_set(set: CardSet) -> CardMultiset {
        CardMultiset {
            set: set.0,
            twice: 0,
        }
    }

    /// The distinct cards, as a set.
    #[inline]
    pub fn distinct(self) -> CardSet {
        CardSet(self.set)
    }

    /// The cards held twice, as a set.
    #[inline]
    pub fn doubles(self) -> CardSet {
        CardSet(self.twice)
    }

    /// The number of cards, each copy counted.
    #[inline]
    pub fn len(self) -> usize {
        (self.set.count_ones() + self.twice.count_ones()) as usize
    }

    /// Whether it holds no card.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.set == 0
    }

    /// The copies of `card` held: 0, 1 or 2.
    #[inline]
    pub fn count(self, card: Card) -> u8 {
        u8::from(self.set & card.bit() != 0) + u8::from(self.twice & card.bit() != 0)
    }

    /// Whether at least one copy of `card` is held.
    #[inline]
    pub fn contains(self, card: Card) -> bool {
        self.set & card.bit() != 0
    }

    /// Adds one copy of `card`; a third copy is not kept (there are at most two).
    #[inline]
    pub fn insert(&mut self, card: Card) {
        let bit = card.bit();
        self.twice |= self.set & bit;
        self.set |= bit;
    }

    /// Takes away one copy of `card`, if held.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        let bit = card.bit();
        let second = self.twice & bit;
        self.twice ^= second;
        self.set &= !(bit ^ second);
    }

    /// The multiset sum (at most two copies of a card are kept).
    #[inline]
    pub fn plus(self, other: CardMultiset) -> CardMultiset {
        CardMultiset {
            set: self.set | other.set,
            twice: self.twice | other.twice | (self.set & other.set),
        }
    }

    /// The multiset difference: every copy of `other` taken away once (copies `self` lacks are
    /// ignored).
    #[inline]
    pub fn minus(self, other: CardMultiset) -> CardMultiset {
        CardMultiset {
            set: (self.twice & !other.twice) | (self.set & !other.set),
            twice: self.twice & !other.set,
        }
    }

    /// Whether every copy of `self` is in `other`.
    #[inline]
    pub fn is_subset(self, other: CardMultiset) -> bool {
        self.set & !other.set == 0 && self.twice & !other.twice == 0
    }

    /// The cards in sorted order, a card held twice twice.
    pub fn to_vec(self) -> Vec<Card> {
        self.into_iter().collect()
    }

    /// The cards as canonical strings in sorted order, a card held twice twice.
    pub fn to_strings(self) -> Vec<String> {
        self.into_iter().map(|c| c.to_string()).collect()
    }
}

impl From<CardSet> for CardMultiset {
    #[inline]
    fn from(s: CardSet) -> CardMultiset {
        CardMultiset::from_set(s)
    }
}

impl FromIterator<Card> for CardMultiset {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardMultiset {
        let mut m = CardMultiset::EMPTY;
        for c in iter {
            m.insert(c);
        }
        m
    }
}

/// Iterator over a [`CardMultiset`] in sorted order, copies adjacent.
#[derive(Clone, Debug)]
pub struct CardMultisetIter {
    set: u64,
    twice: u64,
}

impl Iterator for CardMultisetIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.set == 0 {
            return None;
        }
        let id = self.set.trailing_zeros() as u8;
        let bit = 1u64 << id;
        if self.twice & bit != 0 {
            self.twice &= !bit;
        } else {
            self.set &= !bit;
        }
        Some(Card(id))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.set.count_ones() + self.twice.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardMultisetIter {}

impl IntoIterator for CardMultiset {
    type Item = Card;
    type IntoIter = CardMultisetIter;
    #[inline]
    fn into_iter(self) -> CardMultisetIter {
        CardMultisetIter {
            set: self.set,
            twice: self.twice,
        }
    }
}

impl fmt::Display for CardMultiset {
    /// Canonical strings, sorted, copies adjacent, separated by single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_spaced(f, *self)
    }
}
