//! Safer gambling's arithmetic (issue 33): the calendar periods a deposit or loss limit counts
//! over, how much room the limits leave, and whether a change of limit applies at once or only
//! after the cooling-off.
//!
//! Periods are calendar ones at India's time (UTC+5:30), the zone the product shows times in:
//! a day from midnight, a week from Monday's midnight, a month from the 1st. Example: at
//! 2026-11-29 03:00 IST (a Sunday) the day began at 2026-11-29 00:00 IST, the week at
//! 2026-11-23 00:00 IST and the month at 2026-11-01 00:00 IST.
//!
//! A loss limit counts what the bettor's play lost in the period net of what it won, plus the
//! worst case of every bet still open (their exposure). With a limit of ₹2,000 a day, ₹500 lost
//! and ₹300 won today and ₹400 at risk in open bets, ₹600 is used and ₹1,400 is left:
//! [`room`]`(limits, [-200_00, …], 400_00)`.

use time::{Date, Duration, Month, OffsetDateTime, UtcOffset};

crate::named_enum! {
    /// What a limit the bettor sets limits.
    pub enum LimitKind as "limit kind" {
        /// Money deposited in a period.
        Deposit = "deposit",
        /// Money lost in a period, net of winnings, open bets at their worst case.
        Loss = "loss",
        /// One bet's stake.
        Stake = "stake",
        /// How long one log-in may last, in minutes.
        Session = "session",
    }
}

impl LimitKind {
    /// Whether a limit of this kind is set per [`Period`] (deposit and loss) or once.
    pub fn has_period(self) -> bool {
        matches!(self, LimitKind::Deposit | LimitKind::Loss)
    }
}

crate::named_enum! {
    /// The calendar period a deposit or loss limit counts over.
    pub enum Period as "period" {
        /// From midnight IST.
        Day = "day",
        /// From Monday's midnight IST.
        Week = "week",
        /// From the 1st's midnight IST.
        Month = "month",
    }
}

/// How long a higher limit, or a limit's removal, waits before the bettor may confirm it.
pub const COOLING_OFF_MS: i64 = 24 * 60 * 60 * 1000;

/// UTC+5:30 in milliseconds: the product's zone.
const IST_OFFSET_MS: i64 = (5 * 60 + 30) * 60 * 1000;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// When the `period` holding `now_ms` began (epoch milliseconds).
pub fn period_start_ms(period: Period, now_ms: i64) -> i64 {
    let local_day = (now_ms + IST_OFFSET_MS).div_euclid(DAY_MS);
    let day_start = local_day * DAY_MS - IST_OFFSET_MS;
    match period {
        Period::Day => day_start,
        // 1970-01-01 was a Thursday: day 0 is three days after a Monday.
        Period::Week => day_start - (local_day + 3).rem_euclid(7) * DAY_MS,
        Period::Month => {
            let offset = UtcOffset::from_hms(5, 30, 0).expect("a valid offset");
            let local =
                OffsetDateTime::UNIX_EPOCH.to_offset(offset) + Duration::milliseconds(now_ms);
            let first =
                Date::from_calendar_date(local.year(), local.month(), 1).unwrap_or_else(|_| {
                    Date::from_calendar_date(1970, Month::January, 1).expect("a date")
                });
            let midnight = first.midnight().assume_offset(offset);
            midnight.unix_timestamp() * 1000
        }
    }
}

/// A deposit or loss limit per period, each set or not (minor units).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeriodLimits {
    /// Per day.
    pub day: Option<i64>,
    /// Per week.
    pub week: Option<i64>,
    /// Per month.
    pub month: Option<i64>,
}

impl PeriodLimits {
    /// The limit for `period`.
    pub fn get(&self, period: Period) -> Option<i64> {
        match period {
            Period::Day => self.day,
            Period::Week => self.week,
            Period::Month => self.month,
        }
    }

    /// Whether any period has a limit.
    pub fn any(&self) -> bool {
        self.day.is_some() || self.week.is_some() || self.month.is_some()
    }
}

/// What the binding limit leaves: the least room under any of the limits, the period it is for
/// and that limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    /// Never below 0.
    pub left_minor: i64,
    /// The period whose limit binds.
    pub period: Period,
    /// That limit.
    pub limit_minor: i64,
}

/// The room `limits` leave when `used[p]` has been used in each period (day, week, month, in
/// [`Period::ALL`]'s order); `None` without a limit. On a tie the shorter period binds.
pub fn room(limits: &PeriodLimits, used: [i64; 3]) -> Option<Room> {
    Period::ALL
        .iter()
        .zip(used)
        .filter_map(|(period, used)| {
            let limit_minor = limits.get(*period)?;
            Some(Room { left_minor: (limit_minor - used).max(0), period: *period, limit_minor })
        })
        .min_by_key(|room| room.left_minor)
}

