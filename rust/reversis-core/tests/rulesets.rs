//! RS-1 … RS-15 and the presets.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{
    preset, preset_names, ErrorCode, HeartsBreaking, MoonScoring, Ruleset, RULESET_FIELDS,
    RULESET_OPTIONAL_FIELDS,
};
use serde_json::{json, Value};

#[test]
fn presets_are_the_files_of_spec_rulesets_sorted() {
    // ruleset.md §Presets: one preset per file spec/rulesets/<name>.json, found by its name.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/rulesets");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_string())
        .collect();
    files.sort();
    assert_eq!(preset_names(), files);
    assert!(preset_names().windows(2).all(|w| w[0] < w[1]));
    for n in preset_names() {
        assert_eq!(preset(n).unwrap().name(), n);
    }
}

#[test]
fn unknown_preset() {
    let e = preset("hearts-8").unwrap_err();
    assert_eq!(e.code, ErrorCode::UnknownPreset);
}

#[test]
fn rs_12_deck_and_hand_sizes() {
    // 002 §Configuração: 4 players 13 each; 3 players without 2D 17 each; 5 players without
    // 2D 2C 10 each; 6 players without 2D 3D 3C 4C 8 each; 7 without 2D 3D 3C 7 each.
    // 000 §02: Hartenjagen 32 cards (7–A), 8 each.
    for (name, deck, hand) in [
        ("hearts-4", 52, 13),
        ("hearts-3", 51, 17),
        ("hearts-5", 50, 10),
        ("hearts-6", 48, 8),
        ("hearts-7", 49, 7),
        ("hartenjagen", 32, 8),
        ("hearts-computer", 52, 13),
        ("omnibus-4", 52, 13),
    ] {
        let r = preset(name).unwrap();
        assert_eq!(r.deck().len(), deck, "{name}");
        assert_eq!(r.hand_size(), hand, "{name}");
    }
    assert!(!preset("hearts-3").unwrap().deck().contains(card("2D")));
    assert!(!preset("hearts-5").unwrap().deck().contains(card("2C")));
    assert!(!preset("hartenjagen").unwrap().deck().contains(card("6H")));
    assert!(preset("hartenjagen").unwrap().deck().contains(card("7H")));
}

#[test]
fn rs_6_opening_cards_follow_d_1() {
    // D-1: the lowest club in play.
    for (name, open) in [
        ("hearts-4", "2C"),
        ("hearts-3", "2C"),
        ("hearts-5", "3C"),
        ("hearts-6", "2C"),
        ("hearts-7", "2C"),
        ("hartenjagen", "7C"),
    ] {
        assert_eq!(
            preset(name).unwrap().opening_card().unwrap().to_string(),
            open
        );
    }
}

#[test]
fn rs_9_point_cards_and_values() {
    let h = preset("hearts-4").unwrap();
    assert_eq!(h.points_of(card("QS")), 13); // 002 §Pontuação
    assert_eq!(h.points_of(card("7H")), 1);
    assert_eq!(h.points_of(card("AS")), 0);
    assert_eq!(h.point_cards().len(), 14);
    assert_eq!(h.positive_total(), 26);
    let hj = preset("hartenjagen").unwrap();
    assert_eq!(hj.points_of(card("QS")), 5); // 000 §04
    assert_eq!(hj.points_of(card("JC")), 2);
    assert_eq!(hj.positive_total(), 15); // 8 + 5 + 2
    let o = preset("omnibus-4").unwrap();
    assert_eq!(o.points_of(card("JD")), -10); // D-8
    assert!(!o.point_cards().contains(card("JD"))); // RS-14
    assert_eq!(o.point_cards().len(), 14);
}

#[test]
fn rs_8_breaking_and_moon_fields() {
    assert_eq!(
        preset("hearts-4").unwrap().hearts_breaking(),
        HeartsBreaking::HeartOrQs
    );
    assert_eq!(
        preset("hearts-computer").unwrap().hearts_breaking(),
        HeartsBreaking::Heart
    );
    assert_eq!(
        preset("hartenjagen").unwrap().hearts_breaking(),
        HeartsBreaking::None
    );
    assert_eq!(
        preset("hearts-4").unwrap().moon().unwrap().scoring,
        MoonScoring::TakerChoice
    );
    assert_eq!(preset("hartenjagen").unwrap().moon().unwrap().bonus, 15);
    assert_eq!(preset("hartenjagen").unwrap().target(), Some(50));
    assert!(preset("hartenjagen").unwrap().passing().is_none());
}

