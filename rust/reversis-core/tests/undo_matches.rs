//! Undo (API-8) over whole random matches: every input of the match is taken back, one by one,
//! and each time the game is compared with the snapshot taken when going forward; the input is
//! then made again on a copy, which must give the same game and the same events as the first
//! time.

mod common;

use common::*;
use reversis_core::{
    Action, ActionLog, Card, CompletedTrick, ErrorCode, Event, Game, Phase, Ruleset, SplitMix64,
};
use serde_json::{json, Value};

// One input of the match, as the test made it.
#[derive(Clone, Debug)]
enum Input {
    Id(u16, Option<usize>),
    Pass(usize, Vec<Card>),
    Deal(Vec<Vec<Card>>),
}

fn apply(g: &mut Game, input: &Input) {
    match input {
        Input::Id(id, seat) => g.apply_action(*id, *seat).unwrap(),
        Input::Pass(seat, cards) => g.pass_cards(cards.clone(), Some(*seat)).unwrap(),
        Input::Deal(hands) => g.deal(Some(hands.clone())).unwrap(),
    }
}

// Everything the game shows, history included.
#[derive(Clone, Debug, PartialEq)]
struct Snap {
    state: Value,
    actions: ActionLog,
    hand_scores: Vec<Vec<i64>>,
    last_hand: Value,
    last_hand_tricks: Vec<CompletedTrick>,
    events: Vec<Event>,
    events_json: Value,
    depth: usize,
    pending: Vec<(usize, Card)>,
}

fn snap(g: &Game) -> Snap {
    Snap {
        state: g.state_json(),
        actions: g.actions(),
        hand_scores: g.hand_scores(),
        last_hand: g.last_hand_json(),
        last_hand_tricks: g.last_hand_tricks(),
        events: g.events().iter().copied().collect(),
        events_json: g.events_json(),
        depth: g.undo_depth(),
        pending: g.pending_selections(),
    }
}

// The next input of a random match: deals by hand in an unseeded game, ACT-1 passes or
// selections (by a random seat still to pass), plays and moon choices by id or by ACT-1.
fn choose(g: &Game, rng: &mut SplitMix64, deals: &mut SplitMix64) -> Option<Input> {
    let n = g.ruleset().players();
    match g.phase() {
        Phase::Over => None,
        Phase::Deal => {
            let hands = deals.deal(g.ruleset(), g.dealer());
            Some(Input::Deal(
                hands.first(n).iter().map(|h| h.to_vec()).collect(),
            ))
        }
        Phase::Pass => {
            let waiting = g.awaiting_pass();
            let seat = waiting[rng.below_fast(waiting.len() as u64) as usize];
            if rng.below_fast(3) == 0 && g.selected(seat).unwrap().is_empty() {
                let mut hand = g.hand(seat).unwrap().to_vec();
                rng.shuffle(&mut hand);
                let size = g.ruleset().passing().unwrap().size;
                Some(Input::Pass(seat, hand[..size].to_vec()))
            } else {
                let ids = g.legal_actions(Some(seat)).unwrap();
                let id = ids[rng.below_fast(ids.len() as u64) as usize];
                Some(Input::Id(id, Some(seat)))
            }
        }
        Phase::Play | Phase::Moon => {
            let ids = g.legal_actions(None).unwrap();
            let id = ids[rng.below_fast(ids.len() as u64) as usize];
            let seat = if rng.below_fast(2) == 0 {
                None
            } else {
                g.to_act()
            };
            Some(Input::Id(id, seat))
        }
    }
}