/// How much the bettor's open bets may put at risk in all under a loss limit, given their play's
/// net result in each period (won minus lost; negative when losing): the least of
/// `limit + net` over the periods with a limit. May be below 0 (more was lost than the limit
/// allows), and a bet is allowed when its account's exposure after it stays within this, or
/// when it does not raise the exposure. Returns the cap and the [`Room`] left before the bet,
/// for a refusal's facts.
pub fn loss_cap(
    limits: &PeriodLimits,
    net_minor: [i64; 3],
    exposure_minor: i64,
) -> Option<(i64, Room)> {
    let cap = Period::ALL
        .iter()
        .zip(net_minor)
        .filter_map(|(period, net)| Some(limits.get(*period)? + net))
        .min()?;
    let used = net_minor.map(|net| exposure_minor - net);
    Some((cap, room(limits, used)?))
}

/// When a change of limit from `current` to `wanted` (`None`: no limit) takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeTiming {
    /// A new limit, or a lower one: at once.
    Now,
    /// A higher limit, or the limit removed: after [`COOLING_OFF_MS`] and the bettor's
    /// confirmation.
    AfterCoolingOff,
    /// The limit is already that.
    Unchanged,
}

/// When a change of limit takes effect (see [`ChangeTiming`]).
pub fn change_timing(current: Option<i64>, wanted: Option<i64>) -> ChangeTiming {
    match (current, wanted) {
        (current, wanted) if current == wanted => ChangeTiming::Unchanged,
        (None, Some(_)) => ChangeTiming::Now,
        (Some(current), Some(wanted)) if wanted < current => ChangeTiming::Now,
        _ => ChangeTiming::AfterCoolingOff,
    }
}

crate::named_enum! {
    /// How long a time-out lasts.
    pub enum TimeOutPeriod as "time-out period" {
        /// A day.
        Hours24 = "24h",
        /// Two days.
        Hours48 = "48h",
        /// A week.
        Days7 = "7d",
        /// Thirty days.
        Days30 = "30d",
    }
}

impl TimeOutPeriod {
    /// When a time-out taken at `now_ms` ends.
    pub fn until_ms(self, now_ms: i64) -> i64 {
        now_ms
            + DAY_MS
                * match self {
                    TimeOutPeriod::Hours24 => 1,
                    TimeOutPeriod::Hours48 => 2,
                    TimeOutPeriod::Days7 => 7,
                    TimeOutPeriod::Days30 => 30,
                }
    }
}

crate::named_enum! {
    /// How long a self-exclusion lasts.
    pub enum ExclusionPeriod as "self-exclusion period" {
        /// Six months.
        Months6 = "6m",
        /// A year.
        Years1 = "1y",
        /// Three years.
        Years3 = "3y",
        /// Five years.
        Years5 = "5y",
    }
}