#[test]
fn presets_round_trip_to_their_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/rulesets");
    for n in preset_names() {
        let text = std::fs::read_to_string(format!("{dir}/{n}.json")).unwrap();
        let file: Value = serde_json::from_str(&text).unwrap();
        let r = preset(n).unwrap();
        assert_eq!(r.to_value(), file, "{n}");
        assert_eq!(Ruleset::from_value(&r.to_value()).unwrap(), *r);
        assert_eq!(Ruleset::from_json_str(&text).unwrap(), *r);
    }
}

#[test]
fn rs_9_accepts_card_4_forms_and_stores_them_canonically() {
    let r = modified("hearts-4", |o| {
        o["card_points"] = json!({"Q♠": 13, "10h": 1});
    });
    assert_eq!(r.points_of(card("QS")), 13);
    assert_eq!(r.points_of(card("TH")), 1);
    assert_eq!(r.to_value()["card_points"], json!({"QS": 13, "TH": 1}));
}

#[test]
fn title_and_sources_are_optional() {
    let mut v = preset("hearts-4").unwrap().to_value();
    v.as_object_mut().unwrap().remove("title");
    v.as_object_mut().unwrap().remove("sources");
    let r = Ruleset::from_value(&v).unwrap();
    assert_eq!(r.to_value(), v);
}

fn rejects(name: &str, field: &str, f: impl FnOnce(&mut serde_json::Map<String, Value>)) {
    let mut v = preset(name).unwrap().to_value();
    f(v.as_object_mut().unwrap());
    let e = Ruleset::from_value(&v).expect_err(field);
    assert_eq!(e.code, ErrorCode::InvalidRuleset, "{field}");
    assert!(
        e.message.contains(field),
        "message {:?} names {field}",
        e.message
    );
}

#[test]
fn rs_13_invalid_rulesets_name_the_field() {
    rejects("hearts-4", "target", |o| {
        o.remove("target");
    });
    rejects("hearts-4", "trumps", |o| {
        o.insert("trumps".into(), json!(null));
    });
    rejects("hearts-4", "players", |o| o["players"] = json!(8));
    rejects("hearts-4", "players", |o| o["players"] = json!(2));
    rejects("hearts-4", "players", |o| o["players"] = json!("4"));
    rejects("hearts-4", "players", |o| o["players"] = json!(4.0));
    rejects("hearts-4", "players", |o| o["players"] = json!(true));
    rejects("hearts-4", "name", |o| o["name"] = json!("Hearts 4"));
    rejects("hearts-4", "name", |o| o["name"] = json!(""));
    rejects("hearts-4", "title", |o| o["title"] = json!(4));
    rejects("hearts-4", "sources", |o| o["sources"] = json!("002"));
    rejects("hearts-4", "deck", |o| o["deck"] = json!(52));
    rejects("hearts-4", "deck.lowest_rank", |o| {
        o["deck"]["lowest_rank"] = json!("1")
    });
    rejects("hearts-4", "deck.lowest_rank", |o| {
        o["deck"]["lowest_rank"] = json!("10")
    });
    rejects("hearts-4", "deck.jokers", |o| {
        o["deck"]["jokers"] = json!(0)
    });
    // RS-13.1: valid cards, rank at least lowest_rank, no card twice.
    rejects("hearts-4", "deck.removed", |o| {
        o["deck"]["removed"] = json!(["2X"])
    });
    rejects("hearts-3", "deck.removed", |o| {
        o["deck"]["removed"] = json!(["2D", "2d", "3D", "4D"])
    });
    rejects("hartenjagen", "deck.removed", |o| {
        o["deck"]["removed"] = json!(["2C", "3C", "4C", "5C"])
    });
    rejects("hartenjagen", "opening_card", |o| {
        o["opening_card"] = json!("2C")
    });
    rejects("hartenjagen", "card_points", |o| {
        o["card_points"] = json!({"2H": 1})
    });
    // RS-13.2: 51 cards do not divide among 4 players.
    rejects("hearts-4", "deck", |o| o["deck"]["removed"] = json!(["2D"]));
    // RS-13.3: opening card and card_points in the deck.
    rejects("hearts-5", "opening_card", |o| {
        o["opening_card"] = json!("2C")
    });
    rejects("hearts-3", "card_points", |o| {
        o["card_points"] = json!({"2D": 1, "QS": 13})
    });
    rejects("hearts-4", "opening_card", |o| {
        o["opening_card"] = json!("XX")
    });
    // RS-13.4: pass size, across only with 4 players, not only hold.
    rejects("hearts-4", "passing.size", |o| {
        o["passing"]["size"] = json!(0)
    });
    rejects("hearts-6", "passing.size", |o| {
        o["passing"]["size"] = json!(9)
    });
    rejects("hearts-5", "passing.cycle", |o| {
        o["passing"]["cycle"] = json!(["left", "across"])
    });
    rejects("hearts-4", "passing.cycle", |o| {
        o["passing"]["cycle"] = json!(["hold", "hold"])
    });
    rejects("hearts-4", "passing.cycle", |o| {
        o["passing"]["cycle"] = json!([])
    });
    rejects("hearts-4", "passing.cycle", |o| {
        o["passing"]["cycle"] = json!(["up"])
    });
    rejects("hearts-4", "passing.extra", |o| {
        o["passing"]["extra"] = json!(1)
    });
    // RS-7, RS-8
    rejects("hearts-4", "first_trick_ban", |o| {
        o["first_trick_ban"] = json!(1)
    });
    rejects("hearts-4", "hearts_breaking", |o| {
        o["hearts_breaking"] = json!("heart-or-qs")
    });
    // RS-9: non-zero integers.
    rejects("hearts-4", "card_points", |o| {
        o["card_points"]["AS"] = json!(0)
    });
    rejects("hearts-4", "card_points", |o| {
        o["card_points"]["AS"] = json!(1.5)
    });
    rejects("hearts-4", "card_points", |o| o["card_points"] = json!([]));
    rejects("hearts-4", "card_points", |o| {
        o["card_points"]["Q♠"] = json!(13)
    });
    // RS-10, RS-13.5
    rejects("hearts-4", "moon.bonus", |o| o["moon"]["bonus"] = json!(0));
    rejects("hearts-4", "moon.scoring", |o| {
        o["moon"]["scoring"] = json!("both")
    });
    rejects("hearts-4", "moon", |o| {
        o["card_points"] = json!({"JD": -10})
    });
    // RS-11, RS-13.6
    rejects("hearts-4", "target", |o| o["target"] = json!(0));
    rejects("hearts-4", "target", |o| o["target"] = json!(-5));
}