fn undo_whole_match(start: Game, seed: u64) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut deals = SplitMix64::new(seed ^ 0x5EED);
    let mut g = start.clone();
    let mut snaps = vec![snap(&g)];
    let mut games = vec![g.clone()];
    let mut inputs = Vec::new();
    let mut moons = 0;
    while let Some(input) = choose(&g, &mut rng, &mut deals) {
        if g.phase() == Phase::Moon {
            moons += 1;
        }
        apply(&mut g, &input);
        inputs.push(input);
        // A rejected action changes nothing, events included.
        let before = snap(&g);
        assert!(g.play(Card::new(0), Some(99)).is_err());
        assert_eq!(snap(&g), before);
        snaps.push(before);
        games.push(g.clone());
        assert!(inputs.len() < 20_000, "the match does not end");
    }
    assert_eq!(g.phase(), Phase::Over);
    assert!(g.hands_scored() >= 2);
    // The record replays to the same game.
    assert_eq!(Game::from_record(&g.to_record()).unwrap(), g);
    for k in (0..inputs.len()).rev() {
        g.undo().unwrap();
        assert!(g.events().is_empty());
        assert_eq!(g.events_json(), json!([]));
        let mut want = snaps[k].clone();
        want.events = Vec::new();
        want.events_json = json!([]);
        assert_eq!(snap(&g), want, "after undoing input {k} ({:?})", inputs[k]);
        assert_eq!(g, games[k]);
        // The same input again gives the same game and events as the first time.
        let mut again = g.clone();
        apply(&mut again, &inputs[k]);
        assert_eq!(snap(&again), snaps[k + 1], "redoing input {k}");
        // A copy taken forward undoes the same way.
        if k % 7 == 0 {
            let mut copy = games[k + 1].clone();
            copy.undo().unwrap();
            assert_eq!(snap(&copy), want);
        }
    }
    let before = snap(&g);
    assert_eq!(g.undo().unwrap_err().code, ErrorCode::NothingToUndo);
    assert_eq!(snap(&g), before);
    assert_eq!(g, start);
    if start.seed().is_none() {
        assert_eq!(g.phase(), Phase::Deal);
    }
    moons
}

// A ruleset where the moon is shot often: few point cards, the taker choosing.
fn moony(name: &str) -> Ruleset {
    modified(name, |o| {
        o.insert("card_points".into(), json!({"AH": 1, "QS": 2}));
        o.insert(
            "moon".into(),
            json!({"scoring": "taker-choice", "bonus": 40}),
        );
        o.insert("target".into(), json!(35));
        o.insert("name".into(), json!(format!("{name}-moony")));
    })
}

// A preset with a lower target, so that a match is a few hands.
fn short(name: &str) -> Ruleset {
    modified(name, |o| {
        o.insert("target".into(), json!(40));
        o.insert("name".into(), json!(format!("{name}-short")));
    })
}

#[test]
fn undo_every_input_of_whole_seeded_matches() {
    let mut moons = 0;
    for (i, r) in [
        short("hearts-4"),
        short("hartenjagen"),
        short("hearts-3"),
        short("omnibus-4"),
        moony("hearts-4"),
        moony("hearts-5"),
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..2 {
            let g = Game::new(r.clone(), Some(seed * 31 + i as u64), 0, None).unwrap();
            moons += undo_whole_match(g, seed + 100 * i as u64);
        }
    }
    assert!(moons > 0);
}

#[test]
fn undo_every_input_of_whole_unseeded_matches() {
    let mut moons = 0;
    for (i, r) in [
        short("hearts-4"),
        short("hearts-computer"),
        short("hearts-7"),
        moony("hearts-4"),
        moony("omnibus-4"),
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..2 {
            let g = Game::new(r.clone(), None, seed * 3, Some(vec![0; r.players()])).unwrap();
            moons += undo_whole_match(g, seed + 1000 * i as u64);
        }
    }
    assert!(moons > 0);
}

#[test]
fn undo_of_replayed_records_with_pending_selections() {
    // A game rebuilt from its record and its pending selections undoes as the original, a
    // pass built by selections being taken back whole.
    let mut g = Game::new(moony("hearts-4"), Some(77), 0, None).unwrap();
    let start = g.clone();
    let mut rng = SplitMix64::new(5);
    let mut deals = SplitMix64::new(6);
    for step in 0..400 {
        let Some(input) = choose(&g, &mut rng, &mut deals) else {
            break;
        };
        apply(&mut g, &input);
        if step % 37 != 0 {
            continue;
        }
        let mut h = Game::from_record(&g.to_record()).unwrap();
        for (s, c) in g.pending_selections() {
            h.apply_action(52 + u16::from(c.id()), Some(s)).unwrap();
        }
        assert_eq!(h, g);
        assert_eq!(h.pending_selections(), g.pending_selections());
        // The rebuilt game takes back each recorded action but the seed's deals, and each
        // pending selection, then is at the start.
        let units = g
            .actions()
            .iter()
            .filter(|a| !matches!(a, Action::Deal { .. }))
            .count()
            + g.pending_selections().len();
        assert_eq!(h.undo_depth(), units);
        for _ in 0..units {
            h.undo().unwrap();
        }
        assert_eq!(h.undo().unwrap_err().code, ErrorCode::NothingToUndo);
        assert_eq!(h, start);
        assert_eq!(h.actions().len(), 1);
    }
}
