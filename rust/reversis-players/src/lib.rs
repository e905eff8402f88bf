//! # reversis-players
//!
//! Computer players built beside the rules core (`reversis-core`), which knows nothing of
//! them: reading what a seat knows from its observation (OBS-1 JSON), sampling the hidden cards
//! from it, a Monte Carlo player, and a search player ([`search_decision`]) that evaluates its
//! plays, passes and moon choices over determinizations of the hidden cards with the rule-based
//! policy in the playouts (001 ¶9: a computer player uses only its own hand and public
//! information), a learned player's network read from the `.rvnn` weight format of
//! `spec/learned.md` ([`Network`]), and the random and rule-based decisions of every game of a
//! `VectorEnv` ([`computer_actions`]).
//!
//! # Examples
//!
//! ```
//! use reversis_core::{preset, Game};
//! let g = Game::new(preset("hartenjagen").unwrap(), Some(4), 0, None).unwrap();
//! let obs = g.observation(g.to_move().unwrap()).unwrap();
//! let card = reversis_players::monte_carlo_play(g.ruleset(), &obs, 8, 1).unwrap();
//! assert!(g.legal_plays().contains(card));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod computer;
mod equity;
mod learned;
mod policy;
mod search;

pub use equity::Standing;

pub use computer::{computer_action, computer_actions, decision_generator, Computer};
pub use learned::{
    best_legal, f16_to_f32, Activation, InputValue, Network, MAX_LAYERS, MAX_METADATA_BYTES,
    MAX_WIDTH, WEIGHTS_MAGIC, WEIGHTS_VERSION,
};
pub use search::{
    evaluate_decision, monotonic, policy_decision, search_decision, search_decision_timed,
    search_decision_with, Budget, Estimate, Evaluation, Objective, OwnedStyle, RolloutSeats, Style,
};

use reversis_core::{
    Card, CardMultiset, CardSet, Error, ErrorCode, HandState, Knowledge, Layout, MoonChoice,
    MoonScoring, PassDirection, PerSeat, Ruleset, Sampler, SplitMix64,
};
use serde_json::Value;

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidAction, message)
}

fn field<'a>(obs: &'a Value, key: &str) -> Result<&'a Value, Error> {
    obs.get(key)
        .ok_or_else(|| invalid(format!("the observation has no {key:?}")))
}

fn seat_of(v: &Value, n: usize, what: &str) -> Result<usize, Error> {
    match v.as_u64() {
        Some(s) if (s as usize) < n => Ok(s as usize),
        _ => Err(invalid(format!("{what} is not a seat: {v}"))),
    }
}

fn card_of(v: &Value, rules: &Ruleset) -> Result<Card, Error> {
    let text = v
        .as_str()
        .ok_or_else(|| invalid(format!("a card must be a string, not {v}")))?;
    let card = Card::parse(text).map_err(|e| invalid(e.message().to_owned()))?;
    if !rules.deck().contains(card) {
        return Err(invalid(format!("{card} is not in the deck")));
    }
    Ok(card)
}

// A list of cards, each at most as many times as the deck has copies of it (twice with two
// packs, RS-21).
fn cards_of(v: &Value, rules: &Ruleset) -> Result<CardMultiset, Error> {
    let items = v
        .as_array()
        .ok_or_else(|| invalid(format!("a list of cards was expected, not {v}")))?;
    let deck = rules.deck_cards();
    let mut cards = CardMultiset::EMPTY;
    for item in items {
        let c = card_of(item, rules)?;
        if cards.count(c) >= deck.count(c) {
            return Err(invalid(format!(
                "{c} is listed more times than the deck has copies of it"
            )));
        }
        cards.insert(c);
    }
    Ok(cards)
}

// The `(seat, card)` plays of a list of `{seat, card}` objects.
fn plays_of(v: &Value, rules: &Ruleset) -> Result<Vec<(usize, Card)>, Error> {
    let items = v
        .as_array()
        .ok_or_else(|| invalid(format!("a list of plays was expected, not {v}")))?;
    items
        .iter()
        .map(|p| {
            Ok((
                seat_of(field(p, "seat")?, rules.players(), "a play's seat")?,
                card_of(field(p, "card")?, rules)?,
            ))
        })
        .collect()
}

/// Plays as `(seat, card)`, in order.
type Plays = Vec<(usize, Card)>;

/// The public record of the hand read from an observation: every trick (completed ones with
/// their winner, `None` for a trick held over, PLAY-9), in order, and the trick in progress.
struct History {
    tricks: Vec<(Plays, Option<usize>)>,
    trick: Vec<(usize, Card)>,
}

