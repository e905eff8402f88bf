//! Match equity: each seat's chance of winning the match from the totals after a hand.
//!
//! A match is won by the lowest total when it ends (MATCH-2, MATCH-3), so the points of one hand
//! matter by how they move that chance: a point taken by the leader near the target is worth
//! more to the others than one taken early. The chance is estimated by playing the match on
//! from the totals, many times, with hands drawn from a library of hands the rule-based policy
//! played ([`crate::policy`]), each rotated to a random seat, and scored by the kernel's rules of
//! the moon, the count-down and the end of the match ([`Scoring`]), so that every ruleset's
//! match is the one it plays. The continuations are the same for every totals a decision asks
//! about (common random numbers), which makes the comparison of two candidates far less noisy
//! than either estimate.

use std::sync::{Arc, Mutex, OnceLock};

use reversis_core::kernel::{Scoring, Shot};
use reversis_core::{HandState, MoonChoice, PerSeat, Ruleset, SplitMix64, MAX_PLAYERS};

use crate::policy::Policy;
use crate::search::moon_choice_of;

/// Where a match stands: the totals before the hand in play, its number, and whether it is a
/// count-down hand (MATCH-5), as an observation gives them (OBS-1 `scores`, `hand_number`,
/// `count_down`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The totals before the hand, one per seat.
    pub totals: PerSeat<i64>,
    /// The hand's number (DEAL-2).
    pub hand_number: u64,
    /// Whether the hand is a count-down hand (MATCH-5).
    pub count_down: bool,
}

// One hand of the library: each seat's points as captured (SCORE-1) and the shot, if any.
#[derive(Clone, Copy)]
struct LibraryHand {
    points: [i32; MAX_PLAYERS],
    shot: Option<Shot>,
}

// The hands of the library: enough that a continuation rarely repeats one, few enough to build
// in a few milliseconds once per ruleset and process.
const LIBRARY_HANDS: usize = 2048;
// Continuations of each estimate: the estimate moves in steps of 1/CONTINUATIONS.
const CONTINUATIONS: usize = 256;
// A match that has not ended after this many more hands is scored as it stands (a count-down
// whose ends bounce can last; none of the presets' matches comes near).
const MOST_HANDS: usize = 400;

type Library = Arc<Vec<LibraryHand>>;

fn library(rules: &Ruleset) -> Library {
    static LIBRARIES: OnceLock<Mutex<Vec<(Ruleset, Library)>>> = OnceLock::new();
    let libraries = LIBRARIES.get_or_init(|| Mutex::new(Vec::new()));
    // A poisoned lock only means another thread panicked while holding it; the list is whole.
    let mut libraries = libraries.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, hands)) = libraries.iter().find(|(r, _)| r == rules) {
        return Arc::clone(hands);
    }
    let hands = Arc::new(build_library(rules));
    // A process that plays many rulesets keeps the last few.
    if libraries.len() >= 8 {
        libraries.remove(0);
    }
    libraries.push((rules.clone(), Arc::clone(&hands)));
    hands
}

// Hands dealt at random (the dealer rotating) and played out by the rule-based policy at every
// seat, without passing: the spread of a hand's points between seats and the chance of a shot.
fn build_library(rules: &Ruleset) -> Vec<LibraryHand> {
    let n = rules.players();
    let policy = Policy::new(rules);
    let mut rng = SplitMix64::new(0x6d61_7463_685f_6571);
    (0..LIBRARY_HANDS)
        .map(|i| {
            let dealer = i % n;
            let hands = rng.deal(rules, dealer);
            let mut h = HandState::new(rules, &hands.0, dealer);
            let mut tie = Some(&mut rng);
            while !h.is_complete(rules) {
                let card = policy.play(rules, &h, &mut tie);
                h.play_unchecked(rules, card);
            }
            let mut points = [0i32; MAX_PLAYERS];
            points[..n].copy_from_slice(&h.points()[..n]);
            LibraryHand {
                points,
                shot: h.shot(rules, false),
            }
        })
        .collect()
}

/// The match-equity estimator of one decision: its standing, and the chances it has worked
/// out, remembered by totals.
pub(crate) struct MatchEquity<'r> {
    rules: &'r Ruleset,
    scoring: Scoring<'r>,
    standing: Standing,
    // Built (or taken from the process's cache) at the first estimate: a count-down hand's
    // scores need none.
    library: Option<Library>,
    // Each continuation's generator and the hands it has drawn so far, turned to their seats:
    // every estimate plays the same hands, drawn once.
    futures: Vec<(SplitMix64, Vec<LibraryHand>)>,
    // The chances worked out, sorted by totals: a decision asks about a few hundred totals at
    // most (a sorted list keeps the WebAssembly module smaller than a hash map would).
    known: Vec<([i64; MAX_PLAYERS], [f64; MAX_PLAYERS])>,
}

