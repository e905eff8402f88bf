//! The batched environment (`VectorEnv`): determinism, independence of the batch size and of
//! threads, masks, rewards, rejected steps, auto-reset and the OBS-3 encoding.

use std::sync::Arc;

use reversis_core::{
    encode_observation, episode_seed, preset, preset_names, Episode, ErrorCode, Game, Job,
    ObservationDtype, Observations, Phase, Rewards, Ruleset, SplitMix64, StepRunner, VectorEnv,
    ENCODING_LENGTH, MAX_ENVS, NUM_ACTIONS,
};
use serde_json::json;

const A: usize = NUM_ACTIONS as usize;
const O: usize = ENCODING_LENGTH;

fn hearts4() -> Arc<Ruleset> {
    preset("hearts-4").unwrap()
}

/// A random legal id from a mask row.
fn pick(rng: &mut SplitMix64, row: &[u8]) -> u16 {
    let legal: Vec<usize> = (0..A).filter(|&i| row[i] == 1).collect();
    assert!(!legal.is_empty(), "every game has a legal action");
    legal[rng.below(legal.len() as u64) as usize] as u16
}

/// One random legal id per game, game `i` drawing from its own generator.
fn policy(env: &VectorEnv, rngs: &mut [SplitMix64]) -> Vec<u16> {
    env.legal_action_mask()
        .chunks(A)
        .zip(rngs.iter_mut())
        .map(|(row, rng)| pick(rng, row))
        .collect()
}

fn rngs(n: usize) -> Vec<SplitMix64> {
    (0..n).map(|i| SplitMix64::new(1000 + i as u64)).collect()
}

/// Every buffer, for comparisons.
#[derive(Debug, PartialEq)]
struct Buffers {
    current_player: Vec<i32>,
    mask: Vec<u8>,
    observation: Vec<i32>,
    rewards: Vec<f32>,
    terminated: Vec<u8>,
    episode_scores: Vec<i64>,
}

fn buffers(env: &VectorEnv) -> Buffers {
    Buffers {
        current_player: env.current_player().to_vec(),
        mask: env.legal_action_mask().to_vec(),
        observation: env.observation().to_i32(),
        rewards: env.rewards().to_vec(),
        terminated: env.terminated().to_vec(),
        episode_scores: env.episode_scores().to_vec(),
    }
}

/// The rows of games `0..k`.
fn first_rows(env: &VectorEnv, k: usize) -> Buffers {
    let p = env.ruleset().players();
    Buffers {
        current_player: env.current_player()[..k].to_vec(),
        mask: env.legal_action_mask()[..k * A].to_vec(),
        observation: env.observation().to_i32()[..k * O].to_vec(),
        rewards: env.rewards()[..k * p].to_vec(),
        terminated: env.terminated()[..k].to_vec(),
        episode_scores: env.episode_scores()[..k * p].to_vec(),
    }
}

#[test]
fn setup_bounds() {
    for n in [0, MAX_ENVS + 1] {
        let e = VectorEnv::new(hearts4(), n, 1, Episode::Hand, Rewards::HandEnd).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidSetup);
    }
    let env = VectorEnv::new(hearts4(), 3, 1, Episode::Hand, Rewards::HandEnd)
        .unwrap()
        .with_history();
    assert_eq!(env.current_player().len(), 3);
    assert_eq!(env.legal_action_mask().len(), 3 * A);
    assert_eq!(env.observation().len(), 3 * 1435);
    assert_eq!(env.rewards().len(), 3 * 4);
    assert_eq!(env.terminated().len(), 3);
    assert_eq!(env.episode_scores().len(), 3 * 4);
}

#[test]
fn games_start_from_their_episode_seed() {
    let env = VectorEnv::new(hearts4(), 4, 77, Episode::Match, Rewards::HandEnd)
        .unwrap()
        .with_history();
    for i in 0..4 {
        let g = Game::new(hearts4(), Some(episode_seed(77, i, 0)), 0, None).unwrap();
        assert_eq!(env.game(i).unwrap(), g);
    }
}

