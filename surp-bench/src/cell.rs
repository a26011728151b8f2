//! The instruction counter's cells: one encode or one decode of one dataset
//! by one serde format, as a closure that the worker runs once to warm it
//! and once inside `instructions::counted_cell`. A cell does only the
//! codec's work: it encodes into a buffer cleared beforehand, or decodes
//! from bytes encoded when the cell was made and parks the value in a slot,
//! so that dropping it happens outside the counted call.

use std::any::Any;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;
use surp_datasets::Value;
use surp_datasets::typed::{TypedData, TypedValue, TypedVisitor};

use crate::Operation;
use crate::codec::SerdeFormat;

/// Where a decode cell leaves the decoded value.
pub(crate) type Slot = Option<Box<dyn Any>>;

/// A cell's run: encode into the buffer, or decode and park the value in
/// the slot.
pub(crate) type CellRun<'a> = Box<dyn FnMut(&mut Vec<u8>, &mut Slot) + 'a>;

/// The dataset a cell works on.
#[derive(Clone, Copy)]
pub(crate) enum CellInput<'v> {
    /// A value-suite dataset.
    Value(&'v Value),
    /// A typed-suite dataset.
    Typed(&'v TypedValue),
}

/// The cell of the serde format `C` for this operation and dataset.
pub(crate) fn serde_cell<C: SerdeFormat>(op: Operation, input: CellInput<'_>) -> CellRun<'_> {
    struct Build<C> {
        op: Operation,
        format: PhantomData<C>,
    }
    impl<'v, C: SerdeFormat> TypedVisitor<'v> for Build<C> {
        type Output = CellRun<'v>;
        fn visit<T: TypedData>(self, value: &'v T) -> CellRun<'v> {
            cell::<C, T>(self.op, value)
        }
    }
    match input {
        CellInput::Value(value) => cell::<C, Value>(op, value),
        CellInput::Typed(value) => value.visit(Build::<C> {
            op,
            format: PhantomData,
        }),
    }
}

fn cell<'a, C: SerdeFormat, T: Serialize + DeserializeOwned + 'static>(
    op: Operation,
    value: &'a T,
) -> CellRun<'a> {
    match op {
        Operation::Encode => Box::new(move |buf: &mut Vec<u8>, _: &mut Slot| {
            buf.clear();
            C::encode(value, buf).expect("datasets encode");
        }),
        _ => {
            let mut bytes = Vec::new();
            C::encode(value, &mut bytes).expect("datasets encode");
            Box::new(move |_: &mut Vec<u8>, slot: &mut Slot| {
                let v: T = C::decode(&bytes).expect("datasets decode");
                *slot = Some(Box::new(v));
            })
        }
    }
}