#[test]
fn rs_13_non_objects_and_bad_json() {
    for text in ["[]", "4", "null", "{", ""] {
        let e = Ruleset::from_json_str(text).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRuleset, "{text}");
    }
}

#[test]
fn rs_13_boundaries_are_accepted() {
    // A moon-less table with only negative cards is valid (RS-13.5 needs a moon).
    let r = modified("hearts-4", |o| {
        o["card_points"] = json!({"JD": -10});
        o["moon"] = json!(null);
    });
    assert!(r.point_cards().is_empty());
    // Pass size equal to the hand size.
    let r = modified("hearts-6", |o| o["passing"]["size"] = json!(8));
    assert_eq!(r.passing().unwrap().size, 8);
    // A free lead (RS-6 null).
    let r = modified("hearts-4", |o| o["opening_card"] = json!(null));
    assert!(r.opening_card().is_none());
}

#[test]
fn rs_17_spec_version_is_checked_and_not_kept() {
    let r = preset("hartenjagen").unwrap();
    for version in ["1.0.0", "1.0.9", "1.12.0", "1.0.18446744073709551616"] {
        let mut v = r.to_value();
        v["spec_version"] = json!(version);
        let read = Ruleset::from_value(&v).unwrap_or_else(|e| panic!("{version}: {e}"));
        assert_eq!(read, *r, "{version}");
        assert!(read.to_value().get("spec_version").is_none());
    }
    for bad in [
        json!("2.0.0"),
        json!("0.9.0"),
        json!("10.0.0"),
        json!("1.0"),
        json!("1.0.0.0"),
        json!("01.0.0"),
        json!("1.00.0"),
        json!("1.0.0-rc1"),
        json!(" 1.0.0"),
        json!("1.0.x"),
        json!(""),
        json!(null),
        json!(1),
        json!(["1", "0", "0"]),
    ] {
        rejects("hartenjagen", "spec_version", |o| {
            o.insert("spec_version".into(), bad.clone());
        });
    }
}

#[test]
fn rs_18_another_major_version_is_refused_before_any_other_field() {
    let e = Ruleset::from_value(&json!({"spec_version": "2.0.0", "seats": 4})).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidRuleset);
    assert!(e.message.contains("spec_version") && e.message.contains("2.0.0"));
    assert!(e.message.contains("1.x"), "{}", e.message);
}

