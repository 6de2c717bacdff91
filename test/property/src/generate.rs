//! The generator: a case from a seed. Deterministic (its own splitmix64, Maul3D's own
//! math for generated content), so a seed names the same case on every machine.
//!
//! Each op is made in one of three moods: ordinary (values a game would pass), extreme
//! (each value with a fair chance of an edge of its accepted range: the largest size,
//! speed, force, mass, the smallest positive value, a position next to ±2^21, a
//! denormalised quaternion), or invalid (one value just outside its range, NaN or
//! infinite, or a stale, null or foreign id). Ranges are those of `maul3d::limits` and
//! the validation code as they stand.

use crate::ops::*;
use maul3d::limits::{
    MAX_DENSITY, MAX_FORCE, MAX_GRAVITY, MAX_IMPULSE, MAX_INERTIA, MAX_MASS, MAX_MATERIAL,
    MAX_SETTING, MAX_VELOCITY, MIN_MASS,
};
use maul3d::math::{PI, POSITION_EXACT_BOUND, max, max_f64, min};

/// splitmix64.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
    /// Uniform in `[lo, hi]`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }
    /// One of `xs`.
    pub fn one<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Mood {
    Ordinary,
    Extreme,
    Invalid,
}

/// Values for one op.
struct G<'a> {
    r: &'a mut Rng,
    mood: Mood,
    bad_at: u32,
    n: u32,
    extreme_p: f64,
}

impl G<'_> {
    /// Whether this value should be the op's invalid one.
    fn bad(&mut self) -> bool {
        let b = self.mood == Mood::Invalid && self.n == self.bad_at;
        self.n += 1;
        b
    }
    fn extreme(&mut self) -> bool {
        self.mood == Mood::Extreme && self.r.chance(self.extreme_p)
    }

    /// A value in `[lo, hi]`, typically in `[tlo, thi]`.
    fn scalar(&mut self, lo: f32, hi: f32, tlo: f32, thi: f32) -> F {
        if self.bad() {
            let mut outs = vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
            if hi < f32::MAX {
                outs.push(next_up(hi));
                outs.push(hi * 2.0 + 1.0);
            }
            if lo > -f32::MAX {
                outs.push(next_down(lo));
                outs.push(lo - 1.0 - lo.abs());
            }
            return F(self.r.one(&outs));
        }
        if self.extreme() {
            let mut edges = vec![lo, hi, next_down(hi), 0.5 * hi, 0.1 * hi];
            if lo < 0.0 {
                edges.push(0.1 * lo);
            }
            for v in [0.0, -0.0, 1.0e-30, f32::from_bits(1), 1.0e-6, 1.0e3] {
                if v >= lo && v <= hi {
                    edges.push(v);
                }
            }
            return F(self.r.one(&edges));
        }
        let (a, b) = (max(tlo, lo), min(thi, hi));
        F(self.r.uniform(a as f64, b as f64) as f32)
    }
    fn nonneg(&mut self, hi: f32, typ: f32) -> F {
        self.scalar(0.0, hi, 0.0, typ)
    }
    fn vec(&mut self, bound: f32, typ: f32) -> V3 {
        [
            self.scalar(-bound, bound, -typ, typ),
            self.scalar(-bound, bound, -typ, typ),
            self.scalar(-bound, bound, -typ, typ),
        ]
    }
    /// A size within (0, 1e6].
    fn size(&mut self, typ_lo: f32, typ_hi: f32) -> F {
        if self.bad() {
            return F(self
                .r
                .one(&[0.0, -1.0, f32::NAN, f32::INFINITY, 1.000_001e6, -0.0]));
        }
        if self.extreme() {
            return F(self.r.one(&[
                1.0e6,
                1.7e5,
                1.0e5,
                1.0e4,
                1.0e-3,
                1.0e-6,
                1.0e-30,
                f32::from_bits(1),
            ]));
        }
        F(self.r.uniform(typ_lo as f64, typ_hi as f64) as f32)
    }
    /// A body position within ±2^21 (exclusive).
    fn pos(&mut self) -> DV3 {
        let c = |g: &mut G, lo: f64, hi: f64| -> D {
            if g.bad() {
                let b = POSITION_EXACT_BOUND;
                return D(g.r.one(&[b, -b, f64::NAN, f64::INFINITY, 1.0e300, b * 1.5]));
            }
            if g.extreme() {
                let b = POSITION_EXACT_BOUND;
                return D(g.r.one(&[
                    b - 1.0,
                    -(b - 1.0),
                    b - 1.0 / 2147483648.0,
                    1.0e6,
                    -1.2e6,
                    1.0e5,
                    1.0e-9,
                    0.1 + 1.0 / 3.0,
                ]));
            }
            D(g.r.uniform(lo, hi))
        };
        [
            c(self, -15.0, 15.0),
            c(self, 0.0, 15.0),
            c(self, -15.0, 15.0),
        ]
    }
    /// A world point for forces and queries (within ±2^22).
    fn point(&mut self) -> DV3 {
        let c = |g: &mut G| -> D {
            if g.bad() {
                return D(g.r.one(&[4194304.0, f64::NAN, f64::NEG_INFINITY, -1.0e30]));
            }
            if g.extreme() {
                return D(g.r.one(&[4194303.0, -4194303.0, 1.0e6, 0.0]));
            }
            D(g.r.uniform(-15.0, 15.0))
        };
        [c(self), c(self), c(self)]
    }
    /// A rotation quaternion (any finite norm² above 1e-6 is accepted and normalised).
    fn quat(&mut self) -> Q {
        if self.bad() {
            return match self.r.below(4) {
                0 => [F(0.0); 4],
                1 => [F(f32::NAN), F(0.0), F(0.0), F(1.0)],
                2 => [F(1.0e20), F(1.0e20), F(0.0), F(0.0)],
                _ => [F(1.0e-4), F(0.0), F(0.0), F(0.0)],
            };
        }
        let axis = [
            self.r.uniform(-1.0, 1.0),
            self.r.uniform(-1.0, 1.0),
            self.r.uniform(-1.0, 1.0),
        ];
        let l = max_f64(
            (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt(),
            1e-3,
        );
        let angle = self.r.uniform(-3.2, 3.2);
        let (s, c) = (
            maul3d::math::sin(0.5 * angle as f32),
            maul3d::math::cos(0.5 * angle as f32),
        );
        let mut q = [
            F(axis[0] as f32 / l as f32 * s),
            F(axis[1] as f32 / l as f32 * s),
            F(axis[2] as f32 / l as f32 * s),
            F(c),
        ];
        if self.extreme() {
            let k = self.r.one(&[1.1e-3, 1.0e-2, 7.0, 1.0e15, 1.0e18]);
            for v in &mut q {
                v.0 *= k;
            }
        }
        q
    }
    fn pick(&mut self) -> Pick {
        if self.bad() {
            return match self.r.below(3) {
                0 => NULL_PICK,
                1 => FOREIGN_PICK,
                _ => ANY_PICK | (self.r.next_u64() as u32 >> 2),
            };
        }
        if self.r.chance(0.03) {
            return ANY_PICK | (self.r.next_u64() as u32 >> 2);
        }
        (self.r.next_u64() as u32) >> 2
    }
    fn bits(&mut self) -> u64 {
        match self.r.below(5) {
            0 => u64::MAX,
            1 => 1,
            2 => 0,
            _ => self.r.next_u64(),
        }
    }
    fn shape_def(&mut self) -> ShapeD {
        let mut flags = 1 | 4;
        if self.r.chance(0.08) {
            flags |= 2;
        }
        if self.r.chance(0.2) {
            flags |= 8;
        }
        if self.r.chance(0.2) {
            flags |= 16;
        }
        if self.r.chance(0.1) {
            flags &= !1;
        }
        let filtered = self.r.chance(0.15);
        ShapeD {
            density: self.scalar(0.0, MAX_DENSITY, 100.0, 3000.0),
            friction: self.scalar(0.0, MAX_MATERIAL, 0.0, 1.0),
            restitution: if self.r.chance(0.7) {
                F(0.0)
            } else {
                self.scalar(0.0, MAX_MATERIAL, 0.0, 1.0)
            },
            rolling: if self.r.chance(0.8) {
                F(0.0)
            } else {
                self.scalar(0.0, MAX_MATERIAL, 0.0, 0.2)
            },
            category: if filtered { self.bits() } else { 1 },
            mask: if filtered { self.bits() } else { u64::MAX },
            group: if filtered {
                self.r.below(5) as i32 - 2
            } else {
                0
            },
            flags,
        }
    }
    fn axis(&mut self, linear: bool) -> AxisD {
        let (lo, hi) = if linear { (-1.0e6, 1.0e6) } else { (-PI, PI) };
        let lower = self.scalar(lo, hi, -1.0, 0.0);
        let upper = self.scalar(lo, hi, 0.0, 1.0);
        AxisD {
            mode: self.r.below(3) as u8,
            lower,
            upper,
            hertz: self.nonneg(MAX_SETTING, 5.0),
            damping: self.nonneg(MAX_SETTING, 1.0),
            speed: self.scalar(-MAX_VELOCITY, MAX_VELOCITY, -3.0, 3.0),
            force: self.nonneg(MAX_FORCE, 100.0),
        }
    }
    fn joint_kind(&mut self) -> JointD {
        let angle = |g: &mut G, t: f32| g.scalar(-PI, PI, -t, t);
        let len = |g: &mut G, t: f32| g.scalar(-1.0e6, 1.0e6, -t, t);
        match self.r.below(8) {
            0 => JointD::Spherical,
            1 => {
                let lower = angle(self, 1.0);
                JointD::Revolute {
                    limit: self.r.chance(0.5),
                    lower: F(-lower.0.abs()),
                    upper: angle(self, 1.0),
                    motor: self.r.chance(0.3),
                    speed: self.scalar(-MAX_VELOCITY, MAX_VELOCITY, -5.0, 5.0),
                    torque: self.nonneg(MAX_FORCE, 100.0),
                    spring: self.r.chance(0.3),
                    hertz: self.nonneg(MAX_SETTING, 5.0),
                    damping: self.nonneg(MAX_SETTING, 1.0),
                }
            }
            2 => {
                let lower = len(self, 1.0);
                JointD::Prismatic {
                    limit: self.r.chance(0.5),
                    lower: F(-lower.0.abs()),
                    upper: len(self, 1.0),
                    motor: self.r.chance(0.3),
                    speed: self.scalar(-MAX_VELOCITY, MAX_VELOCITY, -5.0, 5.0),
                    force: self.nonneg(MAX_FORCE, 100.0),
                    spring: self.r.chance(0.3),
                    hertz: self.nonneg(MAX_SETTING, 5.0),
                    damping: self.nonneg(MAX_SETTING, 1.0),
                }
            }
            3 => JointD::Weld {
                linear_hertz: if self.r.chance(0.5) {
                    F(0.0)
                } else {
                    self.nonneg(MAX_SETTING, 10.0)
                },
                angular_hertz: if self.r.chance(0.5) {
                    F(0.0)
                } else {
                    self.nonneg(MAX_SETTING, 10.0)
                },
                damping: self.nonneg(MAX_SETTING, 1.0),
            },
            4 => {
                let min = self.scalar(0.0, 1.0e6, 0.0, 1.0);
                let max = self.scalar(0.0, 1.0e6, 1.0, 3.0);
                JointD::Distance {
                    length: self.scalar(0.0, 1.0e6, 0.5, 2.0),
                    min,
                    max,
                    spring: self.r.chance(0.4),
                    hertz: self.nonneg(MAX_SETTING, 5.0),
                    damping: self.nonneg(MAX_SETTING, 1.0),
                }
            }
            5 => {
                let lower = angle(self, 1.0);
                JointD::ConeTwist {
                    swing: self.scalar(0.0, PI, 0.0, 1.5),
                    twist_lower: F(-lower.0.abs()),
                    twist_upper: angle(self, 1.0),
                    friction: self.nonneg(MAX_FORCE, 10.0),
                }
            }
            6 => JointD::SixDof {
                axes: [
                    self.axis(true),
                    self.axis(true),
                    self.axis(true),
                    self.axis(false),
                    self.axis(false),
                    self.axis(false),
                ],
            },
            _ => {
                let lower = len(self, 0.5);
                JointD::Wheel {
                    spring: self.r.chance(0.7),
                    hertz: self.nonneg(MAX_SETTING, 5.0),
                    damping: self.nonneg(MAX_SETTING, 1.0),
                    limit: self.r.chance(0.4),
                    lower: F(-lower.0.abs()),
                    upper: len(self, 0.5),
                    motor: self.r.chance(0.4),
                    speed: self.scalar(-MAX_VELOCITY, MAX_VELOCITY, -10.0, 10.0),
                    torque: self.nonneg(MAX_FORCE, 100.0),
                }
            }
        }
    }
    fn mass(&mut self) -> MassD {
        let d = [
            self.scalar(1.0e-30, MAX_INERTIA, 0.1, 10.0),
            self.scalar(1.0e-30, MAX_INERTIA, 0.1, 10.0),
            self.scalar(1.0e-30, MAX_INERTIA, 0.1, 10.0),
        ];
        let off = if self.r.chance(0.3) {
            self.scalar(-MAX_INERTIA, MAX_INERTIA, -0.05, 0.05)
        } else {
            F(0.0)
        };
        MassD {
            mass: self.scalar(MIN_MASS, MAX_MASS, 0.1, 100.0),
            center: self.vec(1.0e6, 0.5),
            inertia: [d[0], off, F(0.0), off, d[1], F(0.0), F(0.0), F(0.0), d[2]],
        }
    }
}

