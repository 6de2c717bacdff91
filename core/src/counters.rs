//! What the last step did and dropped: counters that observe, never state.

/// What the last step did and dropped. Counters observe; they are not state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Bodies alive.
    pub body_count: u32,
    /// Shapes alive.
    pub shape_count: u32,
    /// Contacts alive.
    pub contact_count: u32,
    /// Contacts with at least one manifold point.
    pub touching_contact_count: u32,
    /// Contacts the last step's narrow phase visited: those of moving bodies. Contacts
    /// between bodies at rest (asleep, static) are skipped, so this does not grow with
    /// the bodies asleep.
    pub contacts_visited: u32,
    /// Contacts among those whose manifold the last step kept from an earlier one,
    /// measuring only its separations again, instead of computing it afresh (two boxes
    /// or hulls that moved and turned little relative to each other).
    pub recycled_contacts: u32,
    /// Joints the last step's solver visited: those of moving dynamic bodies (joints
    /// between bodies at rest are skipped, as contacts are).
    pub joints_visited: u32,
    /// Bodies in the last step's solver (awake, moving).
    pub awake_body_count: u32,
    /// Islands among the last step's awake dynamic bodies (0 in a world without sleep:
    /// islands are found only to put them to sleep).
    pub island_count: u32,
    /// Graph colours in use in the last step (the overflow colour counts as one).
    pub color_count: u32,
    /// Constraints that fell into the overflow colour in the last step.
    pub overflow_constraints: u32,
    /// Hulls alive.
    pub hull_count: u32,
    /// Meshes and height fields alive.
    pub mesh_count: u32,
    /// New pairs the broad phase dropped for `pair_capacity` in the last step.
    pub dropped_pairs: u32,
    /// New contacts dropped for `contact_capacity` in the last step.
    pub dropped_contacts: u32,
    /// Contact begin events dropped for `event_capacity` in the last step.
    pub dropped_begin_events: u32,
    /// Contact end events dropped for `event_capacity` in the last step.
    pub dropped_end_events: u32,
    /// Height of the movable-shape tree.
    pub tree_height: u32,
    /// Sensor overlaps dropped for `sensor_capacity` in the last step.
    pub dropped_sensor_pairs: u32,
    /// Sensor begin events dropped for `event_capacity` in the last step.
    pub dropped_sensor_begin_events: u32,
    /// Sensor end events dropped for `event_capacity` in the last step.
    pub dropped_sensor_end_events: u32,
    /// Contact hit events dropped for `event_capacity` in the last step.
    pub dropped_hit_events: u32,
    /// Joints alive.
    pub joint_count: u32,
    /// Joint break events dropped for `event_capacity` in the last step.
    pub dropped_joint_break_events: u32,
    /// Rigid shapes near a soft body that its particles did not test in the last step
    /// (beyond 256 per soft body).
    pub soft_shapes_dropped: u32,
    /// How often in the last step a cap (the world's `max_linear_speed`,
    /// `limits::MAX_ANGULAR_SPEED`) bound a dynamic body's speed, counted per body per
    /// substep stage; 0 in a scene that never reaches them.
    pub speed_caps: u32,
    /// Times in the last step the cap of a quarter turn per substep cut a body's angular
    /// velocity (per body, per substep).
    pub rotation_clamps: u32,
    /// Time-of-impact queries continuous collision ran in the last step.
    pub toi_queries: u32,
    /// Their outer iterations (separating axes tried), at most
    /// [`MAX_TOI_ITERATIONS`](crate::collide::cast::MAX_TOI_ITERATIONS) a query.
    pub toi_iterations: u32,
    /// Their separation evaluations (deepest-point pushes and root-finder steps), at most
    /// [`MAX_TOI_EVALUATIONS`](crate::collide::cast::MAX_TOI_EVALUATIONS) a query.
    pub toi_root_iterations: u32,
    /// Fast-body and bullet sweeps that reached
    /// [`MAX_SWEEP_CANDIDATES`](crate::MAX_SWEEP_CANDIDATES) in the
    /// last step: candidates past the limit (later along the path, then higher shape
    /// slot, then higher triangle index) were not examined.
    pub dropped_ccd_sweeps: u32,
}
