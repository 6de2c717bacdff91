//! Box3D's benchmark scenes as plain data, built as `shared/BENCH_SCENES.md` gives them.
//!
//! A [`Scene`] says what to create and in which order (creation order decides ids in every
//! engine); the engine sides translate it and add nothing. Coordinates are computed in
//! `f32` in the document's order of operations, as Box3D does, then widened to `f64` for
//! body positions, so every engine starts from the same bits.

use maul3d::math::{DVec3, PI, Quat, Vec3, sin_cos};

/// The scenes, in the order the tool runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneName {
    /// 5,050 cubes in a one-cube-thick pyramid wall.
    LargePyramid,
    /// 14 × 14 small pyramids of base 10.
    ManyPyramids,
    /// 100 × 100 spheres joined by spherical joints.
    JointGrid,
    /// 5,120 copies of one 32-point hull dropped in layers.
    ConvexPile,
    /// 8,000 cubes in a turning kinematic drum.
    Washer,
    /// Ragdolls spawned and removed continuously over a triangle-mesh grid.
    Rain,
    /// Hulls raining onto a wavy triangle-mesh terrain (Jolt's ConvexVsMesh).
    ConvexVsMesh,
    /// Hulls and boxes raining onto a terrain of voxel chunks.
    Voxels,
    /// Fast capsules fired again and again into a height field (continuous collision).
    FastCapsules,
    /// 100 rolling spheres beside 10,000 sleeping cubes: what sleepers cost a step.
    SleepingCrowd,
    /// 100 ray-cast-wheel vehicles driving curves on a height field.
    Vehicles,
    /// 500 kinematic capsule characters walking a level of boxes, steps and ramps.
    Characters,
}

impl SceneName {
    /// Every scene, in the document's order.
    pub const ALL: [SceneName; 12] = [
        SceneName::LargePyramid,
        SceneName::ManyPyramids,
        SceneName::JointGrid,
        SceneName::ConvexPile,
        SceneName::Washer,
        SceneName::Rain,
        SceneName::ConvexVsMesh,
        SceneName::Voxels,
        SceneName::FastCapsules,
        SceneName::SleepingCrowd,
        SceneName::Vehicles,
        SceneName::Characters,
    ];

    /// The name used on the command line and in the output.
    pub fn as_str(self) -> &'static str {
        match self {
            SceneName::LargePyramid => "large_pyramid",
            SceneName::ManyPyramids => "many_pyramids",
            SceneName::JointGrid => "joint_grid",
            SceneName::ConvexPile => "convex_pile",
            SceneName::Washer => "washer",
            SceneName::Rain => "rain",
            SceneName::ConvexVsMesh => "convex_vs_mesh",
            SceneName::Voxels => "voxels",
            SceneName::FastCapsules => "fast_capsules",
            SceneName::SleepingCrowd => "sleeping_crowd",
            SceneName::Vehicles => "vehicles",
            SceneName::Characters => "characters",
        }
    }

    /// The scene with this name, if any.
    pub fn from_name(name: &str) -> Option<SceneName> {
        SceneName::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The feature Maul3D still lacks for this scene, or `None` when its Maul3D side can
    /// be built (the Rapier side builds every scene).
    pub fn missing_feature(self) -> Option<&'static str> {
        None
    }

    /// The scene description, or the missing feature's name for scenes not described yet.
    pub fn build(self) -> Result<Scene, &'static str> {
        match self {
            SceneName::LargePyramid => Ok(large_pyramid()),
            SceneName::ManyPyramids => Ok(many_pyramids()),
            SceneName::JointGrid => Ok(joint_grid()),
            SceneName::ConvexPile => Ok(convex_pile()),
            SceneName::Washer => Ok(washer()),
            SceneName::Rain => Ok(rain()),
            SceneName::ConvexVsMesh => Ok(convex_vs_mesh()),
            SceneName::Voxels => Ok(voxels()),
            SceneName::FastCapsules => Ok(fast_capsules()),
            SceneName::SleepingCrowd => Ok(sleeping_crowd(SLEEPING_CROWD_SLEEPERS)),
            SceneName::Vehicles => Ok(vehicles()),
            SceneName::Characters => Ok(characters()),
        }
    }
}

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Never moves.
    Static,
    /// Moves at its set velocity; pushes dynamic bodies, is not pushed.
    Kinematic,
    /// Moved by gravity and contacts.
    Dynamic,
}

/// A shape's geometry, in its body's frame, centred on the body origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Geometry {
    /// An axis-aligned box with these half-extents.
    Box {
        /// Half-extents.
        half: Vec3,
    },
    /// The convex hull of `Scene::hulls[index]`, shared by every shape that names it.
    Hull {
        /// Index into [`Scene::hulls`].
        index: usize,
    },
    /// A sphere at the body origin.
    Sphere {
        /// Radius.
        radius: f32,
    },
    /// The triangle mesh `Scene::meshes[index]` (static bodies only).
    Mesh {
        /// Index into [`Scene::meshes`].
        index: usize,
    },
    /// The voxel chunk `Scene::voxels[index - Scene::meshes.len()]`: static content is
    /// indexed meshes first, then voxel chunks (static bodies only).
    Voxels {
        /// Index into the content list (meshes, then voxel chunks).
        index: usize,
    },
    /// The height field `Scene::height_fields[index]`, its sample (0, 0) at the body
    /// origin (static bodies only).
    HeightField {
        /// Index into [`Scene::height_fields`].
        index: usize,
    },
    /// A capsule between two points of the body frame.
    Capsule {
        /// One end of the segment.
        a: Vec3,
        /// The other end.
        b: Vec3,
        /// Radius.
        radius: f32,
    },
}

/// A shape's collision filter: two shapes collide when each one's category is in the
/// other's mask (Box3D's rule, Rapier's memberships and filter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilterDesc {
    /// Categories the shape belongs to.
    pub category: u32,
    /// Categories it collides with.
    pub mask: u32,
}

impl FilterDesc {
    /// Category 1, colliding with everything.
    pub const DEFAULT: FilterDesc = FilterDesc {
        category: 1,
        mask: u32::MAX,
    };
}

/// What a joint constrains. Every joint's bodies start with identity rotations, so its
/// frame is given in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointShape {
    /// Ball and socket.
    Spherical,
    /// Ball with a cone of half-angle `swing` around `axis` and twist within ±`twist`
    /// about it.
    Cone {
        /// Half-angle of the swing cone, radians.
        swing: f32,
        /// Largest twist either way, radians.
        twist: f32,
    },
    /// Hinge about `axis` with the angle within `[lower, upper]`.
    Hinge {
        /// Lowest angle, radians.
        lower: f32,
        /// Highest angle, radians.
        upper: f32,
    },
}

/// A joint between two bodies of a scene; their shapes do not collide with each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointDesc {
    /// Index of the first body (in `Scene::bodies`, or in a ragdoll's bones).
    pub body_a: usize,
    /// Index of the second body.
    pub body_b: usize,
    /// The joint's anchor in world space (or relative to a ragdoll's origin).
    pub anchor: DVec3,
    /// The cone's twist axis or the hinge's axis (unit, world space).
    pub axis: Vec3,
    /// What it constrains.
    pub kind: JointShape,
    /// Friction torque on its angular motion, N·m (0: none).
    pub friction: f32,
}

/// A ragdoll's bones (positions relative to its feet) and joints (between bones).
#[derive(Clone, Debug, PartialEq)]
pub struct Ragdoll {
    /// The bones, dynamic capsules, in creation order.
    pub bones: Vec<BodyDesc>,
    /// The joints, between bone indices, anchors relative to the feet.
    pub joints: Vec<JointDesc>,
}

