//! A dynamic bounding-volume tree.
