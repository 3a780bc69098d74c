//! Saving and restoring a live set: its whole state as plain data.
//!
//! A [`Snapshot`] holds everything a [`PoissonSet`] continues from: the box, the settings,
//! every point with its id and radius, the active list in its order (the order a fill draws
//! from) and the next id. Restoring it and continuing with the same generator gives exactly
//! what the set would have given had it never been saved. With the `serde` feature it (and
//! the set itself) is `Serialize`/`Deserialize`, and every format carries it exactly: in a
//! human-readable format (JSON, TOML, YAML) each real number is written as the shortest text
//! that reads back to the same `f64` (`"0.1"`), so no float parser of the format is involved
//! (serde_json's default settings keep the bits); a binary format writes the `f64` itself.
//! Snapshots whose numbers are the format's own numbers load as before. A snapshot keeps a
//! checksum of its numbers' bits, and one that changed on the way is refused on load, never
//! continued.
//!
//! The random generator is the caller's and is not part of the set: to continue with the
//! same draws after a restart, save the generator's state too (or seed a new one, for a
//! continuation that is valid but different).
//!
//! A radius field is code, not data: a snapshot keeps the field's bounds, its pair rule and
//! each point's radius, and the field itself is attached again on load
//! ([`PoissonSet::from_snapshot_with_field`]), which checks that it has the same bounds and
//! gives every stored point the radius it was stored with. Restoring checks everything else
//! too — the box, the settings, ids, that every point lies in the box and that no pair is too
//! close — so a damaged file is an error, never a set that breaks its invariant.

use super::{Entry, PoissonSet};
use crate::domain::Domain;
use crate::error::Error;
use crate::field::{FieldSetup, PairRule, RadiusField};
use std::sync::Arc;

/// The saved state of a [`PoissonSet`]: see the module documentation. Built by
/// [`PoissonSet::snapshot`], restored by [`PoissonSet::from_snapshot`] (one radius) or
/// [`PoissonSet::from_snapshot_with_field`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Snapshot {
    dimension: usize,
    #[cfg_attr(feature = "serde", serde(with = "exact::many"))]
    origin: Vec<f64>,
    #[cfg_attr(feature = "serde", serde(with = "exact::many"))]
    extent: Vec<f64>,
    periodic: bool,
    /// The one radius, or the field's rmin.
    #[cfg_attr(feature = "serde", serde(with = "exact"))]
    radius: f64,
    /// The field's bounds and rule, `None` for one radius.
    field: Option<SavedField>,
    attempts: u32,
    max_points: u64,
    next_id: u64,
    /// Ids, increasing.
    ids: Vec<u64>,
    /// The points' coordinates, `dimension` per point, in the order of `ids`.
    #[cfg_attr(feature = "serde", serde(with = "exact::many"))]
    coordinates: Vec<f64>,
    /// Each point's radius with a field; empty for one radius.
    #[cfg_attr(feature = "serde", serde(with = "exact::many"))]
    radii: Vec<f64>,
    /// The active list, in order (it may name removed points, which a fill skips).
    active: Vec<u64>,
    /// A checksum of the bits of every number above ([`Snapshot::number_checksum`]): a format
    /// that changes a number on the way (a decimal form that does not round-trip, such as
    /// serde_json without `float_roundtrip`) is caught on load instead of continuing with a
    /// different set.
    checksum: u64,
}

/// What a snapshot records of a radius field.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct SavedField {
    #[cfg_attr(feature = "serde", serde(with = "exact"))]
    rmin: f64,
    #[cfg_attr(feature = "serde", serde(with = "exact"))]
    rmax: f64,
    /// The pair rule's name: "max", "min" or "mean".
    rule: String,
}

impl Snapshot {
    /// The dimension of the saved set.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Number of saved points.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether no point is saved.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Whether the saved set had a radius field (which must be attached again on load).
    pub fn has_field(&self) -> bool {
        self.field.is_some()
    }