/// Ragdolls created and destroyed while the scene runs, as Box3D's `StepRain`: at every
/// step whose number ANDed with `spawn_mask` is zero, one column of a `cells` × `cells`
/// grid of `cell_size` m cells gets a group of `group_size` ragdolls in each of its cells
/// (dropped at the cell's centre from `height`, `spacing` m apart along x): the first
/// `cells` spawns fill the columns in order; after that each spawn destroys the groups of
/// the next column (round robin) and makes them again.
#[derive(Clone, Debug, PartialEq)]
pub struct Rain {
    /// A step spawns when `step & spawn_mask == 0`.
    pub spawn_mask: usize,
    /// Ragdolls per group.
    pub group_size: usize,
    /// Cells per side of the grid.
    pub cells: usize,
    /// Cell size, m.
    pub cell_size: f32,
    /// Height the ragdolls start at, m.
    pub height: f32,
    /// Distance between the ragdolls of a group along x, m.
    pub spacing: f32,
    /// The ragdoll.
    pub ragdoll: Ragdoll,
}

impl Rain {
    /// Whether `step` spawns.
    pub fn spawns(&self, step: usize) -> bool {
        step & self.spawn_mask == 0
    }

    /// The column spawn number `n` (from 0) fills, and whether it first destroys the
    /// groups there.
    pub fn column(&self, n: usize) -> (usize, bool) {
        if n < self.cells {
            (n, false)
        } else {
            ((n - self.cells) % self.cells, true)
        }
    }

    /// Where ragdoll `r` of the group in cell (`row`, `column`) starts (its feet).
    pub fn origin(&self, row: usize, column: usize, r: usize) -> DVec3 {
        let half = 0.5 * self.cells as f32 * self.cell_size;
        let x = -half + self.cell_size * (column as f32 + 0.5) + self.spacing * r as f32;
        let z = -half + self.cell_size * (row as f32 + 0.5);
        DVec3::new(x as f64, self.height as f64, z as f64)
    }

    /// Groups, one a cell.
    pub fn group_count(&self) -> usize {
        self.cells * self.cells
    }

    /// Bodies alive at most at once.
    pub fn max_bodies(&self) -> usize {
        self.group_count() * self.group_size * self.ragdoll.bones.len()
    }

    /// Joints alive at most at once.
    pub fn max_joints(&self) -> usize {
        self.group_count() * self.group_size * self.ragdoll.joints.len()
    }
}

/// A triangle mesh: vertices and triangles (vertex indices).
#[derive(Clone, Debug, PartialEq)]
pub struct MeshDesc {
    /// Vertex positions in the body frame.
    pub vertices: Vec<Vec3>,
    /// Three vertex indices per triangle, counter-clockwise seen from the front (up).
    pub triangles: Vec<[u32; 3]>,
}

/// A square grid of `cells × cells` cells of `cell` m centred on the origin, two
/// triangles a cell, lifted by `height(x, z)` at each vertex (x, z its position).
pub fn grid_mesh(cells: u32, cell: f32, height: impl Fn(f32, f32) -> f32) -> MeshDesc {
    let half = 0.5 * cells as f32 * cell;
    let mut vertices = Vec::with_capacity(((cells + 1) * (cells + 1)) as usize);
    for z in 0..=cells {
        for x in 0..=cells {
            let (px, pz) = (x as f32 * cell - half, z as f32 * cell - half);
            vertices.push(Vec3::new(px, height(px, pz), pz));
        }
    }
    let mut triangles = Vec::with_capacity((2 * cells * cells) as usize);
    let w = cells + 1;
    for z in 0..cells {
        for x in 0..cells {
            let (a, b) = (z * w + x, z * w + x + 1);
            triangles.push([a, a + w, b + w]);
            triangles.push([a, b + w, b]);
        }
    }
    MeshDesc {
        vertices,
        triangles,
    }
}

/// A height field: `count_x × count_z` samples `cell` m apart along x and z, sample
/// `(x, z)` at `(x·cell, heights[z·count_x + x]·height_scale, z·cell)` in its body's frame,
/// two triangles a cell.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightFieldDesc {
    /// Samples along x.
    pub count_x: u32,
    /// Samples along z.
    pub count_z: u32,
    /// Heights, row by row (z outer), before `height_scale`.
    pub heights: Vec<f32>,
    /// Sample spacing along x and z (m).
    pub cell: f32,
    /// Factor on every height.
    pub height_scale: f32,
}

/// One shape on a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDesc {
    /// What it is.
    pub geometry: Geometry,
    /// Mass density in kg/m³.
    pub density: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Collision filter.
    pub filter: FilterDesc,
}

/// One body and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    /// How it moves.
    pub kind: BodyKind,
    /// Origin in world space.
    pub position: DVec3,
    /// Initial linear velocity (m/s).
    pub linear_velocity: Vec3,
    /// Initial angular velocity (rad/s).
    pub angular_velocity: Vec3,
    /// Initial orientation: identity but for the character level's turned boxes.
    pub rotation: Quat,
    /// Linear damping (1/s): 0 but for the vehicles' chassis (their air drag).
    pub linear_damping: f32,
    /// Its shapes, created in this order.
    pub shapes: Vec<ShapeDesc>,
}

/// A whole benchmark scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Which scene.
    pub name: SceneName,
    /// Steps Box3D's figure was measured over.
    pub steps: usize,
    /// Gravity (m/s²).
    pub gravity: Vec3,
    /// Step length (s).
    pub dt: f32,
    /// Solver substeps per step.
    pub substeps: u32,
    /// Whether bodies may fall asleep.
    pub enable_sleep: bool,
    /// Point clouds whose convex hulls shapes refer to by index.
    pub hulls: Vec<Vec<Vec3>>,
    /// Triangle meshes (vertices, and triangles counter-clockwise seen from above) that
    /// shapes refer to by index.
    pub meshes: Vec<MeshDesc>,
    /// Voxel chunks that shapes refer to by index (after the meshes).
    pub voxels: Vec<VoxelChunkDesc>,
    /// Height fields that shapes refer to by index.
    pub height_fields: Vec<HeightFieldDesc>,
    /// Bodies, in creation order.
    pub bodies: Vec<BodyDesc>,
    /// Joints, created after the bodies, in this order.
    pub joints: Vec<JointDesc>,
    /// Ragdolls spawned and destroyed while the scene runs, if any.
    pub rain: Option<Rain>,
    /// Every this many steps (before the step), each dynamic body of `bodies` is put
    /// back where it started, unrotated, with its starting velocities.
    pub relaunch: Option<usize>,
    /// Steps run (untimed, unprofiled) before the first timed step, so the scene reaches
    /// the state it measures (e.g. its sleepers asleep).
    pub warmup: usize,
    /// Ray-cast vehicles, each on a dynamic chassis of `bodies`, updated before every step.
    pub vehicles: Vec<VehicleDesc>,
    /// Kinematic characters moved before every step, if any (not in `bodies`).
    pub characters: Option<Characters>,
    /// Whether Rapier sweeps the dynamic bodies of `bodies` (its continuous collision is
    /// off unless a body asks; Maul3D and Box3D sweep every fast dynamic body against
    /// static geometry always). Set where the scene is about fast bodies.
    pub rapier_ccd: bool,
}

impl Scene {
    /// Number of shapes over all bodies.
    pub fn shape_count(&self) -> usize {
        self.bodies.iter().map(|b| b.shapes.len()).sum()
    }

    fn new(name: SceneName, steps: usize, enable_sleep: bool) -> Scene {
        Scene {
            name,
            steps,
            gravity: Vec3::new(0.0, -10.0, 0.0),
            dt: 1.0 / 60.0,
            substeps: 4,
            enable_sleep,
            hulls: Vec::new(),
            meshes: Vec::new(),
            voxels: Vec::new(),
            height_fields: Vec::new(),
            bodies: Vec::new(),
            joints: Vec::new(),
            rain: None,
            relaunch: None,
            warmup: 0,
            vehicles: Vec::new(),
            characters: None,
            rapier_ccd: false,
        }
    }