#[test]
fn deterministic_replay() {
    for (episode, rewards) in [
        (Episode::Hand, Rewards::HandEnd),
        (Episode::Match, Rewards::PerTrick),
    ] {
        let run = || {
            let mut env = VectorEnv::new(hearts4(), 6, 2024, episode, rewards)
                .unwrap()
                .with_history();
            let mut r = rngs(6);
            let mut trace = vec![buffers(&env)];
            for _ in 0..400 {
                let actions = policy(&env, &mut r);
                env.step(&actions).unwrap();
                trace.push(buffers(&env));
            }
            trace
        };
        assert_eq!(run(), run());
    }
}

#[test]
fn games_do_not_depend_on_the_batch_size() {
    for episode in [Episode::Hand, Episode::Match] {
        let mut small = VectorEnv::new(hearts4(), 3, 5, episode, Rewards::PerTrick)
            .unwrap()
            .with_history();
        let mut large = VectorEnv::new(hearts4(), 5, 5, episode, Rewards::PerTrick)
            .unwrap()
            .with_history();
        let (mut rs, mut rl) = (rngs(3), rngs(5));
        let mut ended = 0;
        for _ in 0..600 {
            assert_eq!(first_rows(&small, 3), first_rows(&large, 3));
            let a = policy(&small, &mut rs);
            let b = policy(&large, &mut rl);
            assert_eq!(a[..], b[..3]);
            small.step(&a).unwrap();
            large.step(&b).unwrap();
            ended += small.terminated().iter().filter(|&&t| t == 1).count();
        }
        assert_eq!(first_rows(&small, 3), first_rows(&large, 3));
        if episode == Episode::Hand {
            assert!(ended >= 3, "hands end within 600 steps");
        }
    }
}

#[test]
fn threads_do_not_change_results() {
    // The last two split into runs of a multiple of 64 games (192 and 108; 64, 64 and 2).
    for (num, threads, steps) in [
        (4, 2, 300),
        (7, 3, 300),
        (5, 16, 300),
        (300, 2, 80),
        (130, 3, 80),
    ] {
        let mut one = VectorEnv::new(hearts4(), num, 11, Episode::Hand, Rewards::PerTrick)
            .unwrap()
            .with_history();
        let mut many = one.clone();
        let mut r = rngs(num);
        for _ in 0..steps {
            let actions = policy(&one, &mut r);
            one.step(&actions).unwrap();
            many.step_threads(&actions, threads).unwrap();
            assert_eq!(buffers(&one), buffers(&many));
        }
        for i in 0..num {
            assert_eq!(one.game(i).unwrap(), many.game(i).unwrap());
        }
    }
}

#[test]
fn mask_and_player_follow_the_games() {
    for name in ["hearts-3", "hearts-4", "hearts-7", "hartenjagen"] {
        let mut env = VectorEnv::new(
            preset(name).unwrap(),
            4,
            3,
            Episode::Match,
            Rewards::HandEnd,
        )
        .unwrap()
        .with_history();
        let mut r = rngs(4);
        for _ in 0..300 {
            for i in 0..4 {
                let g = env.game(i).unwrap();
                let mask = g.legal_mask(None).unwrap();
                let row = &env.legal_action_mask()[i * A..(i + 1) * A];
                for (id, &b) in row.iter().enumerate() {
                    assert_eq!(u128::from(b), mask >> id & 1, "{name} game {i} id {id}");
                }
                assert_ne!(mask, 0);
                assert_eq!(env.current_player()[i], g.to_act().unwrap() as i32);
            }
            let actions = policy(&env, &mut r);
            env.step(&actions).unwrap();
        }
    }
}

