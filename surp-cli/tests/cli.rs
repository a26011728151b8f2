//! The `surp` binary end to end: round trips of the corpus, dumps of test
//! vectors, exit codes and messages, and inputs that must not crash it.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn surp() -> Command {
    Command::cargo_bin("surp").expect("the surp binary is built")
}

fn workspace_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Runs `surp` with `args` on `stdin`, expecting success; returns stdout.
fn run_ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = surp().args(args).write_stdin(stdin).output().unwrap();
    assert!(
        out.status.success(),
        "surp {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `surp` with `args` on `stdin`, expecting exit code 1; returns
/// stdout and stderr.
fn run_fails_out(args: &[&str], stdin: &[u8]) -> (Vec<u8>, String) {
    let out = surp().args(args).write_stdin(stdin).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "surp {args:?}: {stderr}");
    (out.stdout, stderr)
}

/// Runs `surp` with `args` on `stdin`, expecting exit code 1 and nothing
/// on stdout; returns stderr.
fn run_fails(args: &[&str], stdin: &[u8]) -> String {
    let out = surp().args(args).write_stdin(stdin).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "surp {args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "surp {args:?} wrote to stdout");
    stderr
}

/// Lines of expected output, each ending with a newline.
fn lines(lines: &[&str]) -> String {
    lines.iter().map(|line| format!("{line}\n")).collect()
}

fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

/// The bytes of the vector called `name` in `docs/vectors/surp-v2.json`.
fn vector(name: &str) -> Vec<u8> {
    let text = std::fs::read(workspace_file("docs/vectors/surp-v2.json")).unwrap();
    let vectors: serde_json::Value = serde_json::from_slice(&text).unwrap();
    let found = vectors["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no vector {name:?}"));
    from_hex(found["hex"].as_str().expect("a short vector"))
}

const CORPUS: [&str; 3] = [
    "datasets/corpus/twitter.json",
    "datasets/corpus/citm_catalog.json",
    "datasets/corpus/canada.json",
];

#[test]
fn corpus_documents_survive_json_to_surp_to_json() {
    for path in CORPUS {
        let json = std::fs::read(workspace_file(path)).unwrap();
        let original: serde_json::Value = serde_json::from_slice(&json).unwrap();
        // An order-sensitive view: `surp::Value` maps are lists of entries.
        let ordered: surp::Value = serde_json::from_slice(&json).unwrap();
        let mut sizes = Vec::new();
        for encode in [
            &["encode"][..],
            &["encode", "--dedup"],
            &["encode", "--dedup-shapes"],
        ] {
            let bytes = run_ok(encode, &json);
            sizes.push(bytes.len());
            let back = run_ok(&["decode"], &bytes);
            let value: serde_json::Value = serde_json::from_slice(&back).unwrap();
            assert_eq!(value, original, "{path} with {encode:?}");
            let value: surp::Value = serde_json::from_slice(&back).unwrap();
            assert!(
                value == ordered,
                "{path} with {encode:?}: key order changed"
            );
        }
        // Deduplication never makes a document larger.
        assert!(
            sizes[1] <= sizes[0] && sizes[2] <= sizes[0],
            "{path}: {sizes:?}"
        );
    }
}

#[test]
fn pretty_output_decodes_to_the_same_value() {
    let json = br#"{"b": [1, 2.5, "x"], "a": {"nested": null}}"#;
    let bytes = run_ok(&["encode"], json);
    let pretty = run_ok(&["decode", "--pretty"], &bytes);
    let text = String::from_utf8(pretty).unwrap();
    assert_eq!(
        text,
        "{\n  \"b\": [\n    1,\n    2.5,\n    \"x\"\n  ],\n  \"a\": {\n    \"nested\": null\n  }\n}\n"
    );
}

#[test]
fn inspect_dumps_a_map_with_string_keys() {
    let dump = run_ok(&["inspect"], &vector("map with string keys"));
    assert_eq!(
        String::from_utf8(dump).unwrap(),
        lines(&[
            r#" 0  b2              fixmap 2 entries"#,
            r#" 1  82 69 64          fixstr "id""#,
            r#" 4  07                fixuint 7"#,
            r#" 5  84 6e 61 6d 65    fixstr "name""#,
            r#"10  84 73 75 72 70    fixstr "surp""#,
        ])
    );
}

#[test]
fn inspect_dumps_mixed_keys_and_floats() {
    let dump = run_ok(&["inspect"], &vector("map with mixed keys, in order"));
    assert_eq!(
        String::from_utf8(dump).unwrap(),
        lines(&[
            r#" 0  b3        fixmap 3 entries"#,
            r#" 1  81 62       fixstr "b""#,
            r#" 3  e8          null"#,
            r#" 4  ff          fixnint -1"#,
            r#" 5  e8          null"#,
            r#" 6  cc 01 6b    bin h'6b'"#,
            r#" 9  e8          null"#,
        ])
    );
    let dump = run_ok(&["inspect"], &vector("f64: pi"));
    assert_eq!(
        String::from_utf8(dump).unwrap(),
        lines(&["0  ee 18 2d 44 54 fb 21 09 40  f64 3.141592653589793"])
    );
}

