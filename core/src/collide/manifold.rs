//! Manifold functions for every pair of convex shapes.