#[test]
fn per_trick_rewards_sum_to_hand_end_rewards() {
    // Both envs play the same games (rewards do not change the dynamics).
    for (name, episode) in [
        ("hearts-4", Episode::Hand),
        ("hearts-4", Episode::Match),
        ("hearts-7", Episode::Hand),
        ("omnibus-4", Episode::Hand),
    ] {
        let n = 8;
        let mut trick = VectorEnv::new(preset(name).unwrap(), n, 9, episode, Rewards::PerTrick)
            .unwrap()
            .with_history();
        let mut hand = VectorEnv::new(preset(name).unwrap(), n, 9, episode, Rewards::HandEnd)
            .unwrap()
            .with_history();
        let mut r = rngs(n);
        let p = preset(name).unwrap().players();
        let mut sums = vec![0f32; n * p];
        let mut hands = 0;
        let mut moons = 0;
        let total: i32 = preset(name).unwrap().points_table().iter().sum();
        for _ in 0..3000 {
            let actions = policy(&trick, &mut r);
            trick.step(&actions).unwrap();
            hand.step(&actions).unwrap();
            assert_eq!(trick.terminated(), hand.terminated());
            for (s, &x) in sums.iter_mut().zip(trick.rewards()) {
                *s += x;
            }
            for i in 0..n {
                let row = i * p..(i + 1) * p;
                let scored = hand.rewards()[row.clone()].iter().any(|&x| x != 0.0)
                    || hand.terminated()[i] == 1;
                if scored {
                    assert_eq!(
                        sums[row.clone()],
                        hand.rewards()[row.clone()],
                        "{name} game {i}"
                    );
                    sums[row.clone()].fill(0.0);
                    hands += 1;
                    // A moon moves the hand's total away from the points in the deck.
                    let sum: f32 = hand.rewards()[row.clone()].iter().sum();
                    if sum != -(total as f32) {
                        moons += 1;
                    }
                }
                if hand.terminated()[i] == 1 && episode == Episode::Hand {
                    // The episode's scores are minus the rewards.
                    let want: Vec<f32> = hand.episode_scores()[row.clone()]
                        .iter()
                        .map(|&x| -(x as f32))
                        .collect();
                    assert_eq!(hand.rewards()[row], want[..]);
                }
            }
        }
        assert!(hands > 20, "{name}: {hands} hands");
        // The seeded games include moons, so the adjustment is exercised.
        assert!(moons > 0, "{name}: no moon in {hands} hands");
    }
}

#[test]
fn a_rejected_step_changes_nothing() {
    let mut env = VectorEnv::new(hearts4(), 5, 21, Episode::Hand, Rewards::PerTrick)
        .unwrap()
        .with_history();
    let mut r = rngs(5);
    for _ in 0..37 {
        let actions = policy(&env, &mut r);
        env.step(&actions).unwrap();
    }
    let before = buffers(&env);
    let games: Vec<Game> = (0..5).map(|i| env.game(i).unwrap()).collect();
    let good = policy(&env, &mut r);
    // An id out of range, then one in range but illegal.
    let illegal = (0..NUM_ACTIONS)
        .find(|&id| env.legal_action_mask()[3 * A + usize::from(id)] == 0)
        .unwrap();
    for bad in [NUM_ACTIONS, 999, illegal] {
        let mut actions = good.clone();
        actions[3] = bad;
        for threads in [1, 2] {
            let e = env.step_threads(&actions, threads).unwrap_err();
            assert!(e.message().contains("game 3"), "{}", e.message());
            assert_eq!(buffers(&env), before);
            for (i, g) in games.iter().enumerate() {
                assert_eq!(&env.game(i).unwrap(), g);
            }
        }
    }
    let e = env.step(&good[..4]).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidAction);
    assert_eq!(buffers(&env), before);
    env.step(&good).unwrap();
}

