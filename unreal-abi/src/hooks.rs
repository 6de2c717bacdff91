//! Host hooks: the allocator, the task system, the pre-solve callback and debug draw, as
//! C function pointers with a user context, and the trampolines the engine calls them
//! through.
//!
//! Host code runs in the host's floating-point setting: each trampoline puts back the bits
//! the calling thread had when it entered the library (saved by the export's shim: the
//! MXCSR and, on x86 and x86-64, the x87 control word), calls the host, and returns to the
//! library's setting. The pre-solve callback is the exception: its answer decides contacts,
//! so it runs in the library's setting, both units of it.

use crate::shape::{m3_boxShape, m3_capsuleShape, m3Box, m3Capsule, m3ShapeType, m3Sphere};
use crate::shape::{m3_cylinderShape, m3_hullShape, m3_meshShape, m3_planeShape, m3_sphereShape};
use crate::shape::{m3_rayShape, m3Cylinder, m3Plane, m3Ray};
use crate::types::*;
use core::cell::Cell;
use core::ffi::c_void;
use engine::fp::{self, SavedFp};

thread_local! {
    /// The floating-point bits of the host code that called into the library on this
    /// thread (innermost call); `None` outside any call.
    pub(crate) static HOST_FP: Cell<Option<SavedFp>> = const { Cell::new(None) };
}

/// Runs host code `f` in the calling host's floating-point setting.
pub(crate) fn host<R>(f: impl FnOnce() -> R) -> R {
    let bits = HOST_FP.with(|h| h.get()).unwrap_or_else(fp::library);
    fp::call_host(bits, f)
}

/// Allocates `size` bytes aligned to `alignment` (a power of two); returns null to refuse.
/// Called from the thread that creates a world, starts a journal or replays a tape, and
/// from threads whose queries ask for more than 32 results; never during a step.
pub type m3AllocFcn = Option<
    unsafe extern "C" fn(size: usize, alignment: usize, context: *mut c_void) -> *mut c_void,
>;
pub(crate) type AllocFcnRaw =
    unsafe extern "C" fn(size: usize, alignment: usize, context: *mut c_void) -> *mut c_void;

/// Frees memory from `m3AllocFcn`, given its size and alignment again.
pub type m3FreeFcn = Option<
    unsafe extern "C" fn(memory: *mut c_void, size: usize, alignment: usize, context: *mut c_void),
>;
pub(crate) type FreeFcnRaw =
    unsafe extern "C" fn(memory: *mut c_void, size: usize, alignment: usize, context: *mut c_void);

/// A piece of a step's work: items `[start, end)`, run as worker `workerIndex`. The
/// library's own function; it sets the library's floating-point setting on whichever
/// thread runs it.
pub type m3TaskCallback =
    unsafe extern "C" fn(start: u32, end: u32, workerIndex: u32, taskContext: *mut c_void);

/// Splits `[0, itemCount)` into pieces of at least `minRange` items and runs each exactly
/// once, on any thread, in any order, as `task(start, end, workerIndex, taskContext)` with
/// `workerIndex < workerCount` and no index used by two pieces at once. Returns a handle
/// for `m3FinishTaskCallback`, or null when it ran everything before returning.
///
/// Small stages never reach the hooks: a stage goes to them only when it has more than
/// `minRange` items, and smaller ones run inline on the stepping thread. `minRange` is 64
/// for the stages over contacts (the contact pool's slots used so far) and over awake
/// bodies, 4 for one graph colour's batches of up to 8 contact constraints each, and 8
/// for storing impulses. So a world of at most 32 contacts and 64 awake bodies never
/// calls the hooks.
pub type m3EnqueueTaskCallback = Option<
    unsafe extern "C" fn(
        task: m3TaskCallback,
        itemCount: u32,
        minRange: u32,
        taskContext: *mut c_void,
        userContext: *mut c_void,
    ) -> *mut c_void,
>;
pub(crate) type EnqueueTaskCallbackRaw = unsafe extern "C" fn(
    task: m3TaskCallback,
    itemCount: u32,
    minRange: u32,
    taskContext: *mut c_void,
    userContext: *mut c_void,
) -> *mut c_void;

/// Returns when all the work of a handle from `m3EnqueueTaskCallback` is done.
pub type m3FinishTaskCallback =
    Option<unsafe extern "C" fn(userTask: *mut c_void, userContext: *mut c_void)>;
