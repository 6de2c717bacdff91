//! Replaying recorded joint calls (journal kinds 60–79): each record is decoded and the
//! public call made again, so a replay validates and records exactly as the original.

use super::encoding::{decode_kind, decode_transform};
use super::{JointDef, SixDofAxis};
use crate::codec::{Dec, check};
use crate::error::{Error, Result};
use crate::id::{BodyId, JointId};
use crate::journal::kind as rec_kind;
use crate::world::World;

impl World {
    fn joint_from(&self, d: &mut Dec) -> Result<JointId> {
        Ok(JointId {
            index: d.u32()?,
            generation: d.u32()?,
            world: self.tag,
        })
    }

    fn body_in(&self, d: &mut Dec) -> Result<BodyId> {
        Ok(BodyId {
            index: d.u32()?,
            generation: d.u32()?,
            world: self.tag,
        })
    }

    /// Makes a recorded joint call again (journal kinds 60–79).
    pub(crate) fn replay_joint(&mut self, kind: u16, d: &mut Dec) -> Result<()> {
        use rec_kind::*;
        match kind {
            CREATE_JOINT => {
                let def = JointDef {
                    body_a: self.body_in(d)?,
                    body_b: self.body_in(d)?,
                    local_frame_a: decode_transform(d)?,
                    local_frame_b: decode_transform(d)?,
                    collide_connected: d.bool()?,
                    break_force: d.f32()?,
                    break_torque: d.f32()?,
                    user_data: d.u64()?,
                    kind: decode_kind(d)?,
                };
                let expected = self.joint_from(d)?;
                let got = self.create_joint(&def)?;
                check(got == expected, "a create did not get its recorded id")?;
            }
            DESTROY_JOINT => {
                let id = self.joint_from(d)?;
                self.destroy_joint(id)?;
            }
            SET_JOINT_MOTOR_SPEED => {
                let id = self.joint_from(d)?;
                let v = d.f32()?;
                self.set_joint_motor_speed(id, v)?;
            }
            SET_JOINT_MAX_MOTOR_FORCE => {
                let id = self.joint_from(d)?;
                let v = d.f32()?;
                self.set_joint_max_motor_force(id, v)?;
            }
            SET_JOINT_ENABLE_MOTOR => {
                let id = self.joint_from(d)?;
                let v = d.bool()?;
                self.set_joint_enable_motor(id, v)?;
            }
            SET_JOINT_ENABLE_LIMIT => {
                let id = self.joint_from(d)?;
                let v = d.bool()?;
                self.set_joint_enable_limit(id, v)?;
            }
            SET_JOINT_LIMITS => {
                let id = self.joint_from(d)?;
                let (lo, hi) = (d.f32()?, d.f32()?);
                self.set_joint_limits(id, lo, hi)?;
            }
            SET_JOINT_ENABLE_SPRING => {
                let id = self.joint_from(d)?;
                let v = d.bool()?;
                self.set_joint_enable_spring(id, v)?;
            }
            SET_JOINT_SPRING => {
                let id = self.joint_from(d)?;
                let (h, z) = (d.f32()?, d.f32()?);
                self.set_joint_spring(id, h, z)?;
            }
            SET_DISTANCE_LENGTH => {
                let id = self.joint_from(d)?;
                let v = d.f32()?;
                self.set_distance_length(id, v)?;
            }
            SET_DISTANCE_RANGE => {
                let id = self.joint_from(d)?;
                let (lo, hi) = (d.f32()?, d.f32()?);
                self.set_distance_range(id, lo, hi)?;
            }
            SET_JOINT_BREAK_THRESHOLDS => {
                let id = self.joint_from(d)?;
                let (f, t) = (d.f32()?, d.f32()?);
                self.set_joint_break_thresholds(id, f, t)?;
            }
            SET_JOINT_COLLIDE_CONNECTED => {
                let id = self.joint_from(d)?;
                let v = d.bool()?;
                self.set_joint_collide_connected(id, v)?;
            }
            SET_JOINT_USER_DATA => {
                let id = self.joint_from(d)?;
                let v = d.u64()?;
                self.set_joint_user_data(id, v)?;
            }
            SET_CONE_SWING_LIMIT => {
                let id = self.joint_from(d)?;
                let v = d.f32()?;
                self.set_cone_swing_limit(id, v)?;
            }
            SET_WELD_SPRING => {
                let id = self.joint_from(d)?;
                let (l, a, z) = (d.f32()?, d.f32()?, d.f32()?);
                self.set_weld_spring(id, l, a, z)?;
            }
            SET_SIX_DOF_AXIS => {
                let id = self.joint_from(d)?;
                let axis = d.u32()?;
                let value = SixDofAxis::decode(d)?;
                self.set_six_dof_axis(id, axis, value)?;
            }
            SET_JOINT_DAMPING_RATIO => {
                let v = d.f32()?;
                self.set_joint_damping_ratio(v)?;
            }
            _ => return Err(Error::Format("unknown record kind")),
        }
        Ok(())
    }
}
