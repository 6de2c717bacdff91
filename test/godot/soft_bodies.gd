extends RefCounted
# Helpers of tests/test_soft_body.gd and the compare/cmp_soft_* cases (preloaded; static):
# SoftBody3D nodes made from a PlaneMesh (cloth) or a SphereMesh (ball), and what is
# measured of them through the node's points (`get_point_transform`: the server's point
# positions), the same way under every engine.


## A cloth: a horizontal `size` × `size` PlaneMesh of `cells` × `cells` quads at `at`.
static func cloth(size: float, cells: int, at: Vector3) -> SoftBody3D:
	var pm := PlaneMesh.new()
	pm.size = Vector2(size, size)
	pm.subdivide_width = cells - 1
	pm.subdivide_depth = cells - 1
	var sb := SoftBody3D.new()
	sb.mesh = pm
	sb.position = at
	return sb


## A ball: a SphereMesh of `radius` with `segments` radial segments and `rings` rings.
static func ball(radius: float, segments: int, rings: int, at: Vector3) -> SoftBody3D:
	var sm := SphereMesh.new()
	sm.radius = radius
	sm.height = 2.0 * radius
	sm.radial_segments = segments
	sm.rings = rings
	var sb := SoftBody3D.new()
	sb.mesh = sm
	sb.position = at
	return sb


## The render vertices of the soft body's mesh (in its own frame, before any transform).
static func mesh_vertices(sb: SoftBody3D) -> PackedVector3Array:
	return sb.mesh.surface_get_arrays(0)[Mesh.ARRAY_VERTEX]


## The render vertex indices of the mesh's triangles.
static func mesh_indices(sb: SoftBody3D) -> PackedInt32Array:
	return sb.mesh.surface_get_arrays(0)[Mesh.ARRAY_INDEX]


## The render vertex of the mesh nearest `local` (in the mesh's frame).
static func vertex_near(sb: SoftBody3D, local: Vector3) -> int:
	var best := -1
	var d := INF
	var vs := mesh_vertices(sb)
	for i in vs.size():
		var e := vs[i].distance_squared_to(local)
		if e < d:
			d = e
			best = i
	return best


## Every render vertex's global position now.
static func points(sb: SoftBody3D) -> PackedVector3Array:
	var out := PackedVector3Array()
	for i in mesh_vertices(sb).size():
		out.append(sb.get_point_transform(i))
	return out


## The lowest y of the points.
static func lowest(ps: PackedVector3Array) -> float:
	var y := INF
	for p in ps:
		y = minf(y, p.y)
	return y


## The mean of the points.
static func centre(ps: PackedVector3Array) -> Vector3:
	var c := Vector3.ZERO
	for p in ps:
		c += p
	return c / maxf(ps.size(), 1)


## The largest distance any point moved between `a` and `b`.
static func largest_move(a: PackedVector3Array, b: PackedVector3Array) -> float:
	var m := 0.0
	for i in mini(a.size(), b.size()):
		m = maxf(m, a[i].distance_to(b[i]))
	return m


## The volume the mesh's triangles enclose at the points `ps` (absolute).
static func volume(sb: SoftBody3D, ps: PackedVector3Array) -> float:
	var idx := mesh_indices(sb)
	var o := centre(ps)
	var v := 0.0
	for t in range(0, idx.size() - 2, 3):
		var a := ps[idx[t]] - o
		var b := ps[idx[t + 1]] - o
		var c := ps[idx[t + 2]] - o
		v += a.dot(b.cross(c))
	return absf(v) / 6.0


## The volume of the mesh itself (its own vertices: the rest shape).
static func rest_volume(sb: SoftBody3D) -> float:
	return volume(sb, mesh_vertices(sb))
