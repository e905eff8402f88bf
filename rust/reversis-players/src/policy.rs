//! The rule-based policy in Rust: the decisions of the Python `RuleBasedPlayer`
//! (`python/reversis/players/rulebased.py`), rule for rule, on a [`HandState`] instead of an
//! observation. It is the search's model of every seat, its own later decisions included: the
//! closer the model is to how the table really plays, the better a playout predicts the result
//! of a card. Seedless, ties go to the lowest card as the seedless Python player breaks them;
//! with a generator, uniformly among the tied cards as a seeded one does.
//!
//! With two packs (RS-21) it reads as the Python player does: a card is out while some copy of
//! it is neither held nor played, suit lengths count copies, a trick is won by the first of the
//! highest cards of the suit led that are not cancelled (PLAY-9), and the moon threat counts the
//! point cards a seat has captured, tricks held over excepted.

use reversis_core::{Card, CardMultiset, CardSet, HandState, Ruleset, SplitMix64, SUIT_MASKS};

const HEARTS: usize = 2;
const SUITS: usize = 4;

/// The facts of a ruleset the policy reads, computed once per decision.
#[derive(Clone, Debug)]
pub(crate) struct Policy {
    points: [i32; 52],
    point_cards: u64,
    deck: CardMultiset,
    // Point cards outside hearts worth more than one heart, dearest first (Q♠; J♣ too in
    // Hartenjagen), in the ruleset's order among equal values.
    penalties: Vec<Card>,
    penalty_suits: u8,
    positive_total: i32,
    players: usize,
    hand_size: usize,
    moon: bool,
    first_trick_ban: bool,
    cancellation: bool,
}

/// The number of cards of each suit in `hand`, every copy counted.
#[inline]
pub(crate) fn lengths(hand: CardMultiset) -> [i32; SUITS] {
    let mut lengths = [0i32; SUITS];
    for (s, len) in lengths.iter_mut().enumerate() {
        let mask = SUIT_MASKS[s];
        *len = ((hand.set & mask).count_ones() + (hand.twice & mask).count_ones()) as i32;
    }
    lengths
}

// The cards of `cards` with the smallest key (every card tied for best). `cards` must not be
// empty.
#[inline]
fn best<K: Ord + Copy>(cards: u64, key: impl Fn(Card) -> K) -> u64 {
    let mut best_key: Option<K> = None;
    let mut tied = 0u64;
    for c in CardSet(cards) {
        let k = key(c);
        match best_key {
            Some(b) if k > b => {}
            Some(b) if k == b => tied |= c.bit(),
            _ => {
                best_key = Some(k);
                tied = c.bit();
            }
        }
    }
    tied
}

// One card of a non-empty `tied`: the lowest, or uniformly drawn with a generator.
#[inline]
fn pick(tied: u64, rng: &mut Option<&mut SplitMix64>) -> Card {
    let count = tied.count_ones();
    let at = match rng {
        Some(r) if count > 1 => r.below_fast(u64::from(count)) as usize,
        _ => 0,
    };
    CardSet(tied).nth(at).expect("tied is not empty")
}

#[inline]
fn rank(c: Card) -> i32 {
    i32::from(c.rank())
}

#[inline]
fn suit(c: Card) -> usize {
    usize::from(c.id() / 13)
}

// The cards of `c`'s suit above it.
#[inline]
fn above(c: Card) -> u64 {
    SUIT_MASKS[suit(c)] & !((c.bit() << 1) - 1)
}

// The cards of `c`'s suit below it.
#[inline]
fn below(c: Card) -> u64 {
    SUIT_MASKS[suit(c)] & (c.bit() - 1)
}

