//! Deterministic quickhull: builds a `Hull` from input points.
