//! The water calls that change a world (validate → apply → record): water volumes created,
//! destroyed and changed. Each applies through `water/mod.rs`'s `*_unrecorded` function,
//! which wakes the dynamic bodies in the volume's box (before and after a change).

use crate::error::Result;
use crate::id::WaterVolumeId;
use crate::math::{DVec3, Quat, Vec3};
use crate::water::WaterVolumeDef;
use crate::world::World;

impl World {
    /// Creates a water volume and wakes the dynamic bodies in its box. Refused (nothing
    /// changed) for a bad value (see [`WaterVolumeDef`]) or a full pool (`water_capacity`).
    pub fn create_water_volume(&mut self, def: &WaterVolumeDef) -> Result<WaterVolumeId> {
        let id = self.create_water_volume_unrecorded(def)?;
        self.rec(|j| j.create_water_volume(def, id));
        Ok(id)
    }

    /// Destroys a water volume and wakes the dynamic bodies that were in it.
    pub fn destroy_water_volume(&mut self, id: WaterVolumeId) -> Result<()> {
        self.destroy_water_volume_unrecorded(id)?;
        self.rec(|j| j.destroy_water_volume(id));
        Ok(())
    }

    /// Replaces a water volume's settings; wakes the bodies in its old and new box.
    pub fn set_water_volume(&mut self, id: WaterVolumeId, def: &WaterVolumeDef) -> Result<()> {
        self.set_water_volume_unrecorded(id, def)?;
        self.rec(|j| j.set_water_volume(id, def));
        Ok(())
    }

    /// Sets a water volume's fluid density, kg/m³ (in [0, 1e5]).
    pub fn set_water_density(&mut self, id: WaterVolumeId, density: f32) -> Result<()> {
        let mut def = self.water_volume(id)?;
        def.density = density;
        self.set_water_volume_unrecorded(id, &def)?;
        self.rec(|j| j.set_water_density(id, density));
        Ok(())
    }

    /// Sets a water volume's linear and angular drag rates, 1/s (each in [0, 1e6]).
    pub fn set_water_drag(&mut self, id: WaterVolumeId, linear: f32, angular: f32) -> Result<()> {
        let mut def = self.water_volume(id)?;
        def.linear_drag = linear;
        def.angular_drag = angular;
        self.set_water_volume_unrecorded(id, &def)?;
        self.rec(|j| j.set_water_drag(id, linear, angular));
        Ok(())
    }

    /// Sets a water volume's current, m/s.
    pub fn set_water_flow(&mut self, id: WaterVolumeId, flow: Vec3) -> Result<()> {
        let mut def = self.water_volume(id)?;
        def.flow = flow;
        self.set_water_volume_unrecorded(id, &def)?;
        self.rec(|j| j.set_water_flow(id, flow));
        Ok(())
    }

    /// Moves, turns or resizes a water volume's box (the surface is its top face).
    pub fn set_water_region(
        &mut self,
        id: WaterVolumeId,
        center: DVec3,
        rotation: Quat,
        half_extents: Vec3,
    ) -> Result<()> {
        let mut def = self.water_volume(id)?;
        def.center = center;
        def.rotation = rotation;
        def.half_extents = half_extents;
        self.set_water_volume_unrecorded(id, &def)?;
        self.rec(|j| j.set_water_region(id, center, rotation, half_extents));
        Ok(())
    }
}