impl Policy {
    /// The policy for `rules`.
    pub fn new(rules: &Ruleset) -> Policy {
        let mut penalties: Vec<(i32, usize, Card)> = rules
            .card_points()
            .iter()
            .enumerate()
            .filter(|(_, &(c, v))| v > 1 && suit(c) != HEARTS)
            .map(|(i, &(c, v))| (-v, i, c))
            .collect();
        penalties.sort_unstable();
        let penalties: Vec<Card> = penalties.into_iter().map(|(_, _, c)| c).collect();
        let penalty_suits = penalties.iter().fold(0u8, |m, &c| m | 1 << suit(c));
        Policy {
            points: *rules.points_table(),
            point_cards: rules.point_cards().0,
            deck: rules.deck_cards(),
            penalties,
            penalty_suits,
            positive_total: rules.positive_total(),
            players: rules.players(),
            hand_size: rules.hand_size(),
            moon: rules.moon().is_some(),
            first_trick_ban: rules.first_trick_ban(),
            cancellation: rules.cancellation().is_some(),
        }
    }

    #[inline]
    fn pts(&self, c: Card) -> i32 {
        self.points[c.id() as usize]
    }

    // The opponent who has taken every point card captured so far, once the threat is real (a
    // third of the points, or half the tricks gone).
    fn moon_runner(&self, h: &HandState, seat: usize) -> Option<usize> {
        if !self.moon {
            return None;
        }
        let runner = h.sole_point_taker().filter(|&t| t != seat)?;
        // The runner has captured every point card of the won tricks: those played, less the
        // trick in progress and the tricks held over (PLAY-9), every copy.
        let trick: CardMultiset = h.trick().map(|(_, c)| c).collect();
        let won = h.played().minus(trick).minus(h.held_over());
        let taken: i32 = CardMultiset {
            set: won.set & self.point_cards,
            twice: won.twice & self.point_cards,
        }
        .into_iter()
        .map(|c| self.pts(c))
        .sum();
        (3 * taken >= self.positive_total || 2 * h.tricks_played() >= self.hand_size)
            .then_some(runner)
    }

    /// The card the seat to move plays in `h`, a hand in which that seat's cards are known
    /// (the others' need not be: the policy reads only the public state and the mover's hand).
    #[inline]
    pub fn play(&self, rules: &Ruleset, h: &HandState, rng: &mut Option<&mut SplitMix64>) -> Card {
        let legal = h.legal_plays(rules).0;
        if legal.count_ones() == 1 {
            return Card::new(legal.trailing_zeros() as u8);
        }
        pick(self.choices(h, legal), rng)
    }

    /// The cards the policy rates best for the seat to move in `h`, whose legal cards are
    /// `legal` (more than one only for exact ties).
    #[inline]
    pub fn choices(&self, h: &HandState, legal: u64) -> u64 {
        if legal.count_ones() == 1 {
            return legal;
        }
        let seat = h.to_move();
        let hand = h.hand(seat);
        // A card is out while some copy of it is neither held nor played.
        let outstanding = self.deck.minus(hand.plus(h.played())).set;
        let runner = self.moon_runner(h, seat);
        match h.led_suit() {
            None => self.lead(h, seat, hand.set, legal, outstanding, runner),
            Some(led) if legal & SUIT_MASKS[led.index()] != 0 => {
                self.follow(h, legal, led.index(), outstanding, runner)
            }
            Some(led) => self.discard(h, hand, legal, led.index(), outstanding, runner),
        }
    }

    /// The card the seat to move in `h` plays going for the moon (SCORE-2: every point card),
    /// which the policy itself never tries: it leads its masters, wins what it can (with the
    /// lowest sure winner, or else its highest card), and keeps its point cards out of the
    /// others' tricks. Ties as [`Policy::play`].
    #[inline]
    pub fn shoot(&self, rules: &Ruleset, h: &HandState, rng: &mut Option<&mut SplitMix64>) -> Card {
        let legal = h.legal_plays(rules).0;
        if legal.count_ones() == 1 {
            return Card::new(legal.trailing_zeros() as u8);
        }
        pick(self.shooting_choices(h, legal), rng)
    }

