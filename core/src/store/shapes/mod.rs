//! The shape store: the shape pool (`Pool<Shape>`; hulls live in the content store) and
//! its encoding.

pub(crate) mod codec;

super::pool::slotted!(crate::shape::Shape);