#[test]
fn episodes_auto_reset() {
    let rules = hearts4();
    let n = 3;
    let mut env = VectorEnv::new(rules.clone(), n, 8, Episode::Hand, Rewards::HandEnd)
        .unwrap()
        .with_history();
    let mut r = rngs(n);
    let mut seen = vec![0u64; n];
    for _ in 0..2000 {
        let actions = policy(&env, &mut r);
        env.step(&actions).unwrap();
        for (i, count) in seen.iter_mut().enumerate() {
            let e = env.episode_index(i);
            if env.terminated()[i] == 1 {
                *count += 1;
                assert_eq!(e, *count);
                // The new episode: a fresh game from its seed, hand number e mod 4·4.
                let g =
                    Game::new(rules.clone(), Some(episode_seed(8, i, e)), e % 16, None).unwrap();
                assert_eq!(env.game(i).unwrap(), g);
                let scores: i64 = env.episode_scores()[i * 4..i * 4 + 4].iter().sum();
                assert!(
                    [26, 78, -26].contains(&scores),
                    "a hand scores 26, or 78 or -26 with a moon"
                );
            } else {
                assert_eq!(e, *count);
                assert!(env.episode_scores()[i * 4..(i + 1) * 4]
                    .iter()
                    .all(|&x| x == 0));
            }
            assert!(env.current_player()[i] >= 0);
        }
    }
    assert!(seen.iter().all(|&k| k >= 4), "{seen:?}");
    // Hands cycle the passing: left, right, across, hold, ...
    let g = env.game(0).unwrap();
    assert_eq!(g.hand_number(), env.episode_index(0) % 16);

    // Matches end in phase over: a low target makes them short.
    let short = rules
        .replace(serde_json::json!({"target": 30}).as_object().unwrap())
        .unwrap();
    let mut env = VectorEnv::new(short, n, 8, Episode::Match, Rewards::HandEnd)
        .unwrap()
        .with_history();
    let mut r = rngs(n);
    let mut matches = 0;
    for _ in 0..5000 {
        let actions = policy(&env, &mut r);
        env.step(&actions).unwrap();
        for i in 0..n {
            assert_ne!(env.game(i).unwrap().phase(), Phase::Over);
            if env.terminated()[i] == 1 {
                matches += 1;
                assert_eq!(env.game(i).unwrap().hand_number(), 0);
                let top = env.episode_scores()[i * 4..i * 4 + 4].iter().max().copied();
                assert!(top.unwrap() >= 30);
            }
        }
    }
    assert!(matches >= 3, "{matches} matches");

    // reset starts the next episode of every game.
    env.reset();
    assert!(env.terminated().iter().all(|&t| t == 0));
    assert!(env.rewards().iter().all(|&x| x == 0.0));
    for i in 0..n {
        assert_eq!(env.game(i).unwrap().hand_number(), 0);
        assert_eq!(env.game(i).unwrap().hands_scored(), 0);
    }
}

/// Checks row `i` of the observation against the game's accessors.
fn check_observation(env: &VectorEnv, i: usize) {
    let g = env.game(i).unwrap();
    let n = g.ruleset().players();
    let seat = g.to_act().unwrap();
    let all = env.observation().to_i32();
    let obs = &all[i * O..(i + 1) * O];
    let mut again = vec![0; O];
    encode_observation(&g, seat, &mut again).unwrap();
    assert_eq!(obs, &again[..]);
    let hand = g.hand(seat).unwrap();
    for c in 0..52u8 {
        let held = hand.set >> c & 1 == 1;
        assert_eq!(obs[usize::from(c)], i32::from(held));
    }
    let phases = [
        Phase::Deal,
        Phase::Pass,
        Phase::Play,
        Phase::Moon,
        Phase::Over,
    ];
    for (k, p) in phases.iter().enumerate() {
        assert_eq!(obs[1256 + k], i32::from(g.phase() == *p));
    }
    let legal = if g.phase() == Phase::Play {
        g.legal_plays().0
    } else {
        0
    };
    for c in 0..52 {
        assert_eq!(obs[1278 + c], i32::from(legal >> c & 1 == 1));
    }
    // The legal block is the play part of the mask.
    if g.phase() == Phase::Play {
        assert_eq!(
            &obs[1278..1330],
            &env.legal_action_mask()[i * A..i * A + 52]
                .iter()
                .map(|&b| i32::from(b))
                .collect::<Vec<_>>()[..]
        );
    }
    // The seat to move, relative to the observer (none in phase pass).
    let slot = g.to_move().map_or(10, |s| (s + n - seat) % n);
    for k in 0..11 {
        assert_eq!(obs[1262 + k], i32::from(k == slot));
    }
    // Points and totals by relative seat; seats beyond the players are 0.
    for k in 0..10 {
        let (p, s) = if k < n {
            let other = (seat + k) % n;
            (g.points()[other], g.scores()[other] as i32)
        } else {
            (0, 0)
        };
        assert_eq!(obs[1236 + k], p);
        assert_eq!(obs[1246 + k], s);
    }
    // Cards played: every played card once, in the block of the seat that played it.
    let played: i32 = obs[52..572].iter().sum();
    assert_eq!(played as usize, g.hand_state().played().len());
    for (s, c) in g.trick() {
        let k = (s + n - seat) % n;
        assert_eq!(obs[572 + k * 52 + usize::from(c.id())], 1);
        assert_eq!(obs[52 + k * 52 + usize::from(c.id())], 1);
    }
    assert_eq!(obs[572..1092].iter().sum::<i32>() as usize, g.trick().len());
    assert_eq!(obs[1261], i32::from(g.hearts_broken()));
    let passed = g.passed(seat).unwrap().map_or(0, |p| p.len());
    assert_eq!(obs[1092..1144].iter().sum::<i32>() as usize, passed);
    // OBS-3 version 3: the count-down flag and the held-over cards (PLAY-9).
    assert_eq!(obs[1382], i32::from(g.count_down()));
    assert_eq!(
        obs[1383..1435].iter().sum::<i32>() as usize,
        g.hand_state().held_over().len()
    );
}