    fn shooting_choices(&self, h: &HandState, legal: u64) -> u64 {
        let seat = h.to_move();
        let hand = h.hand(seat);
        let outstanding = self.deck.minus(hand.plus(h.played())).set;
        let master = |c: Card| outstanding & above(c) == 0;
        match h.led_suit() {
            // A point card that is not a master gives its points away.
            None => best(legal, |c| {
                let class = if master(c) {
                    0
                } else if self.pts(c) != 0 {
                    2
                } else {
                    1
                };
                (class, -rank(c))
            }),
            Some(led) if legal & SUIT_MASKS[led.index()] != 0 => {
                let (_, winning) = self.winning(h, led.index());
                let wins = legal & above(winning);
                if wins == 0 {
                    return best(legal, |c| (self.pts(c) != 0, rank(c)));
                }
                if h.trick_len() + 1 == self.players {
                    return best(wins, |c| (-self.pts(c), rank(c)));
                }
                best(wins, |c| {
                    if master(c) {
                        (0, rank(c))
                    } else {
                        (1, -rank(c))
                    }
                })
            }
            Some(_) => best(legal, |c| (self.pts(c) != 0, rank(c))),
        }
    }

    // The card winning the trick so far, and its seat: the highest of the suit led, the first
    // played of two identical ones (PLAY-7); where identical cards cancel (PLAY-9), among the
    // cards of the suit led played once in the trick, if any.
    fn winning(&self, h: &HandState, led: usize) -> (usize, Card) {
        let mut cancelled = 0u64;
        if self.cancellation {
            let mut once = 0u64;
            for (_, c) in h.trick() {
                cancelled |= once & c.bit();
                once |= c.bit();
            }
        }
        let highest = |skip: u64| {
            let mut best: Option<(usize, Card)> = None;
            for (s, c) in h.trick() {
                if suit(c) == led
                    && skip & c.bit() == 0
                    && best.map_or(true, |(_, b)| c.id() > b.id())
                {
                    best = Some((s, c));
                }
            }
            best
        };
        highest(cancelled)
            .or_else(|| highest(0))
            .expect("the led card is in the trick")
    }

    fn follow(
        &self,
        h: &HandState,
        legal: u64,
        led: usize,
        outstanding: u64,
        runner: Option<usize>,
    ) -> u64 {
        let (_, winning) = self.winning(h, led);
        let trick_points: i32 = h.trick().map(|(_, c)| self.pts(c)).sum();
        let last = h.trick_len() + 1 == self.players;
        let wins = legal & above(winning);
        if runner.is_some() && wins != 0 && (trick_points > 0 || !last) {
            // Stop the moon: win a trick that holds a point card, or play high to win the next.
            return best(wins, |c| (self.pts(c) > 1, -rank(c)));
        }
        if last {
            // Exact cost of every card: win only when the trick, with the card, costs nothing.
            return best(legal, |c| {
                let cost = if wins & c.bit() != 0 {
                    trick_points + self.pts(c)
                } else {
                    0
                };
                (cost, -rank(c))
            });
        }
        if h.tricks_played() == 0 && self.first_trick_ban && trick_points <= 0 {
            return best(legal, |c| (self.pts(c), -rank(c)));
        }
        let ducks = legal & !wins;
        if ducks != 0 {
            return best(ducks, |c| -rank(c) - 20 * self.pts(c).max(0));
        }
        if outstanding & above(winning) == 0 {
            // Nobody can overtake: take it with the highest card that costs least.
            return best(legal, |c| (self.pts(c), -rank(c)));
        }
        best(legal, |c| (self.pts(c), rank(c)))
    }