    fn add_ground(&mut self, half: Vec3) {
        self.bodies.push(BodyDesc {
            kind: BodyKind::Static,
            position: DVec3::new(0.0, -1.0, 0.0),
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_damping: 0.0,
            shapes: vec![shape(Geometry::Box { half }, DENSITY)],
        });
    }

    fn add_mesh_ground(&mut self, index: usize) {
        self.bodies.push(BodyDesc {
            kind: BodyKind::Static,
            position: DVec3::ZERO,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_damping: 0.0,
            shapes: vec![shape(Geometry::Mesh { index }, DENSITY)],
        });
    }

    fn add_dynamic(&mut self, position: Vec3, geometry: Geometry, density: f32) {
        self.bodies.push(BodyDesc {
            kind: BodyKind::Dynamic,
            position: position.to_f64(),
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_damping: 0.0,
            shapes: vec![shape(geometry, density)],
        });
    }
}

/// One 16³ chunk of voxels: solid where `data` is non-zero (`data[x + 16·y + 256·z]`),
/// voxel `(x, y, z)` spanning `origin + [x, x + 1)·size × …` in its body's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct VoxelChunkDesc {
    /// Voxel edge (m).
    pub size: f32,
    /// The chunk's corner, a multiple of `16·size` so chunks tile one grid.
    pub origin: Vec3,
    /// 4096 materials, 0 for empty.
    pub data: Vec<u8>,
}

/// Shape density unless a scene says otherwise (kg/m³).
pub const DENSITY: f32 = 1000.0;
/// Friction of every shape.
pub const FRICTION: f32 = 0.6;

fn shape(geometry: Geometry, density: f32) -> ShapeDesc {
    ShapeDesc {
        geometry,
        density,
        friction: FRICTION,
        filter: FilterDesc::DEFAULT,
    }
}

/// 100 × 100 spheres (radius 0.4), the top row static, each joined by spherical joints to
/// the one above and the one before it (19,800 joints; the 99 of the top row join two
/// static bodies: accepted and inert); spheres never collide with each other (category 2,
/// mask !2). 100 steps, sleep off, no ground.
pub fn joint_grid() -> Scene {
    let mut scene = Scene::new(SceneName::JointGrid, 100, false);
    let n = 100;
    let ball = ShapeDesc {
        filter: FilterDesc {
            category: 2,
            mask: !2,
        },
        ..shape(Geometry::Sphere { radius: 0.4 }, DENSITY)
    };
    for k in 0..n {
        for i in 0..n {
            let index = k * n + i;
            scene.bodies.push(BodyDesc {
                kind: if i == 0 {
                    BodyKind::Static
                } else {
                    BodyKind::Dynamic
                },
                position: DVec3::new(k as f64, -(i as f64), 0.0),
                linear_velocity: Vec3::ZERO,
                angular_velocity: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                linear_damping: 0.0,
                shapes: vec![ball],
            });
            if i > 0 {
                scene.joints.push(JointDesc {
                    body_a: index - 1,
                    body_b: index,
                    anchor: DVec3::new(k as f64, 0.5 - i as f64, 0.0),
                    axis: Vec3::X,
                    kind: JointShape::Spherical,
                    friction: 0.0,
                });
            }
            if k > 0 {
                scene.joints.push(JointDesc {
                    body_a: index - n,
                    body_b: index,
                    anchor: DVec3::new(k as f64 - 0.5, -(i as f64), 0.0),
                    axis: Vec3::X,
                    kind: JointShape::Spherical,
                    friction: 0.0,
                });
            }
        }
    }
    scene
}

/// A human of 14 capsule bones standing at the origin (feet at y = 0): cone-twist spine,
/// neck, shoulders and hips, hinged elbows, knees and ankles.
pub fn ragdoll() -> Ragdoll {
    let mut bones = Vec::new();
    let mut bone = |x: f32, y: f32, z: f32, a: Vec3, b: Vec3, radius: f32| {
        bones.push(BodyDesc {
            kind: BodyKind::Dynamic,
            position: Vec3::new(x, y, z).to_f64(),
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_damping: 0.0,
            shapes: vec![shape(Geometry::Capsule { a, b, radius }, DENSITY)],
        });
        bones.len() - 1
    };
    let up = |h: f32| (Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0));
    let mut upright = |x: f32, y: f32, h: f32, r: f32| {
        let (a, b) = up(h);
        bone(x, y, 0.0, a, b, r)
    };
    let pelvis = upright(0.0, 1.0, 0.05, 0.12);
    let spine = upright(0.0, 1.2, 0.05, 0.11);
    let chest = upright(0.0, 1.42, 0.07, 0.13);
    let head = upright(0.0, 1.72, 0.04, 0.1);
    let arm_l = upright(-0.24, 1.36, 0.1, 0.05);
    let fore_l = upright(-0.24, 1.06, 0.1, 0.045);
    let arm_r = upright(0.24, 1.36, 0.1, 0.05);
    let fore_r = upright(0.24, 1.06, 0.1, 0.045);
    let thigh_l = upright(-0.1, 0.7, 0.14, 0.07);
    let shin_l = upright(-0.1, 0.3, 0.14, 0.055);
    let thigh_r = upright(0.1, 0.7, 0.14, 0.07);
    let shin_r = upright(0.1, 0.3, 0.14, 0.055);
    let (fa, fb) = (Vec3::new(0.0, 0.0, -0.06), Vec3::new(0.0, 0.0, 0.06));
    let foot_l = bone(-0.1, 0.05, 0.05, fa, fb, 0.045);
    let foot_r = bone(0.1, 0.05, 0.05, fa, fb, 0.045);
    let joint = |a: usize, b: usize, x: f32, y: f32, axis: Vec3, kind: JointShape| JointDesc {
        body_a: a,
        body_b: b,
        anchor: Vec3::new(x, y, 0.0).to_f64(),
        axis,
        kind,
        friction: 0.0,
    };
    let cone = |swing: f32, twist: f32| JointShape::Cone { swing, twist };
    let hinge = |lower: f32, upper: f32| JointShape::Hinge { lower, upper };
    let (down, upward) = (Vec3::new(0.0, -1.0, 0.0), Vec3::Y);
    let joints = vec![
        joint(pelvis, spine, 0.0, 1.1, upward, cone(0.4, 0.3)),
        joint(spine, chest, 0.0, 1.31, upward, cone(0.4, 0.3)),
        joint(chest, head, 0.0, 1.6, upward, cone(0.5, 0.6)),
        joint(chest, arm_l, -0.24, 1.5, down, cone(1.4, 0.8)),
        joint(chest, arm_r, 0.24, 1.5, down, cone(1.4, 0.8)),
        joint(arm_l, fore_l, -0.24, 1.21, Vec3::X, hinge(0.0, 2.2)),
        joint(arm_r, fore_r, 0.24, 1.21, Vec3::X, hinge(0.0, 2.2)),
        joint(pelvis, thigh_l, -0.1, 0.88, down, cone(1.0, 0.4)),
        joint(pelvis, thigh_r, 0.1, 0.88, down, cone(1.0, 0.4)),
        joint(thigh_l, shin_l, -0.1, 0.5, Vec3::X, hinge(-2.2, 0.0)),
        joint(thigh_r, shin_r, 0.1, 0.5, Vec3::X, hinge(-2.2, 0.0)),
        joint(shin_l, foot_l, -0.1, 0.1, Vec3::X, hinge(-0.6, 0.6)),
        joint(shin_r, foot_r, 0.1, 0.1, Vec3::X, hinge(-0.6, 0.6)),
    ];
    Ragdoll { bones, joints }
}

