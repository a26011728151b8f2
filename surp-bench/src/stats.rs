//! Summary statistics of one cell's timed samples.

/// With fewer samples than this, the nearest-rank p95 is the maximum, and
/// reports call it "max".
pub const P95_MIN_SAMPLES: usize = 20;

/// The statistics of one cell: one format, dataset and operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// How many timed samples there were.
    pub samples: usize,
    /// The median, in nanoseconds (the mean of the middle two when the count
    /// is even, rounded down).
    pub median_ns: u64,
    /// The 95th percentile by nearest rank, in nanoseconds: the smallest
    /// sample at or above 95% of them. Below `P95_MIN_SAMPLES` samples
    /// this is the maximum.
    pub p95_ns: u64,
    /// The fastest sample, in nanoseconds.
    pub min_ns: u64,
    /// The coefficient of variation: the sample standard deviation over the
    /// mean, in percent; 0 for a single sample.
    pub cv_pct: f64,
}

impl Stats {
    /// The statistics of these samples (nanoseconds), or `None` if there are
    /// none.
    ///
    /// ```
    /// use surp_bench::Stats;
    ///
    /// let stats = Stats::from_samples(&[30, 10, 20, 40]).unwrap();
    /// assert_eq!((stats.median_ns, stats.p95_ns, stats.min_ns), (25, 40, 10));
    /// assert_eq!(stats.p95_label(), "max");
    /// ```
    pub fn from_samples(samples: &[u64]) -> Option<Stats> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        let median_ns = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            // Summed in u128, so two huge samples cannot overflow.
            ((u128::from(sorted[n / 2 - 1]) + u128::from(sorted[n / 2])) / 2) as u64
        };
        let rank = (n * 95).div_ceil(100);
        let p95_ns = sorted[rank - 1];
        let mean = sorted.iter().map(|&s| s as f64).sum::<f64>() / n as f64;
        let cv_pct = if n < 2 || mean == 0.0 {
            0.0
        } else {
            let variance = sorted
                .iter()
                .map(|&s| (s as f64 - mean).powi(2))
                .sum::<f64>()
                / (n - 1) as f64;
            variance.sqrt() / mean * 100.0
        };
        Some(Stats {
            samples: n,
            median_ns,
            p95_ns,
            min_ns: sorted[0],
            cv_pct,
        })
    }

    /// What to call [`Stats::p95_ns`]: "p95", or "max" when there were too
    /// few samples for the two to differ.
    pub fn p95_label(&self) -> &'static str {
        p95_label(self.samples)
    }
}

/// "p95", or "max" below [`P95_MIN_SAMPLES`] samples.
pub fn p95_label(samples: usize) -> &'static str {
    if samples < P95_MIN_SAMPLES {
        "max"
    } else {
        "p95"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_samples_have_no_statistics() {
        assert_eq!(Stats::from_samples(&[]), None);
    }

    #[test]
    fn one_sample_is_its_own_median_p95_and_min() {
        let s = Stats::from_samples(&[7]).unwrap();
        assert_eq!((s.samples, s.median_ns, s.p95_ns, s.min_ns), (1, 7, 7, 7));
        assert_eq!(s.cv_pct, 0.0);
    }

    #[test]
    fn the_median_of_an_odd_count_is_the_middle_sample() {
        let s = Stats::from_samples(&[9, 1, 5]).unwrap();
        assert_eq!(s.median_ns, 5);
    }

    #[test]
    fn the_median_of_an_even_count_averages_the_middle_two() {
        assert_eq!(Stats::from_samples(&[4, 1, 3, 2]).unwrap().median_ns, 2);
        assert_eq!(Stats::from_samples(&[1, 4]).unwrap().median_ns, 2);
        assert_eq!(Stats::from_samples(&[3, 5]).unwrap().median_ns, 4);
        let huge = u64::MAX - 1;
        assert_eq!(Stats::from_samples(&[huge, huge]).unwrap().median_ns, huge);
    }

    #[test]
    fn p95_is_the_max_below_twenty_samples_and_a_lower_rank_above() {
        let few: Vec<u64> = (1..=19).collect();
        let s = Stats::from_samples(&few).unwrap();
        assert_eq!((s.p95_ns, s.p95_label()), (19, "max"));

        let many: Vec<u64> = (1..=100).rev().collect();
        let s = Stats::from_samples(&many).unwrap();
        assert_eq!((s.p95_ns, s.p95_label()), (95, "p95"));

        let twenty: Vec<u64> = (1..=20).collect();
        let s = Stats::from_samples(&twenty).unwrap();
        assert_eq!((s.p95_ns, s.p95_label()), (19, "p95"));
    }

    #[test]
    fn cv_is_the_sample_standard_deviation_over_the_mean() {
        // Mean 5, sample variance 32/7.
        let s = Stats::from_samples(&[2, 4, 4, 4, 5, 5, 7, 9]).unwrap();
        let expected = (32.0f64 / 7.0).sqrt() / 5.0 * 100.0;
        assert!((s.cv_pct - expected).abs() < 1e-9, "{}", s.cv_pct);
        assert_eq!(Stats::from_samples(&[3, 3, 3]).unwrap().cv_pct, 0.0);
    }
}