impl G<'_> {
    fn char_settings(&mut self) -> CharSetD {
        CharSetD {
            max_slope_angle: self.scalar(0.0, 0.5 * PI, 0.5, 1.0),
            step_height: self.scalar(0.0, 1.0e3, 0.0, 0.5),
            skin: self.scalar(1.0e-4, 1.0, 0.005, 0.05),
            max_strength: self.nonneg(1.0e9, 500.0),
            snap_to_ground: self.nonneg(1.0e3, 0.6),
            mass: self.scalar(1.0e-3, 1.0e9, 30.0, 120.0),
        }
    }
    fn char_def(&mut self) -> CharD {
        let up = if self.r.chance(0.85) {
            [F(0.0), F(1.0), F(0.0)]
        } else if self.bad() {
            [F(0.0); 3]
        } else {
            self.vec(1.0e6, 1.0)
        };
        CharD {
            position: self.pos(),
            up,
            radius: self.scalar(1.0e-3, 1.0e3, 0.2, 0.5),
            half_height: self.scalar(0.0, 1.0e3, 0.0, 1.0),
            filter: if self.r.chance(0.8) {
                (1, u64::MAX)
            } else {
                (self.bits(), self.bits())
            },
            settings: self.char_settings(),
        }
    }
    fn vehicle_def(&mut self, chassis: Pick) -> VehicleD {
        let wheels = if self.bad() {
            self.r.one(&[0, 9, u32::MAX])
        } else if self.r.chance(0.7) {
            4
        } else {
            self.r.below(8) as u32 + 1
        };
        let min_len = self.scalar(0.0, 100.0, 0.0, 0.1);
        let max_len = self.scalar(0.0, 100.0, 0.3, 0.7);
        let rest = if self.r.chance(0.5) {
            max_len
        } else {
            self.scalar(0.0, 1.0e3, 0.1, 0.6)
        };
        let frequency = self.r.chance(0.6);
        let direction = if self.r.chance(0.8) {
            [F(0.0), F(-1.0), F(0.0)]
        } else if self.bad() {
            [F(0.0), F(1.0e-4), F(0.0)]
        } else {
            self.vec(1.0e6, 1.0)
        };
        let wheel = WheelD {
            spread: [
                self.scalar(-1.0e6, 1.0e6, 0.5, 1.0),
                self.scalar(-1.0e6, 1.0e6, 0.8, 1.6),
            ],
            height: self.scalar(-1.0e6, 1.0e6, -0.3, 0.0),
            direction,
            lengths: [min_len, max_len, rest],
            frequency,
            spring: if frequency {
                [
                    self.scalar(1.0e-3, 1.0e3, 1.0, 3.0),
                    self.scalar(0.0, 100.0, 0.2, 1.0),
                ]
            } else {
                [
                    self.scalar(1.0e-3, 1.0e9, 1.0e4, 1.0e5),
                    self.scalar(0.0, 1.0e9, 1.0e2, 5.0e3),
                ]
            },
            radius: self.scalar(1.0e-3, 100.0, 0.25, 0.45),
            width: self.scalar(1.0e-3, 100.0, 0.15, 0.3),
            inertia: self.scalar(1.0e-4, 1.0e9, 0.5, 2.0),
            steer: self.scalar(0.0, 1.5, 0.0, 0.6),
            brakes: [self.nonneg(1.0e9, 3000.0), self.nonneg(1.0e9, 3000.0)],
            curve: [
                self.scalar(1.0e-4, 100.0, 0.05, 0.15),
                self.scalar(0.0, 100.0, 0.8, 1.5),
                self.scalar(1.0e-4, 1000.0, 0.2, 0.5),
                self.scalar(0.0, 100.0, 0.6, 1.2),
            ],
            cast: self.r.below(3) as u8,
        };
        let axes = if self.r.chance(0.9) {
            ([F(0.0), F(1.0), F(0.0)], [F(0.0), F(0.0), F(1.0)])
        } else if self.bad() {
            ([F(0.0), F(1.0), F(0.0)], [F(0.0), F(1.0), F(0.0)])
        } else {
            ([F(1.0), F(0.0), F(0.0)], [F(0.0), F(0.0), F(-1.0)])
        };
        let min_rpm = self.scalar(0.0, 1.0e5, 600.0, 1200.0);
        VehicleD {
            chassis,
            wheels,
            wheel,
            axes,
            engine: [
                self.nonneg(1.0e9, 800.0),
                min_rpm,
                self.scalar(1.0, 1.0e5, 4000.0, 8000.0),
            ],
            gears: (
                if self.bad() {
                    self.r.one(&[0, 9])
                } else {
                    self.r.below(8) as u32 + 1
                },
                self.scalar(1.0e-3, 1000.0, 1.5, 4.0),
            ),
            automatic: self.r.chance(0.7),
            anti_roll: (
                if self.r.chance(0.6) {
                    0
                } else {
                    self.r.below(3) as u32
                },
                self.nonneg(1.0e9, 5.0e3),
                if self.bad() { 0 } else { 1 },
            ),
            drive: self.r.below(3) as u8,
        }
    }
    fn water_def(&mut self) -> WaterD {
        WaterD {
            center: if self.r.chance(0.6) {
                [D(0.0), D(self.r.uniform(-3.0, 3.0)), D(0.0)]
            } else {
                self.pos()
            },
            rotation: if self.r.chance(0.7) {
                [F(0.0), F(0.0), F(0.0), F(1.0)]
            } else {
                self.quat()
            },
            half: [
                self.size(2.0, 20.0),
                self.size(1.0, 6.0),
                self.size(2.0, 20.0),
            ],
            density: self.scalar(0.0, MAX_DENSITY, 300.0, 1500.0),
            drag: [self.nonneg(MAX_SETTING, 2.0), self.nonneg(MAX_SETTING, 2.0)],
            flow: if self.r.chance(0.6) {
                [F(0.0); 3]
            } else {
                self.vec(MAX_VELOCITY, 3.0)
            },
            mask: if self.r.chance(0.85) {
                u64::MAX
            } else {
                self.bits()
            },
        }
    }
}

