//! Broad phase: bounding-volume trees over the shapes' enlarged bounds.

pub mod tree;
