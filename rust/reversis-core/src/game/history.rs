//! What a game keeps beside its position: its history (the accepted actions, the tricks, the
//! hand scores and the undo units) in logs shared between copies, the checkpoints undo replays
//! from, and the acting seat's legal mask. Kept apart from [`super::Game`]'s API because a
//! game's copies, its undo and its per-step cost all rest on how these are stored.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rpds::VectorSync;
use triomphe::Arc as TArc;

use crate::action::Action;
use crate::card::{Card, CardMultiset};
use crate::event::HandSummary;
use crate::position::Position;
use crate::ruleset::MoonChoice;
use crate::seat::PerSeat;

// An accepted action as the game keeps it: `Copy`, canonical by construction, and 16 bytes: a
// deal's hands are kept apart, in the game's log of deals, at the index it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Recorded {
    Deal(u32),
    Pass { seat: u8, cards: CardMultiset },
    Play { seat: u8, card: Card },
    Moon { seat: u8, choice: MoonChoice },
}

// The size a log's chunk is counted in (`CHUNK_BYTES`).
const _: () = assert!(std::mem::size_of::<Recorded>() <= 24);

impl Recorded {
    pub(super) fn to_action(self, players: usize, deals: &Log<PerSeat<CardMultiset>>) -> Action {
        match self {
            Recorded::Deal(i) => Action::Deal {
                hands: deals[i as usize]
                    .first(players)
                    .iter()
                    .map(|h| h.to_vec())
                    .collect(),
            },
            Recorded::Pass { seat, cards } => Action::Pass {
                seat: seat.into(),
                cards: cards.to_vec(),
            },
            Recorded::Play { seat, card } => Action::Play {
                seat: seat.into(),
                card,
            },
            Recorded::Moon { seat, choice } => Action::Moon {
                seat: seat.into(),
                choice,
            },
        }
    }
}

/// The accepted actions of a game up to some moment (API-3 `actions`): a snapshot sharing the
/// game's persistent history, so taking one costs O(1) whatever the length of the match.
#[derive(Clone, Debug)]
pub struct ActionLog {
    pub(super) log: Log<Recorded>,
    pub(super) deals: Log<PerSeat<CardMultiset>>,
    pub(super) players: usize,
}

impl ActionLog {
    /// The number of actions.
    pub fn len(&self) -> usize {
        self.log.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.log.len() == 0
    }

    /// Action `index`, canonical (ACT-1), built on access.
    pub fn get(&self, index: usize) -> Option<Action> {
        self.log
            .get(index)
            .map(|r| r.to_action(self.players, &self.deals))
    }

    /// The last action, if any.
    pub fn last(&self) -> Option<Action> {
        self.log
            .last()
            .map(|r| r.to_action(self.players, &self.deals))
    }

    /// The actions in order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        self.log
            .iter()
            .map(|r| r.to_action(self.players, &self.deals))
    }

    /// The actions as a vector.
    pub fn to_vec(&self) -> Vec<Action> {
        self.iter().collect()
    }
}

impl PartialEq for ActionLog {
    fn eq(&self, other: &ActionLog) -> bool {
        // A deal is told by its hands, not by where they are kept.
        let hands = |log: &ActionLog, r: &Recorded| match *r {
            Recorded::Deal(i) => Some(log.deals[i as usize]),
            _ => None,
        };
        self.players == other.players
            && self.log.len() == other.log.len()
            && self.log.iter().zip(other.log.iter()).all(|(a, b)| {
                match (hands(self, a), hands(other, b)) {
                    (None, None) => a == b,
                    (x, y) => x == y,
                }
            })
    }
}

// The last scored hand (EVT-2): its summary and where its tricks end in the match's tricks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LastHand {
    pub(super) summary: HandSummary,
    pub(super) trick_end: usize,
}

// An undo unit (API-8): an ACT-1 action the caller applied, found at its index in the actions
// log, or a selection (ACT-2). A deal made from the seed is not an input of its own: it belongs
// to the input that set it off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Input {
    Action(u32),
    Select { seat: u8, card: Card },
}

// Where undo replays from (API-8): the position and last hand at the game's start and just
// after each deal, and the lengths of the history then. An input made after it is replayed on
// it through the same transitions, without the checks, so it is taken at most once a hand.
#[derive(Clone, Copy, Debug)]
pub(super) struct Checkpoint {
    pub(super) pos: Position,
    pub(super) seed_deals: u64,
    pub(super) last_hand: Option<LastHand>,
    pub(super) actions: usize,
    pub(super) deals: usize,
    pub(super) tricks: usize,
    pub(super) hand_scores: usize,
    pub(super) inputs: usize,
}

