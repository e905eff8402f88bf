//! The review of a decision: the search's choice and every candidate's estimate, from the
//! observation alone.

#[path = "../../reversis-core/tests/common/mod.rs"]
mod common;

use common::*;
use reversis_core::{Card, ErrorCode, Game, Phase, MOON_ADD_ID, MOON_SUBTRACT_ID, PASS_BASE};
use reversis_players::{evaluate_decision, policy_decision, search_decision, Budget, Evaluation};
use serde_json::Value;

fn id(c: &str) -> u16 {
    u16::from(card(c).id())
}

fn points_of(e: &Evaluation, action: &[u16]) -> f64 {
    e.estimates
        .iter()
        .find(|x| x.action == action)
        .unwrap_or_else(|| panic!("no estimate of {action:?}"))
        .points
}

/// hearts-4, hand 3 (no pass): seat 2 wins the first trick with A♣ and leads Q♠, seat 3
/// follows with 2♠, and seat 0 holds A♠ and 3♠: the ace takes the queen's 13 points, the
/// three cannot win the trick.
fn queen_led() -> Game {
    let hands = [
        "3C AS 3S 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        "2C 5C 6C 7C 8C 9C TC JC QC KC QD KD AD",
        "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
        "4C 2S 4S 5S 6S 7S 8S 9S TS JS KS KH AH",
    ];
    let mut g = dealt(rules("hearts-4"), 3, &hands);
    play_script(&mut g, "2C AC 4C 3C QS 2S");
    assert_eq!(g.to_move(), Some(0));
    g
}

#[test]
fn the_card_that_takes_the_queen_is_estimated_at_its_points() {
    let g = queen_led();
    let o = g.observation(0).unwrap();
    let e = evaluate_decision(g.ruleset(), &o, 400, 7, None).unwrap();
    assert_eq!(e.choice, [id("3S")]);
    let legal: Vec<Vec<u16>> = vec![vec![id("AS")], vec![id("3S")]];
    let listed: Vec<Vec<u16>> = e.estimates.iter().map(|x| x.action.clone()).collect();
    assert_eq!(listed.len(), 2);
    assert!(legal.iter().all(|a| listed.contains(a)), "{listed:?}");
    // The ace takes at least the queen's 13 (it may pay more later); the three never takes
    // this trick.
    assert!(points_of(&e, &[id("AS")]) >= 13.0, "{e:?}");
    assert!(
        points_of(&e, &[id("3S")]) + 8.0 < points_of(&e, &[id("AS")]),
        "{e:?}"
    );
    // The search's choice is the best estimate, within the noise of 200 layouts a card.
    let best = e
        .estimates
        .iter()
        .map(|x| x.margin)
        .fold(f64::INFINITY, f64::min);
    let chosen = e.estimates.iter().find(|x| x.action == e.choice).unwrap();
    assert!(chosen.margin <= best + 1.0, "{e:?}");
    assert_eq!(e.layouts, 200);
}

#[test]
fn the_choice_is_the_search_players_and_the_run_is_repeatable() {
    let r = rules("hearts-computer");
    let mut g = Game::new(r.clone(), Some(11), 1, None).unwrap();
    let mut reviewed = 0;
    while g.hands_scored() == 0 {
        let seat = g.to_act().unwrap();
        let o = g.observation(seat).unwrap();
        if seat == 0 {
            let e = evaluate_decision(&r, &o, 120, 3, None).unwrap();
            assert_eq!(
                e.choice,
                search_decision(&r, &o, Budget::playouts(120), 3).unwrap()
            );
            assert_eq!(e, evaluate_decision(&r, &o, 120, 3, None).unwrap());
            reviewed += 1;
        }
        for a in policy_decision(&r, &o, Some(1)).unwrap() {
            g.apply_action(a, Some(seat)).unwrap();
        }
    }
    assert!(reviewed >= 13);
}

