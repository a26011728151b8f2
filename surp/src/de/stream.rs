//! Reading many documents from one input: [`StreamDeserializer`], and
//! [`take_from_slice`](crate::take_from_slice).

use core::marker::PhantomData;

use serde::de::Deserialize;

use super::Deserializer;
use crate::error::Result;
use crate::read::{Read, SliceRead};

/// An iterator over the documents of one input, one after another, each a
/// `T`: from [`Deserializer::into_iter`].
///
/// Each document starts afresh: its deduplication tables, kept strings and
/// expansion budget are its own, so a stream of any length decodes in the
/// memory of its largest document. The iterator ends (`None`) at the end
/// of the input, between documents; a document cut short is an error whose
/// [`classify`](crate::Error::classify) is
/// [`Category::Eof`](crate::Category::Eof). After an error the iterator
/// ends.
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let mut bytes = surp::to_vec(&[1u8, 2])?;
/// bytes.extend(surp::to_vec(&[3u8])?);
/// let de = surp::Deserializer::from_slice(&bytes);
/// let docs: Vec<Vec<u8>> = de.into_iter().collect::<Result<_, _>>()?;
/// assert_eq!(docs, [vec![1, 2], vec![3]]);
///
/// // From a reader, and a truncated last document:
/// let cut = &bytes[..bytes.len() - 1];
/// let mut docs = surp::Deserializer::from_reader(cut).into_iter::<Vec<u8>>();
/// assert_eq!(docs.next().transpose()?, Some(vec![1, 2]));
/// let err = docs.next().unwrap().unwrap_err();
/// assert_eq!(err.classify(), surp::Category::Eof);
/// assert!(docs.next().is_none());
/// # Ok(()) }
/// ```
pub struct StreamDeserializer<'de, R, T> {
    de: Deserializer<R>,
    failed: bool,
    output: PhantomData<fn() -> T>,
    lifetime: PhantomData<&'de ()>,
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// Turns this deserializer into an iterator over the documents of its
    /// input, each a `T`; see [`StreamDeserializer`].
    #[allow(clippy::should_implement_trait)]
    pub fn into_iter<T: Deserialize<'de>>(self) -> StreamDeserializer<'de, R, T> {
        StreamDeserializer {
            de: self,
            failed: false,
            output: PhantomData,
            lifetime: PhantomData,
        }
    }
}

impl<R, T> StreamDeserializer<'_, R, T> {
    /// The offset just past the last document read: where the next one
    /// starts, or where the input ends.
    pub fn byte_offset(&self) -> usize
    where
        for<'a> R: Read<'a>,
    {
        self.de.read.offset()
    }

    /// Gives back the deserializer.
    pub fn into_inner(self) -> Deserializer<R> {
        self.de
    }
}

impl<'de, R: Read<'de>, T: Deserialize<'de>> Iterator for StreamDeserializer<'de, R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.failed {
            return None;
        }
        let result = match self.de.read.peek() {
            // A marker the deserializer read when it was built, and nothing
            // after it: a document cut short, not the end of the stream.
            Ok(None) if self.de.marker_read_at_end() => Err(crate::Error::new(
                crate::ErrorKind::UnexpectedEof,
                self.de.read.offset(),
            )),
            Ok(None) => return None,
            // Starts the document now (unless the deserializer just did),
            // so that its marker is read before the root's offset is taken.
            Ok(Some(_)) => self
                .de
                .at_root()
                .and_then(|()| T::deserialize(&mut self.de)),
            Err(e) => Err(e),
        };
        self.failed = result.is_err();
        Some(result)
    }
}

/// Decodes one document from the start of `input` and returns it with the
/// bytes after it, for formats that put documents back to back, or a
/// document before other data. Uses the default [`Options`](crate::Options).
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let mut bytes = surp::to_vec("head")?;
/// bytes.extend_from_slice(b"rest");
/// let (head, rest): (&str, &[u8]) = surp::take_from_slice(&bytes)?;
/// assert_eq!((head, rest), ("head", &b"rest"[..]));
/// # Ok(()) }
/// ```
pub fn take_from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<(T, &'de [u8])> {
    crate::Options::new().take_from_slice(input)
}

impl crate::Options {
    /// [`take_from_slice`] with these limits.
    pub fn take_from_slice<'de, T: Deserialize<'de>>(
        &self,
        input: &'de [u8],
    ) -> Result<(T, &'de [u8])> {
        let mut de = Deserializer::from_slice_with_options(input, self.clone());
        let value = T::deserialize(&mut de)?;
        Ok((value, de.rest()))
    }
}

impl<'de> Deserializer<SliceRead<'de>> {
    /// The bytes not read yet.
    fn rest(&self) -> &'de [u8] {
        self.read.rest()
    }
}
