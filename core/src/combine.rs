//! How a contact combines its two shapes' friction and restitution: the world's rule for
//! each ([`CombineRule`], Rapier's `CoefficientCombineRule` plus the geometric mean), and
//! the shape flags that change them as Godot's `PhysicsMaterial` does (`rough`,
//! `absorbent`).

use crate::math::{clamp, max, min, sqrt};

/// A rule combining two shapes' coefficients into a contact's. The world holds one for
/// friction (default [`CombineRule::Geometric`], as Box2D) and one for restitution
/// (default [`CombineRule::Max`]); [`crate::World::set_combine_rules`] changes them.
/// Godot Physics and Jolt in Godot use [`CombineRule::Min`] for friction and
/// [`CombineRule::ClampedSum`] for restitution. Discriminants 0–4 are Rapier's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CombineRule {
    /// (a + b) / 2.
    Average = 0,
    /// The smaller of the two.
    Min = 1,
    /// a · b.
    Multiply = 2,
    /// The larger of the two.
    Max = 3,
    /// a + b, at most 1 (Godot's bounce).
    ClampedSum = 4,
    /// √(a · b).
    Geometric = 5,
}

impl CombineRule {
    /// The rule of a discriminant, if it is one.
    pub fn from_u8(v: u8) -> Option<CombineRule> {
        Some(match v {
            0 => CombineRule::Average,
            1 => CombineRule::Min,
            2 => CombineRule::Multiply,
            3 => CombineRule::Max,
            4 => CombineRule::ClampedSum,
            5 => CombineRule::Geometric,
            _ => return None,
        })
    }

    /// The rule applied to two coefficients (each ≥ 0).
    #[inline]
    pub fn combine(self, a: f32, b: f32) -> f32 {
        match self {
            CombineRule::Average => (a + b) * 0.5,
            CombineRule::Min => min(a, b),
            CombineRule::Multiply => a * b,
            CombineRule::Max => max(a, b),
            CombineRule::ClampedSum => min(a + b, 1.0),
            CombineRule::Geometric => sqrt(a * b),
        }
    }
}

/// The world's friction rule by default (√(μa·μb), as Box2D).
pub const DEFAULT_FRICTION_RULE: CombineRule = CombineRule::Geometric;
/// The world's restitution rule by default (the larger of the two).
pub const DEFAULT_RESTITUTION_RULE: CombineRule = CombineRule::Max;

/// A contact's friction. A rough shape's friction wins whatever the rule (the larger of
/// two rough shapes'), as Godot's `PhysicsMaterial.rough`: with [`CombineRule::Min`] this
/// is Godot Physics' |min(μa, μb)| of friction made negative by `rough`.
#[inline]
pub(crate) fn mix_friction(rule: CombineRule, a: f32, rough_a: bool, b: f32, rough_b: bool) -> f32 {
    match (rough_a, rough_b) {
        (false, false) => rule.combine(a, b),
        (true, false) => a,
        (false, true) => b,
        (true, true) => max(a, b),
    }
}

/// A contact's restitution. An absorbent shape's restitution counts negative, as Godot's
/// `PhysicsMaterial.absorbent`: [`CombineRule::ClampedSum`] and [`CombineRule::Average`]
/// subtract it, [`CombineRule::Max`] takes the other's, [`CombineRule::Min`],
/// [`CombineRule::Multiply`] and [`CombineRule::Geometric`] give 0; never below 0. With
/// `ClampedSum` this is Godot Physics' clamp(ea + eb, 0, 1) of signed bounces.
#[inline]
pub(crate) fn mix_restitution(
    rule: CombineRule,
    a: f32,
    absorbent_a: bool,
    b: f32,
    absorbent_b: bool,
) -> f32 {
    if !(absorbent_a || absorbent_b) {
        return rule.combine(a, b);
    }
    let sa = if absorbent_a { -a } else { a };
    let sb = if absorbent_b { -b } else { b };
    match rule {
        CombineRule::Average => max((sa + sb) * 0.5, 0.0),
        CombineRule::Max => max(max(sa, sb), 0.0),
        CombineRule::ClampedSum => clamp(sa + sb, 0.0, 1.0),
        CombineRule::Min | CombineRule::Multiply | CombineRule::Geometric => 0.0,
    }
}

/// The world's rules as stored in the state encoding: bits 1–3 of the sleep flag's byte
/// hold the friction rule and bits 4–6 the restitution rule, each XOR its default, so a
/// world with the default rules encodes (and hashes) as before the rules existed.
pub(crate) fn encode_rules(friction: CombineRule, restitution: CombineRule) -> u8 {
    let f = friction as u8 ^ DEFAULT_FRICTION_RULE as u8;
    let r = restitution as u8 ^ DEFAULT_RESTITUTION_RULE as u8;
    (f << 1) | (r << 4)
}

