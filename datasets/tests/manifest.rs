//! Regenerates every dataset at both scales, and parses the three corpus
//! documents, and checks each against the committed manifest: the test that
//! makes a silent dataset change impossible.

use surp_datasets::{DATASET_VERSION, Dataset, ManifestEntry, Scale, manifest};

#[test]
fn every_dataset_at_every_scale_matches_the_manifest() {
    assert_eq!(manifest().version, DATASET_VERSION);
    let mut failures = Vec::new();
    for dataset in Dataset::ALL {
        for scale in Scale::ALL {
            let value = dataset.generate(scale);
            let actual = ManifestEntry::describe(dataset, scale, &value);
            match manifest().entry(dataset, scale) {
                Some(pinned) if *pinned == actual => {}
                pinned => failures.push(format!(
                    "{dataset} at {scale}:\n  manifest:  {pinned:?}\n  generated: {actual:?}"
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "datasets differ from datasets/manifest.toml; a generator change needs a new \
         DATASET_VERSION and a regenerated manifest (see datasets/README.md):\n{}",
        failures.join("\n")
    );
}

#[test]
fn loading_verifies_every_dataset_at_ci_scale() {
    for dataset in Dataset::ALL {
        if let Err(err) = dataset.load(Scale::Ci) {
            panic!("{err}");
        }
    }
}

#[test]
fn generating_twice_gives_equal_values() {
    for dataset in Dataset::ALL {
        assert!(
            dataset.generate(Scale::Ci) == dataset.generate(Scale::Ci),
            "{dataset} is not deterministic"
        );
    }
}

#[test]
fn generated_datasets_have_their_planned_record_counts() {
    for dataset in Dataset::ALL.into_iter().filter(|d| !d.is_corpus()) {
        for scale in Scale::ALL {
            let value = dataset.generate(scale);
            assert_eq!(
                Some(dataset.record_count(&value)),
                dataset.planned_records(scale),
                "{dataset} at {scale}"
            );
        }
    }
}

#[test]
fn ci_scale_is_a_twentieth_to_a_fiftieth_of_full() {
    for dataset in Dataset::ALL.into_iter().filter(|d| !d.is_corpus()) {
        let entry = |scale| manifest().entry(dataset, scale).unwrap();
        let ratio = entry(Scale::Full).canonical_len as f64 / entry(Scale::Ci).canonical_len as f64;
        assert!(
            (10.0..=50.0).contains(&ratio),
            "{dataset}: full/ci = {ratio}"
        );
    }
}

#[test]
fn every_dataset_stays_within_its_documented_depth() {
    for dataset in Dataset::ALL {
        assert!(dataset.max_depth() <= 100, "{dataset}");
        let scales: &[Scale] = if dataset.is_corpus() {
            &[Scale::Full]
        } else {
            &Scale::ALL
        };
        for &scale in scales {
            assert_eq!(
                dataset.generate(scale).depth(),
                dataset.max_depth(),
                "{dataset} at {scale}"
            );
        }
    }
}

#[test]
fn corpus_documents_ignore_the_scale() {
    for dataset in Dataset::ALL.into_iter().filter(|d| d.is_corpus()) {
        assert!(dataset.generate(Scale::Ci) == dataset.generate(Scale::Full));
    }
}