/// Box3D's rain (`shared/benchmarks.c`, `CreateRain`/`StepRain`): a 10 × 10 grid of static
/// bodies on 15 m cells centred on the origin, each with two mesh shapes, an 8 × 8 grid of
/// 15/8 m cells and an upright 16 × 16 torus (major radius 3.75 m, tube 1 m); groups of 3
/// ragdolls (14 bones, joint friction torque 5 N·m) dropped from 20 m at each cell of a
/// column whenever `step & 0x2F == 0`, the columns filled in order and then remade round
/// robin. 400 steps (13 spawns, 300 ragdolls, 4,200 bones at the end), sleep on.
pub fn rain() -> Scene {
    let mut scene = Scene::new(SceneName::Rain, 400, true);
    let (cells, cell_size) = (10usize, 15.0f32);
    scene.meshes.push(grid_mesh(8, cell_size / 8.0, |_, _| 0.0));
    scene.meshes.push(torus_mesh(16, 16, 0.25 * cell_size, 1.0));
    let half = 0.5 * cells as f32 * cell_size;
    for i in 0..cells {
        for j in 0..cells {
            let x = -half + 0.5 * cell_size + cell_size * i as f32;
            let z = -half + 0.5 * cell_size + cell_size * j as f32;
            scene.bodies.push(BodyDesc {
                kind: BodyKind::Static,
                position: Vec3::new(x, 0.0, z).to_f64(),
                linear_velocity: Vec3::ZERO,
                angular_velocity: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                linear_damping: 0.0,
                shapes: vec![
                    shape(Geometry::Mesh { index: 0 }, DENSITY),
                    shape(Geometry::Mesh { index: 1 }, DENSITY),
                ],
            });
        }
    }
    let mut ragdoll = ragdoll();
    for j in &mut ragdoll.joints {
        j.friction = 5.0;
    }
    scene.rain = Some(Rain {
        spawn_mask: 0x2F,
        group_size: 3,
        cells,
        cell_size,
        height: 20.0,
        spacing: 0.75,
        ragdoll,
    });
    scene
}

/// Box3D's `b3CreateTorusMesh`: a ring of `radial` × `tubular` quads (two triangles each,
/// facing out) around the z axis, major radius `radius`, tube radius `thickness`.
pub fn torus_mesh(radial: u32, tubular: u32, radius: f32, thickness: f32) -> MeshDesc {
    let tau = 2.0 * PI;
    let mut vertices = Vec::new();
    for r in 0..radial {
        for t in 0..tubular {
            let (su, cu) = sin_cos(t as f32 / tubular as f32 * tau);
            let (sv, cv) = sin_cos(r as f32 / radial as f32 * tau);
            let ring = radius + thickness * cv;
            vertices.push(Vec3::new(ring * cu, ring * su, thickness * sv));
        }
    }
    let mut triangles = Vec::new();
    for r1 in 0..radial {
        let r2 = (r1 + 1) % radial;
        for t1 in 0..tubular {
            let t2 = (t1 + 1) % tubular;
            let (i1, i2) = (r1 * tubular + t1, r1 * tubular + t2);
            let (i3, i4) = (r2 * tubular + t2, r2 * tubular + t1);
            triangles.push([i1, i2, i3]);
            triangles.push([i3, i4, i1]);
        }
    }
    MeshDesc {
        vertices,
        triangles,
    }
}

/// Hulls raining onto a wavy terrain, after Jolt's ConvexVsMesh: a 100 × 100-cell grid of
/// 1 m cells (20,000 triangles, ±1 m waves) as one triangle mesh, and 1,600 hulls of 12
/// points (radius 0.5) dropped in 4 layers of 20 × 20 spaced 2.5 m; 300 steps.
pub fn convex_vs_mesh() -> Scene {
    let mut scene = Scene::new(SceneName::ConvexVsMesh, 300, true);
    scene.meshes.push(grid_mesh(100, 1.0, |x, z| {
        let (sx, _) = sin_cos(x * 0.2);
        let (_, cz) = sin_cos(z * 0.15);
        sx * cz
    }));
    scene.add_mesh_ground(0);
    let mut rng = PointRng::new(7);
    scene
        .hulls
        .push((0..12).map(|_| rng.sphere_point(0.5)).collect());
    let hull = Geometry::Hull { index: 0 };
    for layer in 0..4 {
        for z in 0..20 {
            for x in 0..20 {
                let p = Vec3::new(
                    (x as f32 - 9.5) * 2.5,
                    3.0 + 2.0 * layer as f32,
                    (z as f32 - 9.5) * 2.5,
                );
                scene.add_dynamic(p, hull, DENSITY);
            }
        }
    }
    scene
}

/// Hulls and boxes raining onto voxel terrain: 6 × 6 chunks of 16³ voxels of 0.5 m
/// (48 m × 48 m, 147,456 voxels) tiling one static body, a rolling surface 2 to 7 voxels
/// high with columns of two materials, and 1,200 bodies (12-point hulls of radius 0.5 and
/// cubes of half 0.4, alternating) dropped in 3 layers of 20 × 20 spaced 2.2 m; 300 steps.
pub fn voxels() -> Scene {
    let mut scene = Scene::new(SceneName::Voxels, 300, true);
    let size = 0.5f32;
    let mut shapes = Vec::new();
    for k in 0..6 {
        for i in 0..6 {
            let origin = Vec3::new((i as f32 - 3.0) * 8.0, -4.0, (k as f32 - 3.0) * 8.0);
            let mut data = vec![0u8; 4096];
            for z in 0..16 {
                for x in 0..16 {
                    let wx = origin.x + (x as f32 + 0.5) * size;
                    let wz = origin.z + (z as f32 + 0.5) * size;
                    let (sx, _) = sin_cos(wx * 0.2);
                    let (_, cz) = sin_cos(wz * 0.15);
                    let height = (4.5 + 2.5 * sx * cz) as usize;
                    for y in 0..height.min(16) {
                        data[x + 16 * (y + 16 * z)] = 1 + ((x / 4 + z / 4) % 2) as u8;
                    }
                }
            }
            shapes.push(shape(
                Geometry::Voxels {
                    index: scene.meshes.len() + scene.voxels.len(),
                },
                DENSITY,
            ));
            scene.voxels.push(VoxelChunkDesc { size, origin, data });
        }
    }
    scene.bodies.push(BodyDesc {
        kind: BodyKind::Static,
        position: DVec3::ZERO,
        linear_velocity: Vec3::ZERO,
        angular_velocity: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        linear_damping: 0.0,
        shapes,
    });
    let mut rng = PointRng::new(11);
    scene
        .hulls
        .push((0..12).map(|_| rng.sphere_point(0.5)).collect());
    for layer in 0..3 {
        for z in 0..20 {
            for x in 0..20 {
                let p = Vec3::new(
                    (x as f32 - 9.5) * 2.2,
                    2.0 + 2.0 * layer as f32,
                    (z as f32 - 9.5) * 2.2,
                );
                let g = if (x + z + layer) % 2 == 0 {
                    Geometry::Hull { index: 0 }
                } else {
                    Geometry::Box {
                        half: Vec3::splat(0.4),
                    }
                };
                scene.add_dynamic(p, g, DENSITY);
            }
        }
    }
    scene
}

