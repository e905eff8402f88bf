//! Runs the language-neutral conformance suite (`conformance/README.md`) against the core:
//! every file under `conformance/cases`, `generated`, `seeding`, `bench` and `perft`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use reversis_core::{
    deal_from_seed, dump_record, encode_observation, load_record, preset, seed_draws, Card,
    ErrorCode, Game, PerftUnit, RecordFormat, Ruleset, ENCODING_LENGTH,
};
use serde_json::{json, Value};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}

fn ruleset_ref(v: &Value) -> Result<Arc<Ruleset>, String> {
    match v {
        Value::String(name) => preset(name).map_err(|e| e.code.as_str().to_string()),
        other => Ruleset::from_value(other)
            .map(Arc::new)
            .map_err(|e| e.code.as_str().to_string()),
    }
}

fn view(g: &Game) -> Value {
    let n = g.ruleset().players();
    let tricks = g.tricks_json();
    let last = tricks
        .as_array()
        .and_then(|t| t.last().cloned())
        .unwrap_or(Value::Null);
    json!({
        "phase": g.phase().as_str(),
        "hand_number": g.hand_number(),
        "dealer": g.dealer(),
        "pass_direction": g.pass_direction().map(|d| d.as_str()),
        "to_move": g.to_move(),
        "moon_taker": g.moon_taker(),
        "awaiting_pass": g.awaiting_pass(),
        "legal": g.legal_plays().to_strings(),
        "hands": (0..n).map(|s| g.hand(s).unwrap().to_strings()).collect::<Vec<_>>(),
        "trick": g.trick_json(),
        "tricks": tricks,
        "last_trick": last,
        "hearts_broken": g.hearts_broken(),
        "count_down": g.count_down(),
        "points": g.points(),
        "scores": g.scores(),
        "hand_scores": g.hand_scores(),
        "winners": g.winners(),
        "to_act": g.to_act(),
        "legal_actions": g.legal_actions(None).unwrap(),
        "selected": (0..n)
            .map(|s| g.selected(s).unwrap().iter().map(|c| c.to_string()).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        "events": g.events_json(),
        "last_hand": g.last_hand_json(),
    })
}

fn check_expect(actual: &Value, expect: &Value) -> Result<(), String> {
    let exp = expect.as_object().ok_or("expect is not an object")?;
    for (k, want) in exp {
        let got = actual.get(k).ok_or_else(|| format!("no key {k}"))?;
        if got != want {
            return Err(format!("{k}: expected {want}, got {got}"));
        }
    }
    Ok(())
}

// Checks the outcome of a step that must be accepted, or rejected with `error` leaving the
// state as it was.
fn check_result(
    g: &Game,
    res: Result<(), reversis_core::Error>,
    step: &Value,
    before: &Value,
    what: &str,
) -> Result<(), String> {
    match (step.get("error").and_then(Value::as_str), res) {
        (None, Ok(())) => Ok(()),
        (None, Err(e)) => Err(format!("{what} rejected: {} ({})", e.code, e.message)),
        (Some(code), Ok(())) => Err(format!("{what} accepted, wanted {code}")),
        (Some(code), Err(e)) if e.code.as_str() != code => Err(format!(
            "{what}: wanted {code}, got {} ({})",
            e.code, e.message
        )),
        (Some(_), Err(_)) if g.state_json() != *before => {
            Err("a rejected step changed the state".into())
        }
        (Some(_), Err(_)) => Ok(()),
    }
}

fn run_steps(g: &mut Game, steps: &Value) -> Result<(), String> {
    let mut saved: HashMap<usize, Value> = HashMap::new();
    for (i, step) in steps.as_array().ok_or("steps")?.iter().enumerate() {
        let fail = |m: String| format!("step {i}: {m}");
        if let Some(a) = step.get("action") {
            let before = step.get("error").map(|_| g.state_json());
            let res = g.apply_value(a);
            match (step.get("error").and_then(Value::as_str), res) {
                (None, Ok(())) => {}
                (None, Err(e)) => return Err(fail(format!("{a} rejected: {}", e.message))),
                (Some(code), Ok(())) => return Err(fail(format!("{a} accepted, wanted {code}"))),
                (Some(code), Err(e)) => {
                    if e.code.as_str() != code {
                        return Err(fail(format!(
                            "{a}: wanted {code}, got {} ({})",
                            e.code, e.message
                        )));
                    }
                    if Some(g.state_json()) != before {
                        return Err(fail("a rejected action changed the state".into()));
                    }
                }
            }
        } else if let Some(id) = step.get("action_id") {
            let before = g.state_json();
            let seat = match step.get("seat") {
                None => None,
                Some(s) => Some(s.as_u64().ok_or("seat")? as usize),
            };
            let res = match id.as_u64().and_then(|i| u16::try_from(i).ok()) {
                Some(i) => g.apply_action(i, seat),
                None => Err(reversis_core::Error::new(
                    reversis_core::ErrorCode::InvalidAction,
                    "not an id",
                )),
            };
            check_result(g, res, step, &before, &format!("action id {id}")).map_err(fail)?;
        } else if step.get("undo").is_some() {
            let before = g.state_json();
            let res = g.undo();
            check_result(g, res, step, &before, "undo").map_err(fail)?;
        } else if let Some(s) = step.get("observe_tensor") {
            check_tensor(g, s, step).map_err(fail)?;
        } else if let (Some(s), Some(code)) = (step.get("observe"), step.get("error")) {
            // A seat that is not a seat of the table (negative, or past the last) is rejected.
            let res = match s.as_u64().and_then(|x| usize::try_from(x).ok()) {
                Some(seat) => g.observation(seat).map(|_| ()),
                None => Err(reversis_core::Error::new(
                    reversis_core::ErrorCode::InvalidAction,
                    "not a seat",
                )),
            };
            match res {
                Err(e) if *code == e.code.as_str() => {}
                other => {
                    return Err(fail(format!(
                        "observation of {s}: wanted {code}, got {other:?}"
                    )))
                }
            }
        } else if let Some(s) = step.get("observe") {
            let seat = s.as_u64().ok_or("observe")? as usize;
            let o = g.observation(seat).map_err(|e| fail(e.message))?;
            if let Some(exp) = step.get("expect") {
                check_expect(&o, exp).map_err(fail)?;
            }
            if let Some(n) = step.get("same_as") {
                let n = n.as_u64().ok_or("same_as")? as usize;
                let earlier = saved.get(&n).ok_or_else(|| fail(format!("no step {n}")))?;
                if *earlier != o {
                    return Err(fail(format!("observation differs from step {n}")));
                }
            }
            saved.insert(i, o);
        } else if let Some(exp) = step.get("expect") {
            check_expect(&view(g), exp).map_err(fail)?;
        } else if step.get("record").is_some() {
            let r = g.to_record();
            let h = Game::from_record(&r).map_err(|e| fail(e.message))?;
            if view(&h) != view(g) || h != *g {
                return Err(fail("the replayed game differs".into()));
            }
            for f in [RecordFormat::Json, RecordFormat::MsgPack] {
                let b = dump_record(&r, f).map_err(|e| fail(e.message))?;
                if load_record(&b).map_err(|e| fail(e.message))? != r {
                    return Err(fail(format!("{f:?} round trip differs")));
                }
            }
        } else {
            return Err(fail(format!("unknown step {step}")));
        }
    }
    Ok(())
}

// DRV-7: the seat's OBS-3 row holds the step's `nonzero` entries and 0 everywhere else, or
// asking for it fails with the step's `error`.
fn check_tensor(g: &Game, s: &Value, step: &Value) -> Result<(), String> {
    let mut row = vec![0; ENCODING_LENGTH];
    let res = match s.as_u64().and_then(|x| usize::try_from(x).ok()) {
        Some(seat) => encode_observation(g, seat, &mut row),
        None => Err(reversis_core::Error::new(
            reversis_core::ErrorCode::InvalidAction,
            "not a seat",
        )),
    };
    if let Some(code) = step.get("error") {
        return match res {
            Err(e) if *code == e.code.as_str() => Ok(()),
            other => Err(format!("tensor of {s}: wanted {code}, got {other:?}")),
        };
    }
    res.map_err(|e| e.message)?;
    let mut expected = vec![0; ENCODING_LENGTH];
    for (index, value) in step["nonzero"].as_object().ok_or("nonzero")? {
        let index: usize = index.parse().map_err(|_| format!("index {index}"))?;
        expected[index] =
            i32::try_from(value.as_i64().ok_or("value")?).map_err(|e| e.to_string())?;
    }
    let wrong: Vec<String> = (0..ENCODING_LENGTH)
        .filter(|&i| row[i] != expected[i])
        .map(|i| format!("[{i}] expected {}, got {}", expected[i], row[i]))
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("tensor of seat {s}: {}", wrong.join("; ")))
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn run_case(case: &Value) -> Result<(), String> {
    match case["kind"].as_str().unwrap_or("") {
        "card" => {
            let got = match case["text"].as_str() {
                Some(t) => Card::parse(t).map(|c| c.to_string()),
                None => Card::parse("\u{0}").map(|c| c.to_string()),
            };
            match (case.get("card"), got) {
                (Some(w), Ok(c)) if w == &json!(c) => Ok(()),
                (None, Err(e)) if case["error"] == e.code.as_str() => Ok(()),
                (_, r) => Err(format!("got {r:?}")),
            }
        }
        "ruleset" => match (
            // A string names a preset (driver.md `ruleset`: "a ruleset object or a preset name").
            match case["ruleset"].as_str() {
                Some(name) => reversis_core::preset(name).map(|r| (*r).clone()),
                None => Ruleset::from_value(&case["ruleset"]),
            },
            case.get("error"),
        ) {
            (Ok(r), None) => {
                if let Some(h) = case.get("hand_size") {
                    if *h != json!(r.hand_size()) {
                        return Err(format!("hand_size {}", r.hand_size()));
                    }
                }
                if let Some(d) = case.get("deck") {
                    if strings(d) != r.deck_cards().to_strings() {
                        return Err("deck differs".into());
                    }
                }
                if let Some(p) = case.get("point_cards") {
                    if strings(p) != r.point_cards().to_strings() {
                        return Err("point_cards differ".into());
                    }
                }
                if let Some(c) = case.get("canonical") {
                    // RS-16: compared as JSON values (serde_json's maps ignore key order).
                    if *c != r.to_value() {
                        return Err(format!("canonical object differs: {}", r.to_value()));
                    }
                }
                Ok(())
            }
            (Err(e), Some(code)) if code == e.code.as_str() => Ok(()),
            (Ok(_), Some(code)) => Err(format!("accepted, wanted {code}")),
            (Err(e), _) => Err(format!("{}: {}", e.code, e.message)),
        },
        "seed" => {
            let seed = case["seed"].as_u64().ok_or("seed")?;
            if let Some(d) = case.get("draws") {
                let want = strings(d);
                let got: Vec<String> = seed_draws(seed, want.len())
                    .iter()
                    .map(|x| format!("0x{x:016X}"))
                    .collect();
                return if got == want {
                    Ok(())
                } else {
                    Err(format!("draws {got:?}"))
                };
            }
            let r = ruleset_ref(&case["ruleset"])?;
            let deals = case["deals"].as_array().ok_or("deals")?;
            let hn = case.get("hand_number").and_then(Value::as_u64).unwrap_or(0);
            let got = deal_from_seed(&r, seed, deals.len(), hn);
            for (d, want) in got.iter().zip(deals) {
                let d: Vec<Vec<String>> = d.iter().map(|h| h.to_strings()).collect();
                if json!(d) != *want {
                    return Err(format!("deal differs: {}", json!(d)));
                }
            }
            Ok(())
        }
        "game" => {
            let r = ruleset_ref(&case["ruleset"])?;
            let start = case.get("start").cloned().unwrap_or(json!({}));
            let seed = start.get("seed").and_then(Value::as_u64);
            let hn = start
                .get("hand_number")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let scores = start.get("scores").and_then(Value::as_array).map(|a| {
                a.iter()
                    .map(|x| x.as_i64().unwrap_or(0))
                    .collect::<Vec<i64>>()
            });
            let mut g = Game::new(r, seed, hn, scores).map_err(|e| e.message)?;
            run_steps(&mut g, &case["steps"])
        }
        "perft" => {
            let r = ruleset_ref(&case["ruleset"])?;
            let start = case.get("start").cloned().unwrap_or(json!({}));
            let seed = start.get("seed").and_then(Value::as_u64);
            let hn = start
                .get("hand_number")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let mut g = Game::new(r, seed, hn, None).map_err(|e| e.message)?;
            if let Some(steps) = case.get("steps") {
                run_steps(&mut g, steps)?;
            }
            // A depth that is no u64 (a negative one) is the bindings' invalid-setup (PERFT-5).
            let counted =
                PerftUnit::from_name(case["unit"].as_str().unwrap_or("")).and_then(|unit| {
                    let depth = case["depth"].as_u64().ok_or_else(|| {
                        reversis_core::Error::new(ErrorCode::InvalidSetup, "not a depth")
                    })?;
                    Ok((g.perft(depth, unit)?, g.divide(depth.max(1), unit)?))
                });
            match (counted, case.get("error")) {
                (Ok((count, divide)), None) => {
                    let divide: serde_json::Map<String, Value> =
                        divide.into_iter().map(|(k, n)| (k, json!(n))).collect();
                    if json!(count) != case["count"]
                        || Value::Object(divide.clone()) != case["divide"]
                    {
                        return Err(format!("count {count}, divide {}", Value::Object(divide)));
                    }
                    Ok(())
                }
                (Err(e), Some(code)) if code == e.code.as_str() => Ok(()),
                (Ok(_), Some(code)) => Err(format!("counted, wanted {code}")),
                (Err(e), _) => Err(format!("{}: {}", e.code, e.message)),
            }
        }
        "record" => match (Game::from_record(&case["record"]), case.get("error")) {
            (Ok(mut g), None) => run_steps(&mut g, &case["steps"]),
            (Err(e), Some(code)) if code == e.code.as_str() => Ok(()),
            (Ok(_), Some(code)) => Err(format!("accepted, wanted {code}")),
            (Err(e), _) => Err(format!("{}: {}", e.code, e.message)),
        },
        "record-bytes" => {
            let data = base64_decode(case["data"].as_str().ok_or("data")?).ok_or("base64")?;
            match (
                load_record(&data).and_then(|r| Game::from_record(&r)),
                case.get("error"),
            ) {
                (Ok(mut g), None) => {
                    run_steps(&mut g, &case["steps"])?;
                    for f in case
                        .get("encode")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        let f =
                            RecordFormat::from_name(f.as_str().unwrap_or("")).ok_or("format")?;
                        let bytes = dump_record(&g.to_record(), f).map_err(|e| e.message)?;
                        if (bytes.first() == Some(&b'{')) != (f == RecordFormat::Json) {
                            return Err(format!("{f:?} encoding starts with the wrong byte"));
                        }
                        let back = load_record(&bytes).map_err(|e| e.message)?;
                        if back != g.to_record()
                            || Game::from_record(&back).map_err(|e| e.message)? != g
                        {
                            return Err(format!("{f:?} encoding does not round-trip"));
                        }
                    }
                    Ok(())
                }
                (Err(e), Some(code)) if code == e.code.as_str() => Ok(()),
                (Ok(_), Some(code)) => Err(format!("accepted, wanted {code}")),
                (Err(e), _) => Err(format!("{}: {}", e.code, e.message)),
            }
        }
        k => Err(format!("unknown kind {k}")),
    }
}