pub(crate) type FinishTaskCallbackRaw =
    unsafe extern "C" fn(userTask: *mut c_void, userContext: *mut c_void);

/// What the pre-solve callback sees of a touching contact.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3PreSolveContact {
    /// Shape A.
    pub shapeA: m3ShapeId,
    /// Shape B.
    pub shapeB: m3ShapeId,
    /// Normal from A to B.
    pub normal: m3Vec3,
    /// Points used, 1 to 4.
    pub pointCount: i32,
    /// The points, relative to the world origin.
    pub points: [m3DVec3; 4],
    /// Their separations (negative: overlap).
    pub separations: [f32; 4],
}

/// Asked about each touching contact of a shape with `enablePreSolve`, serially in contact
/// order during the step; return false to disable the contact for this step. Runs in the
/// library's floating-point setting, not the caller's: the MXCSR round to nearest with
/// every exception masked and FTZ/DAZ off, and on x86 and x86-64 also the x87 control
/// word's (round to nearest, exceptions masked; 64-bit precision, 53-bit on Windows); the
/// caller's comes back when the step returns. A journal records its answers, and a replay
/// applies them instead of calling it.
pub type m3PreSolveFcn =
    Option<unsafe extern "C" fn(contact: *const m3PreSolveContact, context: *mut c_void) -> bool>;
pub(crate) type PreSolveFcnRaw =
    unsafe extern "C" fn(contact: *const m3PreSolveContact, context: *mut c_void) -> bool;

/// The hooks of one world, in an allocation of their own (their address is the context
/// the engine passes back to the trampolines below).
pub(crate) struct Hooks {
    pub world: m3WorldId,
    pub allocator: Option<(AllocFcnRaw, FreeFcnRaw, *mut c_void)>,
    pub tasks: Option<(EnqueueTaskCallbackRaw, FinishTaskCallbackRaw, *mut c_void)>,
    pub pre_solve: Option<(PreSolveFcnRaw, *mut c_void)>,
}

impl Hooks {
    /// The engine's allocator for this world: the host's through our trampolines, or the
    /// global one.
    pub(crate) fn world_alloc(&self) -> engine::alloc::WorldAlloc {
        match self.allocator {
            Some(_) => engine::alloc::WorldAlloc::Host(engine::HostAllocator {
                alloc: alloc_trampoline,
                free: free_trampoline,
                context: self as *const Hooks as *mut c_void,
            }),
            None => engine::alloc::WorldAlloc::Global,
        }
    }

    /// The engine's task hooks for this world.
    pub(crate) fn task_hooks(&self, worker_count: u32) -> Option<engine::TaskHooks> {
        self.tasks.map(|_| engine::TaskHooks {
            enqueue_task: enqueue_trampoline,
            finish_task: finish_trampoline,
            user_context: self as *const Hooks as *mut c_void,
            worker_count,
        })
    }

    /// The engine's pre-solve hook for this world, if the host set a callback.
    pub(crate) fn engine_pre_solve(&self) -> Option<engine::PreSolve> {
        self.pre_solve.map(|_| engine::PreSolve {
            callback: pre_solve_trampoline,
            context: self as *const Hooks as *mut c_void,
        })
    }
}

unsafe extern "C" fn alloc_trampoline(
    size: usize,
    align: usize,
    context: *mut c_void,
) -> *mut c_void {
    // SAFETY: the context is the world's `Hooks`, alive as long as the world.
    let h = unsafe { &*(context as *const Hooks) };
    match h.allocator {
        // SAFETY: the host's allocator, called as its contract says.
        Some((alloc, _, ctx)) => host(|| unsafe { alloc(size, align, ctx) }),
        None => core::ptr::null_mut(),
    }
}

unsafe extern "C" fn free_trampoline(
    p: *mut c_void,
    size: usize,
    align: usize,
    context: *mut c_void,
) {
    // SAFETY: as in `alloc_trampoline`.
    let h = unsafe { &*(context as *const Hooks) };
    if let Some((_, free, ctx)) = h.allocator {
        // SAFETY: memory from the host's alloc with this size and alignment.
        host(|| unsafe { free(p, size, align, ctx) });
    }
}