/// Continuous collision against a height field (issue 12: 20 fast capsules over a 64 × 64
/// height field took 107 ms a step): 64 × 64 samples 0.25 m apart (a 15.75 m square
/// centred on the origin) of a gentle swell `0.5·sin(0.37 x)·cos(0.29 z)` (sample
/// indices) times 2 m; 20 capsules (radius 0.1, segment 0.6 m upright) from a ring of
/// radius 3.75 m at heights 5 to 14.5 m, fired at 100 to 290 m/s down and 0.3 times that
/// sideways, and fired again from the start every 30 steps; 300 steps, sleep off.
pub fn fast_capsules() -> Scene {
    let mut scene = Scene::new(SceneName::FastCapsules, 300, false);
    let (n, cell) = (64u32, 0.25f32);
    let heights = (0..n * n)
        .map(|i| {
            let (sx, _) = sin_cos((i % n) as f32 * 0.37);
            let (_, cz) = sin_cos((i / n) as f32 * 0.29);
            0.5 * sx * cz
        })
        .collect();
    scene.height_fields.push(HeightFieldDesc {
        count_x: n,
        count_z: n,
        heights,
        cell,
        height_scale: 2.0,
    });
    let half = 0.5 * (n - 1) as f32 * cell;
    scene.bodies.push(BodyDesc {
        kind: BodyKind::Static,
        position: Vec3::new(-half, 0.0, -half).to_f64(),
        linear_velocity: Vec3::ZERO,
        angular_velocity: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        linear_damping: 0.0,
        shapes: vec![shape(Geometry::HeightField { index: 0 }, DENSITY)],
    });
    let capsule = Geometry::Capsule {
        a: Vec3::new(0.0, -0.3, 0.0),
        b: Vec3::new(0.0, 0.3, 0.0),
        radius: 0.1,
    };
    for i in 0..20 {
        let (s, c) = sin_cos(i as f32 * 0.9);
        let speed = 100.0 + 10.0 * i as f32;
        scene.bodies.push(BodyDesc {
            kind: BodyKind::Dynamic,
            position: Vec3::new(c * 15.0 * cell, 5.0 + 0.5 * i as f32, s * 15.0 * cell).to_f64(),
            linear_velocity: Vec3::new(-s * speed * 0.3, -speed, c * speed * 0.3),
            angular_velocity: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_damping: 0.0,
            shapes: vec![shape(capsule, DENSITY)],
        });
    }
    scene.relaunch = Some(30);
    scene.rapier_ccd = true;
    scene
}

/// 5,050 cubes (half 0.5, density 100) in a pyramid wall of base 100; 200 steps, sleep off.
pub fn large_pyramid() -> Scene {
    let mut scene = Scene::new(SceneName::LargePyramid, 200, false);
    scene.add_ground(Vec3::new(400.0, 1.0, 400.0));
    let base = 100;
    let h = 0.5f32;
    let cube = Geometry::Box {
        half: Vec3::splat(h),
    };
    for i in 0..base {
        let y = (2.0 * i as f32 + 1.0) * h;
        for j in i..base {
            let x = (i as f32 + 1.0) * h + 2.0 * (j - i) as f32 * h - h * base as f32;
            scene.add_dynamic(Vec3::new(x, y, 0.0), cube, 100.0);
        }
    }
    scene
}

/// 14 × 14 pyramids of base 10 (10,780 cubes, half 0.5, density 100); 100 steps, sleep off.
pub fn many_pyramids() -> Scene {
    let mut scene = Scene::new(SceneName::ManyPyramids, 100, false);
    let extent = 0.5f32;
    let rows = 14;
    let columns = 14;
    let base = 10;
    let ground_extent = extent * columns as f32 * (base as f32 + 1.0);
    scene.add_ground(Vec3::new(ground_extent, 1.0, ground_extent));
    let cube = Geometry::Box {
        half: Vec3::splat(extent),
    };
    let base_width = 2.0 * extent * base as f32;
    let mut base_z = -ground_extent + 2.0 * extent;
    let delta_z = 2.0 * (ground_extent - 2.0 * extent) / (rows as f32 - 1.0);
    for _ in 0..rows {
        for j in 0..columns {
            let center_x = -ground_extent + j as f32 * (base_width + 2.0 * extent) + 2.0 * extent;
            for a in 0..base {
                let y = (2.0 * a as f32 + 1.0) * extent;
                for b in a..base {
                    let x =
                        (a as f32 + 1.0) * extent + 2.0 * (b - a) as f32 * extent + center_x - 0.5;
                    scene.add_dynamic(Vec3::new(x, y, base_z), cube, 100.0);
                }
            }
        }
        base_z += delta_z;
    }
    scene
}

/// Box3D's point generator: a 32-bit linear congruential generator.
pub struct PointRng {
    state: u32,
}

impl PointRng {
    /// A generator with this seed.
    pub fn new(seed: u32) -> PointRng {
        PointRng { state: seed }
    }

    /// Advances and returns the new state.
    pub fn next_u32(&mut self) -> u32 {
        self.state = self
            .state
            .wrapping_mul(2_147_001_325)
            .wrapping_add(715_136_305);
        self.state
    }

    /// A float in [−0.5, 0.5] from the low 16 bits.
    pub fn float(&mut self) -> f32 {
        (self.next_u32() & 0xffff) as f32 / 65535.0 - 0.5
    }

    /// A point on the sphere of `radius`: drawn in the cube until inside the ball of
    /// radius 0.5 (x first, then y, then z), normalised, scaled.
    pub fn sphere_point(&mut self, radius: f32) -> Vec3 {
        loop {
            let x = self.float();
            let y = self.float();
            let z = self.float();
            let p = Vec3::new(x, y, z);
            if p.length_squared() <= 0.25 {
                return p.normalize() * radius;
            }
        }
    }
}

/// The convex pile's one hull: 32 points of radius 2, seed 42.
pub fn convex_pile_points() -> Vec<Vec3> {
    let mut rng = PointRng::new(42);
    (0..32).map(|_| rng.sphere_point(2.0)).collect()
}

/// 5,120 bodies sharing one 32-point hull, 80 layers of 8 × 8; 500 steps.
pub fn convex_pile() -> Scene {
    let mut scene = Scene::new(SceneName::ConvexPile, 500, true);
    scene.add_ground(Vec3::new(250.0, 1.0, 250.0));
    scene.hulls.push(convex_pile_points());
    let hull = Geometry::Hull { index: 0 };
    for layer in 0..80 {
        for z in 0..8 {
            for x in 0..8 {
                let p = Vec3::new(
                    (x as f32 - 4.0) * 4.0,
                    2.0 + 4.0 * layer as f32,
                    (z as f32 - 4.0) * 4.0,
                );
                scene.add_dynamic(p, hull, DENSITY);
            }
        }
    }
    scene
}

/// The 8 corners between radii `r0` and `r1`, angles `a0` and `a1` (degrees, about z) and
/// z = ±10, in Box3D's order: z, then angle, then radius.
fn arc_block(r0: f32, r1: f32, a0: f32, a1: f32) -> Vec<Vec3> {
    let (s0, c0) = sin_cos(a0 * (PI / 180.0));
    let (s1, c1) = sin_cos(a1 * (PI / 180.0));
    let mut points = Vec::with_capacity(8);
    for z in [-10.0, 10.0] {
        for (c, s) in [(c0, s0), (c1, s1)] {
            for r in [r0, r1] {
                points.push(Vec3::new(r * c, r * s, z));
            }
        }
    }
    points
}

