extends "res://compare_case.gd"
# A rigid box with a downward SeparationRayShape3D of length 1 from its bottom face
# settles with that face 1 m above the floor (centre at 1.5) on every engine: the ray
# collides in the simulation, not only in motion tests. (Before: Maul3D made no core
# shape for it and the box fell onto the floor, centre at 0.5.)


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	var box := rigid_box(Vector3(0.5, 0.5, 0.5), Vector3(0, 3, 0))
	var s := CollisionShape3D.new()
	var ray := SeparationRayShape3D.new()
	ray.length = 1.0
	s.shape = ray
	# +Z turned onto -Y, from the bottom face's centre.
	s.transform = Transform3D(Basis(Vector3.RIGHT, PI / 2), Vector3(0, -0.5, 0))
	box.add_child(s)
	await ticks(240)
	values = {"rest_y": box.global_position.y, "tilt": box.global_basis.y.angle_to(Vector3.UP)}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return PackedStringArray(["no Maul3D values"])
	for p in [near("rest height", m.rest_y, 1.5, 0.03), near("tilt", m.tilt, 0.0, 0.05)]:
		if p != "":
			out.append(p)
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty():
			continue
		var p := near("rest height vs " + e, m.rest_y, r.rest_y, 0.03)
		if p != "":
			out.append(p)
	return out