unsafe extern "C" fn enqueue_trampoline(
    task: engine::TaskFn,
    item_count: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    // SAFETY: the user context is the world's `Hooks`.
    let h = unsafe { &*(user_context as *const Hooks) };
    match h.tasks {
        // SAFETY: the host's enqueue hook with the engine's task and context.
        Some((enqueue, _, ctx)) => {
            host(|| unsafe { enqueue(task, item_count, min_range, task_context, ctx) })
        }
        None => core::ptr::null_mut(),
    }
}

unsafe extern "C" fn finish_trampoline(handle: *mut c_void, user_context: *mut c_void) {
    // SAFETY: the user context is the world's `Hooks`.
    let h = unsafe { &*(user_context as *const Hooks) };
    if let Some((_, finish, ctx)) = h.tasks {
        // SAFETY: the handle the host's enqueue returned, given back once.
        host(|| unsafe { finish(handle, ctx) });
    }
}

unsafe extern "C" fn pre_solve_trampoline(
    contact: *const engine::PreSolveContact,
    context: *mut c_void,
) -> bool {
    // SAFETY: the context is the world's `Hooks`; the engine passes a valid contact.
    let (h, c) = unsafe { (&*(context as *const Hooks), &*contact) };
    let Some((f, ctx)) = h.pre_solve else {
        return true;
    };
    let view = m3PreSolveContact {
        shapeA: m3ShapeId::from_core(c.shape_a, h.world),
        shapeB: m3ShapeId::from_core(c.shape_b, h.world),
        normal: c.normal.into(),
        pointCount: c.point_count as i32,
        points: c.points.map(Into::into),
        separations: c.separations,
    };
    // SAFETY: the host's callback with a view alive across the call. The library's
    // floating-point setting stays: the answer decides contacts.
    unsafe { f(&view, ctx) }
}

/// Memory for the library's own blocks of a world (its entry and hooks): the host's
/// allocator when it gave one, else Rust's global allocator.
pub(crate) type RawAllocator = Option<(AllocFcnRaw, FreeFcnRaw, *mut c_void)>;

/// Moves `value` into memory from `alloc`; `None` when the allocator refused.
pub(crate) fn host_new<T>(alloc: RawAllocator, value: T) -> Option<*mut T> {
    let Some((a, free, ctx)) = alloc else {
        return Some(Box::into_raw(Box::new(value)));
    };
    let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
    // SAFETY: the host's allocator, called as its contract says.
    let p = host(|| unsafe { a(size, align, ctx) }) as *mut T;
    if p.is_null() {
        return None;
    }
    if (p as usize) % align != 0 {
        // SAFETY: handing back the misaligned block just given.
        host(|| unsafe { free(p as *mut c_void, size, align, ctx) });
        return None;
    }
    // SAFETY: fresh, aligned memory of T's size.
    unsafe { p.write(value) };
    Some(p)
}

/// Drops and frees a block from `host_new` with the same allocator.
///
/// # Safety
/// `p` came from `host_new(alloc, ..)` and is freed once.
pub(crate) unsafe fn host_delete<T>(alloc: RawAllocator, p: *mut T) {
    match alloc {
        // SAFETY: `p` came from Box::into_raw in host_new.
        None => drop(unsafe { Box::from_raw(p) }),
        Some((_, free, ctx)) => {
            // SAFETY: a live T from host_new, dropped once.
            unsafe { core::ptr::drop_in_place(p) };
            let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
            // SAFETY: the block came from this allocator with this size and alignment.
            host(|| unsafe { free(p as *mut c_void, size, align, ctx) });
        }
    }
}

/// A shape's geometry as debug draw describes it (in its body's frame): `type` says
/// which member holds it; a hull's arrays live only during the callback. A mesh or height
/// field (`m3_meshShape`) is described by one call per triangle, in index order (holes
/// skipped), each with `triangle` set.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3DebugShape {
    /// Which member is set.
    pub r#type: m3ShapeType,
    /// A sphere.
    pub sphere: m3Sphere,
    /// A capsule.
    pub capsule: m3Capsule,
    /// A box.
    pub r#box: m3Box,
    /// A hull's vertices.
    pub hullVertices: *const m3Vec3,
    /// How many.
    pub hullVertexCount: i32,
    /// Vertex indices of every face, face after face, counter-clockwise from outside.
    pub hullFaceVertices: *const u8,
    /// Where each face starts in `hullFaceVertices`, plus one end: `hullFaceCount + 1`
    /// entries.
    pub hullFaceStarts: *const u16,
    /// Faces.
    pub hullFaceCount: i32,
    /// A cylinder (exact; it collides as a 32-sided prism except against planes).
    pub cylinder: m3Cylinder,
    /// A plane: the half-space `normal · x <= offset` is solid.
    pub plane: m3Plane,
    /// One triangle of a mesh or height field, counter-clockwise seen from the front.
    pub triangle: [m3Vec3; 3],
    /// A ray shape (`m3_rayShape`): the segment from `origin` along the unit `direction`,
    /// `length` long.
    pub ray: m3Ray,
}