/// RFC 4648 §4 base64 with padding, as the `record-bytes` cases carry their data.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&b| b == b'=').count();
        let mut n = 0u32;
        for &b in &chunk[..4 - pad] {
            n = (n << 6) | ALPHABET.iter().position(|&a| a == b)? as u32;
        }
        n <<= 6 * pad as u32;
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&three[..3 - pad]);
    }
    Some(out)
}

#[test]
fn conformance_suite() {
    let root = suite_dir();
    if !root.is_dir() {
        eprintln!("no conformance suite at {}; skipped", root.display());
        return;
    }
    let mut files = Vec::new();
    for sub in ["cases", "generated", "seeding", "bench", "perft"] {
        if let Ok(rd) = std::fs::read_dir(root.join(sub)) {
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "json") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let doc: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: not json: {e}", f.display()));
                continue;
            }
        };
        for (i, case) in doc["cases"].as_array().into_iter().flatten().enumerate() {
            count += 1;
            if let Err(m) = run_case(case) {
                failures.push(format!(
                    "{} ({} #{i}) {}: {m}",
                    case["id"].as_str().unwrap_or("(no id)"),
                    f.file_name().unwrap().to_string_lossy(),
                    case["description"]
                ));
            }
        }
    }
    eprintln!("{count} conformance cases in {} files", files.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