#[test]
fn rs_18_a_newer_minor_version_still_refuses_unknown_fields() {
    rejects("hearts-4", "jokers", |o| {
        o.insert("spec_version".into(), json!("1.4.0"));
        o.insert("jokers".into(), json!(false));
    });
    rejects("hearts-4", "moon.pit", |o| {
        o.insert("spec_version".into(), json!("1.4.0"));
        o["moon"]["pit"] = json!(true);
    });
}

#[test]
fn rs_19_optional_fields_take_their_defaults_and_core_fields_are_required() {
    let mut v = preset("hearts-4").unwrap().to_value();
    for k in ["title", "sources"] {
        v.as_object_mut().unwrap().remove(k);
    }
    let r = Ruleset::from_value(&v).unwrap();
    assert_eq!((r.title(), r.sources()), (None, None));
    // A null is a value, not an absent field.
    for k in ["title", "sources", "spec_version"] {
        rejects("hearts-4", k, |o| {
            o.insert(k.into(), json!(null));
        });
    }
    // Every core field is required, including those that may be null.
    for k in RULESET_FIELDS
        .into_iter()
        .filter(|k| !RULESET_OPTIONAL_FIELDS.contains(k))
    {
        rejects("hearts-4", k, |o| {
            o.remove(k);
        });
    }
    // A nested object read from an array, field by field, is still not an object.
    rejects("hearts-4", "deck", |o| o["deck"] = json!(["2", []]));
    rejects("hearts-4", "moon", |o| {
        o["moon"] = json!(["taker-choice", 26])
    });
}

#[test]
fn replace_takes_spec_version_like_any_field() {
    let r = preset("hearts-4").unwrap();
    let fields = json!({"spec_version": "1.2.0", "name": "hearts-4"});
    assert_eq!(r.replace(fields.as_object().unwrap()).unwrap(), *r);
    let fields = json!({"spec_version": "3.0.0"});
    assert_eq!(
        r.replace(fields.as_object().unwrap()).unwrap_err().code,
        ErrorCode::InvalidRuleset
    );
}

/// Every field of a simple kind of the table (`reversis_core::FIELDS`) is read, checked,
/// defaulted and written from its entry alone: a value of another type is `invalid-ruleset`
/// naming the field, each value of its kind reads back as itself, and an optional one left out
/// or at its default stays out of the canonical object and reads as its default.
#[test]
fn every_simple_field_of_the_table_is_read_checked_defaulted_and_written() {
    let mut checked = 0;
    for f in reversis_core::FIELDS.iter().filter(|f| f.is_simple()) {
        if matches!(f.name, "players" | "target") {
            continue; // read by their clauses (RS-3, RS-11), with the deck and the match
        }
        checked += 1;
        // On a preset where the field's values are valid (one may need another's, RS-13).
        let valid_on = |value: &Value| {
            preset_names().into_iter().find_map(|name| {
                let mut v = rules(name).to_value();
                v[f.name] = value.clone();
                Ruleset::from_value(&v).ok().map(|r| (v, r))
            })
        };
        for value in simple_values(f.kind) {
            let (mut v, r) = valid_on(&value)
                .unwrap_or_else(|| panic!("{} = {value} is valid on no preset", f.name));
            assert_eq!(r.field(f.name), Some(value.clone()), "{}", f.name);
            let written = r.to_value().get(f.name).cloned();
            if f.optional && value == f.default_value() {
                assert_eq!(written, None, "{} at its default is written", f.name);
            } else {
                assert_eq!(written, Some(value.clone()), "{}", f.name);
            }
            for wrong in [json!("x"), json!([1]), json!(1.5)] {
                if f.kind.read(&wrong).is_some() {
                    continue;
                }
                v[f.name] = wrong.clone();
                let e = Ruleset::from_value(&v).unwrap_err();
                assert_eq!(e.code, ErrorCode::InvalidRuleset, "{} = {wrong}", f.name);
                assert!(
                    e.message.contains(&format!("field '{}'", f.name)),
                    "{}",
                    e.message
                );
            }
            if f.optional {
                v.as_object_mut().unwrap().remove(f.name);
                if let Ok(r) = Ruleset::from_value(&v) {
                    assert_eq!(r.field(f.name), Some(f.default_value()), "{}", f.name);
                    assert_eq!(r.to_value().get(f.name), None, "{}", f.name);
                }
            }
        }
    }
    // first_trick_ban, hearts_breaking, count_down at least.
    assert!(checked >= 3, "{checked}");
}