    #[allow(clippy::too_many_arguments)]
    fn discard(
        &self,
        h: &HandState,
        hand: CardMultiset,
        legal: u64,
        led: usize,
        outstanding: u64,
        runner: Option<usize>,
    ) -> u64 {
        let (winner, _) = self.winning(h, led);
        if runner == Some(winner) {
            // Do not feed the runner: keep the point cards.
            let safe = legal & !self.point_cards;
            if safe != 0 {
                return best(safe, |c| (self.pts(c) < 0, -rank(c)));
            }
        }
        let lengths = lengths(hand);
        let queen_out: Vec<Card> = self
            .penalties
            .iter()
            .copied()
            .filter(|p| outstanding & p.bit() != 0)
            .collect();
        best(legal, |c| {
            let value = self.pts(c);
            if value < 0 {
                return (3, 0, 0);
            }
            if value > 0 {
                return (0, -value, -rank(c));
            }
            if queen_out
                .iter()
                .any(|&p| suit(p) == suit(c) && rank(c) > rank(p))
            {
                return (1, -rank(c), 0);
            }
            (2, -rank(c), lengths[suit(c)])
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn lead(
        &self,
        h: &HandState,
        seat: usize,
        hand: u64,
        legal: u64,
        outstanding: u64,
        runner: Option<usize>,
    ) -> u64 {
        if runner.is_some() {
            let hearts = legal & SUIT_MASKS[HEARTS];
            if hearts != 0 {
                return best(hearts, |c| -rank(c));
            }
        }
        let opponents_void = (0..self.players)
            .filter(|&s| s != seat)
            .fold(0u8, |m, s| m | h.voids(s));
        best(legal, |c| {
            let out = outstanding & SUIT_MASKS[suit(c)];
            let higher = (out & above(c)).count_ones();
            let lower = out.count_ones() - higher;
            let value = self.pts(c);
            let mut risk = if out == 0 {
                // Everyone else is void: the lead wins with whatever is dumped.
                5.0 + f64::from(value)
            } else if higher == 0 {
                10.0 + 2.0 * f64::from(value.max(0))
            } else {
                let chance = f64::from(lower) / f64::from(lower + higher);
                chance + f64::from(value.max(0)) * chance
            };
            if opponents_void & (1 << suit(c)) != 0 {
                risk += 3.0;
            }
            for &p in &self.penalties {
                if suit(p) != suit(c) {
                    continue;
                }
                if hand & p.bit() != 0 {
                    risk += if rank(c) >= rank(p) { 6.0 } else { 0.5 };
                } else if outstanding & p.bit() != 0 && rank(c) < rank(p) {
                    risk -= 0.3;
                }
            }
            if value < 0 {
                risk += 8.0;
            }
            // Equal to the sixth decimal is equal, as the Python player rounds.
            let risk = (risk * 1e6).round() as i64;
            let order = if lower == 0 && higher > 0 {
                -rank(c)
            } else {
                rank(c)
            };
            (risk, order)
        })
    }

    /// The cards the policy passes from `hand` (`size` of them): the penalty cards and those
    /// above them when too few low cards protect them, then a void in the shortest side suit
    /// that fits, then the most dangerous cards left. Distinct cards, as the Python player's:
    /// with two packs (RS-21) it counts copies in the suit lengths and in what fits a void, and
    /// passes one copy of a card it holds twice.
    pub fn pass(&self, hand: CardMultiset, size: usize, rng: &mut Option<&mut SplitMix64>) -> u64 {
        let copies = |cards: u64| (cards.count_ones() + (cards & hand.twice).count_ones()) as usize;
        let distinct = hand.set;
        let mut chosen = 0u64;
        let take = |chosen: &mut u64, c: Card| {
            if (chosen.count_ones() as usize) < size {
                *chosen |= c.bit();
            }
        };
        for &p in &self.penalties {
            let mine = distinct & SUIT_MASKS[suit(p)];
            if copies(mine & below(p)) < 3 {
                // Highest first, so that the limit keeps the most dangerous.
                let mut high = mine & !below(p);
                while high != 0 {
                    let top = 63 - high.leading_zeros();
                    take(&mut chosen, Card::new(top as u8));
                    high &= !(1u64 << top);
                }
            }
        }
        let room = size.saturating_sub(chosen.count_ones() as usize);
        let mut void: Option<(u32, i32, u64)> = None;
        for (s, mask) in SUIT_MASKS.iter().enumerate() {
            if s == HEARTS || self.penalty_suits & (1 << s) != 0 {
                continue;
            }
            let rest = distinct & mask & !chosen;
            if rest == 0
                || copies(rest) > room
                || CardSet(rest).into_iter().any(|c| self.pts(c) < 0)
            {
                continue;
            }
            let top = Card::new((63 - rest.leading_zeros()) as u8);
            let candidate = (copies(rest) as u32, -rank(top), rest);
            if void.map_or(true, |v| (candidate.0, candidate.1) < (v.0, v.1)) {
                void = Some(candidate);
            }
        }
        if let Some((_, _, rest)) = void {
            for c in CardSet(rest) {
                take(&mut chosen, c);
            }
        }
        let lengths = lengths(hand);
        while (chosen.count_ones() as usize) < size {
            let rest = distinct & !chosen;
            let c = pick(best(rest, |c| -self.pass_danger(c, &lengths)), rng);
            chosen |= c.bit();
        }
        chosen
    }

    /// How much a card is worth getting rid of in a pass: higher is passed first.
    pub fn pass_danger(&self, c: Card, lengths: &[i32; SUITS]) -> i32 {
        let value = self.pts(c);
        if value < 0 {
            return -100;
        }
        let mut danger = rank(c);
        for &p in &self.penalties {
            if suit(p) == suit(c) && rank(c) < rank(p) {
                danger -= 20;
            }
        }
        if suit(c) == HEARTS {
            danger += 2 + value;
        } else {
            danger += (4 - lengths[suit(c)]).max(0);
        }
        danger + value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversis_core::preset;

    // A hand of hearts-computer from four hands of cards (seat 0 first), with `plays` played.
    fn hand(hands: [&str; 4], plays: &str) -> (std::sync::Arc<Ruleset>, HandState) {
        let rules = preset("hearts-computer").unwrap();
        let cards = |text: &str| -> CardMultiset {
            text.split_whitespace()
                .map(|c| Card::parse(c).unwrap())
                .collect()
        };
        let hands: Vec<CardMultiset> = hands.iter().map(|t| cards(t)).collect();
        let mut h = HandState::new(&rules, &hands, 0);
        for c in plays.split_whitespace() {
            h.play_unchecked(&rules, Card::parse(c).unwrap());
        }
        (rules, h)
    }

    fn shot(rules: &Ruleset, h: &HandState) -> Card {
        Policy::new(rules).shoot(rules, h, &mut None)
    }

    fn played(rules: &Ruleset, h: &HandState) -> Card {
        Policy::new(rules).play(rules, h, &mut None)
    }

    #[test]
    fn going_for_the_moon_leads_a_master_where_the_policy_leads_low() {
        let (rules, h) = hand(
            ["AC AS 5D", "2C 4S 6D", "3C 3S 7D", "4C 2S 8D"],
            "2C 3C 4C AC",
        );
        assert_eq!(h.to_move(), 0);
        assert_eq!(shot(&rules, &h), Card::parse("AS").unwrap());
        assert_eq!(played(&rules, &h), Card::parse("5D").unwrap());
    }

    #[test]
    fn going_for_the_moon_keeps_point_cards_out_of_the_others_tricks() {
        let (rules, h) = hand(
            ["4C QH 5D", "2C 4S 6D", "3C 3S 7D", "AC KS 8D"],
            "2C 3C AC 4C KS",
        );
        assert_eq!(h.to_move(), 0);
        assert_eq!(shot(&rules, &h), Card::parse("5D").unwrap());
        assert_eq!(played(&rules, &h), Card::parse("QH").unwrap());
    }

    #[test]
    fn going_for_the_moon_plays_high_to_win_where_the_policy_plays_low() {
        // Second to a heart, the ten and the ace still out: no card is sure, so the highest.
        let (rules, h) = hand(
            ["2C 9H 5H", "3C TH 8S", "4C AH 7S", "AC 2H 3H"],
            "2C 3C 4C AC 2H",
        );
        assert_eq!(h.to_move(), 0);
        assert_eq!(shot(&rules, &h), Card::parse("9H").unwrap());
        assert_eq!(played(&rules, &h), Card::parse("5H").unwrap());
    }

    #[test]
    fn going_for_the_moon_takes_the_last_place_with_the_lowest_winner() {
        let (rules, h) = hand(
            ["2C KH 9H", "AC 2H 3H", "3C 4H 7S", "4C 5H 6S"],
            "2C AC 3C 4C 2H 4H 5H",
        );
        assert_eq!(h.to_move(), 0);
        assert_eq!(shot(&rules, &h), Card::parse("9H").unwrap());
        assert_eq!(played(&rules, &h), Card::parse("KH").unwrap());
    }
}
