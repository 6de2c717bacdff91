//! The character calls that change a world (validate → apply → record).
