extends "res://compare_case.gd"
# Query shapes of every convex kind (issue 14 item 6): a convex polygon (a cube's corners)
# and a cylinder probe a floor and a box in intersect_shape, collide_shape, get_rest_info
# and cast_motion. A convex probe that finds nothing leaves a convex body's floor check
# blind. Counts, the rest normal and the cast fractions must match Godot Physics and Jolt.
# A concave probe is measured too; it is judged only where both Godot engines agree.


func probes() -> Dictionary:
	var convex := ConvexPolygonShape3D.new()
	var pts := PackedVector3Array()
	for i in 8:
		pts.append(Vector3(0.4 if i & 1 else -0.4, 0.4 if i & 2 else -0.4, 0.4 if i & 4 else -0.4))
	convex.points = pts
	var cyl := CylinderShape3D.new()
	cyl.radius = 0.4
	cyl.height = 0.8
	var concave := ConcavePolygonShape3D.new()
	var bm := BoxMesh.new()
	bm.size = Vector3(0.8, 0.8, 0.8)
	concave.set_faces(bm.get_faces())
	return {"convex": convex, "cylinder": cyl, "concave": concave}


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	static_box(Vector3(0.5, 0.5, 0.5), Vector3(3, 0.5, 0))
	await ticks(2)
	var space := get_world_3d().direct_space_state
	var all := probes()
	for kind in all:
		var shape: Shape3D = all[kind]
		var q := PhysicsShapeQueryParameters3D.new()
		q.shape = shape
		q.margin = 0.0
		# Sunk 0.05 into the floor; resting 0.02 above it; sunk into the box's top.
		q.transform = Transform3D(Basis.IDENTITY, Vector3(0, 0.35, 0))
		values[kind + "_floor_hits"] = space.intersect_shape(q).size()
		values[kind + "_floor_collides"] = space.collide_shape(q).size() > 0
		var rest := space.get_rest_info(q)
		values[kind + "_rest_found"] = not rest.is_empty()
		values[kind + "_rest_normal_y"] = rest.get("normal", Vector3.ZERO).y
		q.transform = Transform3D(Basis.IDENTITY, Vector3(3, 1.35, 0))
		values[kind + "_box_hits"] = space.intersect_shape(q).size()
		q.transform = Transform3D(Basis.IDENTITY, Vector3(1.5, 0.5, 5))
		values[kind + "_air_hits"] = space.intersect_shape(q).size()
		# Cast down from 3 m: the floor at 0 and the box top at 1.
		q.motion = Vector3(0, -5, 0)
		q.transform = Transform3D(Basis.IDENTITY, Vector3(0, 3, 0))
		var c := space.cast_motion(q)
		values[kind + "_cast_floor"] = c[0] if c.size() > 0 else -1.0
		q.transform = Transform3D(Basis.IDENTITY, Vector3(3, 3, 0))
		c = space.cast_motion(q)
		values[kind + "_cast_box"] = c[0] if c.size() > 0 else -1.0


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	var g: Dictionary = by["GodotPhysics3D"]
	var j: Dictionary = by["Jolt Physics"]
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty() or m.is_empty():
			continue
		for key in r:
			var kind: String = key.split("_")[0]
			# Concave probes: judged only where both Godot engines agree.
			if kind == "concave" and (g.is_empty() or j.is_empty() or not _same(g[key], j[key])):
				continue
			var p := ""
			if key.ends_with("_cast_floor") or key.ends_with("_cast_box"):
				p = near(key + " vs " + e, m[key], r[key], 0.02)
			elif key.ends_with("_normal_y"):
				p = near(key + " vs " + e, m[key], r[key], 0.05)
			elif m[key] != r[key]:
				p = "%s: %s vs %s under %s" % [key, str(m[key]), str(r[key]), e]
			if p != "":
				out.append(p)
	return out


func _same(a, b) -> bool:
	if a is float or b is float:
		return absf(float(a) - float(b)) <= 0.02
	return a == b
