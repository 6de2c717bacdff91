//! STUB
#![allow(missing_docs, unused_variables)]
use super::hull::Hull;
use crate::math::Vec3;
pub fn build_hull(p: &[Vec3], out: &mut Hull) -> crate::Result<()> {
    Ok(())
}