impl G<'_> {
    fn soft_def(&mut self) -> SoftD {
        let kind = if self.bad() { 2 } else { self.r.below(2) as u8 };
        let n = match kind {
            0 => self.r.below(12) as u32 + 2,
            1 => self.r.below(2) as u32,
            _ => self.r.below(6) as u32 + 1,
        };
        SoftD {
            kind,
            n,
            size: self.size(0.5, 3.0),
            position: self.pos(),
            rotation: self.quat(),
            settings: [
                self.scalar(f32::MIN_POSITIVE, 1.0e6, 0.2, 5.0),
                self.nonneg(MAX_SETTING, 1.0e-4),
                self.nonneg(MAX_SETTING, 1.0),
                self.nonneg(MAX_SETTING, 1.0e-4),
                self.scalar(0.0, 10.0, 0.0, 1.2),
                self.scalar(0.0, 1.0e9, 0.0, 500.0),
                self.scalar(0.0, 1.0e3, 0.0, 1.0),
                self.scalar(0.0, 1.0e3, 0.0, 1.0),
                self.scalar(0.0, 1.0e3, 0.0, 1.0),
                self.scalar(1.0e-4, 10.0, 0.01, 0.1),
                self.scalar(-1.0e3, 1.0e3, 0.0, 1.0),
                if self.r.chance(0.3) {
                    F(0.0)
                } else {
                    self.scalar(1.0, 1.0e3, 1.0, 1.5)
                },
            ],
            substeps: if self.bad() {
                self.r.one(&[0, 65, u32::MAX])
            } else {
                self.r.below(12) as u32 + 1
            },
            self_collision: self.r.chance(0.2),
            mask: if self.r.chance(0.85) {
                u64::MAX
            } else {
                self.bits()
            },
        }
    }

    /// A particle index: usually within a small mesh, sometimes far past any.
    fn particle(&mut self) -> u32 {
        if self.bad() {
            self.r.one(&[200, 10_000, u32::MAX - 1])
        } else {
            self.r.below(40) as u32
        }
    }
}

/// The soft body ops (`w` in 0..10).
fn soft_op(g: &mut G, w: u64) -> Op {
    match w {
        0 | 1 => Op::CreateSoft { def: g.soft_def() },
        2 => Op::DestroySoft { soft: g.pick() },
        3 => Op::SetSoftSettings {
            soft: g.pick(),
            def: g.soft_def(),
        },
        4 => match g.r.below(4) {
            0 | 1 => Op::PinSoft {
                soft: g.pick(),
                index: g.particle(),
                pinned: g.r.chance(0.7),
            },
            2 => Op::SetSoftFilter {
                soft: g.pick(),
                mask: g.bits(),
            },
            _ => Op::SetSoftIgnoresBody {
                soft: g.pick(),
                body: g.pick(),
                ignore: g.r.chance(0.8),
            },
        },
        5 => Op::MoveSoftPoint {
            soft: g.pick(),
            index: g.particle(),
            position: g.pos(),
        },
        6 => Op::SoftImpulse {
            soft: g.pick(),
            index: if g.r.chance(0.3) {
                u32::MAX
            } else {
                g.particle()
            },
            impulse: g.vec(1.0e12, 0.5),
        },
        7 => Op::SetSoftVelocity {
            soft: g.pick(),
            index: g.particle(),
            velocity: g.vec(MAX_VELOCITY, 3.0),
        },
        8 => Op::AttachSoft {
            soft: g.pick(),
            index: g.particle(),
            body: if g.r.chance(0.2) { NULL_PICK } else { g.pick() },
            local: g.vec(1.0e6, 0.5),
        },
        _ => Op::SetSoftTransform {
            soft: g.pick(),
            position: g.pos(),
            rotation: g.quat(),
        },
    }
}

