//! The fields of 1.4.0 in the core: the sun (RS-23, SCORE-5), `moon.needs` (RS-24, SCORE-6),
//! `count_down_end` (RS-25, MATCH-8) and `deals` with a null target (RS-26, MATCH-9), from the
//! worked examples of `game.md`, every expected value computed by hand.

mod common;

use common::*;
use reversis_core::kernel::{Races, Scoring};
use reversis_core::{CountDownEnd, ErrorCode, Game, MoonChoice, Phase, Ruleset};
use serde_json::json;

// `omnibus-alternative` (D-25) as the presets table gives it: omnibus-4's deal and play, the TD
// worth −10 instead of the JD, the moon subtract-from-taker 26 and the sun subtract-from-taker 52.
fn omnibus_alternative(sun: &str) -> Ruleset {
    modified("omnibus-4", |o| {
        o.insert(
            "card_points".into(),
            json!({"2H": 1, "3H": 1, "4H": 1, "5H": 1, "6H": 1, "7H": 1, "8H": 1, "9H": 1,
                   "TH": 1, "JH": 1, "QH": 1, "KH": 1, "AH": 1, "QS": 13, "TD": -10}),
        );
        o.insert(
            "moon".into(),
            json!({"scoring": "subtract-from-taker", "bonus": 26}),
        );
        o.insert("sun".into(), json!({"scoring": sun, "bonus": 52}));
    })
}

// Seat 2 holds every club and leads them all (2C opens, PLAY-1): nobody else can follow, so it
// wins all 13 tricks and captures every card. Hand 3 holds (no pass).
const SUN_DEAL: [&str; 4] = [
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
];

fn play_sun_hand(g: &mut Game) {
    while g.phase() == Phase::Play {
        let seat = g.to_move().expect("a seat to move");
        let c = g.legal_plays().first().expect("a legal card");
        g.play(c, Some(seat)).expect("a legal play");
    }
}

#[test]
fn score_5_the_sun_takes_precedence_over_the_moon() {
    // SCORE-5's example: seat 2's points are 13 + 13 − 10 = 16, every other seat's 0; under the
    // sun's subtract-from-taker 52 it scores 16 − 26 − 52 = −62 (not the moon's 16 − 26 − 26).
    let mut g = dealt(omnibus_alternative("subtract-from-taker"), 3, &SUN_DEAL);
    play_sun_hand(&mut g);
    assert_eq!(g.hand_scores(), [vec![0, 0, -62, 0]]);
    let last = g.last_hand().expect("a scored hand");
    assert_eq!(last.moon_taker, Some(2), "moon_taker names the sun's taker");
    assert_eq!(last.moon_choice, Some(MoonChoice::SubtractFromTaker));
    // Under add-to-others: −10 for seat 2 and 52 for each other seat.
    let mut g = dealt(omnibus_alternative("add-to-others"), 3, &SUN_DEAL);
    play_sun_hand(&mut g);
    assert_eq!(g.hand_scores(), [vec![52, 52, -10, 52]]);
    // Under taker-choice the taker chooses in phase moon (SCORE-3), the sun's bonus applying.
    let mut g = dealt(omnibus_alternative("taker-choice"), 3, &SUN_DEAL);
    play_sun_hand(&mut g);
    assert_eq!(g.phase(), Phase::Moon);
    assert_eq!(g.moon_taker(), Some(2));
    g.choose_moon(MoonChoice::SubtractFromTaker, None)
        .expect("the taker chooses");
    assert_eq!(g.hand_scores(), [vec![0, 0, -62, 0]]);
}

#[test]
fn score_5_no_sun_in_a_count_down_hand() {
    // MATCH-6: the count-down hand scores the points as captured, taken off the totals.
    let rules = modified("omnibus-4", |o| {
        o.insert(
            "sun".into(),
            json!({"scoring": "add-to-others", "bonus": 52}),
        );
        o.insert("count_down".into(), json!(true));
    });
    let mut g = Game::new(rules, None, 3, Some(vec![100, 50, 50, 50])).expect("a game");
    g.deal(Some(SUN_DEAL.iter().map(|h| cards(h)).collect()))
        .expect("a deal");
    play_sun_hand(&mut g);
    // Seat 2 captured 13 + 13 − 10 (the JD) = 16: 50 − 16 = 34.
    assert_eq!(g.hand_scores(), [vec![0, 0, -16, 0]]);
    assert_eq!(g.last_hand().expect("a hand").moon_taker, None);
}

