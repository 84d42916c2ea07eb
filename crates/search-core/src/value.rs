//! The numeric type a search works in.

use std::fmt::Debug;

/// A search value: what evaluators return and searches compare, add up and store.
///
/// Values are always from the maximizing player's point of view (see [`crate::Evaluator`]).
/// Implemented for `i32`, `i64` and `f64`. Integers suit two-player games, where every search is
/// exact; `f64` suits games with chance nodes, whose values are probability-weighted averages.
///
/// Every evaluation must lie strictly between [`Value::NEG_INFINITY`] and [`Value::INFINITY`]:
/// those two are the root window and nothing else. Every search (serial, parallel, minimax)
/// takes an evaluation outside that range to the nearest value inside it (`i32::MAX` becomes
/// `2^30 − 1`), after a `debug_assert!` that names it, so debug builds find the evaluator that
/// strays; an evaluation that is NaN panics in every build, since no value could stand for it.
///
/// At a chance node, integer values are averaged in `f64` and rounded to the nearest integer;
/// plain expectimax and Star1 round the same sum the same way, so they still agree exactly.
///
/// # Examples
///
/// ```
/// use search_core::Value;
///
/// assert!(i32::NEG_INFINITY < -1_000_000 && 1_000_000 < i32::INFINITY);
/// assert_eq!(<i32 as Value>::from_f64(2.5), 3);
/// assert_eq!(<f64 as Value>::next_down(1.0) < 1.0, true);
/// ```
pub trait Value: Copy + PartialOrd + Debug + Send + Sync + 'static {
    /// Above every evaluation; the upper end of the root window.
    const INFINITY: Self;
    /// Below every evaluation; the lower end of the root window.
    const NEG_INFINITY: Self;
    /// The value as an `f64` (exact for `i32`, and for `i64` up to 2^53).
    fn to_f64(self) -> f64;
    /// The nearest value to `x`, saturating at the infinities.
    fn from_f64(x: f64) -> Self;
    /// The largest value `<= x`, saturating at the infinities (used to widen windows safely).
    fn floor_from_f64(x: f64) -> Self;
    /// The smallest value `>= x`, saturating at the infinities (used to widen windows safely).
    fn ceil_from_f64(x: f64) -> Self;
    /// The largest value strictly below `self` (or `self` at the lower infinity).
    fn next_down(self) -> Self;
    /// The smallest value strictly above `self` (or `self` at the upper infinity).
    fn next_up(self) -> Self;
    /// A bit pattern for storage in a transposition table.
    fn to_bits(self) -> u64;
    /// The inverse of [`Value::to_bits`].
    fn from_bits(bits: u64) -> Self;
}

macro_rules! int_value {
    ($t:ty, $inf:expr, $unsigned:ty) => {
        impl Value for $t {
            const INFINITY: Self = $inf;
            const NEG_INFINITY: Self = -$inf;
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn from_f64(x: f64) -> Self {
                Self::floor_from_f64(x.round())
            }
            fn floor_from_f64(x: f64) -> Self {
                // `as` saturates, and NaN (which a search never produces) would become 0.
                (x.floor() as $t).clamp(Self::NEG_INFINITY, Self::INFINITY)
            }
            fn ceil_from_f64(x: f64) -> Self {
                (x.ceil() as $t).clamp(Self::NEG_INFINITY, Self::INFINITY)
            }
            fn next_down(self) -> Self {
                if self <= Self::NEG_INFINITY { self } else { self - 1 }
            }
            fn next_up(self) -> Self {
                if self >= Self::INFINITY { self } else { self + 1 }
            }
            fn to_bits(self) -> u64 {
                self as $unsigned as u64
            }
            fn from_bits(bits: u64) -> Self {
                bits as $unsigned as $t
            }
        }
    };
}

// The infinities stay far from the type's limits so that negation and small offsets never overflow.
int_value!(i32, 1 << 30, u32);
int_value!(i64, 1 << 62, u64);

impl Value for f64 {
    const INFINITY: Self = f64::INFINITY;
    const NEG_INFINITY: Self = f64::NEG_INFINITY;
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(x: f64) -> Self {
        x
    }
    fn floor_from_f64(x: f64) -> Self {
        x
    }
    fn ceil_from_f64(x: f64) -> Self {
        x
    }
    fn next_down(self) -> Self {
        f64::next_down(self)
    }
    fn next_up(self) -> Self {
        f64::next_up(self)
    }
    fn to_bits(self) -> u64 {
        f64::to_bits(self)
    }
    fn from_bits(bits: u64) -> Self {
        f64::from_bits(bits)
    }
}

/// An evaluation as every search uses it (see [`Value`]): inside the open range between the
/// infinities, after a debug assertion; NaN panics.
pub(crate) fn checked<V: Value>(v: V) -> V {
    assert!(v.partial_cmp(&v).is_some(), "an evaluator returned NaN");
    debug_assert!(
        V::NEG_INFINITY < v && v < V::INFINITY,
        "an evaluator returned {v:?}, outside the open range ({:?}, {:?}) of search values",
        V::NEG_INFINITY,
        V::INFINITY
    );
    clamp(v, V::NEG_INFINITY.next_up(), V::INFINITY.next_down())
}

/// `v` limited to `[lo, hi]`; a search uses it to keep fail-hard results inside their window.
pub(crate) fn clamp<V: Value>(v: V, lo: V, hi: V) -> V {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_rounding_and_saturation() {
        assert_eq!(<i32 as Value>::from_f64(-2.5), -3);
        assert_eq!(<i32 as Value>::floor_from_f64(-2.5), -3);
        assert_eq!(<i32 as Value>::ceil_from_f64(-2.5), -2);
        assert_eq!(<i32 as Value>::from_f64(1e300), i32::INFINITY);
        assert_eq!(<i32 as Value>::from_f64(f64::NEG_INFINITY), i32::NEG_INFINITY);
        assert_eq!(i32::NEG_INFINITY.next_down(), i32::NEG_INFINITY);
        assert_eq!(7i32.next_down(), 6);
    }

    #[test]
    fn bits_round_trip() {
        for v in [-5i32, 0, 17, i32::INFINITY, i32::NEG_INFINITY] {
            assert_eq!(<i32 as Value>::from_bits(v.to_bits()), v);
        }
        for v in [-5i64, 1 << 40, i64::NEG_INFINITY] {
            assert_eq!(<i64 as Value>::from_bits(v.to_bits()), v);
        }
        for v in [-0.5f64, 1e-300, f64::INFINITY] {
            assert_eq!(<f64 as Value>::from_bits(Value::to_bits(v)), v);
        }
    }

    #[test]
    fn clamp_keeps_inside() {
        assert_eq!(clamp(5, 0, 3), 3);
        assert_eq!(clamp(-5, 0, 3), 0);
        assert_eq!(clamp(2, 0, 3), 2);
    }
}
