//! The play of one hand as a small `Copy` value (spec `game.md`, PLAY-1 … PLAY-8, SCORE-1,
//! SCORE-2), built for search: every rule is a mask operation of the [`kernel`] and nothing
//! allocates.

use crate::card::{Card, CardMultiset, CardSet, Suit, SUIT_MASKS};
use crate::error::ErrorCode;
use crate::kernel::{self, Races, Scoring, Shot};
use crate::ruleset::{MoonChoice, Ruleset};
use crate::seat::{PerSeat, MAX_PLAYERS};

/// A completed trick (PLAY-7, SCORE-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompletedTrick {
    /// The seat that led.
    pub leader: u8,
    /// The cards in playing order; the first `len` entries are used.
    pub cards: [Card; MAX_PLAYERS],
    /// The number of cards (the number of players).
    pub len: u8,
    /// The seat that won the trick, `None` for a trick held over (PLAY-9).
    pub winner: Option<u8>,
    /// The trick's value (TRICK-1): the sum of its cards' `card_points` and of those of every
    /// held-over trick it captured; 0 for a trick held over.
    pub points: i32,
}

impl CompletedTrick {
    /// The trick as the JSON object of TRICK-1: `{leader, cards: [{seat, card}], winner,
    /// points}`.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::json!({
            "leader": self.leader,
            "cards": self
                .plays()
                .map(|(s, c)| serde_json::json!({"seat": s, "card": c.to_string()}))
                .collect::<Vec<_>>(),
            "winner": self.winner.map_or(serde_json::Value::Null, serde_json::Value::from),
            "points": self.points,
        })
    }

    /// The `(seat, card)` pairs in playing order.
    pub fn plays(&self) -> impl Iterator<Item = (usize, Card)> + '_ {
        let n = self.len as usize;
        self.cards[..n]
            .iter()
            .enumerate()
            .map(move |(i, &c)| ((self.leader as usize + i) % n, c))
    }
}

/// The state of one hand from the first lead to the last trick: hands, the trick in progress,
/// captured points, broken hearts, revealed voids, held-over tricks (PLAY-9). It is `Copy` and
/// small (no pointer, under 200 bytes), so search code can clone it freely; the ruleset is passed separately to every method that needs
/// it and must be the one the state was built with.
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, HandState, SplitMix64};
/// let rules = preset("hearts-4").unwrap();
/// let hands = SplitMix64::new(1).deal(&rules, 0);
/// let mut h = HandState::new(&rules, &hands[..4], 0);
/// while !h.is_complete(&rules) {
///     let card = h.legal_plays(&rules).first().unwrap();
///     h.play_unchecked(&rules, card);
/// }
/// assert_eq!(h.points().iter().sum::<i32>(), 26);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandState {
    // Each seat's cards, one bit per card held at least once (seats beyond `players` are
    // empty).
    hands: [u64; MAX_PLAYERS],
    // Two packs (RS-21): the cards whose two copies are in one seat's hand. At most two copies
    // exist, so that seat is the one whose mask has the card, and one mask serves every seat.
    // Always 0 with one pack.
    twice: u64,
    // Every card played this hand, the trick in progress included.
    played: u64,
    // Two packs: the cards of which both copies have been played.
    played_twice: u64,
    // The cards of the tricks held over (PLAY-9) that no seat has captured yet, and their value.
    held: CardMultiset,
    held_points: i32,
    // Each seat's points captured so far this hand (SCORE-1).
    points: [i32; MAX_PLAYERS],
    // Revealed voids: bit `seat * 4 + suit` once `seat` failed to follow `suit` (OBS-1).
    voids: u64,
    // The trick in progress, card ids in playing order.
    trick: [u8; MAX_PLAYERS],
    // The number of seats.
    players: u8,
    // The seat that led the trick in progress.
    leader: u8,
    // The number of cards in the trick in progress.
    trick_len: u8,
    // Completed tricks this hand.
    tricks_played: u8,
    // PLAY-6.
    hearts_broken: bool,
    // Who has captured the cards the moon needs so far, and who has won a trick (SCORE-2).
    races: Races,
}

impl HandState {
    /// A hand in which nothing has been dealt: every hand empty.
    pub fn empty(rules: &Ruleset) -> HandState {
        HandState {
            hands: [0; MAX_PLAYERS],
            twice: 0,
            played: 0,
            played_twice: 0,
            held: CardMultiset::EMPTY,
            held_points: 0,
            points: [0; MAX_PLAYERS],
            voids: 0,
            trick: [0; MAX_PLAYERS],
            players: rules.players() as u8,
            leader: 0,
            trick_len: 0,
            tricks_played: 0,
            hearts_broken: kernel::broken_at_start(rules.breakers().0),
            races: Races::START,
        }
    }