/// 8,000 cubes (half 0.2) in a kinematic drum turning at 25°/s about z; 1,000 steps.
pub fn washer() -> Scene {
    let mut scene = Scene::new(SceneName::Washer, 1000, true);
    scene.add_ground(Vec3::new(60.0, 1.0, 60.0));

    // Drum: 36 segments of 10°, each widened by 1° at both ends so neighbours overlap and
    // no cube slips through a seam; a paddle on every 9th segment lifts the load.
    let mut drum = Vec::with_capacity(40);
    for i in 0..36 {
        let a0 = 10.0 * i as f32;
        let a1 = a0 + 10.0;
        scene.hulls.push(arc_block(16.0, 18.0, a0 - 1.0, a1 + 1.0));
        drum.push(shape(
            Geometry::Hull {
                index: scene.hulls.len() - 1,
            },
            DENSITY,
        ));
        if i % 9 == 0 {
            scene.hulls.push(arc_block(14.0, 16.0, a0, a1));
            drum.push(shape(
                Geometry::Hull {
                    index: scene.hulls.len() - 1,
                },
                DENSITY,
            ));
        }
    }
    scene.bodies.push(BodyDesc {
        kind: BodyKind::Kinematic,
        position: DVec3::new(0.0, 21.0, 0.0),
        linear_velocity: Vec3::new(0.001, -0.002, 0.0),
        angular_velocity: Vec3::new(0.0, 0.0, 25.0 * (PI / 180.0)),
        rotation: Quat::IDENTITY,
        linear_damping: 0.0,
        shapes: drum,
    });

    // The document gives no loop order for the grid: Box3D's is x, then y, then z.
    let cube = Geometry::Box {
        half: Vec3::splat(0.2),
    };
    let n = 20;
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let p = Vec3::new(
                    -8.0 + 0.8 * i as f32,
                    -8.0 + 21.0 + 0.8 * j as f32,
                    -8.0 + 0.8 * k as f32,
                );
                scene.add_dynamic(p, cube, DENSITY);
            }
        }
    }
    scene
}

/// Sleepers of [`SceneName::SleepingCrowd`] unless the command line says otherwise.
pub const SLEEPING_CROWD_SLEEPERS: usize = 10_000;

/// What sleeping bodies cost a step: 100 spheres (radius 0.5) rolling at 2 m/s on a
/// 400 m ground, 10 × 10 spaced 2 m, beside `sleepers` cubes (half 0.5) resting 1.5 m
/// apart on a square grid well away from them (each touching only the ground). The
/// cubes settle and fall asleep during 150 untimed warm-up steps (2.5 s: Maul3D sleeps a
/// body after 0.5 s at rest, Rapier after 2 s); the 100 timed steps then step 100 awake
/// bodies beside `sleepers` asleep. Compare `--sleepers 0` with the default 10,000.
pub fn sleeping_crowd(sleepers: usize) -> Scene {
    let mut scene = Scene::new(SceneName::SleepingCrowd, 100, true);
    scene.warmup = 150;
    scene.add_ground(Vec3::new(200.0, 1.0, 200.0));
    let radius = 0.5f32;
    let speed = 2.0f32;
    for i in 0..10 {
        for k in 0..10 {
            scene.bodies.push(BodyDesc {
                kind: BodyKind::Dynamic,
                position: DVec3::new(-10.0 + 2.0 * i as f64, radius as f64, 10.0 + 2.0 * k as f64),
                linear_velocity: Vec3::new(speed, 0.0, 0.0),
                // Rolling without slip: ω = v / r about −z.
                angular_velocity: Vec3::new(0.0, 0.0, -speed / radius),
                rotation: Quat::IDENTITY,
                linear_damping: 0.0,
                shapes: vec![shape(Geometry::Sphere { radius }, DENSITY)],
            });
        }
    }
    let side = (1..).find(|n| n * n >= sleepers).unwrap_or(0);
    let cube = Geometry::Box {
        half: Vec3::splat(0.5),
    };
    for n in 0..sleepers {
        let (i, k) = (n % side, n / side);
        let x = -0.75 * side as f32 + 1.5 * i as f32;
        let z = -10.0 - 1.5 * k as f32;
        scene.add_dynamic(Vec3::new(x, 0.5, z), cube, DENSITY);
    }
    scene
}

/// One ray-cast wheel: a ray from `attach` along `direction` (both in the chassis frame)
/// finds the ground; the wheel's centre sits `suspension length` along it, its bottom
/// `radius` further. Spring and damper push the chassis up at the contact; tyre friction
/// drives it along and holds it sideways.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelDesc {
    /// Top of the suspension (the ray's origin), chassis frame.
    pub attach: Vec3,
    /// Suspension direction, unit, chassis frame (down).
    pub direction: Vec3,
    /// Axle, unit, chassis frame, before steering: the rolling direction (forward) is
    /// `−direction × axle`.
    pub axle: Vec3,
    /// Wheel radius (m).
    pub radius: f32,
    /// Suspension length with the spring unloaded (m).
    pub rest_length: f32,
    /// Farthest the suspension moves from its rest length either way (m).
    pub max_travel: f32,
    /// Spring stiffness (N/m).
    pub stiffness: f32,
    /// Damping while compressing (N·s/m).
    pub damping_compression: f32,
    /// Damping while extending (N·s/m).
    pub damping_relaxation: f32,
    /// Largest suspension force (N).
    pub max_force: f32,
    /// Tyre friction coefficient: the tyre's combined forward and side force stays under
    /// `friction` times its suspension force.
    pub friction: f32,
    /// Whether `VehicleDesc::steering` turns it.
    pub steered: bool,
    /// Whether `VehicleDesc::engine_force` drives it.
    pub driven: bool,
}

/// A vehicle: a dynamic chassis body of `Scene::bodies` and its wheels (wheels have no
/// body or shape of their own; each casts a ray that ignores its own chassis only).
#[derive(Clone, Debug, PartialEq)]
pub struct VehicleDesc {
    /// Index of the chassis in `Scene::bodies`.
    pub chassis: usize,
    /// The chassis' forward axis, unit, chassis frame.
    pub forward: Vec3,
    /// The chassis' up axis, unit, chassis frame.
    pub up: Vec3,
    /// The wheels, in this order.
    pub wheels: Vec<WheelDesc>,
    /// Constant drive force on each driven wheel along its rolling direction (N).
    pub engine_force: f32,
    /// Constant steering angle of the steered wheels (rad) about the chassis up axis:
    /// positive turns a vehicle facing +z towards +x.
    pub steering: f32,
}

/// Settings every character shares: an upright capsule moved by a kinematic character
/// controller (shape casts, sliding, stepping, slope limit, snapping).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterSettings {
    /// Capsule radius (m).
    pub radius: f32,
    /// Half the capsule's segment, centre to either sphere centre (m).
    pub half_height: f32,
    /// Walking speed (m/s), horizontal.
    pub speed: f32,
    /// Highest step climbed without a jump (m).
    pub max_step_height: f32,
    /// Free depth needed on top of a step to step onto it (m).
    pub min_step_width: f32,
    /// Steepest slope walked up, and the slope from which the character slides (rad).
    pub max_slope: f32,
    /// Farthest the character is pulled down to stay on the ground while walking (m).
    pub snap_to_ground: f32,
    /// Gap kept between the capsule and what it touches (m).
    pub skin: f32,
}

/// One character: where its capsule's centre starts, and how its walking direction turns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterDesc {
    /// Capsule centre at the start (world).
    pub position: DVec3,
    /// Walking direction at the start (rad, from +x towards +z).
    pub heading: f32,
    /// How fast the direction turns (rad/s).
    pub turn_rate: f32,
}

/// Characters walking the scene's static level: before every step `n` (from 0), each
/// character in order asks to move by `(velocity(i, n) + (0, v_y, 0))·dt` where its
/// vertical speed `v_y` (0 at the start) first gains `gravity.y·dt`, and is set back to 0
/// when the controller reports it grounded after the move. Characters collide with the
/// level and with each other (as they stand before the step), never push anything.
#[derive(Clone, Debug, PartialEq)]
pub struct Characters {
    /// What every character shares.
    pub settings: CharacterSettings,
    /// The characters, in creation order (after `Scene::bodies`).
    pub characters: Vec<CharacterDesc>,
}

