//! The water calls that change a world (validate → apply → record).