/// Reads what `encode_rules` wrote into a byte (bit 0 and bit 7 are the caller's).
pub(crate) fn decode_rules(byte: u8) -> Option<(CombineRule, CombineRule)> {
    let f = CombineRule::from_u8(((byte >> 1) & 7) ^ DEFAULT_FRICTION_RULE as u8)?;
    let r = CombineRule::from_u8(((byte >> 4) & 7) ^ DEFAULT_RESTITUTION_RULE as u8)?;
    Some((f, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [CombineRule; 6] = [
        CombineRule::Average,
        CombineRule::Min,
        CombineRule::Multiply,
        CombineRule::Max,
        CombineRule::ClampedSum,
        CombineRule::Geometric,
    ];

    #[test]
    fn the_default_rules_encode_as_zero_and_every_pair_round_trips() {
        assert_eq!(
            encode_rules(DEFAULT_FRICTION_RULE, DEFAULT_RESTITUTION_RULE),
            0
        );
        for f in ALL {
            for r in ALL {
                let byte = encode_rules(f, r);
                assert_eq!(byte & 0x81, 0);
                assert_eq!(decode_rules(byte | 1), Some((f, r)));
            }
        }
        // Codes that name no rule are refused.
        let bad = (6 ^ DEFAULT_FRICTION_RULE as u8) << 1;
        assert_eq!(decode_rules(bad), None);
    }

    #[test]
    fn each_rule_combines_as_its_name_says() {
        let (a, b) = (0.5f32, 0.75f32);
        assert_eq!(CombineRule::Average.combine(a, b), 0.625);
        assert_eq!(CombineRule::Min.combine(a, b), 0.5);
        assert_eq!(CombineRule::Multiply.combine(a, b), 0.375);
        assert_eq!(CombineRule::Max.combine(a, b), 0.75);
        assert_eq!(CombineRule::ClampedSum.combine(a, b), 1.0);
        assert_eq!(CombineRule::ClampedSum.combine(0.25, 0.5), 0.75);
        assert_eq!(CombineRule::Geometric.combine(a, b), (0.375f32).sqrt());
    }

    /// Godot Physics' body pair: friction |min(fa, fb)| and bounce clamp(ea + eb, 0, 1),
    /// where `rough` makes a friction negative and `absorbent` a bounce.
    #[test]
    fn min_and_clamped_sum_with_rough_and_absorbent_are_godot_physics_formulas() {
        let godot_friction = |a: f32, ra: bool, b: f32, rb: bool| {
            let sa = if ra { -a } else { a };
            let sb = if rb { -b } else { b };
            (if sa < sb { sa } else { sb }).abs()
        };
        let godot_bounce = |a: f32, aa: bool, b: f32, ab: bool| {
            let sa = if aa { -a } else { a };
            let sb = if ab { -b } else { b };
            // Godot's CLAMP(m_a, m_min, m_max): m_a < m_min ? m_min : (m_a > m_max ? …).
            let e = sa + sb;
            let low = if e < 0.0 { 0.0 } else { e };
            if low > 1.0 { 1.0 } else { low }
        };
        let values = [0.0f32, 0.2, 0.5, 1.0, 1.5];
        for &a in &values {
            for &b in &values {
                for fa in [false, true] {
                    for fb in [false, true] {
                        assert_eq!(
                            mix_friction(CombineRule::Min, a, fa, b, fb),
                            godot_friction(a, fa, b, fb),
                            "friction {a} {fa} {b} {fb}"
                        );
                        assert_eq!(
                            mix_restitution(CombineRule::ClampedSum, a, fa, b, fb),
                            godot_bounce(a, fa, b, fb),
                            "bounce {a} {fa} {b} {fb}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn without_flags_the_default_rules_are_the_formulas_of_before() {
        for (a, b) in [(0.3f32, 0.75f32), (0.0, 0.6), (1.0, 1.0), (0.6, 0.0)] {
            assert_eq!(
                mix_friction(DEFAULT_FRICTION_RULE, a, false, b, false).to_bits(),
                sqrt(a * b).to_bits()
            );
            assert_eq!(
                mix_restitution(DEFAULT_RESTITUTION_RULE, a, false, b, false).to_bits(),
                max(a, b).to_bits()
            );
        }
    }

    #[test]
    fn an_absorbent_shape_never_makes_restitution_negative() {
        for rule in ALL {
            for (a, b) in [(0.9f32, 0.2f32), (0.2, 0.9), (0.0, 0.0)] {
                let e = mix_restitution(rule, a, true, b, false);
                assert!(e >= 0.0, "{rule:?} {a} {b}: {e}");
                assert!(mix_restitution(rule, a, true, b, true) >= 0.0);
            }
        }
        assert_eq!(
            mix_restitution(CombineRule::Max, 0.9, true, 0.2, false),
            0.2
        );
        assert_eq!(
            mix_restitution(CombineRule::Average, 0.25, true, 0.75, false),
            0.25
        );
    }
}