/// The character, vehicle and water ops (`w` in 0..30).
fn more_op(g: &mut G, w: u64, out: &mut Vec<Op>) -> Op {
    match w {
        0..=2 => Op::CreateCharacter { def: g.char_def() },
        3 => Op::DestroyCharacter {
            character: g.pick(),
        },
        4..=7 => {
            let big = g.extreme() && g.r.chance(0.5);
            Op::MoveCharacter {
                character: g.pick(),
                velocity: if big {
                    g.vec(1.0e4, 1.0e4)
                } else {
                    g.vec(1.0e4, 5.0)
                },
                dt: g.scalar(0.0, 10.0, 1.0 / 120.0, 1.0 / 30.0),
            }
        }
        8 => Op::SetCharacterPosition {
            character: g.pick(),
            position: g.pos(),
        },
        9 => Op::SetCharacterSettings {
            character: g.pick(),
            settings: g.char_settings(),
        },
        10 => Op::PokeCharacterBody {
            character: g.pick(),
            kind: g.r.below(6) as u8,
        },
        11..=13 => {
            if g.r.chance(0.6) {
                // A chassis of its own: a dynamic box above the ground.
                let mut def = body_def(g, 2);
                def.linear = [F(0.0); 3];
                def.angular = [F(0.0); 3];
                out.push(Op::CreateBody { def });
                let mut sd = g.shape_def();
                sd.flags &= !2;
                out.push(Op::CreateBox {
                    body: LAST_PICK,
                    def: sd,
                    half: [g.size(0.6, 1.0), g.size(0.2, 0.4), g.size(1.2, 2.2)],
                    center: None,
                });
                Op::CreateVehicle {
                    def: g.vehicle_def(LAST_PICK),
                }
            } else {
                let b = g.pick();
                Op::CreateVehicle {
                    def: g.vehicle_def(b),
                }
            }
        }
        14 => Op::DestroyVehicle { vehicle: g.pick() },
        15..=17 | 28 | 29 => Op::SetVehicleInput {
            vehicle: g.pick(),
            throttle: g.scalar(-1.0, 1.0, -1.0, 1.0),
            steering: g.scalar(-1.0, 1.0, -1.0, 1.0),
            brake: if g.r.chance(0.6) {
                F(0.0)
            } else {
                g.scalar(0.0, 1.0, 0.0, 1.0)
            },
            handbrake: if g.r.chance(0.8) {
                F(0.0)
            } else {
                g.scalar(0.0, 1.0, 0.0, 1.0)
            },
        },
        18 => Op::SetVehicleGear {
            vehicle: g.pick(),
            gear: if g.bad() {
                g.r.one(&[-2, 9, i32::MAX, i32::MIN])
            } else {
                g.r.below(7) as i32 - 1
            },
        },
        19 => Op::DestroyChassis { vehicle: g.pick() },
        20 | 21 => Op::CreateWater { def: g.water_def() },
        22 => Op::DestroyWater { water: g.pick() },
        23 => Op::SetWater {
            water: g.pick(),
            def: g.water_def(),
        },
        24 => Op::SetWaterDensity {
            water: g.pick(),
            v: g.scalar(0.0, MAX_DENSITY, 300.0, 1500.0),
        },
        25 => Op::SetWaterDrag {
            water: g.pick(),
            linear: g.nonneg(MAX_SETTING, 2.0),
            angular: g.nonneg(MAX_SETTING, 2.0),
        },
        26 => Op::SetWaterFlow {
            water: g.pick(),
            flow: g.vec(MAX_VELOCITY, 3.0),
        },
        _ => {
            let d = g.water_def();
            Op::SetWaterRegion {
                water: g.pick(),
                center: d.center,
                rotation: d.rotation,
                half: d.half,
            }
        }
    }
}

fn next_up(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

/// How a case is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Small capacities (overflow rules), a few bodies.
    Small,
    /// Capacities in the hundreds.
    Medium,
    /// A thousand of everything, hundreds of bodies in piles.
    Large,
    /// One of the scenes, then random calls.
    Scene(u8),
    /// Most values at the edges of their ranges.
    Extreme,
}

/// The profile of a seed.
pub fn profile(seed: u64) -> Profile {
    match seed % 8 {
        0..=2 => Profile::Small,
        3 | 4 => Profile::Medium,
        5 => Profile::Large,
        6 => Profile::Scene(((seed / 8) % 7) as u8),
        _ => Profile::Extreme,
    }
}

fn config(r: &mut Rng, p: Profile) -> WorldConfig {
    let mut g = G {
        r,
        mood: Mood::Ordinary,
        bad_at: 0,
        n: 0,
        extreme_p: 0.0,
    };
    let extreme = matches!(p, Profile::Extreme) || g.r.chance(0.15);
    if extreme {
        g.mood = Mood::Extreme;
        g.extreme_p = 0.3;
    }
    let caps: [u32; 9] = match p {
        Profile::Small => {
            let mut c = [0u32; 9];
            for v in &mut c {
                *v = g.r.one(&[1, 2, 4, 8, 16, 32]);
            }
            c[0] = g.r.one(&[4, 8, 16, 32]);
            c[1] = c[0] + g.r.below(16) as u32;
            c
        }
        Profile::Large => [1024, 1024, 8192, 8192, 32, 1024, 16, 1024, 1024],
        Profile::Scene(_) => [1024, 1024, 4096, 4096, 16, 1024, 16, 1024, 256],
        _ => [
            g.r.one(&[64, 128, 256]),
            256,
            g.r.one(&[128, 512, 2048]),
            g.r.one(&[128, 512, 2048]),
            g.r.one(&[4, 16]),
            g.r.one(&[32, 128]),
            g.r.one(&[4, 8]),
            g.r.one(&[8, 64, 256]),
            g.r.one(&[8, 64, 256]),
        ],
    };
    let ordinary = matches!(p, Profile::Scene(_)) || g.r.chance(0.5);
    let dflt = |g: &mut G, v: f32, hi: f32, tlo: f32, thi: f32| {
        if ordinary {
            F(v)
        } else {
            g.scalar(0.0, hi, tlo, thi)
        }
    };
    WorldConfig {
        gravity: if ordinary || g.r.chance(0.5) {
            [F(0.0), F(-10.0), F(0.0)]
        } else {
            g.vec(MAX_GRAVITY, 15.0)
        },
        restitution_threshold: dflt(&mut g, 1.0, MAX_SETTING, 0.0, 2.0),
        contact_hertz: dflt(&mut g, 30.0, MAX_SETTING, 5.0, 120.0),
        contact_damping_ratio: dflt(&mut g, 10.0, MAX_SETTING, 0.0, 20.0),
        contact_push_max_speed: dflt(&mut g, 3.0, MAX_SETTING, 0.0, 10.0),
        joint_damping_ratio: dflt(&mut g, 2.0, MAX_SETTING, 0.0, 5.0),
        max_linear_speed: if ordinary {
            F(400.0)
        } else {
            g.scalar(1.0e-3, MAX_VELOCITY, 10.0, 1000.0)
        },
        hit_event_threshold: dflt(&mut g, 1.0, MAX_SETTING, 0.0, 5.0),
        enable_sleep: g.r.chance(0.7),
        capacities: caps,
        more_capacities: [16, 16, 16],
        content_capacity: g.r.one(&[1 << 14, 1 << 20, 64 << 20]),
        task_workers: if g.r.chance(0.2) {
            g.r.below(4) as u32 + 1
        } else {
            0
        },
    }
}

/// The step arguments: mostly a game's, sometimes the edges of the accepted range.
fn step(g: &mut G, large: bool) -> Op {
    let dt = if g.bad() {
        F(g.r.one(&[0.0, -1.0 / 60.0, f32::NAN, 10.001, 9.9e-5, f32::INFINITY]))
    } else if g.extreme() && !large {
        F(g.r.one(&[1.0e-4, 10.0, 1.0, 0.5, 0.25]))
    } else {
        let any = g.r.uniform(1.0e-4, 0.1) as f32;
        F(g.r.one(&[
            1.0 / 60.0,
            1.0 / 60.0,
            1.0 / 60.0,
            1.0 / 30.0,
            1.0 / 120.0,
            any,
        ]))
    };
    let substeps = if g.bad() {
        g.r.one(&[0, 257, u32::MAX])
    } else if g.extreme() && !large {
        g.r.one(&[1, 64, 128, 256])
    } else {
        g.r.one(&[1, 2, 4, 4, 4, 8])
    };
    Op::Step { dt, substeps }
}

fn body_def(g: &mut G, ty: u8) -> BodyD {
    let mut flags = 1 | 2 | 8;
    if g.r.chance(0.1) {
        flags &= !1;
    }
    if g.r.chance(0.1) {
        flags &= !2;
    }
    if g.r.chance(0.1) {
        flags |= 4;
    }
    if g.r.chance(0.05) {
        flags &= !8;
    }
    if g.r.chance(0.05) {
        flags |= 16;
    }
    let moving = g.r.chance(0.3);
    BodyD {
        ty,
        position: g.pos(),
        rotation: g.quat(),
        linear: if moving {
            g.vec(MAX_VELOCITY, 5.0)
        } else {
            [F(0.0); 3]
        },
        angular: if moving {
            g.vec(MAX_VELOCITY, 3.0)
        } else {
            [F(0.0); 3]
        },
        linear_damping: if g.r.chance(0.7) {
            F(0.0)
        } else {
            g.nonneg(MAX_SETTING, 1.0)
        },
        angular_damping: if g.r.chance(0.7) {
            F(0.0)
        } else {
            g.nonneg(MAX_SETTING, 1.0)
        },
        gravity_scale: if g.r.chance(0.8) {
            F(1.0)
        } else {
            g.scalar(-MAX_GRAVITY, MAX_GRAVITY, -2.0, 2.0)
        },
        sleep_threshold: if g.r.chance(0.8) {
            F(0.05)
        } else {
            g.nonneg(MAX_SETTING, 0.5)
        },
        flags,
        locks: if g.r.chance(0.1) {
            g.r.below(64) as u8
        } else {
            0
        },
    }
}

