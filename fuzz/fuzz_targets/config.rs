//! The organizers' config readers (src/config.rs): arbitrary text as dropscore.toml, as its JSON form, and as
//! a competition.yaml. Asserts only that nothing panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = dropscore::config::from_toml(text);
        let _ = dropscore::config::from_json(text);
        let _ = dropscore::config::leaderboard_from_yaml(text);
    }
});
