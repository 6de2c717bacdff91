//! Per-body edge lists, shared by contacts and joints (Box2D v3's contact and joint
//! edges).
//!
//! Every contact and every joint joins two bodies and sits in each one's list through one
//! of its two edges: an intrusive doubly-linked list threaded through the item pool, with
//! its head and length kept in the body. An edge is named by a key,
//! `(item slot << 1) | edge`: edge 0 is in body A's list, edge 1 in body B's.
//!
//! The lists are derived (rebuilt at restore) and never walked in an order that shapes a
//! result: a walk that destroys what it finds sorts the slots first. New items go to the
//! front of both lists, edge 0 first, so a list reads newest first.

use crate::body::{Body, NONE};

/// One item's place in one body's list: the body and the keys of its neighbours there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Edge {
    pub body: u32,
    pub prev: u32,
    pub next: u32,
}

impl Edge {
    /// Not in any list.
    pub(crate) const UNLINKED: Edge = Edge {
        body: NONE,
        prev: NONE,
        next: NONE,
    };
}

/// An item with one edge in each of its two bodies' lists (a contact, a joint).
pub(crate) trait Linked {
    /// The item's edges (edge 0 in body A's list, edge 1 in body B's).
    fn edges(&self) -> &[Edge; 2];
    fn edges_mut(&mut self) -> &mut [Edge; 2];
    /// The head key and length of the body's list of this kind of item.
    fn list(body: &Body) -> (u32, u32);
    fn list_mut(body: &mut Body) -> (&mut u32, &mut u32);
}

/// An item that can forbid contacts between its two bodies (a joint with
/// `collide_connected` off).
pub(crate) trait PairFilter: Linked {
    /// Whether the item keeps its bodies from colliding now.
    fn keeps_apart(&self) -> bool;
}

/// The key of `slot`'s edge `edge`.
#[inline(always)]
fn key(slot: u32, edge: usize) -> u32 {
    (slot << 1) | edge as u32
}

/// The edge a key names.
#[inline(always)]
fn edge_mut<T: Linked>(items: &mut [T], key: u32) -> &mut Edge {
    &mut items[(key >> 1) as usize].edges_mut()[(key & 1) as usize]
}

/// Puts item `slot` at the front of the lists of `ends[0]` (its edge 0) and `ends[1]` (its
/// edge 1), in that order.
pub(crate) fn link<T: Linked>(items: &mut [T], bodies: &mut [Body], slot: u32, ends: [u32; 2]) {
    for (edge, body) in ends.into_iter().enumerate() {
        let (head, count) = T::list_mut(&mut bodies[body as usize]);
        let old = *head;
        *head = key(slot, edge);
        *count += 1;
        items[slot as usize].edges_mut()[edge] = Edge {
            body,
            prev: NONE,
            next: old,
        };
        if old != NONE {
            edge_mut(items, old).prev = key(slot, edge);
        }
    }
}

/// Takes item `slot` out of both its bodies' lists (its edges keep their stale links).
pub(crate) fn unlink<T: Linked>(items: &mut [T], bodies: &mut [Body], slot: u32) {
    for edge in 0..2 {
        let e = items[slot as usize].edges()[edge];
        let (head, count) = T::list_mut(&mut bodies[e.body as usize]);
        if e.prev == NONE {
            *head = e.next;
        }
        *count -= 1;
        if e.prev != NONE {
            edge_mut(items, e.prev).next = e.next;
        }
        if e.next != NONE {
            edge_mut(items, e.next).prev = e.prev;
        }
    }
}

/// The length of `body`'s list of `T`.
#[inline(always)]
pub(crate) fn count<T: Linked>(bodies: &[Body], body: u32) -> u32 {
    T::list(&bodies[body as usize]).1
}

/// The first key of `body`'s list of `T` (`NONE` when empty), to walk it with [`step`]
/// while changing other things than the list.
#[inline(always)]
pub(crate) fn first<T: Linked>(bodies: &[Body], body: u32) -> u32 {
    T::list(&bodies[body as usize]).0
}

/// One item of a list walk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Neighbour {
    /// The item's slot.
    pub slot: u32,
    /// The body on the item's other side.
    pub other: u32,
    /// The key after this one (`NONE` at the end).
    pub next: u32,
}

/// The item under `key`, read before the caller acts on it.
#[inline(always)]
pub(crate) fn step<T: Linked>(items: &[T], key: u32) -> Neighbour {
    let edges = items[(key >> 1) as usize].edges();
    let edge = (key & 1) as usize;
    Neighbour {
        slot: key >> 1,
        other: edges[edge ^ 1].body,
        next: edges[edge].next,
    }
}

