//! Mass properties of shapes (closed forms; hulls by exact polyhedron integrals).