impl Characters {
    /// The horizontal velocity character `i` wants before step `n`.
    pub fn velocity(&self, i: usize, n: usize, dt: f32) -> Vec3 {
        let c = &self.characters[i];
        let (s, co) = sin_cos(c.heading + c.turn_rate * (n as f32 * dt));
        Vec3::new(co * self.settings.speed, 0.0, s * self.settings.speed)
    }
}

/// Half the side of the vehicles' terrain (m).
const TERRAIN_HALF: f32 = 120.0;

/// The vehicles' terrain height at `(x, z)`, world (m): two gentle swells, slopes under 6°.
pub fn terrain_height(x: f32, z: f32) -> f32 {
    let (sx, _) = sin_cos(0.11 * x);
    let (_, cz) = sin_cos(0.085 * z);
    let (sd, _) = sin_cos(0.3 * x + 0.2 * z);
    0.5 * sx * cz + 0.25 * sd
}

/// 100 vehicles on a 240 m × 240 m height field (121 × 121 samples 2 m apart, heights
/// from [`terrain_height`]), on a 10 × 10 grid 15 m apart centred on the origin, facing
/// +z. Chassis: box of half 1.0 × 0.4 × 2.2, 1,500 kg, air drag as linear damping 0.25/s.
/// Four wheels (radius 0.4, rest length 0.5, 35 kN/m, friction 1), rear-driven at 1,500 N
/// each (top speed about 8 m/s against the drag), front-steered by 0.15 to 0.20 rad
/// towards +x (varying with the index), so each drives a circle of 16 to 21 m radius that
/// stays on the terrain; all turning the same way, their paths cross rarely (turning
/// towards the centre instead stalled a quarter of them in collisions by step 600).
/// 600 steps, sleep off.
pub fn vehicles() -> Scene {
    let mut scene = Scene::new(SceneName::Vehicles, 600, false);
    let (n, cell) = (121u32, 2.0f32);
    let heights = (0..n * n)
        .map(|i| {
            let x = (i % n) as f32 * cell - TERRAIN_HALF;
            let z = (i / n) as f32 * cell - TERRAIN_HALF;
            terrain_height(x, z)
        })
        .collect();
    scene.height_fields.push(HeightFieldDesc {
        count_x: n,
        count_z: n,
        heights,
        cell,
        height_scale: 1.0,
    });
    scene.bodies.push(BodyDesc {
        kind: BodyKind::Static,
        position: Vec3::new(-TERRAIN_HALF, 0.0, -TERRAIN_HALF).to_f64(),
        linear_velocity: Vec3::ZERO,
        angular_velocity: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        linear_damping: 0.0,
        shapes: vec![shape(Geometry::HeightField { index: 0 }, DENSITY)],
    });
    let half = Vec3::new(1.0, 0.4, 2.2);
    let chassis = ShapeDesc {
        friction: 0.5,
        ..shape(
            Geometry::Box { half },
            1500.0 / (8.0 * half.x * half.y * half.z),
        )
    };
    let wheel = |x: f32, z: f32, front: bool| WheelDesc {
        attach: Vec3::new(x, -0.3, z),
        direction: Vec3::new(0.0, -1.0, 0.0),
        axle: Vec3::new(-1.0, 0.0, 0.0),
        radius: 0.4,
        rest_length: 0.5,
        max_travel: 0.4,
        stiffness: 35_000.0,
        damping_compression: 2_500.0,
        damping_relaxation: 3_500.0,
        max_force: 15_000.0,
        friction: 1.0,
        steered: front,
        driven: !front,
    };
    let wheels = vec![
        wheel(0.9, 1.6, true),
        wheel(-0.9, 1.6, true),
        wheel(0.9, -1.6, false),
        wheel(-0.9, -1.6, false),
    ];
    for i in 0..100 {
        let (gx, gz) = (i % 10, i / 10);
        let x = -67.5 + 15.0 * gx as f32;
        let z = -67.5 + 15.0 * gz as f32;
        let turn = 0.15 + 0.05 * ((i * 37) % 100) as f32 / 99.0;
        scene.vehicles.push(VehicleDesc {
            chassis: scene.bodies.len(),
            forward: Vec3::Z,
            up: Vec3::Y,
            wheels: wheels.clone(),
            engine_force: 1500.0,
            steering: turn,
        });
        scene.bodies.push(BodyDesc {
            kind: BodyKind::Dynamic,
            position: Vec3::new(x, terrain_height(x, z) + 1.3, z).to_f64(),
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_damping: 0.25,
            shapes: vec![chassis],
        });
    }
    scene
}

/// Half the side of the characters' level (m), inside its walls.
const LEVEL_HALF: f32 = 40.0;

