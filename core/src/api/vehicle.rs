//! The vehicle calls that change a world (validate → apply → record).