fn body_type(r: &mut Rng) -> u8 {
    match r.below(10) {
        0 | 1 => 0,
        2 | 3 => 1,
        _ => 2,
    }
}

/// One shape-creating op on body `body`.
fn shape_op(g: &mut G, body: Pick) -> Op {
    let def = g.shape_def();
    match g.r.below(7) {
        0 | 1 => Op::CreateSphere {
            body,
            def,
            center: if g.r.chance(0.7) {
                [F(0.0); 3]
            } else {
                g.vec(1.0e6, 0.5)
            },
            radius: g.size(0.1, 1.0),
        },
        2 => Op::CreateCapsule {
            body,
            def,
            c1: g.vec(1.0e6, 0.5),
            c2: g.vec(1.0e6, 0.5),
            radius: g.size(0.1, 0.6),
        },
        3 | 4 => Op::CreateBox {
            body,
            def,
            half: [g.size(0.1, 1.0), g.size(0.1, 1.0), g.size(0.1, 1.0)],
            center: if g.r.chance(0.5) {
                None
            } else {
                Some((g.vec(1.0e6, 0.5), g.quat()))
            },
        },
        5 => Op::CreateCylinder {
            body,
            def,
            center: g.vec(1.0e6, 0.3),
            rotation: g.quat(),
            half_height: g.size(0.1, 1.0),
            radius: g.size(0.1, 1.0),
        },
        _ => Op::CreateHullShape {
            body,
            def,
            hull: g.pick(),
        },
    }
}

fn hull_spec(g: &mut G) -> HullSpec {
    HullSpec {
        n: g.r.below(61) as u32 + 4,
        scale: [g.size(0.2, 1.0), g.size(0.2, 1.0), g.size(0.2, 1.0)],
        seed: g.r.next_u64() as u32,
        bad: if g.bad() { g.r.below(5) as u8 + 1 } else { 0 },
    }
}

