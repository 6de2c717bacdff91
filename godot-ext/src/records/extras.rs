//! The core objects Maul3D's own nodes make in a space: characters
//! (`Maul3DCharacterBody3D`), vehicles (`Maul3DVehicleBody3D`) and water volumes
//! (`Maul3DWaterVolume3D`). Each is owned by one node (its instance id); a node reaches
//! its object only through its space's table, so after a restore a node whose object is
//! gone (made after the snapshot) finds nothing, and a core object whose node is gone
//! (freed after the snapshot) is removed.

use std::collections::{BTreeMap, BTreeSet};

use maul3d::{BodyId, CharacterId, VehicleId, WaterVolumeId, World};

use super::Records;
use crate::errors::{OrReport, site, warn_once};

/// A space's node-made core objects, each with its node's instance id.
#[derive(Default)]
pub(crate) struct Extras {
    pub characters: BTreeMap<CharacterId, u64>,
    pub waters: BTreeMap<WaterVolumeId, u64>,
    pub vehicles: BTreeMap<VehicleId, u64>,
    /// Bumped by every restore of the space: a node that saw another value re-reads its
    /// object's state from the world (it was rolled back).
    pub restores: u64,
}

impl Extras {
    /// After the world was restored: drops the entries whose objects the restored world
    /// lacks (their nodes find nothing now: inert) and removes the world's characters and
    /// water volumes no node owns (their nodes were freed since). The inner bodies of the
    /// characters kept, which the caller must not take for freed bodies.
    pub fn after_restore(&mut self, w: &mut World) -> BTreeSet<BodyId> {
        self.restores += 1;
        let before = self.characters.len() + self.waters.len();
        self.characters
            .retain(|id, _| w.character_position(*id).is_ok());
        self.waters.retain(|id, _| w.water_volume(*id).is_ok());
        // A vehicle node whose vehicle is gone makes it again (on its chassis) itself.
        self.vehicles.retain(|id, _| w.vehicle_is_valid(*id));
        let ghosts: Vec<VehicleId> = w
            .vehicle_ids()
            .filter(|id| !self.vehicles.contains_key(id))
            .collect();
        for id in ghosts {
            w.destroy_vehicle(id)
                .or_report(site!("Maul3D.restore: removing a freed node's vehicle"));
        }
        if self.characters.len() + self.waters.len() < before {
            warn_once(
                "restore inert extras",
                "after a restore, Maul3D character or water nodes created after the snapshot are inert (no object in the restored world)",
            );
        }
        let ghosts: Vec<CharacterId> = w
            .character_ids()
            .filter(|id| !self.characters.contains_key(id))
            .collect();
        for id in ghosts {
            w.destroy_character(id)
                .or_report(site!("Maul3D.restore: removing a freed node's character"));
        }
        let ghosts: Vec<WaterVolumeId> = w
            .water_volume_ids()
            .filter(|id| !self.waters.contains_key(id))
            .collect();
        for id in ghosts {
            w.destroy_water_volume(id).or_report(site!(
                "Maul3D.restore: removing a freed node's water volume"
            ));
        }
        self.characters
            .keys()
            .filter_map(|id| w.character_body(*id).ok())
            .collect()
    }
}

impl Records {
    /// The world of `space` and its table of node-made objects.
    pub fn extras_mut(&mut self, space: u64) -> Result<(&mut World, &mut Extras), String> {
        let s = self
            .spaces
            .get_mut(&space)
            .ok_or_else(|| format!("RID({space}) is not a Maul3D space"))?;
        Ok((&mut s.world, &mut s.extras))
    }

    /// The world of `space` and its table, read only.
    pub fn extras(&self, space: u64) -> Result<(&World, &Extras), String> {
        let s = self.space(space)?;
        Ok((&s.world, &s.extras))
    }
}

impl Records {
    /// Makes a character in `space` for the node `owner`; with the space's restore count.
    pub fn character_create(
        &mut self,
        space: u64,
        owner: u64,
        def: &maul3d::CharacterDef,
    ) -> Result<(CharacterId, u64), String> {
        let (w, ex) = self.extras_mut(space)?;
        super::growth::make_room(w, 1, 1, 0);
        let id = w.create_character(def).map_err(|e| e.to_string())?;
        ex.characters.insert(id, owner);
        Ok((id, ex.restores))
    }

