//! Arbitrary bytes as an encoded record (JSON or MessagePack): decoding and replay must either
//! succeed or fail with `invalid-record`, never panic; a record that loads re-encodes and
//! reloads to the same value, and a replayed game records itself back exactly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversis_core::{dump_record, load_record, ErrorCode, Game, RecordFormat};

fuzz_target!(|data: &[u8]| {
    let record = match load_record(data) {
        Ok(record) => record,
        Err(error) => {
            assert_eq!(error.code(), ErrorCode::InvalidRecord, "{error:?}");
            return;
        }
    };
    for format in [RecordFormat::Json, RecordFormat::MsgPack] {
        let bytes = dump_record(&record, format).expect("a loaded record dumps");
        assert_eq!(load_record(&bytes).expect("a dumped record loads"), record);
    }
    match Game::from_record(&record) {
        Ok(game) => {
            let again = Game::from_record(&game.to_record()).expect("a game's own record replays");
            assert_eq!(again.state_json(), game.state_json());
        }
        Err(error) => assert_eq!(error.code(), ErrorCode::InvalidRecord, "{error:?}"),
    }
});