/// Appends one random op (or a few that belong together) to `out`.
fn random_op(r: &mut Rng, p: Profile, early: bool, out: &mut Vec<Op>) {
    let large = p == Profile::Large;
    let mood = match (p, r.below(100)) {
        (Profile::Extreme, 0..=44) => Mood::Extreme,
        (Profile::Extreme, 45..=64) => Mood::Invalid,
        (_, 0..=74) => Mood::Ordinary,
        (_, 75..=89) => Mood::Extreme,
        _ => Mood::Invalid,
    };
    let bad_at = r.below(6) as u32;
    let mut g = G {
        r,
        mood,
        bad_at,
        n: 0,
        extreme_p: 0.3,
    };
    let create_bias = if early { 40 } else { 0 };
    let w = g.r.below(240 + create_bias);
    if w >= 240 {
        // Early on: a body with a shape.
        let ty = body_type(g.r);
        out.push(Op::CreateBody {
            def: body_def(&mut g, ty),
        });
        let op = shape_op(&mut g, LAST_PICK);
        out.push(op);
        return;
    }
    let op = match w {
        0..=39 => step(&mut g, large),
        40..=51 => {
            let ty = body_type(g.r);
            out.push(Op::CreateBody {
                def: body_def(&mut g, ty),
            });
            shape_op(&mut g, LAST_PICK)
        }
        52..=55 => {
            let b = g.pick();
            shape_op(&mut g, b)
        }
        56 => Op::DestroyBody { body: g.pick() },
        57 => Op::DestroyShape { shape: g.pick() },
        58 => Op::SetTransform {
            body: g.pick(),
            position: g.pos(),
            rotation: g.quat(),
        },
        59 | 60 => Op::SetVelocity {
            body: g.pick(),
            linear: g.vec(MAX_VELOCITY, 10.0),
            angular: g.vec(MAX_VELOCITY, 5.0),
        },
        61 => Op::SetLinearVelocity {
            body: g.pick(),
            v: g.vec(MAX_VELOCITY, 10.0),
        },
        62 => Op::SetAngularVelocity {
            body: g.pick(),
            w: g.vec(MAX_VELOCITY, 10.0),
        },
        63 => Op::SetTargetTransform {
            body: g.pick(),
            position: g.pos(),
            rotation: g.quat(),
            time_step: g.scalar(1.0e-4, 10.0, 0.01, 0.1),
        },
        64 => Op::ApplyForceToCenter {
            body: g.pick(),
            force: g.vec(MAX_FORCE, 500.0),
        },
        65 => Op::ApplyForce {
            body: g.pick(),
            force: g.vec(MAX_FORCE, 500.0),
            point: g.point(),
        },
        66 => Op::ApplyTorque {
            body: g.pick(),
            torque: g.vec(MAX_FORCE, 100.0),
        },
        67 => Op::ApplyLinearImpulse {
            body: g.pick(),
            impulse: g.vec(MAX_IMPULSE, 20.0),
            point: g.point(),
        },
        68 => Op::ApplyLinearImpulseToCenter {
            body: g.pick(),
            impulse: g.vec(MAX_IMPULSE, 20.0),
        },
        69 => Op::ApplyAngularImpulse {
            body: g.pick(),
            impulse: g.vec(MAX_IMPULSE, 5.0),
        },
        70 => Op::SetBodyType {
            body: g.pick(),
            ty: body_type(g.r),
        },
        71 => Op::SetBodyEnabled {
            body: g.pick(),
            on: g.r.chance(0.6),
        },
        72 => Op::SetBodyAwake {
            body: g.pick(),
            on: g.r.chance(0.5),
        },
        73 => Op::SetBodySleepEnabled {
            body: g.pick(),
            on: g.r.chance(0.5),
        },
        74 => Op::SetBodySleepThreshold {
            body: g.pick(),
            v: g.nonneg(MAX_SETTING, 0.5),
        },
        75 => Op::SetBodyDamping {
            body: g.pick(),
            linear: g.nonneg(MAX_SETTING, 2.0),
            angular: g.nonneg(MAX_SETTING, 2.0),
        },
        76 => Op::SetBodyGravityScale {
            body: g.pick(),
            scale: g.scalar(-MAX_GRAVITY, MAX_GRAVITY, -2.0, 2.0),
        },
        77 => Op::SetBodyMotionLocks {
            body: g.pick(),
            bits: g.r.below(64) as u8,
        },
        78 => Op::SetBodyCustomIntegrator {
            body: g.pick(),
            on: g.r.chance(0.3),
        },
        79 => Op::SetBodyBullet {
            body: g.pick(),
            on: g.r.chance(0.5),
        },
        80 | 81 => Op::SetBodyMassData {
            body: g.pick(),
            data: if g.r.chance(0.2) {
                None
            } else {
                Some(g.mass())
            },
        },
        82 => Op::SetBodyUserData {
            body: g.pick(),
            data: g.r.next_u64(),
        },
        83 => {
            out.push(Op::CreateBody {
                def: BodyD {
                    ty: 0,
                    ..body_def(&mut g, 0)
                },
            });
            Op::CreatePlane {
                body: LAST_PICK,
                def: g.shape_def(),
                normal: g.vec(1.0e6, 1.0),
                offset: g.scalar(-1.0e6, 1.0e6, -2.0, 2.0),
            }
        }
        84 | 85 => Op::CreateHull {
            spec: hull_spec(&mut g),
        },
        86 => Op::DestroyHull { hull: g.pick() },
        87 | 88 => {
            // Content on a static or kinematic body of its own.
            let ty = if g.r.chance(0.8) { 0 } else { 1 };
            out.push(Op::CreateBody {
                def: body_def(&mut g, ty),
            });
            let kind = g.r.below(3);
            let big = g.extreme();
            match kind {
                0 => out.push(Op::CreateMesh {
                    spec: MeshSpec {
                        nx: if big { 256 } else { g.r.below(15) as u32 + 2 },
                        nz: g.r.below(15) as u32 + 2,
                        cell: g.size(0.3, 2.0),
                        amp: g.scalar(-1.0e3, 1.0e3, -0.5, 0.5),
                        offset: g.vec(1.0e4, 10.0),
                        bad: if g.bad() { g.r.below(5) as u8 + 1 } else { 0 },
                    },
                }),
                1 => out.push(Op::CreateHeightField {
                    spec: HeightD {
                        nx: if big { 4096 } else { g.r.below(31) as u32 + 2 },
                        nz: g.r.below(31) as u32 + 2,
                        scale: [g.size(0.2, 2.0), g.size(0.5, 2.0), g.size(0.2, 2.0)],
                        amp: g.scalar(-1.0e3, 1.0e3, -1.0, 1.0),
                        holes: if g.r.chance(0.3) {
                            g.r.below(7) as u32 + 2
                        } else {
                            0
                        },
                        bad: if g.bad() { g.r.below(3) as u8 + 1 } else { 0 },
                    },
                }),
                _ => out.push(Op::CreateVoxelGrid {
                    size: g.scalar(1.0e-3, 1.0e4, 0.1, 1.0),
                    origin: g.vec(1.0e6, 10.0),
                    pattern: g.r.below(5) as u8,
                    bad_length: g.bad(),
                }),
            }
            let mut def = g.shape_def();
            def.flags &= !2;
            Op::CreateMeshShape {
                body: LAST_PICK,
                def,
                mesh: LAST_PICK,
                voxel: kind == 2 && g.r.chance(0.5),
            }
        }
        89 => {
            let b = g.pick();
            Op::CreateMeshShape {
                body: b,
                def: g.shape_def(),
                mesh: g.pick(),
                voxel: g.r.chance(0.3),
            }
        }
        90 => {
            let c = |g: &mut G| {
                if g.bad() {
                    g.r.one(&[-1, 16, i32::MAX, i32::MIN])
                } else {
                    g.r.below(16) as i32
                }
            };
            Op::SetVoxel {
                grid: g.pick(),
                at: [c(&mut g), c(&mut g), c(&mut g)],
                material: g.r.below(4) as u8,
            }
        }
        91 => {
            let lo = [
                g.r.below(16) as i32,
                g.r.below(16) as i32,
                g.r.below(16) as i32,
            ];
            let bad = g.bad();
            let hi = [
                if bad {
                    lo[0] - 1
                } else {
                    lo[0] + g.r.below(16 - lo[0] as u64) as i32
                },
                lo[1] + g.r.below(16 - lo[1] as u64) as i32,
                lo[2] + g.r.below(16 - lo[2] as u64) as i32,
            ];
            Op::FillVoxels {
                grid: g.pick(),
                min: lo,
                max: hi,
                material: g.r.below(4) as u8,
            }
        }
        92 => Op::ClearVoxel {
            grid: g.pick(),
            at: [
                g.r.below(16) as i32,
                g.r.below(16) as i32,
                g.r.below(16) as i32,
            ],
        },
        93 => Op::DestroyMesh { mesh: g.pick() },
        94 => Op::SetShapeFriction {
            shape: g.pick(),
            v: g.nonneg(MAX_MATERIAL, 1.0),
        },
        95 => Op::SetShapeRestitution {
            shape: g.pick(),
            v: g.nonneg(MAX_MATERIAL, 1.0),
        },
        96 => Op::SetShapeRollingResistance {
            shape: g.pick(),
            v: g.nonneg(MAX_MATERIAL, 0.2),
        },
        97 => Op::SetShapeDensity {
            shape: g.pick(),
            v: g.nonneg(MAX_DENSITY, 3000.0),
        },
        98 => Op::SetShapeFilter {
            shape: g.pick(),
            category: g.bits(),
            mask: g.bits(),
            group: g.r.below(5) as i32 - 2,
        },
        99 | 100 => {
            // A sensor, made an area.
            let mut def = g.shape_def();
            def.flags |= 2;
            let size = g.size(1.0, 5.0);
            out.push(Op::CreateBody {
                def: body_def(&mut g, 0),
            });
            out.push(Op::CreateSphere {
                body: LAST_PICK,
                def,
                center: [F(0.0); 3],
                radius: size,
            });
            let point = g.r.chance(0.5);
            Op::SetShapeArea {
                shape: LAST_PICK,
                area: if g.r.chance(0.1) {
                    None
                } else {
                    Some(AreaD {
                        priority: g.r.below(5) as i32 - 2,
                        gravity_mode: g.r.below(5) as u8,
                        point,
                        gravity: g.vec(if point { 1.0e6 } else { MAX_GRAVITY }, 15.0),
                        strength: g.scalar(-MAX_GRAVITY, MAX_GRAVITY, -20.0, 20.0),
                        unit_distance: g.nonneg(1.0e6, 3.0),
                        linear_mode: g.r.below(5) as u8,
                        linear_damping: g.nonneg(MAX_SETTING, 2.0),
                        angular_mode: g.r.below(5) as u8,
                        angular_damping: g.nonneg(MAX_SETTING, 2.0),
                    })
                },
            }
        }
        101 => {
            let mut def = g.shape_def();
            def.flags |= 2;
            let b = g.pick();
            let op = shape_op(&mut g, b);
            match op {
                Op::CreateSphere {
                    body,
                    center,
                    radius,
                    ..
                } => Op::CreateSphere {
                    body,
                    def,
                    center,
                    radius,
                },
                other => other,
            }
        }
        102..=113 => {
            let world_anchor = if g.r.chance(0.4) {
                Some(g.point())
            } else {
                None
            };
            let far = g.extreme() && g.r.chance(0.3);
            Op::CreateJoint {
                spec: JointSpec {
                    a: g.pick(),
                    b: g.pick(),
                    frame_a: (
                        if far {
                            [F(1.2e6), F(0.0), F(0.0)]
                        } else {
                            g.vec(1.0e6, 1.0)
                        },
                        g.quat(),
                    ),
                    frame_b: (g.vec(1.0e6, 1.0), g.quat()),
                    world_anchor,
                    collide: g.r.chance(0.3),
                    break_force: if g.r.chance(0.8) {
                        F(f32::MAX)
                    } else {
                        g.nonneg(f32::MAX, 1.0e4)
                    },
                    break_torque: if g.r.chance(0.8) {
                        F(f32::MAX)
                    } else {
                        g.nonneg(f32::MAX, 1.0e4)
                    },
                    kind: g.joint_kind(),
                },
            }
        }
        114 => Op::DestroyJoint { joint: g.pick() },
        115 => Op::SetJointEnableMotor {
            joint: g.pick(),
            on: g.r.chance(0.5),
        },
        116 => Op::SetJointMotorSpeed {
            joint: g.pick(),
            v: g.scalar(-MAX_VELOCITY, MAX_VELOCITY, -5.0, 5.0),
        },
        117 => Op::SetJointMaxMotorForce {
            joint: g.pick(),
            v: g.nonneg(MAX_FORCE, 100.0),
        },
        118 => Op::SetJointEnableLimit {
            joint: g.pick(),
            on: g.r.chance(0.5),
        },
        119 => {
            let lower = g.scalar(-1.0e6, 1.0e6, -1.0, 0.0);
            Op::SetJointLimits {
                joint: g.pick(),
                lower,
                upper: g.scalar(-1.0e6, 1.0e6, 0.0, 1.0),
            }
        }
        120 => Op::SetJointEnableSpring {
            joint: g.pick(),
            on: g.r.chance(0.5),
        },
        121 => Op::SetJointSpring {
            joint: g.pick(),
            hertz: g.nonneg(MAX_SETTING, 5.0),
            damping: g.nonneg(MAX_SETTING, 1.0),
        },
        122 => Op::SetWeldSpring {
            joint: g.pick(),
            linear_hertz: g.nonneg(MAX_SETTING, 5.0),
            angular_hertz: g.nonneg(MAX_SETTING, 5.0),
            damping: g.nonneg(MAX_SETTING, 1.0),
        },
        123 => Op::SetDistanceLength {
            joint: g.pick(),
            v: g.scalar(0.0, 1.0e6, 0.2, 3.0),
        },
        124 => {
            let min = g.scalar(0.0, 1.0e6, 0.0, 1.0);
            Op::SetDistanceRange {
                joint: g.pick(),
                min,
                max: g.scalar(0.0, 1.0e6, 1.0, 3.0),
            }
        }
        125 => Op::SetConeSwingLimit {
            joint: g.pick(),
            v: g.scalar(0.0, PI, 0.0, 1.5),
        },
        126 => {
            let i = if g.bad() { 6 } else { g.r.below(6) as u32 };
            Op::SetSixDofAxis {
                joint: g.pick(),
                axis: i,
                value: g.axis(i < 3),
            }
        }
        127 => Op::SetJointBreakThresholds {
            joint: g.pick(),
            force: g.nonneg(f32::MAX, 1.0e4),
            torque: g.nonneg(f32::MAX, 1.0e4),
        },
        128 => Op::SetJointCollideConnected {
            joint: g.pick(),
            on: g.r.chance(0.5),
        },
        129 => Op::SetJointUserData {
            joint: g.pick(),
            data: g.r.next_u64(),
        },
        130..=140 => {
            let kind = g.r.below(14) as u8;
            Op::Query {
                kind,
                at: g.point(),
                dir: g.vec(1.0e6, 10.0),
                size: g.size(0.1, 1.0),
                pick: g.pick(),
            }
        }
        141 => Op::SetGravity {
            g: if g.r.chance(0.5) {
                [F(0.0), F(-10.0), F(0.0)]
            } else {
                g.vec(MAX_GRAVITY, 15.0)
            },
        },
        142 => Op::EnableSleep {
            on: g.r.chance(0.6),
        },
        143 => {
            // Multiples of 2^-32 when valid.
            let c = |g: &mut G| {
                if g.bad() {
                    D(g.r.one(&[4194304.0, f64::NAN, 0.1, 1.0 / 3.0]))
                } else if g.extreme() {
                    D(g.r.one(&[1.0e6, -2.0e6, 4194303.0, 1.0 / 4294967296.0]))
                } else {
                    D((g.r.below(41) as f64 - 20.0) * 0.5)
                }
            };
            Op::ShiftOrigin {
                offset: [c(&mut g), c(&mut g), c(&mut g)],
            }
        }
        144 => Op::SetJointDampingRatio {
            ratio: g.nonneg(MAX_SETTING, 5.0),
        },
        145 => Op::SolveOneAtATime {
            on: g.r.chance(0.5),
        },
        146 => Op::SetPreSolve {
            on: g.r.chance(0.6),
        },
        147 | 148 => Op::Explode {
            position: g.point(),
            radius: g.nonneg(1.0e6, 5.0),
            falloff: g.nonneg(1.0e6, 5.0),
            impulse_per_area: g.scalar(-MAX_IMPULSE, MAX_IMPULSE, -5.0, 50.0),
            mask: g.bits(),
        },
        149..=153 => Op::Save {
            slot: g.r.below(4) as u8,
        },
        154..=157 => Op::Restore {
            slot: g.r.below(4) as u8,
        },
        158 => Op::RestoreDamaged {
            slot: g.r.below(4) as u8,
            byte: g.r.next_u64() as u32,
            bit: g.r.below(8) as u8,
        },
        159 | 160 => Op::StartJournal {
            capacity: if g.r.chance(0.15) {
                g.r.one(&[0, 15, 16, 64, 400])
            } else {
                4 << 20
            },
        },
        161 | 162 => Op::StopJournal,
        163 => Op::ReplayLastTape,
        164..=167 => {
            if large {
                Op::Query {
                    kind: 11,
                    at: g.point(),
                    dir: g.vec(1.0e6, 10.0),
                    size: F(0.5),
                    pick: 0,
                }
            } else {
                Op::Pile {
                    n: g.r.below(12) as u32 + 2,
                    kind: g.r.below(5) as u8,
                    origin: g.pos(),
                    spacing: g.size(1.0, 2.5),
                    size: g.size(0.2, 0.5),
                }
            }
        }
        200..=229 => more_op(&mut g, w - 200, out),
        230..=239 => soft_op(&mut g, w - 230),
        _ => step(&mut g, large),
    };
    out.push(op);
}

