//! The batched environment (`VectorEnv`): determinism, independence of the batch size and of
//! threads, masks, rewards, rejected steps, auto-reset and the OBS-3 encoding.

use std::sync::Arc;

use reversis_core::{
    encode_observation, episode_seed, preset, preset_names, Episode, ErrorCode, Game, Phase,
    Rewards, Ruleset, SplitMix64, VectorEnv, ENCODING_LENGTH, MAX_ENVS, NUM_ACTIONS,
};

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
        observation: env.observation().to_vec(),
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
        observation: env.observation()[..k * O].to_vec(),
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
    for (num, threads) in [(4, 2), (7, 3), (5, 16)] {
        let mut one = VectorEnv::new(hearts4(), num, 11, Episode::Hand, Rewards::PerTrick)
            .unwrap()
            .with_history();
        let mut many = one.clone();
        let mut r = rngs(num);
        for _ in 0..300 {
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
    let obs = &env.observation()[i * O..(i + 1) * O];
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