/// 500 characters (capsules of radius 0.3, half-height 0.6) walking at 2 m/s a static level
/// of boxes: an 80 m floor (top at y = 0) ringed by 2 m walls, and on a 7 × 7 grid of
/// 10 m cells one obstacle each, by turn: a 0.2 or 0.3 m step (climbed by the 0.3 m
/// autostep), a 2 m block, a ramp of 20° to 40° (a box turned about x or z, half sunk in the
/// floor), a 0.5 m ledge (too high to step), a 7 m wall turned about y. Characters start
/// in two files beside each of the 8 streets between the cells, each heading its own way
/// (golden-angle spread) and turning at up to ±0.3 rad/s; 600 steps, sleep off.
/// Controller: step 0.3 m (0.3 m deep), slope 45°, snap to ground 0.2 m, skin 0.02 m.
pub fn characters() -> Scene {
    let mut scene = Scene::new(SceneName::Characters, 600, false);
    let mut add_box = |position: Vec3, half: Vec3, rotation: Quat| {
        scene.bodies.push(BodyDesc {
            kind: BodyKind::Static,
            position: position.to_f64(),
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            rotation,
            linear_damping: 0.0,
            shapes: vec![shape(Geometry::Box { half }, DENSITY)],
        });
    };
    let id = Quat::IDENTITY;
    let l = LEVEL_HALF;
    add_box(
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(l + 1.0, 0.5, l + 1.0),
        id,
    );
    add_box(Vec3::new(l + 0.25, 1.0, 0.0), Vec3::new(0.25, 1.0, l), id);
    add_box(Vec3::new(-l - 0.25, 1.0, 0.0), Vec3::new(0.25, 1.0, l), id);
    add_box(Vec3::new(0.0, 1.0, l + 0.25), Vec3::new(l, 1.0, 0.25), id);
    add_box(Vec3::new(0.0, 1.0, -l - 0.25), Vec3::new(l, 1.0, 0.25), id);
    for k in 0..49usize {
        let (cx, cz) = (k % 7, k / 7);
        let c = Vec3::new(-30.0 + 10.0 * cx as f32, 0.0, -30.0 + 10.0 * cz as f32);
        let at = |y: f32| Vec3::new(c.x, y, c.z);
        match k % 5 {
            0 => {
                let h = if k % 2 == 0 { 0.1 } else { 0.15 };
                add_box(at(h), Vec3::new(2.0, h, 2.0), id);
            }
            1 => add_box(at(1.0), Vec3::new(1.5, 1.0, 1.5), id),
            2 => {
                // 20° to 40°, 6 m long: its top face rises from the floor to 1 to 1.9 m.
                let angle = (20.0 + 5.0 * ((k / 5) % 5) as f32) * (PI / 180.0);
                let (axis, half) = if k % 2 == 0 {
                    (Vec3::X, Vec3::new(1.5, 0.2, 3.0))
                } else {
                    (Vec3::Z, Vec3::new(3.0, 0.2, 1.5))
                };
                add_box(at(0.0), half, Quat::from_axis_angle(axis, angle));
            }
            3 => add_box(at(0.25), Vec3::new(2.0, 0.25, 2.0), id),
            _ => {
                let angle = 0.4 * k as f32;
                add_box(
                    at(1.0),
                    Vec3::new(3.5, 1.0, 0.25),
                    Quat::from_axis_angle(Vec3::Y, angle),
                );
            }
        }
    }
    let settings = CharacterSettings {
        radius: 0.3,
        half_height: 0.6,
        speed: 2.0,
        max_step_height: 0.3,
        min_step_width: 0.3,
        max_slope: 45.0 * (PI / 180.0),
        snap_to_ground: 0.2,
        skin: 0.02,
    };
    let y = settings.half_height + settings.radius + 0.05;
    let characters = (0..500usize)
        .map(|i| {
            let (file, row) = (i % 16, i / 16);
            let x = -35.0 + 10.0 * (file / 2) as f32 + if file % 2 == 0 { -0.8 } else { 0.8 };
            let z = -37.2 + 2.4 * row as f32;
            let (s, _) = sin_cos(1.3 * i as f32);
            CharacterDesc {
                position: Vec3::new(x, y, z).to_f64(),
                heading: 2.399_963 * i as f32,
                turn_rate: 0.3 * s,
            }
        })
        .collect();
    scene.characters = Some(Characters {
        settings,
        characters,
    });
    scene
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dynamic_count(scene: &Scene) -> usize {
        scene
            .bodies
            .iter()
            .filter(|b| b.kind == BodyKind::Dynamic)
            .count()
    }

    #[test]
    fn scenes_have_the_documented_body_counts() {
        let grid = joint_grid();
        assert_eq!(dynamic_count(&grid), 9900);
        assert_eq!(grid.joints.len(), 19_800);
        let doll = ragdoll();
        assert_eq!((doll.bones.len(), doll.joints.len()), (14, 13));
        assert_eq!(dynamic_count(&large_pyramid()), 5050);
        assert_eq!(dynamic_count(&many_pyramids()), 10_780);
        assert_eq!(dynamic_count(&convex_pile()), 5120);
        assert_eq!(dynamic_count(&washer()), 8000);
        let cvm = convex_vs_mesh();
        assert_eq!(dynamic_count(&cvm), 1600);
        assert_eq!(cvm.meshes[0].triangles.len(), 20_000);
        assert_eq!(rain().meshes[0].triangles.len(), 128);
        assert_eq!(rain().meshes[1].triangles.len(), 512);
        let vox = voxels();
        assert_eq!(dynamic_count(&vox), 1200);
        assert_eq!(vox.voxels.len(), 36);
        let caps = fast_capsules();
        assert_eq!(dynamic_count(&caps), 20);
        let field = &caps.height_fields[0];
        assert_eq!(
            field.heights.len(),
            (field.count_x * field.count_z) as usize
        );
    }

    #[test]
    fn vehicles_and_characters_have_their_counts() {
        let v = vehicles();
        assert_eq!(v.vehicles.len(), 100);
        assert_eq!(dynamic_count(&v), 100);
        for desc in &v.vehicles {
            assert_eq!(v.bodies[desc.chassis].kind, BodyKind::Dynamic);
            assert_eq!(desc.wheels.len(), 4);
        }
        let field = &v.height_fields[0];
        assert_eq!(field.heights.len(), 121 * 121);
        let c = characters();
        assert_eq!(c.bodies.len(), 54);
        assert_eq!(dynamic_count(&c), 0);
        let crowd = c.characters.as_ref().expect("characters");
        assert_eq!(crowd.characters.len(), 500);
        // Walking speed is the setting's, in every direction.
        let v = crowd.velocity(7, 100, c.dt);
        assert!((v.length() - 2.0).abs() < 1e-5, "{v:?}");
        assert_eq!(v.y, 0.0);
    }

    #[test]
    fn large_pyramid_is_centred_on_the_origin() {
        let scene = large_pyramid();
        let bottom = &scene.bodies[1..101];
        assert_eq!(bottom[0].position, DVec3::new(-49.5, 0.5, 0.0));
        assert_eq!(bottom[99].position, DVec3::new(49.5, 0.5, 0.0));
        assert_eq!(
            scene.bodies.last().unwrap().position,
            DVec3::new(0.0, 99.5, 0.0)
        );
    }

    #[test]
    fn rain_spawns_as_box3d_steps_it() {
        let scene = rain();
        let r = scene.rain.as_ref().unwrap();
        let spawns: Vec<usize> = (0..scene.steps).filter(|&s| r.spawns(s)).collect();
        assert_eq!(&spawns[..4], &[0, 16, 64, 80]);
        assert_eq!(spawns.len(), 13);
        let columns: Vec<(usize, bool)> = (0..spawns.len()).map(|n| r.column(n)).collect();
        assert_eq!(columns[9], (9, false));
        assert_eq!(&columns[10..], &[(0, true), (1, true), (2, true)]);
        // 100 cells, 3 ragdolls of 14 bones each: 4,200 bones once every column is full.
        assert_eq!(r.max_bodies(), 4200);
        assert_eq!(r.ragdoll.bones.len(), 14);
        assert!(r.ragdoll.joints.iter().all(|j| j.friction == 5.0));
        // The statics: one a cell, each with the grid and the torus.
        let statics = scene.bodies.iter().filter(|b| b.kind == BodyKind::Static);
        assert_eq!(statics.clone().count(), 100);
        assert!(statics.clone().all(|b| b.shapes.len() == 2));
        // Cell (row 2, column 7), third ragdoll: 0.75 m × 2 along x from the centre.
        let o = r.origin(2, 7, 2);
        assert_eq!((o.x, o.y, o.z), (-75.0 + 112.5 + 1.5, 20.0, -75.0 + 37.5));
        // The torus stands upright around z: from y −4.75 to 4.75, z within ±1.
        let torus = &scene.meshes[1];
        let max_y = torus
            .vertices
            .iter()
            .map(|v| v.y)
            .fold(f32::MIN, maul3d::math::max);
        let max_z = torus
            .vertices
            .iter()
            .map(|v| v.z.abs())
            .fold(0.0, maul3d::math::max);
        assert!(
            (max_y - 4.75).abs() < 0.05 && max_z <= 1.0,
            "{max_y} {max_z}"
        );
    }

    #[test]
    fn many_pyramids_rows_span_the_ground() {
        let scene = many_pyramids();
        let first = &scene.bodies[1];
        let last = scene.bodies.last().unwrap();
        assert_eq!(first.position.z, -76.0);
        assert!((last.position.z - 76.0).abs() < 1e-4, "{}", last.position.z);
        assert_eq!(first.position.x, -76.0);
    }

    #[test]
    fn point_generator_starts_from_seed_42() {
        let mut rng = PointRng::new(42);
        let expected = 42u32.wrapping_mul(2_147_001_325).wrapping_add(715_136_305);
        assert_eq!(rng.next_u32(), expected);
    }

    #[test]
    fn convex_pile_points_lie_on_the_radius_2_sphere() {
        let points = convex_pile_points();
        assert_eq!(points.len(), 32);
        for p in points {
            assert!((p.length() - 2.0).abs() < 1e-5, "{p:?}");
        }
    }

    #[test]
    fn washer_drum_has_36_segments_and_4_paddles() {
        let scene = washer();
        assert_eq!(scene.hulls.len(), 40);
        let drum = &scene.bodies[1];
        assert_eq!(drum.kind, BodyKind::Kinematic);
        assert_eq!(drum.shapes.len(), 40);
        for hull in &scene.hulls {
            assert_eq!(hull.len(), 8);
        }
        // The first segment reaches 1° below the x axis.
        let (s, _) = sin_cos(-PI / 180.0);
        assert_eq!(
            scene.hulls[0][0],
            Vec3::new(16.0 * sin_cos(-PI / 180.0).1, 16.0 * s, -10.0)
        );
    }
}