#[test]
fn observations_match_the_games() {
    for name in ["hearts-4", "hearts-3", "hearts-7"] {
        let mut env = VectorEnv::new(
            preset(name).unwrap(),
            4,
            13,
            Episode::Match,
            Rewards::HandEnd,
        )
        .unwrap()
        .with_history();
        let mut r = rngs(4);
        for step in 0..400 {
            if step % 7 == 0 {
                for i in 0..4 {
                    check_observation(&env, i);
                }
            }
            let actions = policy(&env, &mut r);
            env.step(&actions).unwrap();
        }
    }
}

#[test]
fn encode_observation_checks_its_arguments() {
    let g = Game::new(hearts4(), Some(1), 0, None).unwrap();
    let mut out = vec![0; O];
    assert_eq!(
        encode_observation(&g, 4, &mut out).unwrap_err().code(),
        ErrorCode::InvalidAction
    );
    let mut short = vec![0; 10];
    assert_eq!(
        encode_observation(&g, 0, &mut short).unwrap_err().code(),
        ErrorCode::InvalidSetup
    );
}

#[test]
fn the_history_changes_nothing_the_buffers_show() {
    for name in preset_names() {
        for episode in [Episode::Hand, Episode::Match] {
            let rules = preset(name).unwrap();
            let mut bare =
                VectorEnv::new(rules.clone(), 3, 40, episode, Rewards::PerTrick).unwrap();
            let mut kept = bare.clone().with_history();
            assert!(!bare.has_history() && kept.has_history());
            assert_eq!(bare.game(0).unwrap_err().code().as_str(), "invalid-setup");
            let mut rng = SplitMix64::new(5);
            for _ in 0..150 {
                let actions: Vec<u16> = bare
                    .legal_action_mask()
                    .chunks(A)
                    .map(|row| {
                        let legal: Vec<u16> =
                            (0..A as u16).filter(|&i| row[i as usize] == 1).collect();
                        legal[rng.below_fast(legal.len() as u64) as usize]
                    })
                    .collect();
                bare.step(&actions).unwrap();
                kept.step(&actions).unwrap();
                assert_eq!(bare.current_player(), kept.current_player());
                assert_eq!(bare.legal_action_mask(), kept.legal_action_mask());
                assert_eq!(bare.observation(), kept.observation());
                assert_eq!(bare.rewards(), kept.rewards());
                assert_eq!(bare.terminated(), kept.terminated());
                assert_eq!(bare.episode_scores(), kept.episode_scores());
            }
            for i in 0..3 {
                let g = kept.game(i).unwrap();
                assert_eq!(g.to_act().map(|s| s as i32), Some(bare.current_player()[i]));
            }
        }
    }
}

#[test]
fn runs_split_the_games_into_aligned_runs() {
    for num in [1, 5, 63, 64, 65, 100, 127, 128, 1000, 1024, 4097] {
        for threads in 0..6 {
            let size = VectorEnv::run_size(num, threads);
            let runs = num.div_ceil(size);
            assert!(
                runs <= threads.max(1),
                "{num} games on {threads} threads: {runs} runs"
            );
            // No more runs are lost to the rounding than one thread's share of the games.
            assert!(size < num.div_ceil(threads.max(1)) + 64);
            if size >= 64 {
                assert_eq!(size % 64, 0, "{num} games on {threads} threads");
            }
        }
    }
}

// A runner that runs the jobs in reverse order on the calling thread, counting them.
struct Backwards(std::cell::Cell<usize>);

impl StepRunner for Backwards {
    fn run(&self, jobs: Vec<Job<'_>>) {
        self.0.set(self.0.get() + jobs.len());
        for job in jobs.into_iter().rev() {
            job();
        }
    }
}

