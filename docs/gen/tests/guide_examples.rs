//! Runs every Rust example the guide shows. The guide includes these files
//! from `docs/examples/` verbatim, so each sentence of the form "this gives
//! that" in the guide is an assertion here, checked against the real crates.

macro_rules! guide_examples {
    ($($name:ident => $path:literal),* $(,)?) => {
        $(
            mod $name {
                include!($path);

                // `main` stays private, as in the file the guide shows.
                pub(super) fn run() -> Result<(), Box<dyn std::error::Error>> {
                    main()?;
                    Ok(())
                }
            }

            #[test]
            fn $name() {
                if let Err(err) = $name::run() {
                    panic!("{} failed: {err}", $path);
                }
            }
        )*

        /// Every file in docs/examples/ is listed above, so none is shown in
        /// the guide without being run.
        #[test]
        fn every_example_file_is_run() {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
            let mut files: Vec<String> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| format!("../../examples/{}", e.unwrap().file_name().to_str().unwrap()))
                .collect();
            files.sort();
            let mut listed = vec![$($path),*];
            listed.sort();
            assert_eq!(files, listed);
        }
    };
}

guide_examples!(
    bytes => "../../examples/bytes.rs",
    dedup => "../../examples/dedup.rs",
    dedup_shapes => "../../examples/dedup_shapes.rs",
    dictionary => "../../examples/dictionary.rs",
    enums => "../../examples/enums.rs",
    errors => "../../examples/errors.rs",
    evolution => "../../examples/evolution.rs",
    frame => "../../examples/frame.rs",
    integers => "../../examples/integers.rs",
    io => "../../examples/io.rs",
    limits => "../../examples/limits.rs",
    options => "../../examples/options.rs",
    quick_start => "../../examples/quick_start.rs",
    session => "../../examples/session.rs",
    value => "../../examples/value.rs",
);
