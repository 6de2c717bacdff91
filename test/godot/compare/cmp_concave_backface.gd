extends "res://compare_case.gd"
# A ConcavePolygonShape3D quad whose faces look down (4 × 4 m at y = 0), a 0.5 m box
# dropped onto its back from 1 m: with `backface_collision` it rests on the quad under
# every engine; without, the quad is one-sided and what the engines do with a box coming
# from behind is recorded and compared.


func quad_body(at: Vector3, backface: bool) -> StaticBody3D:
	var a := Vector3(-2, 0, -2)
	var b := Vector3(2, 0, -2)
	var c := Vector3(2, 0, 2)
	var d := Vector3(-2, 0, 2)
	var concave := ConcavePolygonShape3D.new()
	# Counter-clockwise seen from above: the faces look down.
	concave.set_faces(PackedVector3Array([a, c, b, a, d, c]))
	concave.backface_collision = backface
	var s := CollisionShape3D.new()
	s.shape = concave
	var body := StaticBody3D.new()
	body.add_child(s)
	body.position = at
	add_child(body)
	return body


func run() -> void:
	quad_body(Vector3(-5, 0, 0), true)
	quad_body(Vector3(5, 0, 0), false)
	var two := rigid_box(Vector3(0.25, 0.25, 0.25), Vector3(-4.9, 1, 0.05))
	var one := rigid_box(Vector3(0.25, 0.25, 0.25), Vector3(5.1, 1, 0.05))
	await ticks(180)
	values = {
		"two_sided_y": two.global_position.y,
		"two_sided_up": two.global_basis.y.y,
		"one_sided_y": one.global_position.y,
		"one_sided_held": one.global_position.y > 0.0 and one.linear_velocity.length() < 0.1,
	}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty() or m.is_empty():
			continue
		for p in [near("backface rest height vs " + e, m.two_sided_y, r.two_sided_y, 0.02),
				near("backface box upright vs " + e, m.two_sided_up, r.two_sided_up, 0.01)]:
			if p != "":
				out.append(p)
		if m.one_sided_held != r.one_sided_held:
			out.append("one-sided quad holds the box from behind: %s vs %s under %s (y %.3f vs %.3f)"
				% [m.one_sided_held, r.one_sided_held, e, m.one_sided_y, r.one_sided_y])
	return out
