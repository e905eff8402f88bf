//! A batch simulator: many independent hands under a uniformly random legal policy, played
//! with mask operations only.
//!
//! The playout here does not go through [`HandState`](crate::HandState): a batch plays millions
//! of hands whose intermediate states nobody observes, so it keeps only what the rules need
//! (one mask per seat, the cards each seat has taken, whether hearts are broken) and reads the
//! ruleset once per batch into a plan. The rules are the [`kernel`]'s, as `HandState`'s are,
//! and the deal is SEED-3's; it makes the same random draws in the same order as a playout
//! through `HandState` would, so it deals and plays the same hands; the tests of this module
//! check that against `HandState` on every preset.

use std::sync::Mutex;

use crate::card::{Card, CardMultiset};
use crate::hand::HandState;
use crate::kernel::{self, Races, Scoring};
use crate::rng::{deal_ids, deal_multiset, deck_ids, SplitMix64};
use crate::ruleset::{MoonChoice, PassDirection, Ruleset};
use crate::seat::{PerSeat, MAX_PLAYERS};

/// The generator of hand `index` in a batch seeded with `seed`: the state is the first draw of
/// a SplitMix64 whose state is `seed XOR (index × 0xD1B54A32D192ED03)` (multiplication
/// wrapping modulo 2^64). Distinct indices give distinct states, so every hand is fully
/// determined by `(seed, index)` whatever the thread count.
#[inline]
pub fn hand_generator(seed: u64, index: u64) -> SplitMix64 {
    let mut g = SplitMix64::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    SplitMix64::new(g.next_u64())
}

/// What the playout needs of a ruleset, computed once per batch.
struct Plan<'a> {
    rules: &'a Ruleset,
    players: usize,
    hand_size: usize,
    // The deck's card ids in ascending order, the order the shuffle starts from; the first
    // `deck_len` entries are used. 64 entries, so that an index masked with 63 is in bounds.
    deck: [u8; 64],
    deck_len: usize,
    // Two packs (RS-21): hands are multisets, and the hand is played through `HandState`.
    two_packs: bool,
    // The cards of the deck, every copy: the number of play decisions of a hand.
    cards: usize,
    // The rules of legality (PLAY-1, PLAY-5, …) and of scoring (SCORE-1, SCORE-2).
    legality: kernel::Legality,
    scoring: Scoring<'a>,
    breakers: u64,
}

