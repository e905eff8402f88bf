//! Seats (SEAT-1) and one value per seat, like shakmaty's `ByColor`.

use std::ops::{Deref, DerefMut};

/// The most seats a ruleset may have (RS-3).
pub const MAX_PLAYERS: usize = 10;

/// One value per seat of the largest table; a table of `n` seats uses the first `n` entries and
/// leaves the others at their default.
///
/// # Examples
///
/// ```
/// use reversis_core::PerSeat;
/// let mut points = PerSeat::<i32>::default();
/// points[2] += 13;
/// assert_eq!(points.first(4), &[0, 0, 13, 0]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerSeat<T>(pub [T; MAX_PLAYERS]);

impl<T: Copy> PerSeat<T> {
    /// Every seat holding `value`.
    pub const fn splat(value: T) -> PerSeat<T> {
        PerSeat([value; MAX_PLAYERS])
    }
}

impl<T> PerSeat<T> {
    /// The entries of the first `players` seats.
    ///
    /// # Panics
    ///
    /// Panics if `players > MAX_PLAYERS`.
    #[inline]
    pub fn first(&self, players: usize) -> &[T] {
        &self.0[..players]
    }

    /// The entries of the first `players` seats, mutably.
    ///
    /// # Panics
    ///
    /// Panics if `players > MAX_PLAYERS`.
    #[inline]
    pub fn first_mut(&mut self, players: usize) -> &mut [T] {
        &mut self.0[..players]
    }
}

impl<T> Deref for PerSeat<T> {
    type Target = [T; MAX_PLAYERS];
    #[inline]
    fn deref(&self) -> &[T; MAX_PLAYERS] {
        &self.0
    }
}

impl<T> DerefMut for PerSeat<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T; MAX_PLAYERS] {
        &mut self.0
    }
}

impl<T> From<[T; MAX_PLAYERS]> for PerSeat<T> {
    fn from(a: [T; MAX_PLAYERS]) -> PerSeat<T> {
        PerSeat(a)
    }
}
