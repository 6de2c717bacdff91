//! STUB (replaced by the real tree on merge).
#![allow(missing_docs, dead_code)]
use crate::alloc::{FixedVec, WorldAlloc};
use crate::math::{DAabb, DVec3};
pub struct DynamicTree {
    nodes: FixedVec<(DAabb, u32, bool)>,
    free: FixedVec<u32>,
}
impl DynamicTree {
    pub fn new(cap: usize, alloc: WorldAlloc) -> crate::Result<Self> {
        Ok(Self {
            nodes: FixedVec::with_capacity(cap, alloc, "shape_capacity")?,
            free: FixedVec::with_capacity(cap, alloc, "shape_capacity")?,
        })
    }
    pub fn create_proxy(&mut self, aabb: DAabb, user: u32) -> u32 {
        if let Some(i) = self.free.pop() {
            self.nodes[i as usize] = (aabb, user, true);
            return i;
        }
        let i = self.nodes.len() as u32;
        let _ = self.nodes.push((aabb, user, true));
        i
    }
    pub fn destroy_proxy(&mut self, id: u32) {
        self.nodes[id as usize].2 = false;
        let _ = self.free.push(id);
    }
    pub fn move_proxy(&mut self, id: u32, aabb: DAabb) {
        self.nodes[id as usize].0 = aabb;
    }
    pub fn query(&self, aabb: &DAabb, mut f: impl FnMut(u32, u32) -> bool) {
        for (i, n) in self.nodes.iter().enumerate() {
            if n.2 && n.0.overlaps(aabb) && !f(i as u32, n.1) {
                return;
            }
        }
    }
    pub fn height(&self) -> usize {
        0
    }
    pub fn memory_usage(&self) -> usize {
        0
    }
    pub fn shift(&mut self, o: DVec3) {
        for n in self.nodes.iter_mut() {
            n.0 = n.0.shifted(o);
        }
    }
}
