//! Carriers: sets of cells as bit sets, `u64` on boards of at most 64 cells and `u128` on
//! larger ones. The connection builder (`hsearch`) and the board geometry both work on them.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Shl, Shr};

/// A set of cells as a connection's carrier: `u64` on boards of at most 64 cells (8x8 and
/// smaller), `u128` on larger ones. The builder's inner loops are tests and unions of
/// carriers, each one instruction on a `u64` and two on a `u128`, and the lists take half
/// the memory.
pub(crate) trait Carrier:
    Copy
    + Default
    + Eq
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Send
    + Sync
    + 'static
{
    /// The empty set.
    const ZERO: Self;
    /// The set of every cell.
    const ALL: Self;
    /// The cells of `set` below this type's width (the caller knows there are no others).
    fn narrow(set: u128) -> Self;
    /// The set as a `u128`.
    fn wide(self) -> u128;
    /// The set of one cell.
    fn bit(cell: usize) -> Self;
    /// How many cells.
    fn count_ones(self) -> u32;
    /// The lowest cell (the width if empty).
    fn trailing_zeros(self) -> u32;
    /// The set without its lowest cell.
    fn without_lowest(self) -> Self;
}

macro_rules! carrier {
    ($t:ty) => {
        impl Carrier for $t {
            const ZERO: Self = 0;
            const ALL: Self = <$t>::MAX;
            #[inline(always)]
            fn narrow(set: u128) -> Self {
                set as $t
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                u128::from(self)
            }
            #[inline(always)]
            fn bit(cell: usize) -> Self {
                1 << cell
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
carrier!(u64);
carrier!(u128);

/// The cells of a carrier, lowest first.
#[inline]
pub(crate) fn cells<C: Carrier>(mut set: C) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != C::ZERO).then(|| {
            let i = set.trailing_zeros() as usize;
            set = set.without_lowest();
            i
        })
    })
}
