//! Reading a scrape back ([`super::recorder::scrape`]'s text, parsed by `prometheus-parse`):
//! totals of counters and gauges over their labels, and histograms with their quantiles
//! estimated as Prometheus's `histogram_quantile` does.
//!
//! A quantile from buckets: the rank `q × observations` is found in the first bucket whose
//! cumulative count reaches it, and the value placed linearly inside that bucket (from the
//! bucket below's bound, or 0 for the first bucket when its bound is positive). Example, buckets
//! `le 0.1: 50, le 0.2: 70, le 1: 110, le +Inf: 120`: the median's rank is 60, in the bucket
//! (0.1, 0.2] which holds 20 from 50, so 0.1 + 0.1 × (60 − 50) / 20 = 0.15. A rank in the +Inf
//! bucket reads the highest finite bound (1 here): a histogram cannot say more.

use std::collections::BTreeMap;

use prometheus_parse::{Scrape, Value};

/// A scrape's samples.
pub struct Reading {
    samples: Vec<prometheus_parse::Sample>,
}

/// A histogram bucket: the observations at or below `le` (cumulative, as Prometheus writes
/// them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bucket {
    pub le: f64,
    pub count: f64,
}

/// A histogram summed over its labels (Prometheus's `sum by (le)`).
#[derive(Debug, Default, PartialEq)]
pub struct Histogram {
    /// By `le`, lowest first; the last is `+Inf` when any was observed.
    pub buckets: Vec<Bucket>,
    /// The observations' sum and count.
    pub sum: f64,
    pub count: f64,
}

impl Reading {
    /// Parses Prometheus's text format (lines it cannot read are skipped, as Prometheus's own
    /// parser would refuse them; the recorder writes none).
    pub fn parse(text: &str) -> std::io::Result<Reading> {
        let scrape = Scrape::parse(text.lines().map(|line| Ok(line.to_owned())))?;
        Ok(Reading { samples: scrape.samples })
    }

    /// The values of `name`'s counter, gauge or untyped series that carry every one of
    /// `labels` (none when nothing was recorded yet).
    pub fn values(&self, name: &str, labels: &[(&str, &str)]) -> Vec<f64> {
        self.samples
            .iter()
            .filter(|s| s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
            .filter_map(|s| plain(&s.value))
            .collect()
    }

    /// The sum of [`Reading::values`]: 0 when nothing was recorded yet.
    pub fn total(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.values(name, labels).iter().sum()
    }

    /// `name`'s total per value of its `label` (series without it are left out).
    pub fn by_label(&self, name: &str, label: &str) -> BTreeMap<String, f64> {
        let mut totals = BTreeMap::new();
        for sample in self.samples.iter().filter(|s| s.metric == name) {
            if let (Some(key), Some(v)) = (sample.labels.get(label), plain(&sample.value)) {
                *totals.entry(key.to_owned()).or_insert(0.0) += v;
            }
        }
        totals
    }

    /// `name`'s histogram summed over its labels; empty when nothing was observed.
    pub fn histogram(&self, name: &str) -> Histogram {
        let mut by_le: Vec<Bucket> = Vec::new();
        for sample in self.samples.iter().filter(|s| s.metric == name) {
            let Value::Histogram(buckets) = &sample.value else {
                continue;
            };
            for bucket in buckets {
                match by_le.iter_mut().find(|b| b.le == bucket.less_than) {
                    Some(b) => b.count += bucket.count,
                    None => by_le.push(Bucket { le: bucket.less_than, count: bucket.count }),
                }
            }
        }
        by_le.sort_by(|a, b| a.le.total_cmp(&b.le));
        Histogram {
            buckets: by_le,
            sum: self.total(&format!("{name}_sum"), &[]),
            count: self.total(&format!("{name}_count"), &[]),
        }
    }
}

/// A counter's, gauge's or untyped series' value; `None` for a histogram or summary.
fn plain(value: &Value) -> Option<f64> {
    match value {
        Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => Some(*v),
        Value::Histogram(_) | Value::Summary(_) => None,
    }
}

impl Histogram {
    /// The `q` quantile ([`histogram_quantile`]).
    pub fn quantile(&self, q: f64) -> Option<f64> {
        histogram_quantile(q, &self.buckets)
    }

    /// The observations' mean; `None` when there are none.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0.0).then(|| self.sum / self.count)
    }
}