#[test]
fn score_6_a_slam_needs_every_scoring_card() {
    // `omnibus-slam`: hearts 1, QS 13, TD −10, moon subtract-from-taker 16, needs
    // every-scoring-card.
    let slam = modified("omnibus-4", |o| {
        o["card_points"]
            .as_object_mut()
            .expect("an object")
            .remove("JD");
        o["card_points"]["TD"] = json!(-10);
        o.insert(
            "moon".into(),
            json!({"scoring": "subtract-from-taker", "bonus": 16, "needs": "every-scoring-card"}),
        );
    });
    let point_cards = modified("omnibus-4", |o| {
        o["card_points"]
            .as_object_mut()
            .expect("an object")
            .remove("JD");
        o["card_points"]["TD"] = json!(-10);
        o.insert(
            "moon".into(),
            json!({"scoring": "subtract-from-taker", "bonus": 16}),
        );
    });
    let hearts = set("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH").0;
    let (qs, td, two_c) = (card("QS").bit(), card("TD").bit(), card("2C").bit());
    let score = |rules: &Ruleset, captures: [u64; 4]| {
        let scoring = Scoring::new(rules);
        let races = (0..4).fold(Races::START, |r, s| scoring.capture(r, s, captures[s]));
        let mut points: Vec<i32> = captures.iter().map(|&c| scoring.points_of(c)).collect();
        if let Some(shot) = scoring.shot(races, false) {
            let how = shot.how(None).expect("subtract-from-taker");
            scoring.score_shot(&mut points, shot, how);
        }
        points
    };
    // Seat 0 captures the 13 hearts, QS and TD: its points are 16, its score −10 − 16 = −26.
    let all = [hearts | qs | td, two_c, 0, 0];
    assert_eq!(score(&slam, all), [-26, 0, 0, 0]);
    // Had seat 1 captured TD, seat 0 would score 26 and seat 1 −10 …
    let split = [hearts | qs, td | two_c, 0, 0];
    assert_eq!(score(&slam, split), [26, -10, 0, 0]);
    // … and under point-cards seat 0 would shoot the moon: 26 − 26 − 16 = −16.
    assert_eq!(score(&point_cards, split), [-16, -10, 0, 0]);
    // The canonical object writes needs only where it is every-scoring-card (RS-24).
    assert_eq!(
        slam.to_value()["moon"]["needs"],
        json!("every-scoring-card")
    );
    assert_eq!(point_cards.to_value()["moon"].get("needs"), None);
}

fn count_down(end: &str) -> Ruleset {
    modified("hartenjagen-count-down", |o| {
        o.insert("count_down_end".into(), json!(end));
    })
}

#[test]
fn match_8_a_count_down_total_stops_bounces_or_passes_zero() {
    // MATCH-8's examples, as (total, points, stop-at-zero, exact-zero, below-zero).
    let examples = [
        (5, 3, 2, 2, 2),
        (5, 5, 0, 0, 0),
        (5, 8, 0, 3, -3),
        (-4, 6, -4, -4, -10),
        (5, -10, 15, 15, 15),
    ];
    let ends = [
        count_down("stop-at-zero"),
        count_down("exact-zero"),
        count_down("below-zero"),
    ];
    assert_eq!(ends[1].count_down_end(), CountDownEnd::ExactZero);
    for (total, points, stop, exact, below) in examples {
        for (rules, after) in ends.iter().zip([stop, exact, below]) {
            let change = Scoring::new(rules).count_down_score(total, points);
            assert_eq!(
                total + change,
                after,
                "{total} − {points} under {:?}",
                rules.count_down_end()
            );
        }
    }
    // The hartenjagen-count-down example: totals 10, 3, 20, 30 and points 5, 8, 0, 2.
    let (totals, points) = ([10, 3, 20, 30], [5, 8, 0, 2]);
    for (rules, after, over) in [
        (&ends[0], [5, 0, 20, 28], true),
        (&ends[1], [5, 5, 20, 28], false),
        (&ends[2], [5, -5, 20, 28], true),
    ] {
        let scoring = Scoring::new(rules);
        let new: Vec<i64> = (0..4)
            .map(|s| totals[s] + scoring.count_down_score(totals[s], points[s]))
            .collect();
        assert_eq!(new, after);
        let next = scoring.after_hand(&new, true, 7);
        assert_eq!((next.over, next.count_down), (over, true));
    }
}