impl<'a> Plan<'a> {
    fn new(rules: &'a Ruleset) -> Plan<'a> {
        let (deck, deck_len) = deck_ids(rules);
        Plan {
            rules,
            players: rules.players(),
            hand_size: rules.hand_size(),
            deck,
            deck_len,
            two_packs: rules.two_packs(),
            cards: rules.deck_len(),
            legality: kernel::Legality::new(rules),
            scoring: Scoring::new(rules),
            breakers: rules.breakers().0,
        }
    }
}

/// The taker's choice of SCORE-3 drawn uniformly, the one draw of the moon.
#[inline]
fn random_moon_choice(rng: &mut SplitMix64) -> MoonChoice {
    if rng.below_fast(2) == 0 {
        MoonChoice::AddToOthers
    } else {
        MoonChoice::SubtractFromTaker
    }
}

const ONES8: u64 = 0x0101_0101_0101_0101;
const HIGH8: u64 = 0x8080_8080_8080_8080;

/// For each byte value and rank `r`, the position of its `r`-th lowest set bit (8 if none).
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut rank) = (0, 0);
        while bit < 8 {
            if (byte >> bit) & 1 == 1 {
                table[byte][rank] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The running card counts of `set` by byte: byte `i` holds the number of cards in bytes
/// `0 ..= i`, so the top byte is the set's size. Without a popcount instruction in the
/// baseline x86-64 target this costs what `count_ones` does, and it also serves `select_in`.
#[inline(always)]
fn byte_prefix_counts(set: u64) -> u64 {
    let mut s = set - ((set >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    s.wrapping_mul(ONES8)
}

/// The `k`-th lowest card of `set` (`k` less than its size) as a one-bit mask, found without a
/// loop whose length depends on `k`, so without a mispredicted branch per choice. `prefix` is
/// [`byte_prefix_counts`]`(set)`.
#[inline(always)]
fn select_in(set: u64, prefix: u64, k: u64) -> u64 {
    // The high bit of byte `i` is set where bytes `0 ..= i` hold no more than `k` cards; those
    // bytes are the lowest ones, and the card is in the byte just above them.
    let below = ((k.wrapping_mul(ONES8) | HIGH8) - prefix) & HIGH8;
    let place = 64 - below.leading_zeros();
    let before = ((prefix << 8) >> place) & 0xFF;
    let byte = (set >> place) & 0xFF;
    let bit = u32::from(SELECT_IN_BYTE[byte as usize][((k - before) & 7) as usize]);
    1u64 << ((place + bit) & 63)
}

/// Records the legal masks of a hand's decisions in playing order, or nothing.
trait Recorder {
    fn record(&mut self, legal: u64);
}

struct NoMasks;

impl Recorder for NoMasks {
    #[inline(always)]
    fn record(&mut self, _: u64) {}
}

struct Masks<'m> {
    out: &'m mut [u64],
    next: usize,
}

impl Recorder for Masks<'_> {
    #[inline(always)]
    fn record(&mut self, legal: u64) {
        self.out[self.next] = legal;
        self.next += 1;
    }
}

/// A card of `legal` (not empty) chosen uniformly, as a one-bit mask: the `k`-th lowest, `k`
/// drawn by [`SplitMix64::below_fast`]. A forced choice draws too.
#[inline(always)]
fn choose<R: Recorder>(rng: &mut SplitMix64, legal: u64, rec: &mut R) -> u64 {
    rec.record(legal);
    let prefix = byte_prefix_counts(legal);
    select_in(legal, prefix, rng.below_fast(prefix >> 56))
}

/// One trick from `leader` (PLAY-3 … PLAY-8): returns the winner and the trick's cards.
/// `FIRST` is the hand's first trick, where the opening card and the first-trick ban apply.
#[inline(always)]
fn trick<const FIRST: bool, R: Recorder>(
    plan: &Plan,
    rng: &mut SplitMix64,
    hands: &mut [u64; MAX_PLAYERS],
    leader: usize,
    broken: bool,
    rec: &mut R,
) -> (usize, u64) {
    let n = plan.players;
    let legal = plan.legality.lead(hands[leader], FIRST, broken).0;
    let lead = choose(rng, legal, rec);
    hands[leader] ^= lead;
    let suit = kernel::suit_of(lead);
    let mut cards = lead;
    let mut best = lead;
    let mut winner = leader;
    let mut seat = leader;
    for _ in 1..n {
        seat += 1;
        if seat == n {
            seat = 0;
        }
        let legal = plan.legality.follow(hands[seat], suit, FIRST).0;
        let card = choose(rng, legal, rec);
        hands[seat] ^= card;
        cards |= card;
        if kernel::beats(card, best, suit) {
            best = card;
            winner = seat;
        }
    }
    (winner, cards)
}

/// A two-pack hand (RS-21), whose hands are multisets, played through [`HandState`] with the
/// same draws as [`playout`] makes: the deal of SEED-3's order with [`SplitMix64::below_fast`],
/// each passing seat's cards one at a time uniformly among the cards it holds more times than
/// it has chosen them (ACT-3), every play uniform among the legal cards, a uniform moon choice.
#[inline(never)]
fn playout_two_packs<R: Recorder>(
    plan: &Plan,
    rng: &mut SplitMix64,
    hand_number: u64,
    rec: &mut R,
) -> PerSeat<i32> {
    let rules = plan.rules;
    let n = plan.players;
    let dealer = rules.dealer(hand_number);
    let mut hands = deal_multiset(rng, rules, dealer, SplitMix64::below_fast);
    if let Some(dir) = rules
        .pass_direction(hand_number)
        .filter(|&d| d != PassDirection::Hold)
    {
        let size = rules.passing().map_or(0, |p| p.size);
        let mut out = [CardMultiset::EMPTY; MAX_PLAYERS];
        for (h, o) in hands.iter_mut().zip(out.iter_mut()).take(n) {
            for _ in 0..size {
                let free = (h.set & !o.set) | (h.twice & !o.twice);
                let prefix = byte_prefix_counts(free);
                let bit = select_in(free, prefix, rng.below_fast(prefix >> 56));
                o.insert(Card::new(bit.trailing_zeros() as u8));
            }
            *h = h.minus(*o);
        }
        for (s, o) in out.iter().enumerate().take(n) {
            let t = dir.target(s, n);
            hands[t] = hands[t].plus(*o);
        }
    }
    let mut h = HandState::new(rules, &hands[..n], dealer);
    while !h.is_complete(rules) {
        let legal = h.legal_plays(rules).0;
        let card = choose(rng, legal, rec);
        h.play_unchecked(rules, Card::new(card.trailing_zeros() as u8));
    }
    let choice = h
        .shot(rules, false)
        .filter(|s| s.awaits_choice())
        .map(|_| random_moon_choice(rng));
    h.hand_scores(rules, choice)
}

fn playout<R: Recorder>(
    plan: &Plan,
    rng: &mut SplitMix64,
    hand_number: u64,
    rec: &mut R,
) -> PerSeat<i32> {
    if plan.two_packs {
        return playout_two_packs(plan, rng, hand_number, rec);
    }
    let rules = plan.rules;
    let n = plan.players;
    let dealer = rules.dealer(hand_number);
    let mut hands = deal_ids(
        rng,
        &plan.deck,
        plan.deck_len,
        n,
        dealer,
        SplitMix64::below_fast,
    );
    if let Some(dir) = rules
        .pass_direction(hand_number)
        .filter(|&d| d != PassDirection::Hold)
    {
        let size = rules.passing().map_or(0, |p| p.size);
        let mut out = [0u64; MAX_PLAYERS];
        for (h, o) in hands.iter_mut().zip(out.iter_mut()).take(n) {
            for _ in 0..size {
                let rest = *h & !*o;
                let prefix = byte_prefix_counts(rest);
                *o |= select_in(rest, prefix, rng.below_fast(prefix >> 56));
            }
            *h &= !*o;
        }
        for (s, o) in out.iter().enumerate().take(n) {
            hands[dir.target(s, n)] |= o;
        }
    }
    let mut leader = kernel::first_leader(&hands[..n], dealer, plan.legality.opening);
    let mut taken = [0u64; MAX_PLAYERS];
    let mut broken = kernel::broken_at_start(plan.breakers);
    if plan.hand_size > 0 {
        let (w, cards) = trick::<true, R>(plan, rng, &mut hands, leader, broken, rec);
        taken[w] |= cards;
        broken |= kernel::breaks_hearts(cards, plan.breakers);
        leader = w;
    }
    for _ in 1..plan.hand_size {
        let (w, cards) = trick::<false, R>(plan, rng, &mut hands, leader, broken, rec);
        taken[w] |= cards;
        broken |= kernel::breaks_hearts(cards, plan.breakers);
        leader = w;
    }
    let scoring = &plan.scoring;
    let mut scores = PerSeat::splat(0);
    for (s, t) in scores.iter_mut().zip(&taken).take(n) {
        *s = scoring.points_of(*t);
    }
    // The races of SCORE-2 run once over the seats' captures rather than trick by trick: who
    // captured the cards they follow does not depend on when.
    let races = (0..n).fold(Races::START, |races, s| scoring.capture(races, s, taken[s]));
    if let Some(shot) = scoring.shot(races, false) {
        // A uniform choice for the taker, drawn only where it has one (SCORE-3).
        let choice = shot.awaits_choice().then(|| random_moon_choice(rng));
        let how = shot.how(choice).expect("a choice under taker-choice");
        scoring.score_shot(scores.first_mut(n), shot, how);
    }
    scores
}

/// Plays one full hand with uniformly random choices and returns each seat's hand score
/// (entries beyond `players` are 0). `hand_number` fixes the dealer and pass direction; the
/// hand is dealt from `rng` by Fisher–Yates and SEED-4's order (with
/// [`SplitMix64::below_fast`], so not the portable deal of SEED-3), each passing seat passes
/// `passing.size` cards chosen uniformly, every play is uniform among the legal cards (PLAY-8),
/// and a taker's moon choice is uniform. Every choice, a forced one included, takes one draw
/// of [`SplitMix64::below_fast`] and picks the `k`-th lowest card. When `masks` is given, the
/// legal mask of each play is written to it in playing order. Hand `i` of [`simulate`] is
/// `play_random_hand(rules, &mut hand_generator(seed, i), i, None)`.
///
/// # Panics
///
/// Panics if `masks` is given and shorter than the deck.
pub fn play_random_hand(
    rules: &Ruleset,
    rng: &mut SplitMix64,
    hand_number: u64,
    masks: Option<&mut [u64]>,
) -> PerSeat<i32> {
    let plan = Plan::new(rules);
    match masks {
        Some(out) => {
            assert!(
                out.len() >= plan.cards,
                "play_random_hand: masks is shorter than the deck"
            );
            playout(&plan, rng, hand_number, &mut Masks { out, next: 0 })
        }
        None => playout(&plan, rng, hand_number, &mut NoMasks),
    }
}

/// Hands per block of work. About 32 blocks a thread, so that threads slowed by other load on
/// the machine even out, and the last block, which one thread may finish alone, is short: at
/// most 1024 hands (well under a millisecond). At least 256 hands, so that a small batch is not
/// spread over threads that cost more to start than its hands take, and taking a block costs
/// nothing next to playing it. Blocks are contiguous, so two threads share at most the cache
/// line where their blocks meet.
fn block_hands(hands: usize, threads: usize) -> usize {
    (hands / (threads.max(1) * 32)).clamp(256, 1024)
}

/// Runs `work` on every block of `blocks` with `threads` workers, the calling thread one of
/// them, each taking the next block until none is left. Each block says where its hands go,
/// so the result does not depend on `threads` or on which worker takes which block.
fn run<I, F>(blocks: I, count: usize, threads: usize, work: F)
where
    I: Iterator + Send,
    I::Item: Send,
    F: Fn(I::Item) + Sync,
{
    let threads = threads.clamp(1, count.max(1));
    if threads == 1 {
        blocks.for_each(work);
        return;
    }
    let blocks = Mutex::new(blocks);
    let worker = || loop {
        // The scope re-raises a worker's panic; until then the others finish their blocks.
        let next = blocks.lock().unwrap_or_else(|e| e.into_inner()).next();
        match next {
            Some(b) => work(b),
            None => break,
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(worker);
        }
        worker();
    });
}

/// Plays `hands` independent full hands under a uniformly random legal policy and returns
/// their hand scores, row-major: `hands × players` entries, hand `i`'s seat `s` at
/// `i * players + s`.
///
/// Hand `i` is hand number `i` (its dealer and pass direction, PASS-1) and draws everything
/// (deal, passes, plays, moon choice) from [`hand_generator`]`(seed, i)`, as
/// [`play_random_hand`] plays it, so the result is the same for any number of `threads` (0 is
/// taken as 1). The calling thread and `threads − 1` scoped threads take blocks of hands in
/// turn.
///
/// # Examples
///
/// ```
/// let r = reversis_core::preset("hearts-4").unwrap();
/// let a = reversis_core::simulate(&r, 100, 9, 1);
/// assert_eq!(a, reversis_core::simulate(&r, 100, 9, 4));
/// assert_eq!(a.len(), 400);
/// ```
pub fn simulate(ruleset: &Ruleset, hands: usize, seed: u64, threads: usize) -> Vec<i32> {
    let n = ruleset.players();
    let plan = Plan::new(ruleset);
    let mut out = vec![0i32; hands * n];
    let block = block_hands(hands, threads);
    let blocks = out.chunks_mut(block * n).enumerate();
    run(blocks, hands.div_ceil(block), threads, |(b, rows)| {
        for (j, row) in rows.chunks_exact_mut(n).enumerate() {
            let i = (b * block + j) as u64;
            let s = playout(&plan, &mut hand_generator(seed, i), i, &mut NoMasks);
            row.copy_from_slice(&s[..n]);
        }
    });
    out
}

/// As [`simulate`], and also returns the legal-card mask (CARD-2 bits) of every play decision:
/// `hands × deck size` masks, hand `i`'s `k`-th play at `i * deck_size + k`, in playing order.
/// The scores are identical to those of [`simulate`] with the same arguments.
pub fn simulate_with_masks(
    ruleset: &Ruleset,
    hands: usize,
    seed: u64,
    threads: usize,
) -> (Vec<i32>, Vec<u64>) {
    let n = ruleset.players();
    let d = ruleset.deck_len();
    let plan = Plan::new(ruleset);
    let mut scores = vec![0i32; hands * n];
    let mut masks = vec![0u64; hands * d];
    let block = block_hands(hands, threads);
    let blocks = scores
        .chunks_mut(block * n)
        .zip(masks.chunks_mut(block * d))
        .enumerate();
    run(
        blocks,
        hands.div_ceil(block),
        threads,
        |(b, (rows, mrows))| {
            for (j, (row, out)) in rows
                .chunks_exact_mut(n)
                .zip(mrows.chunks_exact_mut(d))
                .enumerate()
            {
                let i = (b * block + j) as u64;
                let rec = &mut Masks { out, next: 0 };
                let s = playout(&plan, &mut hand_generator(seed, i), i, rec);
                row.copy_from_slice(&s[..n]);
            }
        },
    );
    (scores, masks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardSet;
    use crate::hand::HandState;
    use crate::ruleset::{preset, preset_names};

    fn random_card(rng: &mut SplitMix64, set: CardSet) -> crate::card::Card {
        let k = rng.below_fast(set.len() as u64) as usize;
        set.nth(k).expect("k < len")
    }

    /// The same hand played through `HandState` and `SplitMix64::deal_fast`, one rule at a
    /// time, as the engine plays a game.
    fn reference_hand(
        rules: &Ruleset,
        rng: &mut SplitMix64,
        hand_number: u64,
        masks: &mut Vec<u64>,
    ) -> PerSeat<i32> {
        let n = rules.players();
        let dealer = rules.dealer(hand_number);
        let mut hands = rng.deal_fast(rules, dealer);
        if rules.passes_on(hand_number) {
            let dir = rules.pass_direction(hand_number).expect("passes_on");
            let size = rules.passing().map_or(0, |p| p.size);
            let mut out = PerSeat::splat(CardMultiset::EMPTY);
            for (h, o) in hands.iter_mut().zip(out.iter_mut()).take(n) {
                for _ in 0..size {
                    // ACT-3: a card held more times than chosen.
                    let c = random_card(rng, CardSet((h.set & !o.set) | (h.twice & !o.twice)));
                    o.insert(c);
                }
                *h = h.minus(*o);
            }
            for (s, o) in out.iter().enumerate().take(n) {
                let t = dir.target(s, n);
                hands[t] = hands[t].plus(*o);
            }
        }
        let mut st = HandState::new(rules, &hands[..n], dealer);
        while !st.is_complete(rules) {
            let legal = st.legal_plays(rules);
            masks.push(legal.0);
            st.play_unchecked(rules, random_card(rng, legal));
        }
        let choice = st
            .shot(rules, false)
            .filter(|s| s.awaits_choice())
            .map(|_| random_moon_choice(rng));
        st.hand_scores(rules, choice)
    }

    fn variants() -> Vec<Ruleset> {
        let mut all: Vec<Ruleset> = preset_names()
            .into_iter()
            .map(|name| (*preset(name).expect("a preset")).clone())
            .collect();
        let base = preset("hearts-4").expect("hearts-4");
        for fields in [
            // Values of several kinds, a negative one included.
            serde_json::json!({"card_points": {"2H": 2, "3H": 3, "4H": 4, "JD": -10, "KS": 7}}),
            serde_json::json!({"opening_card": null, "first_trick_ban": false,
                               "hearts_breaking": "heart", "moon_scoring": "subtract-from-taker"}),
            serde_json::json!({"hearts_breaking": "none", "moon": null, "passing": null}),
            serde_json::json!({"pass_cycle": ["across"], "pass_size": 5, "moon_bonus": 30}),
        ] {
            all.push(
                base.replace(fields.as_object().expect("an object"))
                    .expect("a valid variant"),
            );
        }
        // Every rule that replaces a hand's scores, under each of its scorings.
        all.extend(kernel::small_shot_rulesets());
        all
    }

    #[test]
    fn the_batch_playout_plays_the_hands_of_hand_state() {
        for rules in variants() {
            let mut shots = 0;
            for i in 0..400u64 {
                let mut expected_masks = Vec::new();
                let expected =
                    reference_hand(&rules, &mut hand_generator(77, i), i, &mut expected_masks);
                let mut masks = vec![0u64; rules.deck_len()];
                let got = play_random_hand(&rules, &mut hand_generator(77, i), i, Some(&mut masks));
                assert_eq!(got, expected, "{} hand {i}", rules.name());
                assert_eq!(masks, expected_masks, "{} hand {i}", rules.name());
                // A shot of bonus 52 of the small rulesets: 52 to each other seat, or the
                // taker's 17 − 10 − 17 − 52 = −62.
                shots += usize::from(got.0.contains(&52) || got.0.contains(&-62));
            }
            if rules.name() == "small" {
                assert!(shots > 0, "no hand of {} shot a bonus of 52", rules.name());
            }
            let (scores, _) = simulate_with_masks(&rules, 50, 77, 3);
            let n = rules.players();
            for (i, row) in scores.chunks(n).enumerate() {
                let s = play_random_hand(&rules, &mut hand_generator(77, i as u64), i as u64, None);
                assert_eq!(row, &s[..n], "{} hand {i}", rules.name());
            }
        }
    }

    #[test]
    fn select_in_finds_the_kth_lowest_card() {
        let mut rng = SplitMix64::new(3);
        let mut sets = vec![0, 1, 1 << 63, u64::MAX, crate::card::FULL_DECK];
        sets.extend((0..2000).map(|i| rng.next_u64() >> (i % 64)));
        sets.extend((0..2000).map(|_| rng.next_u64() & rng.next_u64() & rng.next_u64()));
        for set in sets {
            let prefix = byte_prefix_counts(set);
            assert_eq!(prefix >> 56, u64::from(set.count_ones()), "{set:#x}");
            for (k, card) in LowBits(set).enumerate() {
                assert_eq!(select_in(set, prefix, k as u64), card, "{set:#x} {k}");
            }
        }
    }

    /// The one-bit masks of a set's bits, lowest first.
    struct LowBits(u64);

    impl Iterator for LowBits {
        type Item = u64;
        fn next(&mut self) -> Option<u64> {
            let low = self.0 & self.0.wrapping_neg();
            self.0 &= !low;
            (low != 0).then_some(low)
        }
    }

    #[test]
    fn blocks_cover_every_hand_once_whatever_the_thread_count() {
        let rules = preset("hartenjagen").expect("hartenjagen");
        for hands in [1, 255, 256, 257, 1000, 40_000] {
            let one = simulate(&rules, hands, 5, 1);
            for threads in [2, 3, 7] {
                assert_eq!(
                    simulate(&rules, hands, 5, threads),
                    one,
                    "{hands} {threads}"
                );
            }
            let (s, m) = simulate_with_masks(&rules, hands.min(1000), 5, 3);
            assert_eq!(s, one[..s.len()]);
            assert!(m.iter().all(|&x| x != 0));
        }
    }
}