impl History {
    /// Every play of the hand in order, the trick in progress included.
    fn plays(&self) -> Vec<(usize, Card)> {
        let done = self.tricks.iter().flat_map(|(t, _)| t.iter());
        done.chain(self.trick.iter()).copied().collect()
    }
}

fn history_of(rules: &Ruleset, obs: &Value) -> Result<History, Error> {
    let n = rules.players();
    let tricks = field(obs, "tricks")?
        .as_array()
        .ok_or_else(|| invalid("tricks must be a list"))?
        .iter()
        .map(|t| {
            let winner = match field(t, "winner")? {
                Value::Null => None,
                v => Some(seat_of(v, n, "a trick's winner")?),
            };
            Ok((plays_of(field(t, "cards")?, rules)?, winner))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let trick = plays_of(field(obs, "trick")?, rules)?;
    Ok(History { tricks, trick })
}

// The multiset sum of `a` and `b` where it stays within `deck`.
fn sum_within(a: CardMultiset, b: CardMultiset, deck: CardMultiset) -> Option<CardMultiset> {
    let over = (a.twice & b.set) | (a.set & b.twice);
    let sum = a.plus(b);
    (over == 0 && sum.is_subset(deck)).then_some(sum)
}

/// Reads what the observing seat knows from its observation (OBS-1 JSON) under `rules`: the
/// same as [`reversis_core::Game::knowledge`] gives from the game itself. With two packs
/// (RS-21) every entry counts copies: a hand may list a card twice, and a card the observer
/// passed is known to be with its receiver until the receiver has played as many copies of it
/// as it was passed.
///
/// In phase `play`, `moon` and `over`, the layout is that of the hands now. In phase `pass` it
/// is that of the deal: the observer's hand is `hand` with the cards it `passed`, and every seat
/// holds `hand_size` cards.
///
/// # Errors
///
/// `invalid-action` if the observation is malformed or inconsistent (a card listed more
/// times than the deck has copies of it included), or in phase `deal`.
pub fn knowledge_from_observation(rules: &Ruleset, obs: &Value) -> Result<Knowledge, Error> {
    let n = rules.players();
    let seat = seat_of(field(obs, "seat")?, n, "seat")?;
    let phase = field(obs, "phase")?
        .as_str()
        .ok_or_else(|| invalid("phase must be a string"))?;
    let mut k = Knowledge {
        seat,
        hand: cards_of(field(obs, "hand")?, rules)?,
        ..Knowledge::default()
    };
    let voids = field(obs, "voids")?
        .as_array()
        .filter(|v| v.len() == n)
        .ok_or_else(|| invalid("voids must hold one list per seat"))?;
    for (s, list) in voids.iter().enumerate() {
        for suit in list
            .as_array()
            .ok_or_else(|| invalid("a seat's voids must be a list"))?
        {
            let i = match suit.as_str() {
                Some("C") => 0,
                Some("D") => 1,
                Some("H") => 2,
                Some("S") => 3,
                _ => return Err(invalid(format!("{suit} is not a suit"))),
            };
            k.voids[s] |= 1 << i;
        }
    }
    let passed = match field(obs, "passed")? {
        Value::Null => None,
        v => Some(cards_of(v, rules)?),
    };
    let received = !field(obs, "received")?.is_null();
    let hand_size = rules.hand_size() as u8;
    match phase {
        "deal" => return Err(invalid("nothing has been dealt yet")),
        "pass" => {
            if let Some(p) = passed {
                k.hand = sum_within(k.hand, p, rules.deck_cards())
                    .ok_or_else(|| invalid("a passed card is still in the hand"))?;
            }
            k.counts[..n].fill(hand_size);
            return Ok(k);
        }
        "play" | "moon" | "over" => {}
        other => return Err(invalid(format!("unknown phase {other:?}"))),
    }
    let deck = rules.deck_cards();
    let mut played_by = PerSeat::splat(CardMultiset::EMPTY);
    for (s, c) in history_of(rules, obs)?.plays() {
        if k.played.count(c) >= deck.count(c) {
            return Err(invalid(format!(
                "{c} is played more times than the deck has copies of it"
            )));
        }
        k.played.insert(c);
        played_by[s].insert(c);
    }
    for s in 0..n {
        k.counts[s] = hand_size
            .checked_sub(played_by[s].len() as u8)
            .ok_or_else(|| invalid(format!("seat {s} played too many cards")))?;
    }
    if let (Some(p), true) = (passed, received) {
        let dir = field(obs, "pass_direction")?
            .as_str()
            .and_then(PassDirection::from_name)
            .ok_or_else(|| invalid("a pass happened without a pass direction"))?;
        let to = dir.target(seat, n);
        if to != seat {
            // With one pack only the receiver can have played a passed card; with two, the
            // other copy may be played by anyone, and only the receiver's plays use up a copy
            // it was passed.
            k.known[to] = p.minus(played_by[to]);
        }
    }
    Ok(k)
}

/// `samples` layouts drawn independently and exactly uniformly among those consistent with
/// what the observer of `obs` knows (see [`knowledge_from_observation`]), from a generator
/// seeded with `seed`.
///
/// # Errors
///
/// As [`knowledge_from_observation`] and [`Sampler::new`].
pub fn sample_layouts(
    rules: &Ruleset,
    obs: &Value,
    samples: usize,
    seed: u64,
) -> Result<Vec<Layout>, Error> {
    let sampler = Sampler::new(rules, &knowledge_from_observation(rules, obs)?)?;
    let mut rng = SplitMix64::new(seed);
    Ok((0..samples).map(|_| sampler.sample(&mut rng)).collect())
}

/// The number of layouts consistent with what the observer of `obs` knows.
///
/// # Errors
///
/// As [`knowledge_from_observation`] and [`reversis_core::count_layouts`].
pub fn count_observation_layouts(rules: &Ruleset, obs: &Value) -> Result<u128, Error> {
    reversis_core::count_layouts(rules, &knowledge_from_observation(rules, obs)?)
}

/// The cards each seat cannot hold now, as the legality of the hand's plays shows them to the
/// observer of `obs` (for [`Sampler::with_exclusions`]): [`reversis_core::revealed`] of the
/// plays in its tricks, the first leader being the first play's seat or, before the first
/// lead, the seat to move. Besides the voids of OBS-1:
///
/// - a heart led while hearts were unbroken, other than a forced opening card, shows a hand of
///   hearts (PLAY-6);
/// - a point card discarded on the first trick under the first-trick ban shows a hand of point
///   cards (PLAY-5);
/// - the seat that leads the first trick holds the opening card (PLAY-1).
///
/// Empty in phase `pass`, where the layout is the deal's.
///
/// # Errors
///
/// As [`knowledge_from_observation`] and [`reversis_core::revealed`].
pub fn play_exclusions(rules: &Ruleset, obs: &Value) -> Result<PerSeat<CardSet>, Error> {
    match field(obs, "phase")?.as_str() {
        Some("play" | "moon" | "over") => {}
        Some("pass") => return Ok(PerSeat::splat(CardSet::EMPTY)),
        Some("deal") => return Err(invalid("nothing has been dealt yet")),
        Some(other) => return Err(invalid(format!("unknown phase {other:?}"))),
        None => return Err(invalid("phase must be a string")),
    }
    let plays = history_of(rules, obs)?.plays();
    let leader = match plays.first() {
        Some(&(s, _)) => s,
        None => match field(obs, "to_move")? {
            v @ Value::Number(_) => seat_of(v, rules.players(), "to_move")?,
            // No seat to move and nothing played: nothing to read.
            _ => return Ok(PerSeat::splat(CardSet::EMPTY)),
        },
    };
    reversis_core::revealed(rules, leader, &plays)
}

/// The number of layouts consistent with everything the observer of `obs` knows: what
/// [`count_observation_layouts`] counts, less the layouts that the legality of the plays rules
/// out ([`play_exclusions`]).
///
/// # Errors
///
/// As [`knowledge_from_observation`] and [`Sampler::count_with_exclusions`].
pub fn count_consistent_layouts(rules: &Ruleset, obs: &Value) -> Result<u128, Error> {
    let k = knowledge_from_observation(rules, obs)?;
    Sampler::count_with_exclusions(rules, &k, &play_exclusions(rules, obs)?)
}

/// As [`sample_layouts`], among the layouts [`count_consistent_layouts`] counts.
///
/// # Errors
///
/// As [`knowledge_from_observation`] and [`Sampler::with_exclusions`].
pub fn sample_consistent_layouts(
    rules: &Ruleset,
    obs: &Value,
    samples: usize,
    seed: u64,
) -> Result<Vec<Layout>, Error> {
    let k = knowledge_from_observation(rules, obs)?;
    let sampler = Sampler::with_exclusions(rules, &k, &play_exclusions(rules, obs)?)?;
    let mut rng = SplitMix64::new(seed);
    Ok((0..samples).map(|_| sampler.sample(&mut rng)).collect())
}

// The public part of the hand as a HandState whose hands are empty: the plays replayed in
// order, so points, voids, broken hearts, the leader and the moon candidate are exact.
fn public_state(rules: &Ruleset, obs: &Value, k: &Knowledge) -> Result<HandState, Error> {
    let n = rules.players();
    let dealer = seat_of(field(obs, "dealer")?, n, "dealer")?;
    let history = history_of(rules, obs)?;
    let mut st = HandState::empty(rules);
    let mut own = PerSeat::splat(CardMultiset::EMPTY);
    for (t, _) in &history.tricks {
        for &(s, c) in t {
            own[s].insert(c);
        }
    }
    for &(s, c) in &history.trick {
        own[s].insert(c);
    }
    for (s, cards) in own.iter().enumerate().take(n) {
        st.set_hand(s, *cards);
    }
    st.start_play(rules, dealer);
    let play = |st: &mut HandState, s: usize, c: Card| {
        if st.to_move() != s {
            return Err(invalid(format!("seat {s} played {c} out of turn")));
        }
        Ok(st.play_unchecked(rules, c))
    };
    for (t, winner) in &history.tricks {
        if t.len() != n {
            return Err(invalid("a completed trick must have one card per seat"));
        }
        let mut done = None;
        for &(s, c) in t {
            done = play(&mut st, s, c)?;
        }
        if done.and_then(|d| d.winner).map(usize::from) != *winner {
            return Err(invalid("a trick's winner does not follow from its cards"));
        }
    }
    for &(s, c) in &history.trick {
        if play(&mut st, s, c)?.is_some() {
            return Err(invalid("the trick in progress is complete"));
        }
    }
    if st.played() != k.played {
        return Err(invalid("the played cards do not add up"));
    }
    Ok(st)
}

// The hand scores of a finished hand, the moon choice (where the taker has one) made to
// minimise the taker's score minus the others' mean.
fn final_scores(rules: &Ruleset, st: &HandState) -> PerSeat<i32> {
    match (rules.moon(), st.moon_taker(rules)) {
        (Some(m), Some(t)) if m.scoring == MoonScoring::TakerChoice => {
            let a = st.hand_scores(rules, Some(MoonChoice::AddToOthers));
            let b = st.hand_scores(rules, Some(MoonChoice::SubtractFromTaker));
            if margin(&b, t, rules.players()) < margin(&a, t, rules.players()) {
                b
            } else {
                a
            }
        }
        _ => st.hand_scores(rules, None),
    }
}

// (n − 1) × (own score − mean of the others' scores): lower is better for `seat`.
#[inline]
fn margin(scores: &PerSeat<i32>, seat: usize, n: usize) -> i64 {
    let total: i64 = scores[..n].iter().map(|&s| i64::from(s)).sum();
    let own = i64::from(scores[seat]);
    (n as i64 - 1) * own - (total - own)
}

/// The Monte Carlo evaluation of every legal card of the seat to play in `obs`, which must be
/// the observer: for `rollouts` layouts drawn uniformly from what it knows (one layout shared
/// by every card), the card is played and the hand finished by every seat following a simple
/// heuristic with a little noise (`playout_card`).
/// Returns each legal card, in card order, with its mean of own hand score minus the others'
/// mean hand score (lower is better).
///
/// # Errors
///
/// `invalid-action` if the observation is malformed or its seat is not to play.
pub fn monte_carlo_evaluate(
    rules: &Ruleset,
    obs: &Value,
    rollouts: usize,
    seed: u64,
) -> Result<Vec<(Card, f64)>, Error> {
    let rollouts = rollouts.max(1);
    let scale = (rollouts * (rules.players() - 1)) as f64;
    Ok(rollout_sums(rules, obs, rollouts, seed, false)?
        .into_iter()
        .map(|(c, s)| (c, s as f64 / scale))
        .collect())
}

/// The card a Monte Carlo player chooses for the observer of `obs`: the legal card with the
/// best [`monte_carlo_evaluate`] result (the lowest own score minus the others' mean), ties
/// broken by the lowest card id. A single legal card is returned without any rollout.
/// Deterministic for a given `seed`.
///
/// # Errors
///
/// As [`monte_carlo_evaluate`].
pub fn monte_carlo_play(
    rules: &Ruleset,
    obs: &Value,
    rollouts: usize,
    seed: u64,
) -> Result<Card, Error> {
    let sums = rollout_sums(rules, obs, rollouts.max(1), seed, true)?;
    let mut best = sums[0];
    for &(c, v) in &sums[1..] {
        if v < best.1 {
            best = (c, v);
        }
    }
    Ok(best.0)
}

// The playout policy: a plain Hearts heuristic with a little noise, so that the simulated
// opponents duck and dump points roughly as real ones do (uniformly random playouts make every
// card look alike and lose to simple rules). Leading: the lowest card. Following: the highest
// card that still ducks under the winning one, else (last to play) the highest, else the
// lowest. Discarding: the most valuable point card, else the highest card.
fn playout_card(h: &HandState, rules: &Ruleset, rng: &mut SplitMix64) -> Card {
    let legal = h.legal_plays(rules);
    if legal.len() == 1 || rng.below_fast(8) == 0 {
        let i = rng.below_fast(legal.len() as u64) as usize;
        return legal.nth(i).expect("i < len");
    }
    let rank = |c: Card| c.id() % 13;
    let lowest = |set: CardSet| set.into_iter().min_by_key(|&c| (rank(c), c.id()));
    let highest = |set: CardSet| set.into_iter().max_by_key(|&c| (rank(c), c.id()));
    let Some(led) = h.led_suit() else {
        return lowest(legal).expect("legal is not empty");
    };
    let follows = legal.of_suit(led);
    if !follows.is_empty() {
        let winning = h
            .trick()
            .map(|(_, c)| c)
            .filter(|c| c.suit() == led)
            .max_by_key(|c| c.id())
            .expect("the led card is in the trick");
        let ducks = CardSet(follows.0 & (winning.bit() - 1));
        if let Some(card) = highest(ducks) {
            return card;
        }
        let last = h.trick_len() + 1 == h.players();
        let pick = if last {
            highest(follows)
        } else {
            lowest(follows)
        };
        return pick.expect("follows is not empty");
    }
    legal
        .into_iter()
        .filter(|&c| rules.points_of(c) > 0)
        .max_by_key(|&c| (rules.points_of(c), rank(c)))
        .or_else(|| highest(legal))
        .expect("legal is not empty")
}

// Each legal card with its sum of margins over `rollouts` playouts (just the card, with 0,
// when it is the only one and `shortcut` is set).
fn rollout_sums(
    rules: &Ruleset,
    obs: &Value,
    rollouts: usize,
    seed: u64,
    shortcut: bool,
) -> Result<Vec<(Card, i64)>, Error> {
    let n = rules.players();
    let k = knowledge_from_observation(rules, obs)?;
    if field(obs, "phase")?.as_str() != Some("play")
        || field(obs, "to_move")?.as_u64() != Some(k.seat as u64)
    {
        return Err(invalid(format!("seat {} is not to play", k.seat)));
    }
    let base = public_state(rules, obs, &k)?;
    let mut probe = base;
    probe.set_hand(k.seat, k.hand);
    let fresh = base.played().is_empty();
    let dealer = seat_of(field(obs, "dealer")?, n, "dealer")?;
    if fresh {
        probe.start_play(rules, dealer);
    }
    if probe.to_move() != k.seat {
        return Err(invalid(format!("seat {} is not to play", k.seat)));
    }
    let legal = probe.legal_plays(rules);
    if legal.is_empty() {
        return Err(invalid("the observer has no legal card"));
    }
    let cards = legal.to_vec();
    if shortcut && cards.len() == 1 {
        return Ok(vec![(cards[0], 0)]);
    }
    let sampler = Sampler::new(rules, &k)?;
    let mut rng = SplitMix64::new(seed);
    let mut sums = vec![0i64; cards.len()];
    for _ in 0..rollouts {
        let layout = sampler.sample(&mut rng);
        let mut st = base;
        for (s, cards) in layout.iter().enumerate().take(n) {
            st.set_hand(s, *cards);
        }
        if fresh {
            st.start_play(rules, dealer);
        }
        for (sum, &card) in sums.iter_mut().zip(&cards) {
            let mut h = st;
            h.play_unchecked(rules, card);
            while !h.is_complete(rules) {
                let card = playout_card(&h, rules, &mut rng);
                h.play_unchecked(rules, card);
            }
            *sum += margin(&final_scores(rules, &h), k.seat, n);
        }
    }
    Ok(cards.into_iter().zip(sums).collect())
}