    /// A hand about to be played from `hands` (one per seat, after any pass), with `dealer`
    /// dealing. The first leader is set by [`HandState::start_play`].
    ///
    /// # Panics
    ///
    /// Panics if `hands.len() < rules.players()` or `dealer >= rules.players()`.
    pub fn new<H: Into<CardMultiset> + Copy>(
        rules: &Ruleset,
        hands: &[H],
        dealer: usize,
    ) -> HandState {
        let mut h = HandState::empty(rules);
        for (seat, &cards) in hands[..rules.players()].iter().enumerate() {
            h.set_hand(seat, cards.into());
        }
        h.start_play(rules, dealer);
        h
    }

    /// Sets the first leader: the holder of the opening card (PLAY-1), or the seat left of the
    /// dealer where there is none (PLAY-2).
    ///
    /// # Panics
    ///
    /// Panics if `dealer >= rules.players()`.
    pub fn start_play(&mut self, rules: &Ruleset, dealer: usize) {
        let n = rules.players();
        assert!(dealer < n, "dealer out of range");
        self.leader = kernel::first_leader(&self.hands[..n], dealer, opening_bit(rules)) as u8;
    }

    /// Makes `seat` the leader of the first trick, as the holder of the opening card would be,
    /// for a replay of a hand whose hands nobody knows.
    pub(crate) fn lead_from(&mut self, seat: usize) {
        self.leader = seat as u8;
    }

    /// Replaces a seat's cards (used by the pass, PASS-3).
    ///
    /// # Panics
    ///
    /// Panics if `seat >= MAX_PLAYERS`.
    #[inline]
    pub fn set_hand(&mut self, seat: usize, cards: impl Into<CardMultiset>) {
        let cards = cards.into();
        self.twice = (self.twice & !self.hands[seat]) | cards.twice;
        self.hands[seat] = cards.set;
    }

    /// The number of seats.
    #[inline]
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// A seat's cards, each copy (a multiset with two packs, CARD-2).
    ///
    /// # Panics
    ///
    /// Panics if `seat >= MAX_PLAYERS`.
    #[inline]
    pub fn hand(&self, seat: usize) -> CardMultiset {
        let set = self.hands[seat];
        CardMultiset {
            set,
            twice: set & self.twice,
        }
    }

    /// The distinct cards of a seat: the cards it holds at least once, which is what the rules
    /// of legality read.
    ///
    /// # Panics
    ///
    /// Panics if `seat >= MAX_PLAYERS`.
    #[inline]
    pub fn held(&self, seat: usize) -> CardSet {
        CardSet(self.hands[seat])
    }

    /// Every card played this hand, the trick in progress included, each copy.
    #[inline]
    pub fn played(&self) -> CardMultiset {
        CardMultiset {
            set: self.played,
            twice: self.played_twice,
        }
    }

    /// The cards of the tricks held over (PLAY-9) that no seat has captured yet.
    #[inline]
    pub fn held_over(&self) -> CardMultiset {
        self.held
    }

    /// The seat to play.
    #[inline]
    pub fn to_move(&self) -> usize {
        // The leader and the cards of a trick are each fewer than the players, so one
        // subtraction wraps the sum: no division on the per-step path.
        let seat = self.leader as usize + self.trick_len as usize;
        let players = self.players as usize;
        if seat >= players {
            seat - players
        } else {
            seat
        }
    }

    /// The seat that led the trick in progress (or will lead the next one).
    #[inline]
    pub fn leader(&self) -> usize {
        self.leader as usize
    }

    /// The number of cards in the trick in progress.
    #[inline]
    pub fn trick_len(&self) -> usize {
        self.trick_len as usize
    }