/// The items of `body`'s list of `T`, newest first.
#[inline]
pub(crate) fn walk<'a, T: Linked>(
    items: &'a [T],
    bodies: &[Body],
    body: u32,
) -> impl Iterator<Item = Neighbour> + 'a {
    let mut key = first::<T>(bodies, body);
    core::iter::from_fn(move || {
        if key == NONE {
            return None;
        }
        let n = step(items, key);
        key = n.next;
        Some(n)
    })
}

/// Whether an item joining bodies `a` and `b` keeps them from colliding. Walks the shorter
/// list; the answer does not depend on list order.
#[inline]
pub(crate) fn kept_apart<T: PairFilter>(items: &[T], bodies: &[Body], a: u32, b: u32) -> bool {
    let (na, nb) = (count::<T>(bodies, a), count::<T>(bodies, b));
    if na == 0 || nb == 0 {
        return false;
    }
    let (walk_body, other) = if na <= nb { (a, b) } else { (b, a) };
    walk(items, bodies, walk_body).any(|n| n.other == other && items[n.slot as usize].keeps_apart())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::BodyDef;

    /// An item joining two bodies, kept in the bodies' contact lists.
    struct Item {
        edges: [Edge; 2],
        apart: bool,
    }

    impl Linked for Item {
        fn edges(&self) -> &[Edge; 2] {
            &self.edges
        }
        fn edges_mut(&mut self) -> &mut [Edge; 2] {
            &mut self.edges
        }
        fn list(body: &Body) -> (u32, u32) {
            (body.contact_head, body.contact_count)
        }
        fn list_mut(body: &mut Body) -> (&mut u32, &mut u32) {
            (&mut body.contact_head, &mut body.contact_count)
        }
    }

    impl PairFilter for Item {
        fn keeps_apart(&self) -> bool {
            self.apart
        }
    }

    fn world(bodies: usize, items: usize) -> (Vec<Body>, Vec<Item>) {
        let body = Body::from_def(&BodyDef::default(), 1);
        let item = || Item {
            edges: [Edge::UNLINKED; 2],
            apart: false,
        };
        (vec![body; bodies], (0..items).map(|_| item()).collect())
    }

    fn slots(items: &[Item], bodies: &[Body], body: u32) -> Vec<(u32, u32)> {
        walk(items, bodies, body)
            .map(|n| (n.slot, n.other))
            .collect()
    }

    #[test]
    fn lists_read_newest_first_and_keep_their_order_when_an_item_leaves() {
        let (mut bodies, mut items) = world(3, 3);
        link(&mut items, &mut bodies, 0, [0, 1]);
        link(&mut items, &mut bodies, 1, [0, 2]);
        link(&mut items, &mut bodies, 2, [1, 0]);
        assert_eq!(slots(&items, &bodies, 0), [(2, 1), (1, 2), (0, 1)]);
        assert_eq!(slots(&items, &bodies, 1), [(2, 0), (0, 0)]);
        assert_eq!(count::<Item>(&bodies, 0), 3);
        unlink(&mut items, &mut bodies, 1);
        assert_eq!(slots(&items, &bodies, 0), [(2, 1), (0, 1)]);
        assert_eq!(slots(&items, &bodies, 2), []);
        assert_eq!(
            (count::<Item>(&bodies, 0), count::<Item>(&bodies, 2)),
            (2, 0)
        );
        unlink(&mut items, &mut bodies, 2);
        unlink(&mut items, &mut bodies, 0);
        for b in 0..3 {
            assert_eq!(
                (first::<Item>(&bodies, b), count::<Item>(&bodies, b)),
                (NONE, 0)
            );
        }
    }

    #[test]
    fn only_an_item_that_keeps_apart_between_the_two_bodies_filters_their_pair() {
        let (mut bodies, mut items) = world(3, 2);
        link(&mut items, &mut bodies, 0, [0, 1]);
        link(&mut items, &mut bodies, 1, [1, 2]);
        assert!(!kept_apart(&items, &bodies, 0, 1));
        items[0].apart = true;
        assert!(kept_apart(&items, &bodies, 0, 1));
        assert!(kept_apart(&items, &bodies, 1, 0));
        assert!(!kept_apart(&items, &bodies, 0, 2));
        assert!(!kept_apart(&items, &bodies, 1, 2));
    }
}