/// Draws a shape of a body placed at `position`/`rotation` (relative to the world origin).
pub type m3DrawShapeFcn = Option<
    unsafe extern "C" fn(
        shape: m3ShapeId,
        body: m3BodyId,
        position: m3DVec3,
        rotation: m3Quat,
        geometry: *const m3DebugShape,
        awake: bool,
        context: *mut c_void,
    ),
>;
/// Draws a touching contact point, its normal (A to B), separation and normal impulse.
pub type m3DrawContactFcn = Option<
    unsafe extern "C" fn(
        point: m3DVec3,
        normal: m3Vec3,
        separation: f32,
        normalImpulse: f32,
        context: *mut c_void,
    ),
>;
/// Draws a shape's enlarged bounds.
pub type m3DrawBoundsFcn =
    Option<unsafe extern "C" fn(shape: m3ShapeId, bounds: m3DAABB, context: *mut c_void)>;
/// Draws a joint: its frame on body A and on body B in the world (they coincide when the
/// joint is satisfied) and whether it broke.
pub type m3DrawJointFcn = Option<
    unsafe extern "C" fn(
        joint: m3JointId,
        positionA: m3DVec3,
        rotationA: m3Quat,
        positionB: m3DVec3,
        rotationB: m3Quat,
        broken: bool,
        context: *mut c_void,
    ),
>;

/// Debug draw: what to draw and the host's drawing functions (any may be null). They run
/// in the host's floating-point setting; a call into the world from them is refused with
/// `m3_errorBusy`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct m3DebugDraw {
    /// Draws shapes.
    pub shapeFcn: m3DrawShapeFcn,
    /// Draws contact points.
    pub contactFcn: m3DrawContactFcn,
    /// Draws bounds.
    pub boundsFcn: m3DrawBoundsFcn,
    /// Draws joints.
    pub jointFcn: m3DrawJointFcn,
    /// Every shape of every enabled body.
    pub drawShapes: bool,
    /// Touching contact points.
    pub drawContacts: bool,
    /// Shapes' enlarged bounds.
    pub drawBounds: bool,
    /// Joints.
    pub drawJoints: bool,
    /// Passed back to every function.
    pub context: *mut c_void,
}

impl m3DebugDraw {
    /// What the engine is asked to draw.
    pub(crate) fn options(&self) -> engine::DebugDrawOptions {
        engine::DebugDrawOptions {
            shapes: self.drawShapes,
            contacts: self.drawContacts,
            bounds: self.drawBounds,
            joints: self.drawJoints,
        }
    }
}

/// A debug draw with shapes on and no functions.
#[unsafe(no_mangle)]
pub extern "C" fn m3DefaultDebugDraw() -> m3DebugDraw {
    crate::boundary::value("m3DefaultDebugDraw", blank_draw(), blank_draw)
}

fn blank_draw() -> m3DebugDraw {
    m3DebugDraw {
        shapeFcn: None,
        contactFcn: None,
        boundsFcn: None,
        jointFcn: None,
        drawShapes: true,
        drawContacts: false,
        drawBounds: false,
        drawJoints: false,
        context: core::ptr::null_mut(),
    }
}

/// The engine's `DebugDraw` over a host's `m3DebugDraw`.
pub(crate) struct HostDraw {
    pub draw: m3DebugDraw,
    pub world: m3WorldId,
}