    /// The trick in progress as `(seat, card)` in playing order.
    pub fn trick(&self) -> impl Iterator<Item = (usize, Card)> + '_ {
        let n = self.players as usize;
        self.trick[..self.trick_len as usize]
            .iter()
            .enumerate()
            .map(move |(i, &c)| ((self.leader as usize + i) % n, Card::new(c)))
    }

    /// The cards of the trick in progress.
    #[inline]
    pub fn trick_cards(&self) -> CardSet {
        let mut m = 0u64;
        for &c in &self.trick[..self.trick_len as usize] {
            m |= 1u64 << c;
        }
        CardSet(m)
    }

    /// The suit led to the trick in progress, if a card has been led.
    #[inline]
    pub fn led_suit(&self) -> Option<Suit> {
        (self.trick_len > 0).then(|| Suit::from_index(self.trick[0] as usize / 13))
    }

    // The mask of the suit led to the trick in progress (of clubs before a lead).
    #[inline]
    fn led(&self) -> u64 {
        SUIT_MASKS[(self.trick[0] as usize / 13) & 3]
    }

    /// Completed tricks this hand.
    #[inline]
    pub fn tricks_played(&self) -> usize {
        self.tricks_played as usize
    }

    /// Whether hearts are broken (PLAY-6); always true under `none`.
    #[inline]
    pub fn hearts_broken(&self) -> bool {
        self.hearts_broken
    }

    /// Each seat's points captured so far this hand (SCORE-1), one entry per seat.
    #[inline]
    pub fn points(&self) -> &[i32] {
        &self.points[..self.players as usize]
    }

    /// The suits `seat` has revealed it lacks, as a 4-bit mask by suit index (OBS-1).
    #[inline]
    pub fn voids(&self, seat: usize) -> u8 {
        ((self.voids >> (seat * 4)) & 0xF) as u8
    }

    /// Whether every trick of the hand has been played.
    #[inline]
    pub fn is_complete(&self, rules: &Ruleset) -> bool {
        self.tricks_played as usize == rules.hand_size()
    }

    /// The legal cards of the seat to move (PLAY-8), computed as the ordered cascade of
    /// PLAY-1, PLAY-4, PLAY-5 and PLAY-6 in which a rule that would leave nothing is skipped
    /// (D-2). Empty once the hand is complete. Never allocates.
    #[inline]
    pub fn legal_plays(&self, rules: &Ruleset) -> CardSet {
        self.cascade(rules).0
    }

    /// The PLAY-8 cascade of the [`kernel`]: the legal cards of the seat to move, and the code
    /// of the stage that restricted them (`None` when every card held is legal). A card held
    /// but not legal breaks exactly that stage's rule, the first it breaks in PLAY-8's order.
    #[inline]
    pub fn cascade(&self, rules: &Ruleset) -> (CardSet, Option<ErrorCode>) {
        let hand = self.hands[self.to_move()];
        let legality = kernel::Legality::new(rules);
        let first = self.tricks_played == 0;
        let (legal, code) = if self.trick_len == 0 {
            legality.lead(hand, first, self.hearts_broken)
        } else {
            legality.follow(hand, self.led(), first)
        };
        (CardSet(legal), code)
    }

    /// What a legal play of `card` by the seat to move shows about its hand, the inverse of
    /// [`HandState::cascade`] (the [`kernel`]'s): the cards it cannot hold, as a void in the
    /// suit led, the opening card where it led another, every card but hearts where it led a
    /// heart before hearts were broken, every card worth nothing where it discarded a point card
    /// on a banned first trick. Empty where the play shows nothing.
    #[inline]
    pub fn reveals(&self, rules: &Ruleset, card: Card) -> CardSet {
        let bit = card.bit();
        let legality = kernel::Legality::new(rules);
        let first = self.tricks_played == 0;
        CardSet(if self.trick_len == 0 {
            legality.lead_reveals(bit, first, self.hearts_broken)
        } else {
            legality.follow_reveals(bit, self.led(), first)
        })
    }

    /// Checks a play of `card` by the seat to move, reporting the first rule it breaks in the
    /// order of PLAY-8: `card-not-held`, then the stage of [`HandState::cascade`] that excludes
    /// it (`must-lead-opening-card`, `must-follow-suit`, `points-on-first-trick`,
    /// `hearts-not-broken`).
    ///
    /// # Errors
    ///
    /// The code of the first rule broken.
    #[inline]
    pub fn check_play(&self, rules: &Ruleset, card: Card) -> Result<(), ErrorCode> {
        if self.hands[self.to_move()] & card.bit() == 0 {
            return Err(ErrorCode::CardNotHeld);
        }
        match self.cascade(rules) {
            (legal, _) if legal.contains(card) => Ok(()),
            (_, Some(code)) => Err(code),
            (_, None) => Ok(()),
        }
    }

    /// Plays `card` for the seat to move without checking legality, and resolves the trick
    /// when it is complete (PLAY-7, SCORE-1). Returns the completed trick, if this card
    /// completed one.
    ///
    /// # Panics
    ///
    /// Panics if the seat to move does not hold `card`. The caller must ensure the card is in
    /// [`HandState::legal_plays`]; an illegal card that is held is played as if it were legal.
    #[inline]
    pub fn play_unchecked(&mut self, rules: &Ruleset, card: Card) -> Option<CompletedTrick> {
        let seat = self.to_move();
        let bit = card.bit();
        assert!(
            self.hands[seat] & bit != 0,
            "play_unchecked: seat {seat} does not hold {card}"
        );
        // One copy leaves the hand: the second where the seat holds two (never with one pack).
        let second = self.twice & bit;
        self.twice ^= second;
        self.hands[seat] &= !(bit ^ second);
        self.played_twice |= self.played & bit;
        self.played |= bit;
        if self.trick_len > 0 && kernel::follow_suit_reveals(bit, self.led()) != 0 {
            self.voids |= 1u64 << (seat * 4 + self.trick[0] as usize / 13);
        }
        if kernel::breaks_hearts(bit, rules.breakers().0) {
            self.hearts_broken = true;
        }
        self.trick[self.trick_len as usize] = card.id();
        self.trick_len += 1;
        if self.trick_len < self.players {
            return None;
        }
        Some(self.resolve_trick(rules))
    }

    fn resolve_trick(&mut self, rules: &Ruleset) -> CompletedTrick {
        let n = self.players as usize;
        let last = self.tricks_played as usize + 1 == rules.hand_size();
        let best = kernel::trick_outcome(&self.trick[..n], rules.cancellation(), last);
        let scoring = Scoring::new(rules);
        let mut pts = 0i32;
        let mut mask = 0u64;
        for &c in &self.trick[..n] {
            pts += scoring.card_points(c);
            mask |= 1u64 << c;
        }
        let mut cards = [Card::TWO_OF_CLUBS; MAX_PLAYERS];
        for (i, c) in cards.iter_mut().enumerate().take(n) {
            *c = Card::new(self.trick[i]);
        }
        let Some(best) = best else {
            // PLAY-9: held over; the same seat leads the next trick.
            for &c in &cards[..n] {
                self.held.insert(c);
            }
            self.held_points += pts;
            self.trick = [0; MAX_PLAYERS];
            self.trick_len = 0;
            self.tricks_played += 1;
            return CompletedTrick {
                leader: self.leader,
                cards,
                len: self.players,
                winner: None,
                points: 0,
            };
        };
        // The winner captures every trick still held over with its own (PLAY-9, SCORE-1).
        let pts = pts + self.held_points;
        let mask = mask | self.held.set;
        self.held = CardMultiset::EMPTY;
        self.held_points = 0;
        let winner = self.leader as usize + best;
        let winner = if winner >= n { winner - n } else { winner };
        self.points[winner] += pts;
        self.races = scoring.capture(self.races, winner, mask);
        let done = CompletedTrick {
            leader: self.leader,
            cards,
            len: self.players,
            winner: Some(winner as u8),
            points: pts,
        };
        self.leader = winner as u8;
        // Cleared, so that equal positions are equal values (the stale cards are history).
        self.trick = [0; MAX_PLAYERS];
        self.trick_len = 0;
        self.tricks_played += 1;
        done
    }

    /// The one seat that has captured point cards so far this hand, if exactly one has: the
    /// only seat still able to take them all (SCORE-2). Public, as the tricks are.
    #[inline]
    pub fn sole_point_taker(&self) -> Option<usize> {
        self.races.moon().taker()
    }

    /// Whether `seat` can still shoot the moon (SCORE-2): no other seat has captured a point
    /// card this hand. Public, as the tricks are.
    #[inline]
    pub fn moon_open_for(&self, seat: usize) -> bool {
        self.races.moon().open_for(seat)
    }

    /// The seat that shot in the completed hand, under a rule that replaces the hand's scores
    /// (SCORE-2, [`Scoring::shot_rules`]); `None` where nobody did, the ruleset having no such
    /// rule, or while the hand is in progress.
    #[inline]
    pub fn moon_taker(&self, rules: &Ruleset) -> Option<usize> {
        self.shot(rules, false).map(|s| s.taker)
    }

    /// The shot of the completed hand, and how it is scored (SCORE-2, [`Scoring::shot`]);
    /// `None` where nobody shot, while the hand is in progress, and in a count-down hand
    /// (`count_down`, MATCH-6).
    #[inline]
    pub fn shot(&self, rules: &Ruleset, count_down: bool) -> Option<Shot> {
        if self.is_complete(rules) {
            Scoring::new(rules).shot(self.races, count_down)
        } else {
            None
        }
    }

    /// The hand's scores (SCORE-1, SCORE-2): each seat's points, with the positive part
    /// replaced where a seat shot (SCORE-2). `choice` is the taker's choice and is used only
    /// under `taker-choice`. Entries beyond `players` are 0.
    ///
    /// # Panics
    ///
    /// Panics if a seat shot the moon under `taker-choice` and `choice` is `None`.
    pub fn hand_scores(&self, rules: &Ruleset, choice: Option<MoonChoice>) -> PerSeat<i32> {
        let mut s = PerSeat(self.points);
        if let Some(shot) = self.shot(rules, false) {
            let how = shot
                .how(choice)
                .expect("hand_scores: the moon taker's choice is needed");
            Scoring::new(rules).score_shot(s.first_mut(self.players as usize), shot, how);
        }
        s
    }
}

// The opening card's bit, 0 without one (PLAY-1, PLAY-2).
#[inline]
fn opening_bit(rules: &Ruleset) -> u64 {
    rules.opening_card().map_or(0, |c| c.bit())
}