#[test]
fn match_8_a_game_counts_down_past_zero() {
    // A whole count-down hand of hartenjagen-count-down with below-zero, from totals of 60 and
    // 1: seat 1's total goes below zero by what it takes, and the match is over.
    let mut g = Game::new(
        count_down("below-zero"),
        Some(9),
        0,
        Some(vec![60, 1, 60, 60]),
    )
    .expect("a game");
    assert!(g.count_down());
    while g.phase() != Phase::Over && g.hands_scored() == 0 {
        finish_hand_lowest(&mut g);
    }
    let row = &g.hand_scores()[0];
    let points = g.last_hand().expect("a hand").points;
    for (score, &p) in row.iter().zip(&points.0) {
        assert_eq!(*score, -i64::from(p), "below-zero takes the points off");
    }
    assert_eq!(g.phase(), Phase::Over);
}

fn black_maria_deals(target: serde_json::Value) -> Ruleset {
    modified("black-maria", |o| {
        o.insert("target".into(), target);
        o.insert("deals".into(), json!(6));
    })
}

#[test]
fn match_9_the_match_ends_after_hand_deals_minus_1() {
    let rules = black_maria_deals(json!(null));
    let scoring = Scoring::new(&rules);
    // After hand 5 the match is over whatever the totals, say 140, 131, 158.
    assert!(scoring.after_hand(&[140, 131, 158], false, 5).over);
    assert!(!scoring.after_hand(&[140, 131, 158], false, 4).over);
    // With target 100 instead, the first hand after which a total is 100 or more ends it.
    let hundred = black_maria_deals(json!(100));
    assert!(
        Scoring::new(&hundred)
            .after_hand(&[140, 10, 20], false, 2)
            .over
    );
    assert!(
        !Scoring::new(&hundred)
            .after_hand(&[99, 10, 20], false, 2)
            .over
    );
    // A game started at hand number 4 plays hands 4 and 5; one started at 9 plays hand 9 alone.
    for (start, hands) in [(0, 6), (4, 2), (9, 1)] {
        let mut g = Game::new(rules.clone(), Some(3), start, None).expect("a game");
        while g.phase() != Phase::Over {
            finish_hand_lowest(&mut g);
        }
        assert_eq!(g.hands_scored(), hands, "from hand {start}");
        let low = *g.scores().iter().min().expect("seats");
        let winners: Vec<usize> = (0..3).filter(|&s| g.scores()[s] == low).collect();
        assert_eq!(g.winners(), winners, "MATCH-3");
    }
    // The canonical object keeps the null target and writes deals (RS-26).
    assert_eq!(rules.to_value()["target"], json!(null));
    assert_eq!(rules.to_value()["deals"], json!(6));
    assert_eq!(rules.target(), None);
}

#[test]
fn rs_13_items_8_to_11_name_their_field() {
    let refused = |f: &dyn Fn(&mut serde_json::Map<String, serde_json::Value>), field: &str| {
        let mut v = rules("hearts-4").to_value();
        f(v.as_object_mut().expect("an object"));
        let e = Ruleset::from_value(&v).expect_err("invalid");
        assert_eq!(e.code, ErrorCode::InvalidRuleset);
        assert!(
            e.message.contains(&format!("'{field}'")),
            "{field}: {}",
            e.message
        );
    };
    // Item 8: count_down_end only with count_down true, whatever its value.
    refused(
        &|o| {
            o.insert("count_down_end".into(), json!("stop-at-zero"));
        },
        "count_down_end",
    );
    refused(
        &|o| {
            o.insert("count_down".into(), json!(true));
            o.insert("count_down_end".into(), json!("zero"));
        },
        "count_down_end",
    );
    // Item 9: a null target needs deals.
    refused(
        &|o| {
            o.insert("target".into(), json!(null));
        },
        "target",
    );
    // Item 10: the count-down needs a target.
    refused(
        &|o| {
            o.insert("target".into(), json!(null));
            o.insert("deals".into(), json!(3));
            o.insert("count_down".into(), json!(true));
        },
        "count_down",
    );
    // Item 11: deals from 1.
    refused(
        &|o| {
            o.insert("deals".into(), json!(0));
        },
        "deals",
    );
    // RS-19: moon.needs and count_down_end take no null; sun and deals take it as absence.
    refused(
        &|o| {
            o["moon"]["needs"] = json!(null);
        },
        "moon.needs",
    );
    refused(
        &|o| {
            o.insert(
                "sun".into(),
                json!({"scoring": "add-to-others", "bonus": 0}),
            );
        },
        "sun.bonus",
    );
    let mut v = rules("hearts-4").to_value();
    v["sun"] = json!(null);
    v["deals"] = json!(null);
    assert_eq!(
        Ruleset::from_value(&v).expect("valid"),
        rules("hearts-4"),
        "null is absence"
    );
}