    /// Makes a water volume in `space` for the node `owner`.
    pub fn water_create(
        &mut self,
        space: u64,
        owner: u64,
        def: &maul3d::WaterVolumeDef,
    ) -> Result<(WaterVolumeId, u64), String> {
        let (w, ex) = self.extras_mut(space)?;
        let id = w.create_water_volume(def).map_err(|e| e.to_string())?;
        ex.waters.insert(id, owner);
        Ok((id, ex.restores))
    }

    /// The world holding node `owner`'s character `id` (an error when the space or the
    /// character is gone, or the character is not the node's), and the restore count.
    pub fn character_world(
        &mut self,
        space: u64,
        owner: u64,
        id: CharacterId,
    ) -> Result<(&mut World, u64), String> {
        let (w, ex) = self.extras_mut(space)?;
        if ex.characters.get(&id) != Some(&owner) {
            return Err("the node's character is gone (the space was restored to a snapshot from before it was made)".into());
        }
        Ok((w, ex.restores))
    }

    /// The same for node `owner`'s water volume `id`.
    pub fn water_world(
        &mut self,
        space: u64,
        owner: u64,
        id: WaterVolumeId,
    ) -> Result<&mut World, String> {
        let (w, ex) = self.extras_mut(space)?;
        if ex.waters.get(&id) != Some(&owner) {
            return Err("the node's water volume is gone (the space was restored to a snapshot from before it was made)".into());
        }
        Ok(w)
    }

    /// Removes node `owner`'s character (nothing when it is gone already).
    pub fn character_destroy(&mut self, space: u64, owner: u64, id: CharacterId) {
        if let Ok((w, ex)) = self.extras_mut(space)
            && ex.characters.get(&id) == Some(&owner)
        {
            ex.characters.remove(&id);
            w.destroy_character(id)
                .or_report(site!("Maul3DCharacterBody3D leaving the tree"));
        }
    }

    /// Removes node `owner`'s water volume (nothing when it is gone already).
    pub fn water_destroy(&mut self, space: u64, owner: u64, id: WaterVolumeId) {
        if let Ok((w, ex)) = self.extras_mut(space)
            && ex.waters.get(&id) == Some(&owner)
        {
            ex.waters.remove(&id);
            w.destroy_water_volume(id)
                .or_report(site!("Maul3DWaterVolume3D leaving the tree"));
        }
    }
}

impl Records {
    /// Node `owner`'s vehicle in `space`: the one it has when it is still there on the
    /// chassis body of Godot body `rid`, else a new one made from `def` (its chassis set
    /// here; the old one removed). The vehicle's id, or an error.
    pub fn vehicle_ensure(
        &mut self,
        space: u64,
        owner: u64,
        rid: u64,
        have: Option<VehicleId>,
        def: impl FnOnce(&World, BodyId) -> maul3d::VehicleDef,
    ) -> Result<VehicleId, String> {
        let Some((home, chassis)) = self.core_body(rid) else {
            return Err("the vehicle body is in no space".into());
        };
        if home != space {
            return Err("the vehicle body is in another space".into());
        }
        let (w, ex) = self.extras_mut(space)?;
        if let Some(id) = have
            && ex.vehicles.get(&id) == Some(&owner)
        {
            if w.vehicle_def(id).is_ok_and(|d| d.chassis == chassis) {
                return Ok(id);
            }
            ex.vehicles.remove(&id);
            if w.vehicle_is_valid(id) {
                w.destroy_vehicle(id)
                    .or_report(site!("Maul3DVehicleBody3D: remaking the vehicle"));
            }
        }
        let mut d = def(w, chassis);
        d.chassis = chassis;
        let id = w.create_vehicle(&d).map_err(|e| e.to_string())?;
        ex.vehicles.insert(id, owner);
        Ok(id)
    }

    /// The world holding node `owner`'s vehicle `id`.
    pub fn vehicle_world(
        &mut self,
        space: u64,
        owner: u64,
        id: VehicleId,
    ) -> Result<&mut World, String> {
        let (w, ex) = self.extras_mut(space)?;
        if ex.vehicles.get(&id) != Some(&owner) || !w.vehicle_is_valid(id) {
            return Err("the node's vehicle is gone".into());
        }
        Ok(w)
    }

    /// Removes node `owner`'s vehicle (nothing when it is gone already).
    pub fn vehicle_destroy(&mut self, space: u64, owner: u64, id: VehicleId) {
        if let Ok((w, ex)) = self.extras_mut(space)
            && ex.vehicles.get(&id) == Some(&owner)
        {
            ex.vehicles.remove(&id);
            if w.vehicle_is_valid(id) {
                w.destroy_vehicle(id)
                    .or_report(site!("Maul3DVehicleBody3D leaving the tree"));
            }
        }
    }
}