// The checkpoints, newest first, as a persistent list: one allocation a checkpoint, one shared
// pointer to copy with the game.
pub(super) struct Checkpoints {
    pub(super) cp: Checkpoint,
    pub(super) older: Option<Arc<Checkpoints>>,
}

impl Checkpoints {
    fn iter(&self) -> impl Iterator<Item = &Checkpoint> + '_ {
        std::iter::successors(Some(self), |c| c.older.as_deref()).map(|c| &c.cp)
    }
}

impl fmt::Debug for Checkpoints {
    // Lists them iteratively, however many there are.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Drop for Checkpoints {
    // Frees a long list iteratively, not by recursion.
    fn drop(&mut self) {
        let mut next = self.older.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut node) => next = node.older.take(),
                Err(_) => break,
            }
        }
    }
}

// The bytes of a log's chunk: a copy of a game copies its logs' tails, up to a chunk each, when
// it first changes them; the longer a chunk, the rarer a log takes one (a chunk of 32 actions
// was a tenth of a per-step loop's instructions in the core).
const CHUNK_BYTES: usize = 1024;

// A persistent, append-only log of `Copy` items (the actions, tricks, hand scores and inputs):
// cloning it is O(1), the items being shared. The items after the last full chunk are one
// shared vector, written in place while it is not shared, and each full chunk is one item of a
// persistent vector, so that a push costs no allocation but once a chunk: `rpds` vectors box
// every item on its own, and `imbl`'s chunked vector measured 33 ns a push here, against the
// ~60 ns a whole `apply_action` takes with this log.
#[derive(Clone, Debug)]
pub(super) struct Log<T> {
    len: usize,
    // The full chunks of `CHUNK` items, oldest first; `None` while there is none.
    chunks: Option<VectorSync<Vec<T>>>,
    // The items after the chunks, fewer than `CHUNK`; `None` while there is none.
    tail: Option<TArc<Vec<T>>>,
}

impl<T: Copy> Log<T> {
    // The items of a chunk.
    const CHUNK: usize = {
        let items = CHUNK_BYTES / std::mem::size_of::<T>();
        if items < 16 {
            16
        } else {
            items
        }
    };

    pub(super) fn new() -> Log<T> {
        Log {
            len: 0,
            chunks: None,
            tail: None,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    fn tail_len(&self) -> usize {
        self.tail.as_ref().map_or(0, |t| t.len())
    }

    // The tail, unshared first if need be (with room for a whole chunk). `triomphe`'s `Arc` has
    // no weak count, so telling that the tail is not shared is one load (std's `get_mut` costs
    // two atomic read-modify-writes, measured as a tenth of `apply_action`).
    fn tail_mut(&mut self) -> &mut Vec<T> {
        let t = self
            .tail
            .get_or_insert_with(|| TArc::new(Vec::with_capacity(Self::CHUNK)));
        if !t.is_unique() {
            let mut v = Vec::with_capacity(Self::CHUNK);
            v.extend_from_slice(t);
            *t = TArc::new(v);
        }
        TArc::get_mut(t).expect("the tail is not shared")
    }

    pub(super) fn push(&mut self, item: T) {
        let t = self.tail_mut();
        t.push(item);
        let full = t.len() == Self::CHUNK;
        self.len += 1;
        if full {
            if let Some(t) = self.tail.take() {
                let chunk = TArc::try_unwrap(t).unwrap_or_else(|t| (*t).clone());
                self.chunks
                    .get_or_insert_with(VectorSync::new_sync)
                    .push_back_mut(chunk);
            }
        }
    }

    pub(super) fn get(&self, index: usize) -> Option<&T> {
        if index >= self.len {
            return None;
        }
        let base = self.len - self.tail_len();
        if index >= base {
            self.tail.as_ref()?.get(index - base)
        } else {
            self.chunks
                .as_ref()?
                .get(index / Self::CHUNK)?
                .get(index % Self::CHUNK)
        }
    }

    pub(super) fn last(&self) -> Option<&T> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.chunks
            .iter()
            .flat_map(|c| c.iter())
            .flat_map(|c| c.iter())
            .chain(self.tail.iter().flat_map(|t| t.iter()))
    }

    // The items from `start` on.
    pub(super) fn iter_from(&self, start: usize) -> impl Iterator<Item = &T> + '_ {
        (start..self.len).filter_map(move |i| self.get(i))
    }

