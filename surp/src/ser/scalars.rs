//! The serde methods of the scalars, shared by every Surp serializer.
//!
//! Each scalar is one `wire` writer whatever the serializer: only where the
//! bytes go, and what a serializer must do first (`surp-dedup` tells a map
//! that its key is not a string), differ. One list here keeps the mapping
//! from serde's types to wire writers in one place.

/// Expands, inside an `impl serde::Serializer`, to the methods of the
/// scalars that one `wire` writer serializes: bool, the integers, the
/// floats and byte strings. `$self` is `self` (so that `$out` and the
/// statements of `before` may name it), `$out` is where the bytes go, and
/// `before`, when given, runs first in each.
#[doc(hidden)]
#[macro_export]
macro_rules! __serialize_scalars {
    ($self:ident => $out:expr $(, before { $($before:tt)* })?) => {
        $crate::__serialize_scalars! {
            @each $self, $out, { $($($before)*)? };
            #[inline] serialize_bool(bool) => |o, v| write_bool(o, v);
            #[inline] serialize_i8(i8) => |o, v| write_i64(o, v.into());
            #[inline] serialize_i16(i16) => |o, v| write_i64(o, v.into());
            #[inline] serialize_i32(i32) => |o, v| write_i64(o, v.into());
            #[inline] serialize_i64(i64) => |o, v| write_i64(o, v);
            serialize_i128(i128) => |o, v| write_i128(o, v);
            #[inline] serialize_u8(u8) => |o, v| write_uint(o, v.into());
            #[inline] serialize_u16(u16) => |o, v| write_uint(o, v.into());
            #[inline] serialize_u32(u32) => |o, v| write_uint(o, v.into());
            #[inline] serialize_u64(u64) => |o, v| write_uint(o, v);
            serialize_u128(u128) => |o, v| write_u128(o, v);
            #[inline(always)] serialize_f32(f32) => |o, v| write_f32(o, v);
            #[inline] serialize_f64(f64) => |o, v| write_f64(o, v);
            #[inline] serialize_bytes(&[u8]) => |o, v| write_bytes(o, v);
        }
    };
    (@each $self:ident, $out:expr, $before:tt;
        $($(#[$attr:meta])* $method:ident($ty:ty) => |$o:ident, $v:ident| $write:ident($($arg:tt)*);)*) => {$(
        $(#[$attr])*
        #[allow(unused_mut)]
        fn $method(mut $self, $v: $ty) -> $crate::Result<()> {
            $before
            let $o = $out;
            $crate::__private::wire::$write($($arg)*)
        }
    )*};
}