/// The scene ops of `Profile::Scene(k)`: the situations the issue names.
fn scene(r: &mut Rng, k: u8, out: &mut Vec<Op>) {
    let zero = [D(0.0); 3];
    match k {
        0 => {
            // A long chain with a heavy end at a few substeps: must not gain energy.
            let n = r.one(&[50, 100, 200]);
            let ratio = r.one(&[100.0, 1000.0]);
            out.push(Op::Chain {
                n,
                ratio: F(ratio),
                link: F(0.5),
                origin: [D(0.0), D(n as f64 * 0.6), D(0.0)],
            });
            out.push(Op::CheckEnergy {
                steps: 300,
                dt: F(1.0 / 60.0),
                substeps: 4,
                slack: F(0.25),
            });
        }
        1 => {
            // Fast capsules onto a height field (continuous collision).
            out.push(Op::Ground {
                kind: 3,
                origin: [D(-4.0), D(0.0), D(-4.0)],
                size: F(32.0),
            });
            out.push(Op::Bullets {
                n: r.one(&[10, 20, 40]),
                speed: F(r.one(&[50.0, 150.0, 390.0])),
                origin: [D(-3.0), D(4.0), D(-3.0)],
            });
            for _ in 0..30 {
                out.push(Op::Step {
                    dt: F(1.0 / 60.0),
                    substeps: 4,
                });
            }
        }
        2 => {
            // A huge sphere spinning fast on a static box.
            out.push(Op::Ground {
                kind: 0,
                origin: zero,
                size: F(1.0e6),
            });
            let radius = r.one(&[1.0e5, 168_384.0, 1.0e6]);
            out.push(Op::CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(0.0), D(radius as f64 + 0.01), D(0.0)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(0.0); 3],
                    angular: [F(0.0), F(0.0), F(r.one(&[100.0, 2546.0, 1.0e5]))],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 1 | 2 | 8,
                    locks: 0,
                },
            });
            out.push(Op::CreateSphere {
                body: LAST_PICK,
                def: ShapeD {
                    density: F(r.one(&[1000.0, 1.0e5])),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: u64::MAX,
                    group: 0,
                    flags: 1 | 4,
                },
                center: [F(0.0); 3],
                radius: F(radius),
            });
            for _ in 0..10 {
                out.push(Op::Step {
                    dt: F(1.0 / 30.0),
                    substeps: 4,
                });
            }
        }
        3 => {
            // Two bodies far apart on a joint, one with its rotation locked.
            let d = r.one(&[1.0e5, 1.2e6]);
            for (i, x) in [(0u8, 0.0), (1, d)] {
                out.push(Op::CreateBody {
                    def: BodyD {
                        ty: 2,
                        position: [D(x), D(10.0), D(0.0)],
                        rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                        linear: [F(0.0); 3],
                        angular: [F(0.0); 3],
                        linear_damping: F(0.0),
                        angular_damping: F(0.0),
                        gravity_scale: F(1.0),
                        sleep_threshold: F(0.05),
                        flags: 1 | 2 | 8,
                        locks: if i == 1 { 56 } else { 0 },
                    },
                });
                out.push(Op::CreateSphere {
                    body: LAST_PICK,
                    def: ShapeD {
                        density: F(1000.0),
                        friction: F(0.6),
                        restitution: F(0.0),
                        rolling: F(0.0),
                        category: 1,
                        mask: u64::MAX,
                        group: 0,
                        flags: 1 | 4,
                    },
                    center: [F(0.0); 3],
                    radius: F(0.5),
                });
            }
            let kind = match r.below(3) {
                0 => JointD::Spherical,
                1 => JointD::ConeTwist {
                    swing: F(0.5),
                    twist_lower: F(-0.5),
                    twist_upper: F(0.5),
                    friction: F(0.0),
                },
                _ => JointD::Weld {
                    linear_hertz: F(0.0),
                    angular_hertz: F(0.0),
                    damping: F(1.0),
                },
            };
            out.push(Op::CreateJoint {
                spec: JointSpec {
                    a: ANY_PICK,
                    b: ANY_PICK | 1,
                    frame_a: ([F(0.0); 3], [F(0.0), F(0.0), F(0.0), F(1.0)]),
                    frame_b: (
                        [F(-(d as f32)), F(0.0), F(0.0)],
                        [F(0.0), F(0.0), F(0.0), F(1.0)],
                    ),
                    world_anchor: None,
                    collide: false,
                    break_force: F(f32::MAX),
                    break_torque: F(f32::MAX),
                    kind,
                },
            });
            out.push(Op::SetVelocity {
                body: ANY_PICK | 1,
                linear: [F(0.0), F(50.0), F(10.0)],
                angular: [F(0.0); 3],
            });
            for _ in 0..20 {
                out.push(Op::Step {
                    dt: F(r.one(&[1.0 / 60.0, 0.091_779_57])),
                    substeps: 4,
                });
            }
        }
        4 => {
            // A body resting on a mesh or height field, then jointed to the mesh's body.
            let kind = r.one(&[2u8, 3, 4]);
            out.push(Op::Ground {
                kind,
                origin: zero,
                size: F(8.0),
            });
            out.push(Op::CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(0.3), D(1.0), D(0.2)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(0.0); 3],
                    angular: [F(0.0); 3],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(1.0),
                    sleep_threshold: F(0.05),
                    flags: 1 | 2 | 8,
                    locks: 0,
                },
            });
            out.push(Op::CreateBox {
                body: LAST_PICK,
                def: ShapeD {
                    density: F(1000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: u64::MAX,
                    group: 0,
                    flags: 1 | 4,
                },
                half: [F(0.4); 3],
                center: None,
            });
            for _ in 0..40 {
                out.push(Op::Step {
                    dt: F(1.0 / 60.0),
                    substeps: 4,
                });
            }
            out.push(Op::CreateJoint {
                spec: JointSpec {
                    a: ANY_PICK,
                    b: LAST_PICK,
                    frame_a: ([F(0.0), F(1.0), F(0.0)], [F(0.0), F(0.0), F(0.0), F(1.0)]),
                    frame_b: ([F(0.0); 3], [F(0.0), F(0.0), F(0.0), F(1.0)]),
                    world_anchor: None,
                    collide: false,
                    break_force: F(f32::MAX),
                    break_torque: F(f32::MAX),
                    kind: JointD::Spherical,
                },
            });
            for _ in 0..5 {
                out.push(Op::Step {
                    dt: F(1.0 / 60.0),
                    substeps: 4,
                });
            }
        }
        6 => {
            // Giants: very large but valid shapes and masses, touching.
            out.push(Op::Ground {
                kind: r.below(2) as u8,
                origin: zero,
                size: F(1.0e6),
            });
            let n = r.below(8) + 4;
            for i in 0..n {
                let size = r.one(&[1.0e5, 1.7e5, 5.0e5, 1.0e6]);
                let x = (i % 3) as f64 * 1.5 * size as f64 - 1.0e6;
                let y = size as f64 + (i / 3) as f64 * 1.8 * size as f64 + 1.0;
                out.push(Op::CreateBody {
                    def: BodyD {
                        ty: 2,
                        position: [D(x), D(y), D(r.uniform(-1.0e5, 1.0e5))],
                        rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                        linear: [F(0.0), F(r.one(&[0.0, -100.0, -1.0e4])), F(0.0)],
                        angular: [F(0.0), F(r.one(&[0.0, 10.0, 3000.0])), F(0.0)],
                        linear_damping: F(0.0),
                        angular_damping: F(0.0),
                        gravity_scale: F(1.0),
                        sleep_threshold: F(0.05),
                        flags: 1 | 2 | 8,
                        locks: 0,
                    },
                });
                let def = ShapeD {
                    density: F(r.one(&[1.0, 1000.0, 1.0e5])),
                    friction: F(0.6),
                    restitution: F(r.one(&[0.0, 0.5])),
                    rolling: F(0.0),
                    category: 1,
                    mask: u64::MAX,
                    group: 0,
                    flags: 1 | 4,
                };
                out.push(if r.chance(0.5) {
                    Op::CreateSphere {
                        body: LAST_PICK,
                        def,
                        center: [F(0.0); 3],
                        radius: F(size),
                    }
                } else {
                    Op::CreateBox {
                        body: LAST_PICK,
                        def,
                        half: [F(size), F(0.5 * size), F(size)],
                        center: None,
                    }
                });
            }
            for _ in 0..20 {
                out.push(Op::Step {
                    dt: F(r.one(&[1.0 / 60.0, 1.0 / 30.0])),
                    substeps: 4,
                });
            }
        }
        _ => {
            // A body thrown beyond ±2^22, destroyed, and the world stepped on.
            out.push(Op::Ground {
                kind: 0,
                origin: zero,
                size: F(50.0),
            });
            out.push(Op::CreateBody {
                def: BodyD {
                    ty: 2,
                    position: [D(2_000_000.0), D(10.0), D(0.0)],
                    rotation: [F(0.0), F(0.0), F(0.0), F(1.0)],
                    linear: [F(MAX_VELOCITY), F(0.0), F(0.0)],
                    angular: [F(0.0); 3],
                    linear_damping: F(0.0),
                    angular_damping: F(0.0),
                    gravity_scale: F(0.0),
                    sleep_threshold: F(0.05),
                    flags: 1 | 2 | 8,
                    locks: 0,
                },
            });
            out.push(Op::CreateSphere {
                body: LAST_PICK,
                def: ShapeD {
                    density: F(1000.0),
                    friction: F(0.6),
                    restitution: F(0.0),
                    rolling: F(0.0),
                    category: 1,
                    mask: u64::MAX,
                    group: 0,
                    flags: 1 | 4,
                },
                center: [F(0.0); 3],
                radius: F(1.0),
            });
            for _ in 0..3 {
                out.push(Op::Step {
                    dt: F(10.0),
                    substeps: 1,
                });
            }
            out.push(Op::DestroyBody { body: LAST_PICK });
            for _ in 0..3 {
                out.push(Op::Step {
                    dt: F(1.0 / 60.0),
                    substeps: 4,
                });
            }
        }
    }
}