/// Two push events. Both deduplicated encodings of them begin with
/// [`PUSHES_FIRST_RECORD`]; they differ in the second record.
const PUSHES: &[u8] =
    br#"[{"type": "push", "repo": "surp"}, {"type": "push", "repo": "surp-cli"}]"#;

/// `surp inspect` of [`PUSHES`] deduplicated, up to the second record: the
/// first record is explicit, and its keys become shape 0.
const PUSHES_FIRST_RECORD: [&str; 8] = [
    r#" 0  f2                          dedup marker"#,
    r#" 1  a2                          fixarray 2 items"#,
    r#" 2  b2                            fixmap 2 entries (shape #0)"#,
    r#" 3  84 74 79 70 65                  fixstr "type" (slot #0)"#,
    r#" 8  84 70 75 73 68                  fixstr "push" (slot #1)"#,
    r#"13  84 72 65 70 6f                  fixstr "repo" (slot #2)"#,
    r#"18  84 73 75 72 70                  fixstr "surp" (slot #3)"#,
    r#"23  c0                            fixshape #0: "type", "repo""#,
];

/// `surp inspect` of [`PUSHES`] encoded with `flag`.
fn inspect_pushes(flag: &str) -> String {
    let bytes = run_ok(&["encode", flag], PUSHES);
    String::from_utf8(run_ok(&["inspect"], &bytes)).unwrap()
}

#[test]
fn inspect_shows_what_dedup_references_stand_for() {
    let second = [
        r#"24  f3 01                           "type": string reference #1: "push""#,
        r#"26  88 73 75 72 70 2d 63 6c 69      "repo": fixstr "surp-cli" (slot #4)"#,
    ];
    assert_eq!(
        inspect_pushes("--dedup"),
        lines(&[&PUSHES_FIRST_RECORD[..], &second].concat())
    );
}

#[test]
fn dedup_shapes_writes_shape_references_and_every_string_out() {
    // The decoder still gives literals slots; the encoder refers to none.
    let second = [
        r#"24  84 70 75 73 68                  "type": fixstr "push" (slot #4)"#,
        r#"29  88 73 75 72 70 2d 63 6c 69      "repo": fixstr "surp-cli" (slot #5)"#,
    ];
    assert_eq!(
        inspect_pushes("--dedup-shapes"),
        lines(&[&PUSHES_FIRST_RECORD[..], &second].concat())
    );
    surp()
        .args(["encode", "--dedup", "--dedup-shapes"])
        .write_stdin(PUSHES)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "the argument '--dedup' cannot be used with '--dedup-shapes'",
        ));
}

#[test]
fn a_truncated_document_fails_with_exit_code_1_and_the_offset() {
    let json = std::fs::read(workspace_file("datasets/corpus/twitter.json")).unwrap();
    let bytes = run_ok(&["encode"], &json);
    let cut = &bytes[..bytes.len() / 2];
    // The decoder's own error, before from_slice adds the path to the value
    // (the command streams tokens and reports kind and offset).
    let expected = {
        use serde::Deserialize;
        let mut de = surp::Deserializer::from_slice(cut);
        surp::Value::deserialize(&mut de).unwrap_err()
    };
    for command in ["decode", "stats"] {
        surp()
            .arg(command)
            .write_stdin(cut)
            .assert()
            .code(1)
            .stdout("")
            .stderr(format!("surp: invalid Surp document: {expected}\n"));
    }
    // inspect dumps what is there, then says where the input ran out.
    let eof = format!("unexpected end of input at byte {}", cut.len());
    let out = surp().arg("inspect").write_stdin(cut).assert().code(1);
    let out = out.get_output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().count() > 1000, "the readable part is dumped");
    let last = stdout.lines().last().unwrap();
    assert!(last.ends_with(&format!("error: {eof}")), "{last}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("surp: invalid Surp document: {eof}\n")
    );
}

