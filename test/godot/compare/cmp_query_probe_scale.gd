extends "res://compare_case.gd"
# A query shape's transform carries a scale (a scaled ShapeCast3D, a query built from a
# scaled node's transform): Godot Physics and Jolt scale the probe with it. Each probe is
# half the size it acts at, the transform scales it ×2 (a sphere, a box and a convex cube
# uniformly, a box non-uniformly), so an unscaled probe would find nothing where these
# look and cast twice as far.


func probes() -> Dictionary:
	var sphere := SphereShape3D.new()
	sphere.radius = 0.2
	var box := BoxShape3D.new()
	box.size = Vector3(0.4, 0.4, 0.4)
	var convex := ConvexPolygonShape3D.new()
	var pts := PackedVector3Array()
	for i in 8:
		pts.append(Vector3(0.2 if i & 1 else -0.2, 0.2 if i & 2 else -0.2, 0.2 if i & 4 else -0.2))
	convex.points = pts
	return {"sphere": sphere, "box": box, "convex": convex}


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	await ticks(2)
	var space := get_world_3d().direct_space_state
	var all := probes()
	var cases := {
		"uniform": Basis.IDENTITY.scaled(Vector3(2, 2, 2)),
		"tall": Basis.IDENTITY.scaled(Vector3(1, 2, 1)),
	}
	for kind in all:
		for scale_name in cases:
			if scale_name == "tall" and kind == "sphere":
				continue
			var key: String = kind + "_" + scale_name
			var q := PhysicsShapeQueryParameters3D.new()
			q.shape = all[kind]
			q.margin = 0.0
			# The scaled probe's bottom sinks 0.05 into the floor; unscaled it is 0.15 above.
			q.transform = Transform3D(cases[scale_name], Vector3(0, 0.35, 0))
			values[key + "_hits"] = space.intersect_shape(q).size()
			values[key + "_collides"] = space.collide_shape(q).size() > 0
			var rest := space.get_rest_info(q)
			values[key + "_rest_found"] = not rest.is_empty()
			# Cast down 5 m from 3 m: the scaled probe's bottom (0.4 below its centre)
			# reaches the floor after 2.6 m.
			q.motion = Vector3(0, -5, 0)
			q.transform = Transform3D(cases[scale_name], Vector3(0, 3, 0))
			var c := space.cast_motion(q)
			values[key + "_cast"] = c[0] if c.size() > 0 else -1.0


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty() or m.is_empty():
			continue
		for key in r:
			var p := ""
			if key.ends_with("_cast"):
				p = near(key + " vs " + e, m[key], r[key], 0.02)
			elif m[key] != r[key]:
				p = "%s: %s vs %s under %s" % [key, str(m[key]), str(r[key]), e]
			if p != "":
				out.append(p)
	return out