impl<'r> MatchEquity<'r> {
    /// The estimator of a decision whose match stands at `standing`; `seed` fixes its
    /// continuations.
    pub(crate) fn new(rules: &'r Ruleset, standing: Standing, seed: u64) -> MatchEquity<'r> {
        MatchEquity {
            rules,
            scoring: Scoring::new(rules),
            standing,
            library: None,
            futures: (0..CONTINUATIONS as u64)
                .map(|k| {
                    let seed = seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    (SplitMix64::new(seed), Vec::new())
                })
                .collect(),
            known: Vec::new(),
        }
    }

    /// What the completed hand `h` adds to each total: the count-down's change (MATCH-6) in a
    /// count-down hand, else the points with a shot scored (SCORE-2), the taker of a shot with
    /// a choice choosing as the search player does.
    pub(crate) fn hand_scores(&self, h: &HandState) -> [i64; MAX_PLAYERS] {
        let n = self.rules.players();
        let mut points = [0i32; MAX_PLAYERS];
        points[..n].copy_from_slice(&h.points()[..n]);
        let shot = h.shot(self.rules, self.standing.count_down);
        self.changes(
            &self.standing.totals.0,
            points,
            shot,
            self.standing.count_down,
        )
    }

    /// Each seat's chance of winning the match once the hand has added `scores` to the totals
    /// (one change per seat).
    pub(crate) fn chances(&mut self, scores: &[i64; MAX_PLAYERS]) -> [f64; MAX_PLAYERS] {
        let n = self.rules.players();
        let mut totals = self.standing.totals.0;
        for s in 0..n {
            totals[s] = totals[s].saturating_add(scores[s]);
        }
        let after = self.scoring.after_hand(
            &totals[..n],
            self.standing.count_down,
            self.standing.hand_number,
        );
        if after.over {
            return shares(&totals, n);
        }
        let at = match self.known.binary_search_by(|(t, _)| t.cmp(&totals)) {
            Ok(at) => return self.known[at].1,
            Err(at) => at,
        };
        let mut sum = [0.0f64; MAX_PLAYERS];
        for k in 0..CONTINUATIONS {
            let end = self.continue_match(k, totals, after.count_down);
            for s in 0..n {
                sum[s] += end[s];
            }
        }
        let chances = sum.map(|x| x / CONTINUATIONS as f64);
        self.known.insert(at, (totals, chances));
        chances
    }

    // Continuation `k` of the match from `totals` after hand `standing.hand_number`: the
    // winners' shares at its end.
    fn continue_match(
        &mut self,
        k: usize,
        mut totals: [i64; MAX_PLAYERS],
        mut count_down: bool,
    ) -> [f64; MAX_PLAYERS] {
        let n = self.rules.players();
        let mut hand_number = self.standing.hand_number;
        for i in 0..MOST_HANDS {
            hand_number += 1;
            let hand = self.future_hand(k, i);
            let scores = self.changes(&totals, hand.points, hand.shot, count_down);
            for s in 0..n {
                totals[s] = totals[s].saturating_add(scores[s]);
            }
            let after = self
                .scoring
                .after_hand(&totals[..n], count_down, hand_number);
            if after.over {
                break;
            }
            count_down = after.count_down;
        }
        shares(&totals, n)
    }

    // Hand `i` of continuation `k`: a hand of the library, its seat `s + turn` playing seat `s`
    // for a turn drawn with it.
    fn future_hand(&mut self, k: usize, i: usize) -> LibraryHand {
        let n = self.rules.players();
        let library = self.library.get_or_insert_with(|| library(self.rules));
        let (rng, hands) = &mut self.futures[k];
        while hands.len() <= i {
            let drawn = library[rng.below_fast(library.len() as u64) as usize];
            let turn = rng.below_fast(n as u64) as usize;
            let mut points = [0i32; MAX_PLAYERS];
            for (s, p) in points.iter_mut().enumerate().take(n) {
                *p = drawn.points[(s + turn) % n];
            }
            let shot = drawn.shot.map(|mut shot| {
                shot.taker = (shot.taker + n - turn) % n;
                shot
            });
            hands.push(LibraryHand { points, shot });
        }
        hands[i]
    }

    // What a hand whose seats captured `points` and whose shot is `shot` adds to `totals`.
    fn changes(
        &self,
        totals: &[i64; MAX_PLAYERS],
        mut points: [i32; MAX_PLAYERS],
        shot: Option<Shot>,
        count_down: bool,
    ) -> [i64; MAX_PLAYERS] {
        let n = self.rules.players();
        let mut out = [0i64; MAX_PLAYERS];
        if count_down {
            for s in 0..n {
                out[s] = self.scoring.count_down_score(totals[s], points[s]);
            }
            return out;
        }
        if let Some(shot) = shot {
            let choice = shot.how(None).unwrap_or_else(|| {
                let wide: Vec<i128> = points[..n].iter().map(|&p| i128::from(p)).collect();
                let before: Vec<i128> = totals[..n].iter().map(|&t| i128::from(t)).collect();
                moon_choice_of(self.rules, shot, &wide, &before).unwrap_or(MoonChoice::AddToOthers)
            });
            self.scoring.score_shot(&mut points[..n], shot, choice);
        }
        for s in 0..n {
            out[s] = i64::from(points[s]);
        }
        out
    }
}

// The winners' shares of a match ended at `totals` (MATCH-3): the lowest totals share a win.
fn shares(totals: &[i64; MAX_PLAYERS], n: usize) -> [f64; MAX_PLAYERS] {
    let low = *totals[..n].iter().min().expect("a table has seats");
    let winners = totals[..n].iter().filter(|&&t| t == low).count() as f64;
    let mut out = [0.0; MAX_PLAYERS];
    for s in 0..n {
        if totals[s] == low {
            out[s] = 1.0 / winners;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversis_core::preset;

    fn standing(totals: &[i64], hand_number: u64, count_down: bool) -> Standing {
        let mut standing = Standing {
            totals: PerSeat::splat(0),
            hand_number,
            count_down,
        };
        standing.totals[..totals.len()].copy_from_slice(totals);
        standing
    }

    fn scores(values: &[i64]) -> [i64; MAX_PLAYERS] {
        let mut out = [0; MAX_PLAYERS];
        out[..values.len()].copy_from_slice(values);
        out
    }

    #[test]
    fn a_hand_that_ends_the_match_gives_the_lowest_totals_the_win() {
        let rules = preset("hearts-computer").unwrap();
        let mut equity = MatchEquity::new(&rules, standing(&[90, 50, 60, 50], 7, false), 1);
        // 90 + 13 passes 100 (MATCH-2): seats 1 and 3 share the lowest total, 50 (MATCH-3).
        let chances = equity.chances(&scores(&[13, 0, 13, 0]));
        assert_eq!(&chances[..4], &[0.0, 0.5, 0.0, 0.5]);
        let chances = equity.chances(&scores(&[13, 1, 12, 0]));
        assert_eq!(&chances[..4], &[0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn the_chances_add_up_to_one_and_fall_as_a_total_rises() {
        let rules = preset("hearts-computer").unwrap();
        let mut equity = MatchEquity::new(&rules, standing(&[40, 40, 40, 40], 4, false), 7);
        let level = equity.chances(&scores(&[0, 0, 0, 0]));
        assert!((level[..4].iter().sum::<f64>() - 1.0).abs() < 1e-9);
        // Level totals: each seat near a quarter (the continuations are shared, so not exactly).
        assert!(
            level[..4].iter().all(|&c| (0.15..0.35).contains(&c)),
            "{level:?}"
        );
        let mut last = 1.0;
        for taken in [0, 5, 10, 15, 20, 26] {
            let chance = equity.chances(&scores(&[taken, 0, 0, 0]))[0];
            assert!(chance <= last, "{taken}: {chance} after {last}");
            last = chance;
        }
        assert!(last < 0.1, "26 points behind at 66 of 100: {last}");
    }

    #[test]
    fn near_the_target_a_point_matters_more_than_early_on() {
        let rules = preset("hearts-computer").unwrap();
        let cost = |totals: &[i64]| {
            let mut equity = MatchEquity::new(&rules, standing(totals, 5, false), 3);
            equity.chances(&scores(&[0, 0, 0, 0]))[0] - equity.chances(&scores(&[8, 0, 0, 0]))[0]
        };
        let early = cost(&[10, 10, 10, 10]);
        let late = cost(&[80, 84, 84, 84]);
        assert!(
            late > early,
            "eight points cost {early} early and {late} late"
        );
    }

    #[test]
    fn in_the_count_down_points_taken_lower_a_total_and_raise_the_chance() {
        let rules = preset("hartenjagen-count-down").unwrap();
        assert!(rules.count_down());
        let mut equity = MatchEquity::new(&rules, standing(&[20, 20, 20, 20], 9, true), 5);
        let none = equity.chances(&scores(&[0, 0, 0, 0]))[0];
        let mut h = scores(&[0, 0, 0, 0]);
        h[0] = -10; // the change of the total: ten points taken in a count-down hand (MATCH-6)
        let some = equity.chances(&h)[0];
        assert!(some > none, "{some} after taking ten, {none} after none");
        // Down to zero ends the count-down's race (MATCH-7): seat 0 wins alone.
        h[0] = -20;
        assert_eq!(equity.chances(&h)[0], 1.0);
    }

    #[test]
    fn a_count_down_hand_changes_the_totals_as_the_kernel_scores_it() {
        let rules = preset("hartenjagen-count-down").unwrap();
        let equity = MatchEquity::new(&rules, standing(&[3, 20, 20, 20], 9, true), 5);
        let mut points = [0i32; MAX_PLAYERS];
        points[..4].copy_from_slice(&[5, 8, 0, 2]);
        let changes = equity.changes(&equity.standing.totals.0, points, None, true);
        let scoring = Scoring::new(&rules);
        for s in 0..4 {
            assert_eq!(
                changes[s],
                scoring.count_down_score(equity.standing.totals[s], points[s])
            );
        }
        assert_eq!(changes[1], -8);
    }
}
