//! Settings chosen by name among a few values (a pair rule, a density mapping, a grid
//! resolution, a candidate distance): how command lines and files spell each value and what
//! it means, in one place, so that tools built on the library (its own command line among
//! them) offer exactly the library's values without restating them.

/// A setting chosen by name among a few values.
///
/// ```
/// use poisson_nd::Choice;
/// use poisson_nd::field::PairRule;
/// assert_eq!(PairRule::from_name("mean"), Some(PairRule::Mean));
/// assert_eq!(PairRule::Max.name(), "max");
/// assert!(PairRule::ALL.iter().all(|rule| PairRule::from_name(rule.name()) == Some(*rule)));
/// ```
pub trait Choice: Copy + Sized + 'static {
    /// Every value, in the order a list shows them (the default first).
    const ALL: &'static [Self];

    /// The value's name as command lines and files spell it (lowercase, kebab case).
    fn name(self) -> &'static str;

    /// One line on what the value means.
    fn description(self) -> &'static str;

    /// The value named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|value| value.name() == name)
    }
}