impl engine::DebugDraw for HostDraw {
    fn shape(
        &mut self,
        shape: engine::ShapeId,
        body: engine::BodyId,
        position: engine::math::DVec3,
        rotation: engine::math::Quat,
        geometry: &engine::DebugGeometry,
        awake: bool,
    ) {
        let Some(f) = self.draw.shapeFcn else {
            return;
        };
        let zero = m3Vec3::default();
        let mut g = m3DebugShape {
            r#type: m3_sphereShape,
            sphere: m3Sphere {
                center: zero,
                radius: 0.0,
            },
            capsule: m3Capsule {
                center1: zero,
                center2: zero,
                radius: 0.0,
            },
            r#box: m3Box {
                halfExtents: zero,
                center: zero,
                rotation: IDENTITY_QUAT,
            },
            hullVertices: core::ptr::null(),
            hullVertexCount: 0,
            hullFaceVertices: core::ptr::null(),
            hullFaceStarts: core::ptr::null(),
            hullFaceCount: 0,
            cylinder: m3Cylinder {
                center: zero,
                rotation: IDENTITY_QUAT,
                halfHeight: 0.0,
                radius: 0.0,
            },
            plane: m3Plane {
                normal: zero,
                offset: 0.0,
            },
            triangle: [zero; 3],
            ray: m3Ray {
                origin: zero,
                direction: zero,
                length: 0.0,
                slideOnSlope: false,
            },
        };
        match *geometry {
            engine::DebugGeometry::Sphere(s) => g.sphere = s.into(),
            engine::DebugGeometry::Capsule(c) => {
                g.r#type = m3_capsuleShape;
                g.capsule = c.into();
            }
            engine::DebugGeometry::Box {
                half,
                center,
                rotation,
            } => {
                g.r#type = m3_boxShape;
                g.r#box = m3Box {
                    halfExtents: half.into(),
                    center: center.into(),
                    rotation: rotation.into(),
                };
            }
            engine::DebugGeometry::Hull {
                vertices,
                face_vertices,
                face_starts,
            } => {
                g.r#type = m3_hullShape;
                // `Vec3` and `m3Vec3` are both three `f32`s, `#[repr(C)]`.
                g.hullVertices = vertices.as_ptr() as *const m3Vec3;
                g.hullVertexCount = to_i32(vertices.len());
                g.hullFaceVertices = face_vertices.as_ptr();
                g.hullFaceStarts = face_starts.as_ptr();
                g.hullFaceCount = to_i32(face_starts.len().saturating_sub(1));
            }
            engine::DebugGeometry::Cylinder(c) => {
                g.r#type = m3_cylinderShape;
                g.cylinder = c.into();
            }
            engine::DebugGeometry::Plane(p) => {
                g.r#type = m3_planeShape;
                g.plane = p.into();
            }
            engine::DebugGeometry::Triangle(t) => {
                g.r#type = m3_meshShape;
                g.triangle = t.map(Into::into);
            }
            engine::DebugGeometry::Ray(r) => {
                g.r#type = m3_rayShape;
                g.ray = r.into();
            }
        }
        let (s, b) = (
            m3ShapeId::from_core(shape, self.world),
            m3BodyId::from_core(body, self.world),
        );
        let ctx = self.draw.context;
        // SAFETY: the host's function with a geometry alive across the call.
        host(|| unsafe { f(s, b, position.into(), rotation.into(), &g, awake, ctx) });
    }

    fn contact(
        &mut self,
        point: engine::math::DVec3,
        normal: engine::math::Vec3,
        separation: f32,
        normal_impulse: f32,
    ) {
        if let Some(f) = self.draw.contactFcn {
            let ctx = self.draw.context;
            // SAFETY: the host's function.
            host(|| unsafe { f(point.into(), normal.into(), separation, normal_impulse, ctx) });
        }
    }

    fn bounds(&mut self, shape: engine::ShapeId, aabb: &engine::math::DAabb) {
        if let Some(f) = self.draw.boundsFcn {
            let (s, b, ctx) = (
                m3ShapeId::from_core(shape, self.world),
                (*aabb).into(),
                self.draw.context,
            );
            // SAFETY: the host's function.
            host(|| unsafe { f(s, b, ctx) });
        }
    }

    fn joint(
        &mut self,
        joint: engine::JointId,
        frame_a: (engine::math::DVec3, engine::math::Quat),
        frame_b: (engine::math::DVec3, engine::math::Quat),
        broken: bool,
    ) {
        if let Some(f) = self.draw.jointFcn {
            let (j, ctx) = (m3JointId::from_core(joint, self.world), self.draw.context);
            // SAFETY: the host's function.
            host(|| unsafe {
                f(
                    j,
                    frame_a.0.into(),
                    frame_a.1.into(),
                    frame_b.0.into(),
                    frame_b.1.into(),
                    broken,
                    ctx,
                )
            });
        }
    }
}
