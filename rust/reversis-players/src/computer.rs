//! Computer players for the games of a [`VectorEnv`]: for every game, the action id (ACT-2) that
//! the random or the rule-based player chooses for its acting seat (ACT-3), so that learning
//! code can seat them against a policy it trains.
//!
//! A decision reads only what the acting seat may see (OBS-1): its own hand and selection, the
//! public state of the hand (the cards played, the trick in progress, the revealed voids, the
//! points) and the match totals. The rule-based player is the policy the search plays out
//! with ([`crate::policy_decision`]): it is given a copy of the hand in which every other seat's
//! cards are removed. In phase `pass`, where each selection is its own decision, it selects the
//! lowest card of its pass that it has not selected yet.

use reversis_core::{
    hand_generator, CardSet, Error, ErrorCode, Phase, Position, Ruleset, SplitMix64, VectorEnv,
    PASS_BASE,
};

use crate::policy::Policy;
use crate::search::{moon_choice_of, moon_id};

/// A computer player that [`computer_actions`] seats in every game of a [`VectorEnv`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Computer {
    /// Uniformly among the acting seat's legal ids: each selection of a pass, each card, each
    /// moon choice.
    Random,
    /// The rule-based policy ([`crate::policy_decision`]); one pack only.
    Rules,
}

impl Computer {
    /// Every computer player, by name.
    pub const ALL: [Computer; 2] = [Computer::Random, Computer::Rules];

    /// The player's name, as the tournament names it: `random` or `rules`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_players::Computer;
    /// assert_eq!(Computer::Rules.name(), "rules");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Computer::Random => "random",
            Computer::Rules => "rules",
        }
    }

    /// The player named `name` (see [`Computer::name`]).
    ///
    /// # Errors
    ///
    /// `invalid-setup` naming the players there are, for any other name.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_players::Computer;
    /// assert_eq!(Computer::from_name("random").unwrap(), Computer::Random);
    /// assert!(Computer::from_name("search").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Computer, Error> {
        Computer::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::InvalidSetup,
                    format!(
                        "invalid setup: the computer players of a vector environment are \
                         'random' and 'rules', not {name:?}"
                    ),
                )
            })
    }
}

/// The generator of game `index`'s decision in a call of [`computer_actions`] seeded with
/// `seed`: [`hand_generator`]`(seed, index)`, so that it depends on neither the number of games
/// nor the number of threads.
///
/// # Examples
///
/// ```
/// use reversis_players::decision_generator;
/// assert_ne!(decision_generator(7, 0).state(), decision_generator(7, 1).state());
/// ```
pub fn decision_generator(seed: u64, index: usize) -> SplitMix64 {
    hand_generator(seed, index as u64)
}

// What a batch of decisions shares: the ruleset and, for the rule-based player, its policy.
struct Decider<'a> {
    rules: &'a Ruleset,
    policy: Option<Policy>,
}

impl<'a> Decider<'a> {
    fn new(rules: &'a Ruleset, player: Computer) -> Result<Decider<'a>, Error> {
        let policy = match player {
            Computer::Random => None,
            Computer::Rules => Some(Policy::new(rules)),
        };
        Ok(Decider { rules, policy })
    }

    fn decide(&self, pos: &Position, rng: &mut SplitMix64) -> Result<u16, Error> {
        let rules = self.rules;
        let seat = pos.acting_seat(rules).ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidAction,
                format!(
                    "invalid action: no seat acts in phase {}",
                    pos.phase().as_str()
                ),
            )
        })?;
        let legal = pos.legal_mask(rules, seat);
        let Some(policy) = &self.policy else {
            let at = rng.below(u64::from(legal.count_ones())) as usize;
            return Ok(nth_id(legal, at));
        };
        let id = match pos.phase() {
            Phase::Play => {
                let mut seen = *pos.hand_state();
                for other in (0..rules.players()).filter(|&s| s != seat) {
                    seen.set_hand(other, CardSet::EMPTY);
                }
                u16::from(policy.play(rules, &seen, &mut Some(rng)).id())
            }
            Phase::Pass => {
                let size = rules.passing().map_or(0, |p| p.size);
                let hand = pos.hand_state().hand(seat);
                let pass = policy.pass(hand, size, &mut Some(rng));
                let left = pass & !pos.selection(seat).set;
                // Never empty while the seat awaits its pass: its selection is short of a pass.
                PASS_BASE + left.trailing_zeros() as u16
            }
            _ => {
                let h = pos.hand_state();
                let points: Vec<i128> = h.points().iter().map(|&p| i128::from(p)).collect();
                let scores: Vec<i128> = pos
                    .scores()
                    .first(rules.players())
                    .iter()
                    .map(|&s| i128::from(s))
                    .collect();
                // Phase moon: a shot of a hand that is no count-down hand (MATCH-6).
                let shot = h
                    .shot(rules, false)
                    .filter(|s| s.taker == seat)
                    .ok_or_else(|| {
                        Error::new(ErrorCode::InvalidAction, "no moon choice to make")
                    })?;
                moon_id(moon_choice_of(rules, shot, &points, &scores)?)
            }
        };
        debug_assert!(legal >> id & 1 == 1, "the {id} chosen is legal");
        Ok(id)
    }
}