    /// The saved box (periodic if it was).
    ///
    /// Errors: a snapshot of another dimension ([`Error::DimensionMismatch`]); an invalid box
    /// (the box's errors).
    pub fn domain<const D: usize>(&self) -> Result<Domain<D>, Error> {
        if self.dimension != D {
            return Err(Error::DimensionMismatch {
                what: "the saved set",
                expected: D,
                got: self.dimension,
            });
        }
        let domain = Domain::<D>::from_origin_and_extent_slices(&self.origin, &self.extent)?;
        Ok(if self.periodic { domain.periodic() } else { domain })
    }

    /// FNV-1a over the bits of every number of the snapshot, in a fixed order.
    fn number_checksum(&self) -> u64 {
        let field = self.field.iter().flat_map(|f| [f.rmin, f.rmax]);
        let floats = self.origin.iter().chain(&self.extent).copied().chain([self.radius]);
        let floats = floats.chain(field).chain(self.coordinates.iter().copied());
        let floats = floats.chain(self.radii.iter().copied()).map(f64::to_bits);
        let integers = [self.dimension as u64, self.attempts.into(), self.max_points, self.next_id];
        let integers = integers.into_iter().chain(self.ids.iter().copied());
        let integers =
            integers.chain(self.active.iter().copied()).chain([u64::from(self.periodic)]);
        floats.chain(integers).fold(0xcbf2_9ce4_8422_2325, |hash, word| {
            word.to_le_bytes()
                .iter()
                .fold(hash, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
        })
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::InvalidSnapshot(message.into())
}

impl<const D: usize> PoissonSet<D> {
    /// The whole state, to save (see [`Snapshot`]).
    pub fn snapshot(&self) -> Snapshot {
        let field = self.field.as_ref().map(|setup| SavedField {
            rmin: setup.rmin,
            rmax: setup.rmax,
            rule: setup.rule.as_str().to_owned(),
        });
        let mut coordinates = Vec::with_capacity(self.len() * D);
        for e in self.entries.values() {
            coordinates.extend_from_slice(&e.point);
        }
        let mut snapshot = Snapshot {
            dimension: D,
            origin: self.domain.origin().to_vec(),
            extent: self.domain.extent().to_vec(),
            periodic: self.domain.is_periodic(),
            radius: self.radius,
            field,
            attempts: self.attempts,
            max_points: self.max_points as u64,
            next_id: self.next_id,
            ids: self.entries.keys().copied().collect(),
            coordinates,
            radii: match self.field {
                Some(_) => self.entries.values().map(|e| e.radius).collect(),
                None => Vec::new(),
            },
            active: self.active.clone(),
            checksum: 0,
        };
        snapshot.checksum = snapshot.number_checksum();
        snapshot
    }

    /// Restores a set of one radius from its snapshot.
    ///
    /// Errors: a snapshot of another dimension ([`Error::DimensionMismatch`]); of a set with
    /// a radius field ([`Error::InvalidSnapshot`]: use
    /// [`from_snapshot_with_field`](Self::from_snapshot_with_field)); any inconsistency —
    /// an invalid box or setting (the builder's errors), ids not increasing or not below the
    /// next id, a coordinate count that does not match, a point outside the box, two points
    /// closer than the minimum distance, an active id twice or unknown
    /// ([`Error::InvalidSnapshot`], naming it).
    ///
    /// ```
    /// use poisson_nd::live::PoissonSet;
    /// use poisson_nd::rng::rng_from_seed;
    /// use poisson_nd::Domain;
    /// let mut set = PoissonSet::new(Domain::<2>::unit(), 0.1)?;
    /// let mut rng = rng_from_seed(3);
    /// set.fill_all(&mut rng)?;
    /// let restored = PoissonSet::<2>::from_snapshot(set.snapshot())?;
    /// assert!(restored.iter().eq(set.iter()));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn from_snapshot(snapshot: Snapshot) -> Result<Self, Error> {
        if snapshot.field.is_some() {
            return Err(invalid(
                "the saved set has a radius field; attach it with from_snapshot_with_field",
            ));
        }
        Self::restore(snapshot, None)
    }

    /// Restores a set with a radius field from its snapshot, attaching `field` (the field it
    /// was built with: fields are code and are not saved).
    ///
    /// Errors: as [`from_snapshot`](Self::from_snapshot); a snapshot of a set of one radius;
    /// a field whose bounds differ from the saved ones, or that gives a stored point another
    /// radius than the one it was stored with ([`Error::InvalidSnapshot`]).
    pub fn from_snapshot_with_field(
        snapshot: Snapshot,
        field: impl RadiusField<D> + 'static,
    ) -> Result<Self, Error> {
        let Some(saved) = &snapshot.field else {
            return Err(invalid("the saved set has one radius and no field to attach"));
        };
        let rule = match saved.rule.as_str() {
            "max" => PairRule::Max,
            "min" => PairRule::Min,
            "mean" => PairRule::Mean,
            other => return Err(invalid(format!("unknown pair rule {other:?}"))),
        };
        let field: Arc<dyn RadiusField<D>> = Arc::new(field);
        if field.constant_radius().is_some() {
            return Err(invalid("a constant field is one radius, but the saved set has a field"));
        }
        let setup = FieldSetup::new(field, rule)?;
        if setup.rmin.to_bits() != saved.rmin.to_bits()
            || setup.rmax.to_bits() != saved.rmax.to_bits()
        {
            return Err(invalid(format!(
                "the field's bounds [{}, {}] differ from the saved [{}, {}]",
                setup.rmin, setup.rmax, saved.rmin, saved.rmax
            )));
        }
        Self::restore(snapshot, Some(setup))
    }

    /// Rebuilds a set from a snapshot and (with a field) its checked setup.
    fn restore(snapshot: Snapshot, field: Option<FieldSetup<D>>) -> Result<Self, Error> {
        // Checked after everything else, so that a damaged file is refused naming what is
        // wrong, and a file that only lost bits on the way is refused for that.
        let numbers_kept = snapshot.number_checksum() == snapshot.checksum;
        let domain = snapshot.domain::<D>()?;
        let max_points = usize::try_from(snapshot.max_points)
            .map_err(|_| invalid(format!("point limit {} too large", snapshot.max_points)))?;
        let (radius, rmax) = match &field {
            None => (snapshot.radius, snapshot.radius),
            Some(setup) => {
                if snapshot.radius.to_bits() != setup.rmin.to_bits() {
                    return Err(invalid("the saved radius is not the field's rmin"));
                }
                (setup.rmin, setup.rmax)
            }
        };
        let mut builder = PoissonSet::builder(domain, radius)
            .with_attempts(snapshot.attempts)
            .with_max_points(max_points);
        if let Some(setup) = &field {
            builder =
                builder.with_radius_field(Arc::clone(&setup.field)).with_pair_rule(setup.rule);
        }
        let mut set = builder.build()?;
        debug_assert_eq!(set.rmax, rmax);
        let n = snapshot.ids.len();
        if snapshot.coordinates.len() != n * D {
            return Err(invalid(format!(
                "{n} ids need {} coordinates, got {}",
                n * D,
                snapshot.coordinates.len()
            )));
        }
        let with_radii = set.field.is_some();
        if with_radii && snapshot.radii.len() != n {
            return Err(invalid(format!(
                "{n} points need {n} radii, got {}",
                snapshot.radii.len()
            )));
        }
        if !with_radii && !snapshot.radii.is_empty() {
            return Err(invalid("a set of one radius saves no radii"));
        }
        if n > max_points {
            return Err(invalid(format!("{n} points pass the point limit {max_points}")));
        }
        let mut previous: Option<u64> = None;
        for (k, &id) in snapshot.ids.iter().enumerate() {
            if previous.is_some_and(|p| p >= id) || id >= snapshot.next_id {
                return Err(invalid(format!(
                    "id {id} (point {k}) is not increasing or not below the next id {}",
                    snapshot.next_id
                )));
            }
            previous = Some(id);
            let point: [f64; D] = std::array::from_fn(|i| snapshot.coordinates[k * D + i]);
            if !domain.contains(&point) {
                return Err(invalid(format!("point {id} {point:?} lies outside the box")));
            }
            let radius = match &set.field {
                None => set.radius,
                Some(setup) => {
                    let saved = snapshot.radii[k];
                    let now = setup.radius_at(&point).map_err(|e| invalid(e.to_string()))?;
                    if now.to_bits() != saved.to_bits() {
                        return Err(invalid(format!(
                            "the field gives point {id} the radius {now}, saved as {saved}"
                        )));
                    }
                    saved
                }
            };
            if let Some((other, d2)) = set.closest_conflict(&point, radius) {
                return Err(invalid(format!(
                    "points {other} and {id} are {} apart, closer than the minimum distance",
                    d2.sqrt()
                )));
            }
            set.entries.insert(id, Entry { point, radius, active: false });
            set.grid.insert(super::Member { id, point, radius });
        }
        for &id in &snapshot.active {
            if id >= snapshot.next_id {
                return Err(invalid(format!("active id {id} was never handed out")));
            }
            if let Some(e) = set.entries.get_mut(&id) {
                if e.active {
                    return Err(invalid(format!("active id {id} is listed twice")));
                }
                e.active = true;
                set.active_count += 1;
            }
        }
        if !numbers_kept {
            return Err(invalid(
                "its numbers changed on the way (the checksum differs): a format or an edit \
                 changed a number (a snapshot written with numbers as text keeps them exactly)",
            ));
        }
        set.active = snapshot.active;
        set.next_id = snapshot.next_id;
        Ok(set)
    }
}

#[cfg(feature = "serde")]
impl<const D: usize> serde::Serialize for PoissonSet<D> {
    /// Serialises the set's [`Snapshot`].
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.snapshot().serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de, const D: usize> serde::Deserialize<'de> for PoissonSet<D> {
    /// Deserialises a [`Snapshot`] and restores it with
    /// [`PoissonSet::from_snapshot`]: sets of one radius only (a set with a radius field is
    /// deserialised as a [`Snapshot`] and restored with
    /// [`PoissonSet::from_snapshot_with_field`]).
    fn deserialize<De: serde::Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        let snapshot = Snapshot::deserialize(deserializer)?;
        PoissonSet::from_snapshot(snapshot).map_err(serde::de::Error::custom)
    }
}