#[test]
fn a_runner_may_run_the_runs_in_any_order() {
    let runner = Backwards(std::cell::Cell::new(0));
    let mut one = VectorEnv::new(hearts4(), 200, 4, Episode::Match, Rewards::PerTrick).unwrap();
    let mut other = one.clone();
    let mut r = rngs(200);
    for _ in 0..120 {
        let actions = policy(&one, &mut r);
        one.step(&actions).unwrap();
        other.step_with(&actions, 3, &runner).unwrap();
        assert_eq!(buffers(&one), buffers(&other));
    }
    // 200 games on 3 threads: runs of 128 and 72.
    assert_eq!(runner.0.get(), 2 * 120);
    // A rejected step hands nothing to the runner.
    let mut bad = policy(&one, &mut r);
    bad[150] = 200;
    assert!(other.step_with(&bad, 3, &runner).is_err());
    assert_eq!(runner.0.get(), 2 * 120);
}

/// `Uint8` of `ruleset` with `changes`, for `episode`: `Ok`, or the block its error names.
fn uint8_fits(name: &str, changes: serde_json::Value, episode: Episode) -> Result<(), String> {
    let mut rules = (*preset(name).unwrap()).clone();
    if let Some(fields) = changes.as_object() {
        rules = rules.replace(fields).unwrap();
    }
    ObservationDtype::Uint8.check(&rules, episode).map_err(|e| {
        assert_eq!(e.code(), ErrorCode::InvalidSetup);
        let m = e.message();
        let block = ["points", "scores"]
            .into_iter()
            .find(|b| m.contains(&format!("the {b} block")));
        block
            .unwrap_or_else(|| panic!("{m} names no block"))
            .to_string()
    })
}

#[test]
fn uint8_is_taken_where_every_value_fits_0_to_255() {
    use Episode::{Hand, Match};
    let none = json!(null);
    // int32 takes anything.
    for name in preset_names() {
        for episode in [Hand, Match] {
            ObservationDtype::Int32
                .check(&preset(name).unwrap(), episode)
                .unwrap();
        }
    }
    // hearts-4 (hearts 1, QS 13, 26 together; the moon at the taker's choice, 26; target 100).
    assert_eq!(uint8_fits("hearts-4", none.clone(), Hand), Ok(()));
    // Its moon may subtract 26 from the taker: a match's total can go below 0.
    assert_eq!(
        uint8_fits("hearts-4", none.clone(), Match),
        Err("scores".into())
    );
    // A card worth less than 0 takes a seat's points below 0, in a hand as in a match.
    assert_eq!(
        uint8_fits("omnibus-4", none.clone(), Hand),
        Err("points".into())
    );
    assert_eq!(
        uint8_fits("omnibus-4", none.clone(), Match),
        Err("points".into())
    );
    // The points of a seat that takes every card: 13 + QS.
    assert_eq!(
        uint8_fits("hearts-4", json!({"card_points": {"QS": 242}}), Hand),
        Ok(())
    );
    assert_eq!(
        uint8_fits("hearts-4", json!({"card_points": {"QS": 243}}), Hand),
        Err("points".into())
    );
    // Two packs count each copy: 2 × (13 + QS).
    assert_eq!(
        uint8_fits("cancellation-8", json!({"card_points": {"QS": 114}}), Hand),
        Ok(())
    );
    assert_eq!(
        uint8_fits("cancellation-8", json!({"card_points": {"QS": 115}}), Hand),
        Err("points".into())
    );
    // Adding to the others never lowers a total; a total an observation shows is below the
    // target, so a target of 256 keeps them within 0-255.
    let adding = json!({"moon": {"scoring": "add-to-others", "bonus": 26}, "target": 256});
    assert_eq!(uint8_fits("hearts-4", adding.clone(), Match), Ok(()));
    assert_eq!(
        uint8_fits(
            "hearts-4",
            json!({"moon": {"scoring": "add-to-others", "bonus": 26}, "target": 257}),
            Match
        ),
        Err("scores".into())
    );
    assert_eq!(
        uint8_fits("hearts-4", json!({"moon": null, "target": 256}), Match),
        Ok(())
    );
    for scoring in ["subtract-from-taker", "taker-choice"] {
        let moon = json!({"moon": {"scoring": scoring, "bonus": 26}, "target": 50});
        assert_eq!(uint8_fits("hearts-4", moon.clone(), Hand), Ok(()));
        assert_eq!(uint8_fits("hearts-4", moon, Match), Err("scores".into()));
    }
    // Under count_down the hand that reaches the target can add up to the most a hand adds (26
    // as captured or as the moon's bonus, the larger) to a total of target − 1.
    let count_down = |target: u64, bonus: i32| json!({"moon": {"scoring": "add-to-others", "bonus": bonus}, "target": target, "count_down": true});
    assert_eq!(uint8_fits("hearts-4", count_down(230, 26), Match), Ok(()));
    assert_eq!(
        uint8_fits("hearts-4", count_down(231, 26), Match),
        Err("scores".into())
    );
    assert_eq!(uint8_fits("hearts-4", count_down(216, 40), Match), Ok(()));
    assert_eq!(
        uint8_fits("hearts-4", count_down(217, 40), Match),
        Err("scores".into())
    );
    // A hand episode starts from zero totals and ends when the hand is scored.
    assert_eq!(uint8_fits("hearts-4", count_down(10_000, 26), Hand), Ok(()));
    // The environment refuses it as the check does.
    let env = VectorEnv::new(hearts4(), 2, 0, Episode::Match, Rewards::HandEnd).unwrap();
    let e = env
        .with_observation_dtype(ObservationDtype::Uint8)
        .unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidSetup);
    assert!(e.message().contains("scores block") && e.message().contains("taker-choice"));
}

