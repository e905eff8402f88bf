//! The compatibility fixtures of `conformance/compat/` (spec `README.md` §Version, RS-18, RS-19,
//! REC-5): the presets and records that each release wrote (1.0.0, 1.1.0, 1.2.0) still load, and the
//! records replay to their recorded scores.

use std::fs;
use std::path::{Path, PathBuf};

use reversis_core::{
    deal_from_seed, load_record, preset, preset_names, Game, Ruleset, SPEC_VERSION,
};
use serde_json::{json, Value};

/// Each release folder of `conformance/compat/` and the number of presets that release had.
const RELEASES: [(&str, usize); 5] = [
    ("1.0.0", 8),
    ("1.1.0", 11),
    ("1.2.0", 14),
    ("1.3.0", 14),
    ("1.4.0", 20),
];

fn compat_dir(release: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/compat")
        .join(release)
}

fn json_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_stem().unwrap().to_str().unwrap().to_string(), p))
        .collect();
    out.sort();
    out
}

/// The ruleset object without its informative fields (RS-2).
fn rules_only(mut v: Value) -> Value {
    let o = v.as_object_mut().expect("a ruleset is an object");
    o.remove("title");
    o.remove("sources");
    v
}

#[test]
fn the_crate_implements_the_version_the_spec_states() {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/README.md"))
            .unwrap();
    assert!(
        readme.contains(&format!(
            "This is version **{SPEC_VERSION}** of the specification."
        )),
        "spec/README.md does not state version {SPEC_VERSION}"
    );
}

#[test]
fn every_release_folder_is_checked() {
    let compat = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/compat");
    let mut folders: Vec<String> = fs::read_dir(&compat)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    folders.sort();
    let pinned: Vec<&str> = RELEASES.iter().map(|(r, _)| *r).collect();
    assert_eq!(folders, pinned);
    // A patch (1.0.1, 1.2.1) changes no preset and no record, so it writes no folder of its own:
    // the current minor release's folder is the one that must be there.
    let minor = SPEC_VERSION.rsplit_once('.').unwrap().0;
    assert!(pinned.contains(&format!("{minor}.0").as_str()));
}

#[test]
fn frozen_presets_load_and_keep_their_rules() {
    for (release, count) in RELEASES {
        frozen_presets_of(release, count);
    }
}

fn frozen_presets_of(release: &str, count: usize) {
    let frozen = json_files(&compat_dir(release).join("rulesets"));
    assert_eq!(frozen.len(), count, "{release}");
    let names = preset_names();
    for (name, path) in &frozen {
        let text = fs::read_to_string(path).unwrap();
        let r = Ruleset::from_json_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.name(), name);
        // A preset, once released, keeps its rules for the whole major version.
        assert!(
            names.contains(&name.as_str()),
            "{name} is no longer a preset"
        );
        assert_eq!(
            rules_only(r.to_value()),
            rules_only(preset(name).unwrap().to_value()),
            "{name}"
        );
        // RS-17: stating the version it was written for changes nothing.
        let mut v: Value = serde_json::from_str(&text).unwrap();
        v["spec_version"] = json!(release);
        assert_eq!(Ruleset::from_value(&v).unwrap(), r, "{name}");
    }
}

#[test]
fn frozen_records_replay_to_their_recorded_scores() {
    for (release, _) in RELEASES {
        frozen_records_of(release);
    }
}

fn frozen_records_of(release: &str) {
    let dir = compat_dir(release);
    let expected: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let expected = expected["records"].as_object().unwrap();
    let records = json_files(&dir.join("records"));
    assert_eq!(
        records.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        expected.keys().map(String::as_str).collect::<Vec<_>>()
    );
    for (name, path) in &records {
        let want = &expected[name];
        let from_json =
            load_record(&fs::read(path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let from_msgpack = load_record(&fs::read(path.with_extension("msgpack")).unwrap())
            .unwrap_or_else(|e| panic!("{name}.msgpack: {e}"));
        assert_eq!(from_json, from_msgpack, "{name}");
        assert_eq!(
            from_json["actions"].as_array().unwrap().len() as u64,
            want["actions"].as_u64().unwrap()
        );

        let g = Game::from_record(&from_json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(g.phase().as_str(), want["phase"], "{name}");
        assert_eq!(json!(g.hand_number()), want["hand_number"], "{name}");
        assert_eq!(json!(g.scores()), want["scores"], "{name}");
        assert_eq!(json!(g.hand_scores()), want["hand_scores"], "{name}");
        assert_eq!(
            g.hand_scores().len() as u64,
            want["hands"].as_u64().unwrap()
        );
        assert_eq!(json!(g.winners()), want["winners"], "{name}");

        // The deals are the seeded deal of SEED-5, which stays the same for the major version.
        let deals: Vec<&Value> = from_json["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["type"] == "deal")
            .map(|a| &a["hands"])
            .collect();
        let seed = want["deal_seed"].as_u64().unwrap();
        let dealt = deal_from_seed(g.ruleset(), seed, deals.len(), 0);
        for (i, (d, recorded)) in dealt.iter().zip(&deals).enumerate() {
            let d: Vec<Vec<String>> = d.iter().map(|h| h.to_strings()).collect();
            assert_eq!(json!(d), **recorded, "{name}: deal {i}");
        }

        // REC-5: a record that states the version it was written for replays the same.
        let mut stated = from_json.clone();
        stated["spec_version"] = json!(release);
        assert_eq!(Game::from_record(&stated).unwrap(), g, "{name}");
        stated["spec_version"] = json!("2.0.0");
        assert!(Game::from_record(&stated).is_err(), "{name}");
    }
}
