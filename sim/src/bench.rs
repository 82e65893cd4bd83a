//! Measurement helpers shared by the benches (`sim/benches/*.rs`).
//!
//! The machine the benches run on is usually shared with builds, so a rate per wall second mostly
//! measures the other jobs. Every bench therefore reports its rates per CPU second of the bench
//! thread as well (what a change to the RTL or the harness moves), median of [`RUNS`] runs.

use std::time::Instant;

/// Runs per measurement; the median is reported.
pub const RUNS: usize = 5;

/// CPU seconds this thread has run (first field of `/proc/thread-self/schedstat`, in ns).
pub fn thread_cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("/proc/thread-self/schedstat (Linux)");
    s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()).expect("schedstat format") / 1e9
}

/// Median of `v` (upper median for an even count); panics on an empty vector.
pub fn median(mut v: Vec<f64>) -> f64 {
    assert!(!v.is_empty(), "median of no runs");
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// A rate measured both ways: items per wall second and per CPU second of this thread.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    pub per_wall_s: f64,
    pub per_cpu_s: f64,
}

impl Rate {
    /// Runs `run` [`RUNS`] times (each run gets its index and returns the number of items it did)
    /// and returns the median rates.
    pub fn median_of_runs(mut run: impl FnMut(usize) -> usize) -> Rate {
        let (mut wall, mut cpu) = (vec![], vec![]);
        for i in 0..RUNS {
            let (t, c) = (Instant::now(), thread_cpu_secs());
            let n = run(i) as f64;
            cpu.push(n / (thread_cpu_secs() - c));
            wall.push(n / t.elapsed().as_secs_f64());
        }
        Rate { per_wall_s: median(wall), per_cpu_s: median(cpu) }
    }

    /// "1.23 M / 1.45 M" (per wall s / per CPU s).
    pub fn show(&self) -> String {
        format!("{} / {}", si(self.per_wall_s), si(self.per_cpu_s))
    }
}

/// A rate with an SI suffix: 1 234 567 → "1.23 M".
pub fn si(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_picks_the_middle_run() {
        assert_eq!(median(vec![5.0, 1.0, 3.0, 2.0, 4.0]), 3.0);
        assert_eq!(median(vec![2.0, 1.0]), 2.0);
    }

    #[test]
    fn thread_cpu_time_grows_with_work_and_rates_count_items() {
        let c0 = thread_cpu_secs();
        let mut x = 0u64;
        // ~30 ms a run: long against the thread CPU clock's granularity, which on a VM can be a
        // scheduler tick (3 ms runs sometimes read more CPU than wall time there)
        let r = Rate::median_of_runs(|_| {
            for i in 0..30_000_000u64 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
            }
            30_000_000
        });
        assert!(thread_cpu_secs() > c0, "the busy loop used CPU time");
        // CPU time of one thread never exceeds its wall time, so its rate is at least the wall rate
        // (up to the two clocks' resolution).
        assert!(r.per_cpu_s >= 0.9 * r.per_wall_s, "{r:?}");
        assert!(r.per_wall_s > 1e5, "{r:?}");
    }

    #[test]
    fn si_suffixes() {
        assert_eq!(si(1_234_567.0), "1.23 M");
        assert_eq!(si(222_000.0), "222.0 k");
        assert_eq!(si(12.0), "12.0");
    }
}