/// The `q` quantile (0 ≤ q ≤ 1) of cumulative `buckets`, as Prometheus's `histogram_quantile`
/// estimates it (the module's docs; Prometheus's `bucketQuantile`). `None` where Prometheus
/// answers NaN or an infinity: no observations, no `+Inf` bucket, fewer than two buckets, or
/// `q` outside 0..=1.
pub fn histogram_quantile(q: f64, buckets: &[Bucket]) -> Option<f64> {
    if !(0.0..=1.0).contains(&q) {
        return None;
    }
    let mut buckets = buckets.to_vec();
    buckets.sort_by(|a, b| a.le.total_cmp(&b.le));
    // Counts read at different moments may dip; Prometheus evens them out the same way.
    let mut highest = 0.0_f64;
    for bucket in &mut buckets {
        highest = highest.max(bucket.count);
        bucket.count = highest;
    }
    let last = buckets.last()?;
    if buckets.len() < 2 || last.le != f64::INFINITY || last.count <= 0.0 {
        return None;
    }
    let mut rank = q * last.count;
    let finite = buckets.len() - 1;
    let at = buckets[..finite].iter().position(|b| b.count >= rank).unwrap_or(finite);
    if at == finite {
        return Some(buckets[finite - 1].le);
    }
    if at == 0 && buckets[0].le <= 0.0 {
        return Some(buckets[0].le);
    }
    let (mut start, end, mut count) = (0.0, buckets[at].le, buckets[at].count);
    if at > 0 {
        start = buckets[at - 1].le;
        count -= buckets[at - 1].count;
        rank -= buckets[at - 1].count;
    }
    Some(start + (end - start) * (rank / count))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buckets(pairs: &[(f64, f64)]) -> Vec<Bucket> {
        pairs.iter().map(|&(le, count)| Bucket { le, count }).collect()
    }

    fn close(got: Option<f64>, want: f64) {
        let got = got.expect("a quantile");
        assert!((got - want).abs() < 1e-9, "{got} is not {want}");
    }

    /// Prometheus's own vectors (promql/testdata/histograms.test, `testhistogram` at 50m and
    /// the `request_duration_seconds` sum by `le`), so anyone can check them against it.
    #[test]
    fn quantiles_are_prometheus_histogram_quantile() {
        let positive = buckets(&[(0.1, 50.0), (0.2, 70.0), (1.0, 110.0), (f64::INFINITY, 120.0)]);
        close(histogram_quantile(0.0, &positive), 0.0);
        close(histogram_quantile(0.2, &positive), 0.048);
        close(histogram_quantile(0.5, &positive), 0.15);
        close(histogram_quantile(0.8, &positive), 0.72);
        // In the +Inf bucket: the highest finite bound.
        close(histogram_quantile(1.0, &positive), 1.0);

        let negative = buckets(&[(-0.2, 10.0), (-0.1, 20.0), (0.3, 20.0), (f64::INFINITY, 30.0)]);
        close(histogram_quantile(0.0, &negative), -0.2);
        close(histogram_quantile(0.2, &negative), -0.2);
        close(histogram_quantile(0.5, &negative), -0.15);
        close(histogram_quantile(0.8, &negative), 0.3);

        // Given out of order, as a parse may hand them.
        let summed = buckets(&[(f64::INFINITY, 25.0), (0.1, 10.0), (0.2, 19.0)]);
        close(histogram_quantile(0.3, &summed), 0.075);
        close(histogram_quantile(0.5, &summed), 0.1 + 0.1 * 2.5 / 9.0);
    }

    #[test]
    fn no_quantile_without_observations_or_the_inf_bucket() {
        let empty = buckets(&[(0.1, 0.0), (f64::INFINITY, 0.0)]);
        assert_eq!(histogram_quantile(0.5, &empty), None);
        assert_eq!(histogram_quantile(0.5, &[]), None);
        assert_eq!(histogram_quantile(0.5, &buckets(&[(0.1, 3.0), (0.2, 5.0)])), None);
        assert_eq!(histogram_quantile(0.5, &buckets(&[(f64::INFINITY, 5.0)])), None);
        let some = buckets(&[(0.1, 1.0), (f64::INFINITY, 1.0)]);
        assert_eq!(histogram_quantile(1.5, &some), None);
        assert_eq!(histogram_quantile(f64::NAN, &some), None);
        // A dip (counts read at different moments) is evened out: 0.2's bucket holds 5, not 3.
        let dipped = buckets(&[(0.1, 5.0), (0.2, 3.0), (f64::INFINITY, 10.0)]);
        close(histogram_quantile(0.5, &dipped), 0.1);
    }

    #[test]
    fn a_scrape_reads_back_totals_labels_and_histograms() {
        let text = "\
# TYPE backlay_bets_refused_total counter
backlay_bets_refused_total{reason=\"market_not_open\",market_type=\"match_odds\"} 3
backlay_bets_refused_total{reason=\"market_not_open\",market_type=\"bookmaker\"} 2
backlay_bets_refused_total{reason=\"insufficient_funds\",market_type=\"match_odds\"} 4
# TYPE backlay_placement_seconds histogram
backlay_placement_seconds_bucket{le=\"0.001\"} 2
backlay_placement_seconds_bucket{le=\"0.002\"} 6
backlay_placement_seconds_bucket{le=\"+Inf\"} 8
backlay_placement_seconds_sum 0.024
backlay_placement_seconds_count 8
";
        let reading = Reading::parse(text).unwrap();
        assert_eq!(reading.total("backlay_bets_refused_total", &[]), 9.0);
        assert_eq!(
            reading.total("backlay_bets_refused_total", &[("market_type", "match_odds")]),
            7.0
        );
        let by_reason = reading.by_label("backlay_bets_refused_total", "reason");
        assert_eq!(by_reason.get("market_not_open"), Some(&5.0));
        assert_eq!(by_reason.get("insufficient_funds"), Some(&4.0));
        assert_eq!(reading.total("backlay_bets_placed_total", &[]), 0.0, "none recorded yet");

        let placement = reading.histogram("backlay_placement_seconds");
        assert_eq!(placement.count, 8.0);
        assert_eq!(placement.mean(), Some(0.003));
        assert_eq!(placement.buckets.len(), 3);
        // Rank 4 of 8: half-way through the bucket (0.001, 0.002] that holds 2 to 6.
        close(placement.quantile(0.5), 0.0015);
        let none = reading.histogram("backlay_commit_seconds");
        assert_eq!((none.mean(), none.quantile(0.5)), (None, None));
    }
}
