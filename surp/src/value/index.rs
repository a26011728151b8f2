//! Indexing into a [`Value`]: `value["key"]` and `value[3]`.

use core::ops;

use super::Value;
#[allow(unused_imports)]
use crate::prelude::*;

mod private {
    use alloc::string::String;

    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

/// A type that can index into a [`Value`]: `usize` for arrays, `str` for
/// maps with string keys. Sealed.
pub trait Index: private::Sealed {
    #[doc(hidden)]
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;
    #[doc(hidden)]
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;
}

impl Index for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array()?.get(*self)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut()?.get_mut(*self)
    }
}

impl Index for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(self))
            .map(|(_, v)| v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_map_mut()?
            .iter_mut()
            .find(|(k, _)| k.as_str() == Some(self))
            .map(|(_, v)| v)
    }
}

impl Index for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }
}

static NULL: Value = Value::Null;

/// `value[i]` and `value["key"]` give `Null` when the element is absent, as in
/// serde_json, so lookups chain without unwrapping.
impl<I: Index> ops::Index<I> for Value {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_elements_index_as_null() {
        let v: Value = vec![("a".into(), Value::from(vec![Value::from(1)]))].into();
        assert_eq!(v["a"][0], Value::from(1));
        assert_eq!(v["a"][7], Value::Null);
        assert_eq!(v["b"]["c"], Value::Null);
        assert_eq!(v[String::from("a")][0], Value::from(1));
    }

    #[test]
    fn get_mut_changes_the_value_in_place() {
        let mut v: Value = vec![Value::from(1), Value::from(2)].into();
        *v.get_mut(1).unwrap() = Value::from("two");
        assert_eq!(v[1].as_str(), Some("two"));
    }
}