#[test]
fn a_short_truncated_file_names_its_offset() {
    let dir = std::env::temp_dir().join(format!("surp-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cut.surp");
    // "uint missing its payload": d9 needs two more bytes.
    std::fs::write(&file, [0xd9, 0xff]).unwrap();
    surp()
        .arg("decode")
        .arg(&file)
        .assert()
        .code(1)
        .stderr("surp: invalid Surp document: unexpected end of input at byte 2\n");
    surp()
        .arg("inspect")
        .arg(&file)
        .assert()
        .code(1)
        .stdout("0  d9 ff  error: unexpected end of input at byte 2\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_json_file_given_where_surp_is_expected_is_named_json() {
    let dir = std::env::temp_dir().join(format!("surp-cli-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file.json");
    std::fs::write(&file, "{\"events\": [{\"type\": \"push\"}]}\n").unwrap();
    let message = "surp: invalid Surp document: trailing bytes after the value at byte 1 (the \
                   input is JSON text; `surp encode` converts JSON to Surp)\n";
    for command in ["decode", "inspect", "stats"] {
        surp()
            .arg(command)
            .arg(&file)
            .assert()
            .code(1)
            .stderr(message);
    }
    // A Surp document cut short is not taken for JSON.
    surp()
        .arg("decode")
        .write_stdin(&b"\xb1\x81a"[..])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("JSON").not());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `share` column of a stats report, in tenths of a percent.
fn shares(report: &str) -> (Vec<u64>, Vec<u64>) {
    let mut bytes = Vec::new();
    let mut tenths = Vec::new();
    for line in report.lines().skip(1).take(5) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        bytes.push(fields[1].parse().unwrap());
        let share = fields[2].trim_end_matches('%').replace('.', "");
        tenths.push(share.parse().unwrap());
    }
    (bytes, tenths)
}

#[test]
fn stats_shares_sum_to_exactly_one_hundred_percent() {
    for path in CORPUS {
        let json = std::fs::read(workspace_file(path)).unwrap();
        for encode in [&["encode"][..], &["encode", "--dedup"]] {
            let bytes = run_ok(encode, &json);
            let report = String::from_utf8(run_ok(&["stats"], &bytes)).unwrap();
            let (sizes, tenths) = shares(&report);
            assert_eq!(sizes.iter().sum::<u64>(), bytes.len() as u64, "{report}");
            assert_eq!(tenths.iter().sum::<u64>(), 1000, "{report}");
            let total = report.lines().nth(6).unwrap();
            assert!(total.starts_with("total"), "{report}");
            assert!(total.contains(&format!(" {} ", bytes.len())), "{report}");
            assert!(total.contains("100.0%"), "{report}");
        }
    }
}

#[test]
fn stats_counts_every_category() {
    let json = br#"{"name": "surp", "size": 1.5, "tags": ["a", "b"], "ok": true}"#;
    let bytes = run_ok(&["encode"], json);
    let report = String::from_utf8(run_ok(&["stats"], &bytes)).unwrap();
    // keys "name" "size" "tags" "ok"; strings "surp" "a" "b"; the number
    // 1.5 as binary16; framing: the map, array and true. 54.5% + 27.3% +
    // 9.1% + 9.1% is 100.0% only because the odd tenths go to the largest
    // remainders.
    assert_eq!(
        report,
        "kind     bytes   share  tokens\n\
         keys        18   54.5%       4\n\
         strings      9   27.3%       3\n\
         numbers      3    9.1%       1\n\
         bytes        0    0.0%       0\n\
         framing      3    9.1%       3\n\
         total       33  100.0%      11\n"
    );
}

#[test]
fn dedup_estimate_runs_both_encoders() {
    let json = std::fs::read(workspace_file("datasets/corpus/citm_catalog.json")).unwrap();
    let plain = run_ok(&["encode"], &json);
    let dedup = run_ok(&["encode", "--dedup"], &json);
    let report = String::from_utf8(run_ok(&["stats", "--dedup-estimate"], &plain)).unwrap();
    assert!(
        report.contains(&format!("re-encoded plain:  {} bytes\n", plain.len())),
        "{report}"
    );
    assert!(
        report.contains(&format!("with --dedup:      {} bytes (", dedup.len())),
        "{report}"
    );
}

#[test]
fn byte_strings_take_the_form_asked_for() {
    // A byte string 00 01 fe ff.
    let doc = [0xcc, 0x04, 0x00, 0x01, 0xfe, 0xff];
    let decode =
        |form: &str| String::from_utf8(run_ok(&["decode", "--bytes", form], &doc)).unwrap();
    assert_eq!(decode("base64"), "\"AAH+/w==\"\n");
    assert_eq!(decode("hex"), "\"0001feff\"\n");
    assert_eq!(decode("array"), "[0,1,254,255]\n");
    assert_eq!(
        String::from_utf8(run_ok(&["decode"], &doc)).unwrap(),
        "\"AAH+/w==\"\n"
    );
}

#[test]
fn a_nan_has_no_json_form() {
    // [1, NaN] with the NaN as binary16.
    let doc = [0xa2, 0x01, 0xec, 0x00, 0x7e];
    surp()
        .arg("decode")
        .write_stdin(&doc[..])
        .assert()
        .code(1)
        .stdout("")
        .stderr("surp: cannot convert to JSON: the float NaN has no JSON form at byte 2\n");
}

#[test]
fn invalid_json_names_the_byte() {
    surp()
        .arg("encode")
        .write_stdin("{\"a\": 1,\n \"b\" 2}")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::ends_with("at line 2 column 6 (byte 14)\n"));
}

#[test]
fn files_and_dashes_work_like_standard_streams() {
    let dir = std::env::temp_dir().join(format!("surp-cli-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("in.json");
    let doc = dir.join("out.surp");
    std::fs::write(&json, "[1, \"two\", 3.5]").unwrap();
    surp()
        .args(["encode", "-o"])
        .arg(&doc)
        .arg(&json)
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        std::fs::read(&doc).unwrap(),
        run_ok(&["encode", "-"], b"[1, \"two\", 3.5]")
    );
    surp()
        .arg("decode")
        .arg(&doc)
        .assert()
        .success()
        .stdout("[1,\"two\",3.5]\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_exit_with_2() {
    surp().assert().code(2);
    surp().arg("frobnicate").assert().code(2);
    surp().args(["decode", "--bytes", "octal"]).assert().code(2);
    surp().args(["stats", "--no-such-flag"]).assert().code(2);
}

#[test]
fn help_has_examples() {
    surp()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Examples:\n  surp encode data.json -o data.surp",
        ));
    for command in ["encode", "decode", "dictionary", "inspect", "stats"] {
        surp()
            .args([command, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!(
                "Examples:\n  surp {command}"
            )));
    }
}

#[test]
fn random_and_truncated_input_never_crashes_any_command() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let json = br#"{"a": [1, -2, 3.5, "four", null, true], "b": {"c": "four"}}"#;
    let doc = run_ok(&["encode", "--dedup"], json);
    let mut inputs: Vec<Vec<u8>> = (0..doc.len()).map(|cut| doc[..cut].to_vec()).collect();
    let stream = run_ok(
        &["encode", "--session"],
        b"[{\"a\": \"four\"}, {\"a\": \"four\"}]",
    );
    inputs.extend((0..stream.len()).map(|cut| stream[..cut].to_vec()));
    // A dictionary, and a document written with it, cut short too.
    let dir = std::env::temp_dir().join(format!("surp-cli-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dict = dir.join("dict.surp");
    std::fs::write(
        &dict,
        run_ok(&["dictionary"], br#"[{"a": "four"}, {"a": "four"}]"#),
    )
    .unwrap();
    let dict = dict.to_str().unwrap();
    let with_dict = run_ok(
        &["encode", "--dictionary", dict],
        br#"{"a": ["four", 2.5]}"#,
    );
    inputs.extend((0..with_dict.len()).map(|cut| with_dict[..cut].to_vec()));
    // Every byte of the session stream and of that document changed, so
    // that headers and messages (not only lengths) go wrong.
    for whole in [&stream, &with_dict] {
        for at in 0..whole.len() {
            for byte in [whole[at] ^ 0x5a, 0xff, (next() % 256) as u8] {
                let mut changed = whole.clone();
                changed[at] = byte;
                inputs.push(changed);
            }
        }
    }
    for _ in 0..12 {
        let len = (next() % 40) as usize;
        inputs.push((0..len).map(|_| next() as u8).collect());
    }
    let commands: [&[&str]; 8] = [
        &["encode"],
        &["decode"],
        &["decode", "--session"],
        &["decode", "--dictionary", dict],
        &["dictionary"],
        &["inspect"],
        &["stats"],
        &["stats", "--dedup-estimate"],
    ];
    for input in &inputs {
        for args in commands {
            let out = surp()
                .args(args)
                .write_stdin(input.clone())
                .output()
                .unwrap();
            let code = out.status.code();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(code, Some(0 | 1)),
                "surp {args:?} on {input:02x?}: {code:?} {stderr}"
            );
            if code == Some(1) {
                // One line, naming the offset; a value without a JSON form
                // from a dictionary document, and JSON that is no array of
                // samples, have none to name.
                assert_eq!(stderr.lines().count(), 1, "{stderr}");
                let no_offset = ["cannot convert to JSON: ", "takes a JSON array"];
                assert!(
                    stderr.contains("byte ") || no_offset.iter().any(|m| stderr.contains(m)),
                    "surp {args:?} on {input:02x?}: {stderr}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sessions in this crate's README and in the repository's README,
/// replayed: each `$ command` runs in bash in a fresh directory (with this
/// build of `surp` first on the PATH) and must print exactly the lines shown
/// after it.
#[test]
fn the_readme_sessions_are_what_the_binary_prints() {
    replay_session("surp-cli/README.md");
    replay_session("README.md");
}

fn replay_session(readme: &str) {
    let name = readme.replace('/', "-");
    let readme = std::fs::read_to_string(workspace_file(readme)).unwrap();
    let session = readme
        .split("```console\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the README has a console block");
    let mut steps: Vec<(String, String)> = Vec::new();
    for line in session.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => steps.push((command.to_owned(), String::new())),
            None => {
                let (_, expected) = steps.last_mut().expect("output follows a command");
                expected.push_str(line);
                expected.push('\n');
            }
        }
    }
    // The session starts from events.json; its text is what `cat` shows.
    let (first, json) = &steps[0];
    assert_eq!(first, "cat events.json");
    let dir = std::env::temp_dir().join(format!("surp-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("events.json"), json).unwrap();
    let bin_dir = assert_cmd::cargo::cargo_bin("surp")
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (command, expected) in &steps {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("exec 2>&1; {command}"))
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            *expected,
            "$ {command}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_decode_that_fails_midway_leaves_no_output_file_and_keeps_the_old_one() {
    // [1, 2, NaN]: the first two items are written before NaN, which has
    // no JSON form, stops the decode.
    let document = from_hex("a30102ec007e");
    let dir = std::env::temp_dir().join(format!("surp-cli-partial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("out.json");
    std::fs::write(&target, b"previous\n").unwrap();
    surp()
        .args(["decode", "-o", target.to_str().unwrap()])
        .write_stdin(document)
        .assert()
        .failure()
        .stderr(predicate::str::contains("NaN"));
    assert_eq!(std::fs::read(&target).unwrap(), b"previous\n");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["out.json"], "no temporary file is left behind");

    // A good document replaces it.
    surp()
        .args(["decode", "-o", target.to_str().unwrap()])
        .write_stdin(from_hex("a20102"))
        .assert()
        .success();
    assert_eq!(std::fs::read(&target).unwrap(), b"[1,2]\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Messages with repeats (keys, strings) and enough distinct strings to
/// fill a small budget several times over.
fn session_messages() -> String {
    let items: Vec<String> = (0..40)
        .map(|i| {
            format!(
                r#"{{"id": {i}, "level": "{}", "user": "user-{}", "note": "message number {i}", "score": {}.5}}"#,
                ["info", "warning", "error"][i % 3],
                i % 7,
                i * 3
            )
        })
        .collect();
    format!("[{}]", items.join(",\n"))
}

/// The frames of `stream`: each frame's start and document.
fn frames(stream: &[u8]) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < stream.len() {
        let len = u32::from_le_bytes(stream[at..at + 4].try_into().unwrap()) as usize;
        out.push((at, &stream[at + 4..at + 4 + len]));
        at += 4 + len;
    }
    out
}

/// Where each part of `decode --session`'s output `whole` ends: the "["
/// the header writes, then each message, without the comma that the next
/// one adds. A stream that fails after `k` good frames leaves
/// `whole[..ends[k - 1]]` on standard output when read from a pipe.
fn message_ends(whole: &[u8]) -> Vec<usize> {
    whole
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(at, _)| if whole[at - 1] == b',' { at - 1 } else { at })
        .collect()
}

#[test]
fn session_streams_are_the_session_encoders_frames_and_decode_back() {
    let json = session_messages();
    // The values the CLI reads from the JSON, through a plain document.
    let plain = run_ok(&["encode", "-"], json.as_bytes());
    let messages: Vec<surp::Value> = surp::from_slice(&plain).unwrap();
    for budget in ["16384,2048,1048576", "6,2,400"] {
        let stream = run_ok(
            &["encode", "--session", "--budget", budget, "-"],
            json.as_bytes(),
        );
        // What surp-dedup writes for the same messages and budget.
        let [strings, shapes, bytes] = budget
            .split(',')
            .map(|n| n.parse().unwrap())
            .collect::<Vec<u32>>()[..]
        else {
            unreachable!()
        };
        let mut encoder = surp_dedup::SessionOptions::new()
            .budget(strings, shapes, bytes)
            .encoder();
        let mut expected = Vec::new();
        surp::frame::write_frame_bytes(&mut expected, &encoder.header()).unwrap();
        for m in &messages {
            surp::frame::write_frame_bytes(&mut expected, &encoder.encode(m).unwrap()).unwrap();
        }
        assert_eq!(stream, expected, "budget {budget}");
        assert_eq!(frames(&stream).len(), 1 + messages.len());

        let text = run_ok(&["decode", "--session", "--budget", budget, "-"], &stream);
        let back: serde_json::Value = serde_json::from_slice(&text).unwrap();
        let given: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back, given, "budget {budget}");
        // One message a line, between the brackets.
        assert_eq!(
            text.iter().filter(|&&b| b == b'\n').count(),
            messages.len() + 2
        );
    }
    // An empty array is a header alone, and decodes to an empty array.
    let stream = run_ok(&["encode", "--session", "-"], b"[]");
    assert_eq!(frames(&stream).len(), 1);
    assert_eq!(run_ok(&["decode", "--session", "-"], &stream), b"[]\n");
}

#[test]
fn broken_session_streams_fail_naming_the_frame_and_the_byte() {
    let stream = run_ok(&["encode", "--session", "-"], session_messages().as_bytes());
    let parts = frames(&stream);
    let whole = run_ok(&["decode", "--session", "-"], &stream);
    let ends = message_ends(&whole);
    // From a pipe, what was decoded before the failure is written out:
    // nothing when the header fails, "[" and the messages before the
    // failing frame otherwise.
    let fails = |args: &[&str], input: &[u8], message: &str| {
        let (stdout, stderr) = run_fails_out(args, input);
        assert_eq!(stderr, format!("surp: {message}\n"));
        let frame: usize = message.split(", in frame ").nth(1).map_or(0, |rest| {
            rest.split([',', ' ']).next().unwrap().parse().unwrap()
        });
        let written = match frame {
            0 => &[][..],
            k => &whole[..ends[k - 1]],
        };
        assert_eq!(
            String::from_utf8_lossy(&stdout),
            String::from_utf8_lossy(written),
            "{message}"
        );
    };
    let decode = ["decode", "--session", "-"];
    // Cut inside the third frame (the second message).
    let (third, doc) = parts[2];
    let cut = third + 4 + doc.len() / 2;
    fails(
        &decode,
        &stream[..cut],
        &format!(
            "invalid Surp session: the frame declares {} bytes but the input ends {} bytes \
             after its length, at byte {cut}, in frame 2, which starts at byte {third}",
            doc.len(),
            doc.len() / 2
        ),
    );
    // Cut inside the fourth frame's length: the input ends at byte `cut`.
    let (fourth, _) = parts[3];
    let cut = fourth + 2;
    fails(
        &decode,
        &stream[..cut],
        &format!(
            "invalid Surp session: unexpected end of input at byte {cut}, in frame 3, which \
             starts at byte {fourth}"
        ),
    );
    // The second message dropped: the third arrives in its place. The
    // number is at byte 2 of the document, after the 4-byte length.
    let mut dropped = stream[..third].to_vec();
    dropped.extend_from_slice(&stream[parts[3].0..]);
    fails(
        &decode,
        &dropped,
        &format!(
            "invalid Surp session: session message 2 where message 1 was expected (a message \
             was lost, reordered or replayed, or is from another session) at byte {}, in frame \
             2, which starts at byte {third}",
            third + 4 + 2
        ),
    );
    // A reference to a string slot no message filled: `f3 ff` at the
    // start of the second message's value, stream byte `at`.
    let mut bad = stream.clone();
    let at = third + 4 + 3;
    bad[at..at + 2].copy_from_slice(&[0xf3, 0xff]);
    let (stdout, stderr) = run_fails_out(&decode, &bad);
    assert!(
        stderr.contains(&format!(
            " at byte {at}, in frame 2, which starts at byte {third}"
        )),
        "{stderr}"
    );
    assert_eq!(stdout, whole[..ends[1]]);
    // A header that asks for more than the decoder allows: the string
    // budget is at byte 3 of the header, after the 4-byte length.
    fails(
        &["decode", "--session", "--budget", "100,100,100000", "-"],
        &stream,
        "invalid Surp session: session asks for 16384 string slots, more than the limit of 100 \
         at byte 7, in frame 0 (the header's), which starts at byte 0",
    );
    // A valid message without a JSON form: message 0 is a NaN.
    let mut nan = stream[..parts[1].0].to_vec();
    nan.extend_from_slice(&[6, 0, 0, 0, 0xf1, 0x01, 0x00, 0xec, 0x00, 0x7e]);
    fails(
        &decode,
        &nan,
        &format!(
            "cannot convert to JSON: the float NaN has no JSON form, in frame 1, which starts \
             at byte {}",
            parts[1].0
        ),
    );
    // JSON given where a stream was expected, and no frame at all.
    fails(
        &decode,
        b"[{\"a\": 1}]\n",
        "invalid Surp session: frame of length 1629649755 exceeds the limit of 16777216 at byte \
         0, in frame 0 (the header's), which starts at byte 0 (the input is JSON text; `surp \
         encode --session` turns a JSON array into a session)",
    );
    fails(
        &decode,
        b"",
        "invalid Surp session: no frame at byte 0; a session starts with its header's frame",
    );
    fails(
        &["encode", "--session", "-"],
        b"{\"a\": 1}",
        "--session takes a JSON array, each item one message of the session",
    );
    // --budget belongs to --session, and stays within the spec's limits.
    for args in [
        &["encode", "--budget", "1,2,3", "-"][..],
        &["encode", "--session", "--budget", "16777217,2,3", "-"],
        &["decode", "--session", "--budget", "1,65537,3", "-"],
    ] {
        surp().args(args).write_stdin("[]").assert().code(2);
    }
}

#[test]
fn session_messages_take_the_json_options_of_decode() {
    // A byte string in a message: --bytes says how it is written, and
    // --pretty indents each message.
    let mut encoder = surp_dedup::SessionOptions::new().encoder();
    let mut stream = Vec::new();
    surp::frame::write_frame_bytes(&mut stream, &encoder.header()).unwrap();
    for message in [
        surp::Value::Map(vec![(
            surp::Value::String("blob".into()),
            surp::Value::Bytes(vec![0xca, 0xfe]),
        )]),
        surp::Value::Array(vec![surp::Value::String("blob".into())]),
    ] {
        surp::frame::write_frame_bytes(&mut stream, &encoder.encode(&message).unwrap()).unwrap();
    }
    let text = |args: &[&str]| String::from_utf8(run_ok(args, &stream)).unwrap();
    assert_eq!(
        text(&["decode", "--session", "--bytes", "hex", "-"]),
        lines(&["[", r#"{"blob":"cafe"},"#, r#"["blob"]"#, "]"])
    );
    assert_eq!(
        text(&["decode", "--session", "--pretty", "--bytes", "array", "-"]),
        lines(&[
            "[",
            "{",
            r#"  "blob": ["#,
            "    202,",
            "    254",
            "  ]",
            "},",
            "[",
            r#"  "blob""#,
            "]",
            "]"
        ])
    );
}

#[test]
fn dictionaries_are_learnt_and_read_as_surp_dedup_does() {
    let samples = session_messages();
    let values: Vec<surp::Value> =
        surp::from_slice(&run_ok(&["encode", "-"], samples.as_bytes())).unwrap();
    let stored = run_ok(&["dictionary", "-"], samples.as_bytes());
    let dictionary = surp_dedup::Dictionary::from_samples(&values).unwrap();
    assert_eq!(stored, dictionary.to_bytes());
    // The stored form is a plain document that says what it holds.
    let shown = String::from_utf8(run_ok(&["decode", "-"], &stored)).unwrap();
    assert!(
        shown.starts_with(r#"{"surp_dictionary":1,"strings":["#),
        "{shown}"
    );

    let dir = std::env::temp_dir().join(format!("surp-cli-dictionary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dict = dir.join("dict.surp");
    std::fs::write(&dict, &stored).unwrap();
    let dict = dict.to_str().unwrap();

    // One value: the bytes of Dictionary::to_vec, back to the same JSON,
    // and smaller than the plain document (its keys and repeated strings
    // are references).
    let one = r#"{"id": 7, "level": "info", "user": "user-3", "note": "message number 7", "score": 21.5}"#;
    let doc = run_ok(&["encode", "--dictionary", dict, "-"], one.as_bytes());
    let value: surp::Value = surp::from_slice(&run_ok(&["encode", "-"], one.as_bytes())).unwrap();
    assert_eq!(doc, dictionary.to_vec(&value).unwrap());
    assert!(doc.len() < run_ok(&["encode", "-"], one.as_bytes()).len());
    let back = run_ok(&["decode", "--dictionary", dict, "-"], &doc);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&back).unwrap(),
        serde_json::from_str::<serde_json::Value>(one).unwrap()
    );

    // A session that starts from it: the frames of surp-dedup's encoder,
    // read back; its first message is already small.
    let stream = run_ok(
        &["encode", "--session", "--dictionary", dict, "-"],
        samples.as_bytes(),
    );
    let mut encoder = surp_dedup::SessionOptions::new()
        .dictionary(dictionary.clone())
        .encoder();
    let mut expected = Vec::new();
    surp::frame::write_frame_bytes(&mut expected, &encoder.header()).unwrap();
    for m in &values {
        surp::frame::write_frame_bytes(&mut expected, &encoder.encode(m).unwrap()).unwrap();
    }
    assert_eq!(stream, expected);
    let plain_stream = run_ok(&["encode", "--session", "-"], samples.as_bytes());
    assert!(frames(&stream)[1].1.len() < frames(&plain_stream)[1].1.len() / 2);
    let text = run_ok(&["decode", "--session", "--dictionary", dict, "-"], &stream);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&text).unwrap(),
        serde_json::from_str::<serde_json::Value>(&samples).unwrap()
    );

    // Without the dictionary, or with another, each is refused.
    let fails = |args: &[&str], input: &[u8], expected: &str| {
        let stderr = run_fails(args, input);
        assert!(stderr.contains(expected), "surp {args:?}: {stderr}");
    };
    fails(
        &["decode", "-"],
        &doc,
        "reserved tag byte 0xf1 at byte 0 (a document that starts with f1 was written with a \
         dictionary or in a session",
    );
    fails(
        &["decode", "--session", "-"],
        &stream,
        "but the decoder has no dictionary at byte 19, in frame 0 (the header's)",
    );
    let other = dir.join("other.surp");
    std::fs::write(&other, run_ok(&["dictionary", "-"], b"[{\"a\": \"bbbb\"}]")).unwrap();
    let other = other.to_str().unwrap();
    fails(
        &["decode", "--dictionary", other, "-"],
        &doc,
        &format!(
            "document written with dictionary {:016x}, but the decoder has dictionary",
            dictionary.id()
        ),
    );
    // A file that is no stored dictionary, and samples that are no array.
    let not_a_dictionary = dir.join("plain.surp");
    std::fs::write(&not_a_dictionary, run_ok(&["encode", "-"], b"[1, 2]")).unwrap();
    fails(
        &[
            "encode",
            "--dictionary",
            not_a_dictionary.to_str().unwrap(),
            "-",
        ],
        one.as_bytes(),
        &format!("invalid dictionary in {}: ", not_a_dictionary.display()),
    );
    fails(
        &["dictionary", "-"],
        b"{\"a\": 1}",
        "`surp dictionary` takes a JSON array of sample values",
    );
    // The dictionary may come from standard input when the document does
    // not; both from it is a usage error, since only one can read it.
    let doc_file = dir.join("one.surp");
    std::fs::write(&doc_file, &doc).unwrap();
    let stored = std::fs::read(dict).unwrap();
    let from_stdin = run_ok(
        &["decode", "--dictionary", "-", doc_file.to_str().unwrap()],
        &stored,
    );
    assert_eq!(from_stdin, back);
    for args in [
        &["decode", "--dictionary", "-", "-"][..],
        &["decode", "--session", "--dictionary", "-"],
        &["encode", "--dictionary", "-"],
    ] {
        let out = surp()
            .args(args)
            .write_stdin(stored.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "surp {args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "surp: --dictionary - reads standard input, which the input reads too: give one of \
             them as a file\n"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts `surp` with `args`, its standard streams all pipes.
fn spawn_piped(args: &[&str]) -> std::process::Child {
    use std::process::Stdio;
    std::process::Command::new(env!("CARGO_BIN_EXE_surp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `surp` with `args`, writing `sent` to its standard input and
/// leaving it open; returns its exit code, or `None` if it is still
/// running (killed then), its standard output and its standard error.
fn run_with_input_open(args: &[&str], sent: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    use std::io::Write;
    use std::time::{Duration, Instant};

    let mut child = spawn_piped(args);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(sent).unwrap();
    stdin.flush().unwrap();
    // Not a timing: a command that waited for the end of its input would
    // never exit while the input is open, and this bound only keeps the
    // test from hanging then.
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (status.and_then(|s| s.code()), out.stdout, stderr)
}

/// `decode --session` reads a stream as it arrives: a broken message, or
/// JSON text, fails the command while the stream is still open, and a
/// stream that cannot be read is named as such.
#[test]
fn decode_session_reads_frames_as_they_arrive() {
    let stream = run_ok(&["encode", "--session", "-"], session_messages().as_bytes());
    let parts = frames(&stream);
    let decode = ["decode", "--session", "-"];
    // The header, the first message, then the second message's frame
    // with a reference to a slot no message filled.
    let (third, _) = parts[2];
    let mut sent = stream[..parts[3].0].to_vec();
    sent[third + 4 + 3..third + 4 + 5].copy_from_slice(&[0xf3, 0xff]);
    let (code, stdout, stderr) = run_with_input_open(&decode, &sent);
    assert_eq!(code, Some(1), "still reading: {stderr}");
    // The first message is written out before the failure.
    let whole = run_ok(&decode, &stream);
    assert_eq!(stdout, whole[..message_ends(&whole)[1]]);
    // The byte of the stream, counted as the frames were read, is the one
    // the whole stream gives.
    assert!(
        stderr.contains(&format!(
            " at byte {}, in frame 2, which starts at byte {third}",
            third + 4 + 3
        )),
        "{stderr}"
    );
    // JSON text is told apart from what has arrived, without waiting for
    // more.
    let (code, stdout, stderr) = run_with_input_open(&decode, b"[{\"level\": \"info\"},\n");
    assert_eq!(code, Some(1), "still reading: {stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.ends_with(
            "(the input is JSON text; `surp encode --session` turns a JSON array into a \
             session)\n"
        ),
        "{stderr}"
    );

    // A directory opens, but cannot be read.
    let dir = std::env::temp_dir();
    let stderr = run_fails(&["decode", "--session", dir.to_str().unwrap()], b"");
    assert!(
        stderr.starts_with(&format!("surp: cannot read {}: ", dir.display())),
        "{stderr}"
    );
}

/// From a pipe, `decode --session` writes each message out as soon as it
/// is decoded, while the stream is still open, even when part of the next
/// frame has arrived; the whole output is the same as from a file, and a
/// failure later leaves the messages before it.
#[test]
fn decode_session_from_a_pipe_shows_messages_as_they_arrive() {
    use std::io::{Read, Write};
    use std::sync::mpsc;
    use std::time::Duration;

    let stream = run_ok(&["encode", "--session", "-"], session_messages().as_bytes());
    let parts = frames(&stream);
    let whole = run_ok(&["decode", "--session", "-"], &stream);
    let ends = message_ends(&whole);
    assert_eq!(ends.len(), parts.len() + 1);

    // The second run's stream stops with an error in the fifth message: a
    // reference to a slot no message filled.
    let mut broken = stream[..parts[6].0].to_vec();
    let (fifth, _) = parts[5];
    broken[fifth + 4 + 3..fifth + 4 + 5].copy_from_slice(&[0xf3, 0xff]);
    for (sent, complete) in [(&stream, true), (&broken, false)] {
        let mut child = spawn_piped(&["decode", "--session", "-"]);
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut buf = [0; 4096];
            loop {
                match stdout.read(&mut buf).unwrap() {
                    0 => return,
                    n => tx.send(buf[..n].to_vec()).unwrap(),
                }
            }
        });
        let mut got = Vec::new();
        let mut sent_to = 0;
        for (i, &(start, doc)) in parts
            .iter()
            .enumerate()
            .take_while(|&(i, _)| i < 5 || complete)
        {
            // Frame i, and a start of the next one: part of its length
            // (odd i), or its length and part of its document (even i).
            let lead = if i % 2 == 1 { 2 } else { 7 };
            let to = (start + 4 + doc.len() + lead).min(sent.len());
            stdin.write_all(&sent[sent_to..to]).unwrap();
            stdin.flush().unwrap();
            sent_to = to;
            if i == 0 {
                continue;
            }
            // Message i is written out while the stream is open. Not a
            // timing: a command that held its output back would write
            // nothing until the stream ends, and this bound only keeps
            // the test from hanging then.
            while got.len() < ends[i] {
                match rx.recv_timeout(Duration::from_secs(120)) {
                    Ok(chunk) => got.extend(chunk),
                    Err(_) => panic!("message {i} not written while the stream is open"),
                }
            }
            assert_eq!(got[..ends[i]], whole[..ends[i]], "message {i}");
        }
        stdin.write_all(&sent[sent_to..]).unwrap();
        drop(stdin);
        got.extend(rx.iter().flatten());
        reader.join().unwrap();
        let out = child.wait_with_output().unwrap();
        if complete {
            assert!(out.status.success());
            assert_eq!(got, whole);
        } else {
            assert_eq!(out.status.code(), Some(1));
            assert_eq!(got, whole[..ends[4]]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("in frame 5,"), "{stderr}");
        }
    }
}