/// The case of `seed`, with about `ops` random ops (scenes add their own).
pub fn case(seed: u64, ops: usize) -> Case {
    let mut r = Rng(seed ^ 0x6d61_756c_3364_7072);
    let p = profile(seed);
    let mut config = config(&mut r, p);
    // The character, vehicle and water capacities, from a stream of their own: small
    // ones (0 included) make their pools refuse.
    let mut rc = Rng(seed ^ 0x6368_6172_7665_6877);
    config.more_capacities = match p {
        Profile::Small => [
            rc.one(&[0, 1, 2, 4]),
            rc.one(&[0, 1, 2, 4]),
            rc.one(&[0, 1, 2, 4]),
        ],
        _ if rc.chance(0.3) => [rc.one(&[1, 2, 8]), rc.one(&[1, 2, 8]), rc.one(&[1, 2, 8])],
        _ => [16, 16, 16],
    };
    if p == Profile::Scene(5) {
        // Fast enough to leave ±2^22 within a few long steps.
        config.max_linear_speed = F(MAX_VELOCITY);
    }
    let mut out = Vec::with_capacity(ops + 16);
    match p {
        Profile::Large => {
            out.push(Op::Ground {
                kind: r.below(5) as u8,
                origin: [D(0.0); 3],
                size: F(40.0),
            });
            for _ in 0..r.below(3) + 1 {
                out.push(Op::Pile {
                    n: r.below(250) as u32 + 50,
                    kind: r.below(5) as u8,
                    origin: [D(r.uniform(-20.0, 10.0)), D(1.0), D(r.uniform(-20.0, 10.0))],
                    spacing: F(1.2),
                    size: F(0.4),
                });
            }
        }
        Profile::Scene(k) => scene(&mut r, k, &mut out),
        _ => {
            if r.chance(0.8) {
                out.push(Op::Ground {
                    kind: r.below(5) as u8,
                    origin: [D(0.0), D(r.uniform(-2.0, 0.0)), D(0.0)],
                    size: F(r.one(&[10.0, 20.0, 50.0])),
                });
            }
        }
    }
    let n = match p {
        Profile::Large => ops / 3,
        _ => ops,
    };
    let start = out.len();
    while out.len() < start + n {
        let early = out.len() < start + n / 6;
        random_op(&mut r, p, early, &mut out);
    }
    Case { config, ops: out }
}