    pub(super) fn truncate(&mut self, len: usize) {
        while self.len > len {
            let tail = self.tail_len();
            if tail == 0 {
                // The last chunk becomes the tail.
                let Some(chunks) = self.chunks.as_mut() else {
                    unreachable!("a log's items are in its chunks or its tail");
                };
                let Some(last) = chunks.last().cloned() else {
                    unreachable!("a log's items are in its chunks or its tail");
                };
                chunks.drop_last_mut();
                if chunks.is_empty() {
                    self.chunks = None;
                }
                self.tail = Some(TArc::new(last));
                continue;
            }
            let cut = (self.len - len).min(tail);
            self.tail_mut().truncate(tail - cut);
            self.len -= cut;
        }
    }
}

impl<T: Copy + PartialEq> PartialEq for Log<T> {
    fn eq(&self, other: &Log<T>) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<T: Copy> std::ops::Index<usize> for Log<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(item) => item,
            None => panic!("index {index} out of a log of {} items", self.len),
        }
    }
}

// A legal mask and the number of inputs it was computed after; every input changes that
// number, and undo, which takes one back, forgets the mask. Atomics rather than a `Cell` keep
// `Game` `Sync`: readers sharing a game only ever store the mask of the position they all see,
// and the count, stored last with `Release`, is loaded first with `Acquire`.
#[derive(Debug, Default)]
pub(super) struct KnownMask {
    // The number of inputs plus one; 0 while no mask is known.
    key: AtomicU64,
    low: AtomicU64,
    high: AtomicU64,
}

impl KnownMask {
    pub(super) fn get(&self, inputs: usize) -> Option<u128> {
        if self.key.load(Ordering::Acquire) != inputs as u64 + 1 {
            return None;
        }
        let low = self.low.load(Ordering::Relaxed);
        let high = self.high.load(Ordering::Relaxed);
        Some(u128::from(high) << 64 | u128::from(low))
    }

    pub(super) fn set(&self, inputs: usize, mask: u128) {
        self.low.store(mask as u64, Ordering::Relaxed);
        self.high.store((mask >> 64) as u64, Ordering::Relaxed);
        self.key.store(inputs as u64 + 1, Ordering::Release);
    }

    pub(super) fn forget(&self) {
        self.key.store(0, Ordering::Release);
    }
}

impl Clone for KnownMask {
    fn clone(&self) -> KnownMask {
        let copy = KnownMask::default();
        let key = self.key.load(Ordering::Acquire);
        copy.low
            .store(self.low.load(Ordering::Relaxed), Ordering::Relaxed);
        copy.high
            .store(self.high.load(Ordering::Relaxed), Ordering::Relaxed);
        copy.key.store(key, Ordering::Relaxed);
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::Log;

    // A log against a `Vec` through pushes, truncations across chunk boundaries and copies
    // that share its chunks and tail.
    #[test]
    fn log_is_a_persistent_vec() {
        let mut log = Log::new();
        let mut want: Vec<u32> = Vec::new();
        let mut copies: Vec<(Log<u32>, Vec<u32>)> = Vec::new();
        let mut x: u32 = 7;
        for step in 0..4000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            if (x >> 16) % 40 == 0 {
                let len = want
                    .len()
                    .saturating_sub((x as usize >> 20) % (2 * Log::<u32>::CHUNK + 5));
                log.truncate(len);
                want.truncate(len);
            } else {
                log.push(step);
                want.push(step);
            }
            if (x >> 16) % 7 == 0 {
                copies.push((log.clone(), want.clone()));
            }
            assert_eq!(log.len(), want.len());
            assert_eq!(log.last(), want.last());
        }
        copies.push((log, want));
        // Changing a copy leaves the others as they were.
        for (i, (log, want)) in copies.iter_mut().enumerate().step_by(3) {
            let len = want.len() / 2;
            log.truncate(len);
            want.truncate(len);
            for k in 0..i as u32 % 40 {
                log.push(k);
                want.push(k);
            }
        }
        for (log, want) in &copies {
            assert_eq!(log.iter().copied().collect::<Vec<_>>(), *want);
            for (i, w) in want.iter().enumerate() {
                assert_eq!(log.get(i), Some(w));
                assert_eq!(log[i], *w);
            }
            assert_eq!(log.get(want.len()), None);
            let from = want.len() / 3;
            assert!(log.iter_from(from).eq(want[from..].iter()));
            let mut other = Log::new();
            for &w in want {
                other.push(w);
            }
            assert_eq!(&other, log);
        }
    }
}