// The `at`-th set bit of `mask`, counting from 0.
fn nth_id(mask: u128, at: usize) -> u16 {
    let mut m = mask;
    for _ in 0..at {
        m &= m - 1;
    }
    m.trailing_zeros() as u16
}

/// The action id that `player` chooses for the acting seat of `position`, a position of a game
/// of `rules`, drawing from `rng` (the random choice, or the rule-based player's ties).
///
/// # Errors
///
/// `invalid-action` when no seat acts (phases `deal` and `over`).
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, Episode, Rewards, SplitMix64, VectorEnv};
/// use reversis_players::{computer_action, Computer};
/// let rules = preset("hearts-4").unwrap();
/// let env = VectorEnv::new(rules.clone(), 1, 5, Episode::Hand, Rewards::HandEnd).unwrap();
/// let id = computer_action(&rules, env.position(0), Computer::Rules, &mut SplitMix64::new(1))
///     .unwrap();
/// assert_eq!(env.legal_action_mask()[usize::from(id)], 1);
/// ```
pub fn computer_action(
    rules: &Ruleset,
    position: &Position,
    player: Computer,
    rng: &mut SplitMix64,
) -> Result<u16, Error> {
    Decider::new(rules, player)?.decide(position, rng)
}

/// For every game `i` of `env`, the action id that `player` chooses for its acting seat, drawing
/// from [`decision_generator`]`(seed, i)`; on `threads` threads (0 counts as 1), with the same
/// result whatever their number. The ids can be given to [`VectorEnv::step`] as they are.
///
/// # Errors
///
/// `invalid-action` when a game has no acting seat.
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, Episode, Rewards, VectorEnv};
/// use reversis_players::{computer_actions, Computer};
/// let mut env =
///     VectorEnv::new(preset("hearts-4").unwrap(), 8, 3, Episode::Hand, Rewards::HandEnd).unwrap();
/// for step in 0..60 {
///     let ids = computer_actions(&env, Computer::Rules, step, 2).unwrap();
///     assert_eq!(ids, computer_actions(&env, Computer::Rules, step, 1).unwrap());
///     env.step(&ids).unwrap();
/// }
/// ```
pub fn computer_actions(
    env: &VectorEnv,
    player: Computer,
    seed: u64,
    threads: usize,
) -> Result<Vec<u16>, Error> {
    let decider = Decider::new(env.ruleset(), player)?;
    let num = env.num_envs();
    let mut out = vec![0u16; num];
    let run = |base: usize, ids: &mut [u16]| -> Result<(), Error> {
        for (j, id) in ids.iter_mut().enumerate() {
            let i = base + j;
            *id = decider.decide(env.position(i), &mut decision_generator(seed, i))?;
        }
        Ok(())
    };
    let threads = threads.clamp(1, num);
    if threads == 1 {
        run(0, &mut out)?;
        return Ok(out);
    }
    let size = num.div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = out
            .chunks_mut(size)
            .enumerate()
            .map(|(k, ids)| {
                let run = &run;
                scope.spawn(move || run(k * size, ids))
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().expect("a decision thread panicked"))
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversis_core::{preset, preset_names, Decision, Episode, Rewards, NUM_ACTIONS};

    fn ids_of(mask: &[u8]) -> Vec<u16> {
        (0..NUM_ACTIONS)
            .filter(|&i| mask[usize::from(i)] == 1)
            .collect()
    }

    #[test]
    fn the_rules_player_chooses_as_the_policy_does_from_the_observation() {
        let mut checked = 0;
        for name in preset_names() {
            let rules = preset(name).unwrap();
            let mut env = VectorEnv::new(rules.clone(), 6, 11, Episode::Match, Rewards::HandEnd)
                .unwrap()
                .with_history();
            for step in 0..120u64 {
                let ids = computer_actions(&env, Computer::Rules, step, 2).unwrap();
                for (i, &id) in ids.iter().enumerate() {
                    let game = env.game(i).unwrap();
                    let seat = game.to_act().unwrap();
                    let obs = game.observation(seat).unwrap();
                    let state = decision_generator(step, i).state();
                    let whole = crate::policy_decision(&rules, &obs, Some(state)).unwrap();
                    let selected: Vec<u16> = game
                        .selected(seat)
                        .unwrap()
                        .iter()
                        .map(|c| PASS_BASE + u16::from(c.id()))
                        .collect();
                    let expected = whole.iter().find(|id| !selected.contains(id)).unwrap();
                    assert_eq!(id, *expected, "{name}, step {step}, game {i}");
                    checked += 1;
                }
                // Random ids drive the games, so the rule-based player meets what it would not
                // play itself.
                let random = computer_actions(&env, Computer::Random, !step, 1).unwrap();
                env.step(&random).unwrap();
            }
        }
        assert!(checked > 5000);
    }

    #[test]
    fn the_rules_moon_choice_is_the_policys_from_the_observation() {
        let mut moons = 0;
        for name in ["hearts-4", "omnibus-4"] {
            let rules = preset(name).unwrap();
            let mut env = VectorEnv::new(rules.clone(), 64, 1, Episode::Match, Rewards::HandEnd)
                .unwrap()
                .with_history();
            for step in 0..600u64 {
                let ids = computer_actions(&env, Computer::Rules, step, 1).unwrap();
                for (i, &id) in ids.iter().enumerate() {
                    if env.position(i).phase() != Phase::Moon {
                        continue;
                    }
                    let game = env.game(i).unwrap();
                    let obs = game.observation(game.to_act().unwrap()).unwrap();
                    let whole = crate::policy_decision(&rules, &obs, None).unwrap();
                    assert_eq!(vec![id], whole, "{name}, step {step}, game {i}");
                    moons += 1;
                }
                // Every seat plays its highest legal id, which shoots the moon now and then.
                let highest: Vec<u16> = env
                    .legal_action_mask()
                    .chunks(106)
                    .map(|row| row.iter().rposition(|&b| b == 1).unwrap() as u16)
                    .collect();
                env.step(&highest).unwrap();
            }
        }
        assert!(moons >= 40, "{moons} moon choices");
    }

    #[test]
    fn every_id_is_legal_and_the_batch_is_the_same_on_any_number_of_threads() {
        for player in Computer::ALL {
            let rules = preset("hearts-computer").unwrap();
            let mut env = VectorEnv::new(rules, 37, 4, Episode::Match, Rewards::PerTrick).unwrap();
            for step in 0..300u64 {
                let ids = computer_actions(&env, player, step, 1).unwrap();
                assert_eq!(ids, computer_actions(&env, player, step, 3).unwrap());
                for (i, &id) in ids.iter().enumerate() {
                    let row = &env.legal_action_mask()[i * 106..(i + 1) * 106];
                    assert!(ids_of(row).contains(&id), "{player:?}: game {i} id {id}");
                    assert!(Decision::from_id(id).is_ok());
                }
                env.step(&ids).unwrap();
            }
        }
    }

    #[test]
    fn the_random_player_is_uniform_and_reproducible() {
        let rules = preset("hearts-4").unwrap();
        let env = VectorEnv::new(rules, 3, 9, Episode::Hand, Rewards::HandEnd).unwrap();
        let legal = ids_of(&env.legal_action_mask()[..106]);
        let draws = 13_000u64;
        let mut counts = vec![0u64; 106];
        for seed in 0..draws {
            let ids = computer_actions(&env, Computer::Random, seed, 1).unwrap();
            assert_eq!(
                ids,
                computer_actions(&env, Computer::Random, seed, 1).unwrap()
            );
            counts[usize::from(ids[0])] += 1;
        }
        // Game 0 selects its first card of a pass among its 13 cards: each about 1000 times
        // (a standard deviation of 30).
        assert_eq!(legal.len(), 13);
        for &id in &legal {
            let c = counts[usize::from(id)];
            assert!((850..=1150).contains(&c), "id {id} drawn {c} times");
        }
        assert_eq!(counts.iter().sum::<u64>(), draws);
        // Different seeds give different batches.
        let a = computer_actions(&env, Computer::Random, 1, 1).unwrap();
        assert!((2..20).any(|s| computer_actions(&env, Computer::Random, s, 1).unwrap() != a));
    }

    #[test]
    fn the_rules_player_plays_whole_hands_of_every_two_pack_preset() {
        let mut presets = 0;
        for name in preset_names() {
            let rules = preset(name).unwrap();
            if !rules.two_packs() {
                continue;
            }
            presets += 1;
            let mut env =
                VectorEnv::new(rules.clone(), 3, 5, Episode::Hand, Rewards::HandEnd).unwrap();
            let mut hands = 0;
            for step in 0..2000u64 {
                let ids = computer_actions(&env, Computer::Rules, step, 1).unwrap();
                let mask = env.legal_action_mask().to_vec();
                for (i, &id) in ids.iter().enumerate() {
                    let row = &mask[i * usize::from(NUM_ACTIONS)..];
                    assert_eq!(row[usize::from(id)], 1, "{name}: {id} is not legal");
                    if env.position(i).phase() == Phase::Play
                        && env.position(i).hand_state().tricks_played() + 1 == rules.hand_size()
                        && env.position(i).hand_state().trick_len() + 1 == rules.players()
                    {
                        hands += 1;
                    }
                }
                env.step(&ids).unwrap();
            }
            assert!(hands >= 6, "{name}: {hands} hands finished");
        }
        assert!(presets >= 3);
    }
}