/// A snapshot's real numbers through serde, exactly: as the shortest text that reads back to
/// the same bits in a human-readable format, as the `f64` itself in a binary one. Reading
/// takes either, so snapshots written with the format's own numbers load as before.
#[cfg(feature = "serde")]
mod exact {
    use serde::de::{Deserializer, Error, Visitor};
    use serde::{Deserialize, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            // Rust writes the shortest digits that parse back to the same f64.
            serializer.collect_str(&format_args!("{value:?}"))
        } else {
            serializer.serialize_f64(*value)
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(Number)
        } else {
            deserializer.deserialize_f64(Number)
        }
    }

    struct Number;

    impl Visitor<'_> for Number {
        type Value = f64;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a number, or a number as text")
        }

        fn visit_f64<E: Error>(self, v: f64) -> Result<f64, E> {
            Ok(v)
        }

        fn visit_i64<E: Error>(self, v: i64) -> Result<f64, E> {
            Ok(v as f64)
        }

        fn visit_u64<E: Error>(self, v: u64) -> Result<f64, E> {
            Ok(v as f64)
        }

        fn visit_str<E: Error>(self, v: &str) -> Result<f64, E> {
            v.parse().map_err(|_| E::custom(format!("{v:?} is not a number")))
        }
    }

    /// One number as [`serialize`] and [`deserialize`] write and read it.
    struct Exact(f64);

    impl Serialize for Exact {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize(&self.0, serializer)
        }
    }

    impl<'de> Deserialize<'de> for Exact {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserialize(deserializer).map(Exact)
        }
    }

    /// A list of numbers, each as [`super::exact`] writes one.
    pub(super) mod many {
        use super::Exact;
        use serde::{Deserialize, Deserializer, Serializer};

        pub(in super::super) fn serialize<S: Serializer>(
            values: &[f64],
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(values.iter().map(|&v| Exact(v)))
        }

        pub(in super::super) fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Vec<f64>, D::Error> {
            let values = Vec::<Exact>::deserialize(deserializer)?;
            Ok(values.into_iter().map(|Exact(v)| v).collect())
        }
    }
}