#[test]
fn uint8_observations_are_the_int32_ones() {
    let mut taken = 0;
    for name in preset_names() {
        for episode in [Episode::Hand, Episode::Match] {
            // A low target ends matches within the steps, so that they restart from hand 0.
            let rules = match episode {
                Episode::Hand => preset(name).unwrap(),
                Episode::Match => Arc::new(
                    preset(name)
                        .unwrap()
                        .replace(json!({"target": 30}).as_object().unwrap())
                        .unwrap(),
                ),
            };
            let mut wide = VectorEnv::new(rules.clone(), 24, 21, episode, Rewards::PerTrick)
                .unwrap()
                .with_history();
            let Ok(mut narrow) = wide.clone().with_observation_dtype(ObservationDtype::Uint8)
            else {
                continue;
            };
            taken += 1;
            assert_eq!(narrow.observation_dtype(), ObservationDtype::Uint8);
            let mut r = rngs(24);
            let mut ended = 0;
            for step in 0..400 {
                let (Observations::Int32(w), Observations::Uint8(n)) =
                    (wide.observation(), narrow.observation())
                else {
                    panic!("the dtypes asked for");
                };
                assert!(
                    w.iter().zip(n).all(|(&a, &b)| a == i32::from(b)),
                    "{name} {episode:?} step {step}"
                );
                assert_eq!(wide.legal_action_mask(), narrow.legal_action_mask());
                let actions = policy(&wide, &mut r);
                wide.step(&actions).unwrap();
                narrow.step_threads(&actions, 1 + step % 3).unwrap();
                ended += wide.terminated().iter().filter(|&&t| t == 1).count();
            }
            assert!(ended > 0, "{name} {episode:?}: episodes end and restart");
            // The rows are the games' encodings, written anew or cleared line by line.
            for i in 0..24 {
                let g = narrow.game(i).unwrap();
                let mut again = vec![0; O];
                encode_observation(&g, g.to_act().unwrap(), &mut again).unwrap();
                assert_eq!(narrow.observation().to_i32()[i * O..(i + 1) * O], again[..]);
            }
        }
    }
    // Every preset's hands but omnibus-4's, and the matches of the presets whose moon (if any)
    // adds to the others and whose target is at most 256.
    assert!(taken >= 13 + 4, "{taken} environments took uint8");
}

#[test]
fn int32_values_stay_within_uint8_where_it_is_taken() {
    // Whatever the check lets through, an int32 environment never shows outside 0-255.
    for name in preset_names() {
        for episode in [Episode::Hand, Episode::Match] {
            let rules = preset(name).unwrap();
            if ObservationDtype::Uint8.check(&rules, episode).is_err() {
                continue;
            }
            let mut env = VectorEnv::new(rules, 16, 77, episode, Rewards::HandEnd).unwrap();
            let mut r = rngs(16);
            for _ in 0..500 {
                assert!(env
                    .observation()
                    .to_i32()
                    .iter()
                    .all(|v| (0..=255).contains(v)));
                let actions = policy(&env, &mut r);
                env.step(&actions).unwrap();
            }
        }
    }
}