impl ExclusionPeriod {
    /// When a self-exclusion taken at `now_ms` ends: the same time of day that many calendar
    /// months later (a day that month lacks, such as the 31st, moves to its last day).
    pub fn until_ms(self, now_ms: i64) -> i64 {
        let months = match self {
            ExclusionPeriod::Months6 => 6,
            ExclusionPeriod::Years1 => 12,
            ExclusionPeriod::Years3 => 36,
            ExclusionPeriod::Years5 => 60,
        };
        let offset = UtcOffset::from_hms(5, 30, 0).expect("a valid offset");
        let start = OffsetDateTime::UNIX_EPOCH.to_offset(offset) + Duration::milliseconds(now_ms);
        let month_index = start.year() * 12 + i32::from(u8::from(start.month())) - 1 + months;
        let (year, month) = (month_index.div_euclid(12), month_index.rem_euclid(12) + 1);
        let month = Month::try_from(u8::try_from(month).unwrap_or(1)).unwrap_or(Month::January);
        let day = start.day().min(time::util::days_in_month(month, year));
        let date = Date::from_calendar_date(year, month, day).unwrap_or(start.date());
        let end = date.with_time(start.time()).assume_offset(offset);
        i64::try_from(end.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-29 03:00 IST, a Sunday (2026-11-28T21:30:00Z).
    const SUNDAY_3AM_IST: i64 = 1_795_901_400_000;

    fn ist(ms: i64) -> String {
        let offset = UtcOffset::from_hms(5, 30, 0).unwrap();
        let t = OffsetDateTime::UNIX_EPOCH.to_offset(offset) + Duration::milliseconds(ms);
        format!("{} {:02}:{:02} {}", t.date(), t.hour(), t.minute(), t.weekday())
    }

    #[test]
    fn periods_begin_at_midnight_monday_and_the_first_in_india() {
        assert_eq!(ist(SUNDAY_3AM_IST), "2026-11-29 03:00 Sunday");
        assert_eq!(ist(period_start_ms(Period::Day, SUNDAY_3AM_IST)), "2026-11-29 00:00 Sunday");
        assert_eq!(ist(period_start_ms(Period::Week, SUNDAY_3AM_IST)), "2026-11-23 00:00 Monday");
        assert_eq!(ist(period_start_ms(Period::Month, SUNDAY_3AM_IST)), "2026-11-01 00:00 Sunday");
        // Monday midnight is a week's first instant; a millisecond before is the last week's.
        let monday = period_start_ms(Period::Week, SUNDAY_3AM_IST) + 7 * DAY_MS;
        assert_eq!(period_start_ms(Period::Week, monday), monday);
        assert_eq!(period_start_ms(Period::Week, monday - 1), monday - 7 * DAY_MS);
        // 23:59 UTC on the 30th is already the 1st in India.
        let dec_first = period_start_ms(Period::Month, SUNDAY_3AM_IST + 3 * DAY_MS);
        assert_eq!(ist(dec_first), "2026-12-01 00:00 Tuesday");
        assert_eq!(period_start_ms(Period::Day, dec_first), dec_first);
        assert_eq!(
            period_start_ms(Period::Month, dec_first - 1),
            period_start_ms(Period::Month, SUNDAY_3AM_IST)
        );
    }

    #[test]
    fn the_room_is_the_least_left_under_any_limit() {
        let limits = PeriodLimits { day: Some(2_000_00), week: Some(5_000_00), month: None };
        // Day: 2,000 − 600 = 1,400; week: 5,000 − 4,000 = 1,000: the week binds.
        assert_eq!(
            room(&limits, [600_00, 4_000_00, 9_000_00]),
            Some(Room { left_minor: 1_000_00, period: Period::Week, limit_minor: 5_000_00 })
        );
        assert_eq!(room(&limits, [2_500_00, 2_500_00, 0]).unwrap().left_minor, 0, "never below 0");
        assert_eq!(room(&PeriodLimits::default(), [0, 0, 0]), None);
        // A tie: the day, the shorter, is named.
        assert_eq!(room(&limits, [1_000_00, 4_000_00, 0]).unwrap().period, Period::Day);
    }

    #[test]
    fn the_worked_example_of_the_module_docs() {
        let limits = PeriodLimits { day: Some(2_000_00), ..PeriodLimits::default() };
        // Lost 500, won 300: net −200 today; 400 at risk.
        let (cap, room) = loss_cap(&limits, [-200_00, -200_00, -200_00], 400_00).unwrap();
        assert_eq!(cap, 1_800_00, "open bets may risk 1,800 in all");
        assert_eq!(room.left_minor, 1_400_00);
        // Winnings raise the cap; losses past the limit put it below 0.
        assert_eq!(loss_cap(&limits, [700_00, 0, 0], 0).unwrap().0, 2_700_00);
        assert_eq!(loss_cap(&limits, [-2_500_00, 0, 0], 0).unwrap().0, -500_00);
        assert_eq!(loss_cap(&PeriodLimits::default(), [0; 3], 0), None);
    }

    #[test]
    fn lower_or_new_limits_apply_now_higher_or_removed_ones_wait() {
        assert_eq!(change_timing(None, Some(100)), ChangeTiming::Now);
        assert_eq!(change_timing(Some(200), Some(100)), ChangeTiming::Now);
        assert_eq!(change_timing(Some(100), Some(200)), ChangeTiming::AfterCoolingOff);
        assert_eq!(change_timing(Some(100), None), ChangeTiming::AfterCoolingOff);
        assert_eq!(change_timing(Some(100), Some(100)), ChangeTiming::Unchanged);
        assert_eq!(change_timing(None, None), ChangeTiming::Unchanged);
    }

    #[test]
    fn time_outs_last_days_and_exclusions_calendar_months() {
        assert_eq!(TimeOutPeriod::Hours48.until_ms(SUNDAY_3AM_IST) - SUNDAY_3AM_IST, 2 * DAY_MS);
        assert_eq!(TimeOutPeriod::Days30.until_ms(0), 30 * DAY_MS);
        assert_eq!(
            ist(ExclusionPeriod::Months6.until_ms(SUNDAY_3AM_IST)),
            "2027-05-29 03:00 Saturday"
        );
        assert_eq!(
            ist(ExclusionPeriod::Years5.until_ms(SUNDAY_3AM_IST)),
            "2031-11-29 03:00 Saturday"
        );
        // 31 August + 6 months: the end of February.
        let aug_31 = SUNDAY_3AM_IST - 90 * DAY_MS;
        assert_eq!(ist(aug_31), "2026-08-31 03:00 Monday");
        assert_eq!(ist(ExclusionPeriod::Months6.until_ms(aug_31)), "2027-02-28 03:00 Sunday");
    }
}
