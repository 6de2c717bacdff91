extends "res://compare_case.gd"
# Rays that start inside convex shapes (box, sphere, capsule, convex polygon, cylinder),
# with `hit_from_inside` on and off, and rays that meet a ConcavePolygonShape3D from in
# front and from behind, with `hit_back_faces` on and off; and `collide_shape` probes
# touching a concave quad from either side, `backface_collision` off and on. Every count
# must equal both Godot engines' where they agree.

const SPACING := 10.0
# Inside points (relative to each shape's centre) and the six axis directions.
const ORIGINS := [Vector3(0, 0, 0), Vector3(0.2, 0.3, -0.1)]
const DIRS := [Vector3.RIGHT, Vector3.LEFT, Vector3.UP, Vector3.DOWN, Vector3.FORWARD, Vector3.BACK]


func _static(shape: Shape3D, at: Vector3) -> void:
	var b := StaticBody3D.new()
	var cs := CollisionShape3D.new()
	cs.shape = shape
	b.add_child(cs)
	b.position = at
	add_child(b)


func _ray(from: Vector3, to: Vector3, inside: bool, back: bool) -> Dictionary:
	var q := PhysicsRayQueryParameters3D.create(from, to)
	q.hit_from_inside = inside
	q.hit_back_faces = back
	return get_world_3d().direct_space_state.intersect_ray(q)


func _quad(at: Vector3, backface: bool) -> void:
	var c := ConcavePolygonShape3D.new()
	# Two triangles in the plane y = 0 wound so Godot's face normal is +Y.
	c.set_faces(PackedVector3Array([
		Vector3(-2, 0, -2), Vector3(2, 0, -2), Vector3(2, 0, 2),
		Vector3(-2, 0, -2), Vector3(2, 0, 2), Vector3(-2, 0, 2)]))
	c.backface_collision = backface
	_static(c, at)


func run() -> void:
	var kinds := {}
	var box := BoxShape3D.new()
	box.size = Vector3(2, 2, 2)
	kinds["box"] = box
	var sphere := SphereShape3D.new()
	sphere.radius = 1.0
	kinds["sphere"] = sphere
	var capsule := CapsuleShape3D.new()
	capsule.radius = 0.6
	capsule.height = 2.4
	kinds["capsule"] = capsule
	var convex := ConvexPolygonShape3D.new()
	var pts := PackedVector3Array()
	for x in [-1.0, 1.0]:
		for y in [-1.0, 1.0]:
			for z in [-1.0, 1.0]:
				pts.append(Vector3(x, y, z))
	pts.append(Vector3(0, 1.5, 0))
	convex.points = pts
	kinds["convex"] = convex
	var cylinder := CylinderShape3D.new()
	cylinder.radius = 1.0
	cylinder.height = 2.0
	kinds["cylinder"] = cylinder
	var i := 0
	var centres := {}
	for k in kinds:
		centres[k] = Vector3(i * SPACING, 0, 0)
		_static(kinds[k], centres[k])
		i += 1
	_quad(Vector3(0, 0, 20), false)
	_quad(Vector3(20, 0, 20), true)
	await ticks(2)
	var v := {}
	for inside in [true, false]:
		var total := 0
		var at_origin := 0
		var zero_normal := 0
		for k in kinds:
			var n := 0
			for o in ORIGINS:
				for d in DIRS:
					var from: Vector3 = centres[k] + o
					var r := _ray(from, from + d * 4.0, inside, true)
					if r.is_empty():
						continue
					n += 1
					if r.position.distance_to(from) < 1e-3:
						at_origin += 1
					if r.normal.length() < 1e-3:
						zero_normal += 1
			v["%s_inside_%s" % [k, inside]] = n
			total += n
		v["inside_%s_hits" % inside] = total
		v["inside_%s_at_origin" % inside] = at_origin
		v["inside_%s_zero_normal" % inside] = zero_normal
	# The concave quads: rays from above (front) and below (behind), back faces on and off.
	for backface in [false, true]:
		var c := Vector3(20 if backface else 0, 0, 20)
		for back in [true, false]:
			var front := 0
			var behind := 0
			for x in [-1.5, -0.5, 0.5, 1.5]:
				for z in [-1.0, 1.0]:
					var p := c + Vector3(x, 0, z)
					if not _ray(p + Vector3.UP, p + Vector3.DOWN, false, back).is_empty():
						front += 1
					if not _ray(p + Vector3.DOWN, p + Vector3.UP, false, back).is_empty():
						behind += 1
			v["concave_bf_%s_back_%s_front" % [backface, back]] = front
			v["concave_bf_%s_back_%s_behind" % [backface, back]] = behind
		# collide_shape: a small sphere just above and just below the quad.
		var probe := SphereShape3D.new()
		probe.radius = 0.3
		for side in [1.0, -1.0]:
			var q := PhysicsShapeQueryParameters3D.new()
			q.shape = probe
			q.transform = Transform3D(Basis.IDENTITY, c + Vector3(0.3, 0.2 * side, 0.1))
			# Whether it touches (Godot reports a pair per triangle, Maul3D one per shape).
			var found := get_world_3d().direct_space_state.collide_shape(q, 8)
			v["concave_bf_%s_collide_%s" % [backface, "above" if side > 0 else "below"]] = found.size() > 0
	values = v


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	var g: Dictionary = by["GodotPhysics3D"]
	var j: Dictionary = by["Jolt Physics"]
	if m.is_empty():
		return PackedStringArray(["Maul3D measured nothing"])
	for key in m:
		if g.is_empty() or j.is_empty():
			break
		# Where the two Godot engines differ, Maul3D must match one of them.
		if m[key] != g[key] and m[key] != j[key]:
			out.append("%s: Maul3D %s, Godot Physics %s, Jolt %s" % [key, m[key], g[key], j[key]])
	if m.get("inside_true_hits", 0) == 0:
		out.append("no ray starting inside hit with hit_from_inside")
	return out