/// Two legal cards no play can tell apart: of one suit, of equal points, with every card of
/// the suit between them in a completed trick (or in no deck).
fn indistinguishable(g: &Game, a: Card, b: Card) -> bool {
    let r = g.ruleset();
    let (lo, hi) = if a.id() < b.id() { (a, b) } else { (b, a) };
    let done: Vec<Card> = g.observation(0).unwrap()["tricks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["cards"].as_array().unwrap().clone())
        .map(|p| card(p["card"].as_str().unwrap()))
        .collect();
    lo.suit() == hi.suit()
        && r.points_of(lo) == r.points_of(hi)
        && (lo.id() + 1..hi.id()).all(|i| {
            let c = Card::new(i);
            !r.deck().contains(c) || done.contains(&c)
        })
}

#[test]
fn cards_no_play_can_tell_apart_get_the_same_estimate() {
    let r = rules("hearts-computer");
    let mut pairs = 0;
    for seed in 0..3u64 {
        let mut g = Game::new(r.clone(), Some(seed), 3, None).unwrap();
        while g.hands_scored() == 0 {
            let seat = g.to_act().unwrap();
            let o = g.observation(seat).unwrap();
            if seat == 0 && g.phase() == Phase::Play {
                let e = evaluate_decision(&r, &o, 60, seed, None).unwrap();
                let legal = g.legal_plays();
                assert_eq!(e.estimates.len(), legal.len());
                for x in &e.estimates {
                    for y in &e.estimates {
                        let (a, b) = (Card::new(x.action[0] as u8), Card::new(y.action[0] as u8));
                        if a != b && indistinguishable(&g, a, b) {
                            pairs += 1;
                            assert_eq!(x.points, y.points, "{a} {b}");
                            assert_eq!(x.margin, y.margin, "{a} {b}");
                        }
                    }
                }
            }
            for a in policy_decision(&r, &o, Some(2)).unwrap() {
                g.apply_action(a, Some(seat)).unwrap();
            }
        }
    }
    assert!(pairs > 0, "no two legal cards were alike");
}

#[test]
fn a_pass_is_compared_with_the_searchs_on_the_same_deals() {
    let r = rules("hearts-4");
    let g = Game::new(r.clone(), Some(9), 0, None).unwrap();
    let o = g.observation(0).unwrap();
    let hand = g.hand(0).unwrap();
    // The three lowest cards: a pass no one would make in hearts, kept for the review.
    let mut low: Vec<Card> = hand.into_iter().collect();
    low.sort_by_key(|c| (c.id() % 13, c.id()));
    let mut mine: Vec<u16> = low[..3]
        .iter()
        .map(|c| PASS_BASE + u16::from(c.id()))
        .collect();
    mine.sort();
    let e = evaluate_decision(&r, &o, 100, 4, Some(&mine)).unwrap();
    assert_eq!(
        e.choice,
        search_decision(&r, &o, Budget::playouts(100), 4).unwrap()
    );
    assert_eq!(e.estimates.len(), 2);
    assert_eq!(e.estimates[0].action, e.choice);
    assert_eq!(e.estimates[1].action, mine);
    // 4 × 100 playouts over two passes, each played on by the policy and going for the moon.
    assert_eq!(e.layouts, 100);
    // Every estimate is a hand score of hearts-4: between −26 (a moon subtracted) and 26.
    assert!(e
        .estimates
        .iter()
        .all(|x| (-26.0..=26.0).contains(&x.points)));
    // The search's own pass, given as the person's, is listed once.
    let same = evaluate_decision(&r, &o, 100, 4, Some(&e.choice)).unwrap();
    assert_eq!(same.estimates.len(), 1);
    // A pass of a card not held, of too few cards, or of one card twice is refused.
    let absent = (0..52u8).find(|&c| !hand.contains(Card::new(c))).unwrap();
    for bad in [
        vec![mine[0], mine[1], PASS_BASE + u16::from(absent)],
        vec![mine[0], mine[1]],
        vec![mine[0], mine[0], mine[1]],
    ] {
        let err = evaluate_decision(&r, &o, 100, 4, Some(&bad)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidAction, "{bad:?}");
    }
}

#[test]
fn both_moon_choices_are_scored_exactly() {
    let r = rules("hearts-4");
    let hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD 2H 3H 4H 5H",
        "JD QD KD AD 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ];
    let mut g = dealt(r.clone(), 3, &hands);
    while g.phase() == Phase::Play {
        let seat = g.to_move().unwrap();
        let o = g.observation(seat).unwrap();
        g.apply_action(policy_decision(&r, &o, None).unwrap()[0], Some(seat))
            .unwrap();
    }
    assert_eq!(g.phase(), Phase::Moon);
    let o = g.observation(0).unwrap();
    let e = evaluate_decision(&r, &o, 1, 0, None).unwrap();
    assert_eq!(
        e.choice,
        search_decision(&r, &o, Budget::playouts(1), 0).unwrap()
    );
    // SCORE-2 with a moon of 26: adding gives each other seat 26, subtracting takes 26 from
    // the taker, who captured all 26.
    assert_eq!(e.estimates[0].action, [MOON_ADD_ID]);
    assert_eq!((e.estimates[0].points, e.estimates[0].margin), (0.0, -26.0));
    assert_eq!(e.estimates[1].action, [MOON_SUBTRACT_ID]);
    assert_eq!(
        (e.estimates[1].points, e.estimates[1].margin),
        (-26.0, -26.0)
    );
    assert_eq!(e.layouts, 0);
}

#[test]
fn a_bad_observation_or_action_is_refused() {
    let g = queen_led();
    let r = g.ruleset();
    let o = g.observation(0).unwrap();
    for key in ["voids", "hand", "tricks", "phase", "seat"] {
        let mut lacking = o.clone();
        lacking.as_object_mut().unwrap().remove(key);
        let err = evaluate_decision(r, &lacking, 50, 1, None).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidAction, "{key}");
        if key != "phase" {
            assert!(err.message.contains(key), "{key}: {}", err.message);
        }
    }
    // A seat that is not to play, a card that is not legal, no playouts.
    let idle = g.observation(1).unwrap();
    assert!(evaluate_decision(r, &idle, 50, 1, None).is_err());
    let err = evaluate_decision(r, &o, 50, 1, Some(&[id("2D")])).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidAction);
    assert!(evaluate_decision(r, &o, 50, 1, Some(&[id("3S"), id("AS")])).is_err());
    assert!(evaluate_decision(r, &o, 0, 1, None).is_err());
    let mut over: Value = o.clone();
    over["phase"] = Value::from("over");
    assert!(evaluate_decision(r, &over, 50, 1, None).is_err());
    // The person's card, where given and legal, changes nothing.
    let with = evaluate_decision(r, &o, 50, 1, Some(&[id("AS")])).unwrap();
    assert_eq!(with, evaluate_decision(r, &o, 50, 1, None).unwrap());
}
