extends "res://compare_case.gd"
# A flat ConvexPolygonShape3D rigid body (a 1 m square tile of 3 × 3 coplanar points)
# dropped tilted from 1.5 m onto a box floor: it lands and lies flat on it, at the same
# height and about the same tick under every engine. (Measured: Godot Physics rests it at
# -0.001, Jolt sinks it to -0.015, Maul3D's thin hull lies at +0.0024, half its 5 mm
# thickness above the floor.)


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	var tile := RigidBody3D.new()
	var cs := CollisionShape3D.new()
	var shape := ConvexPolygonShape3D.new()
	var pts := PackedVector3Array()
	for i in 3:
		for k in 3:
			pts.append(Vector3((i - 1) * 0.5, 0, (k - 1) * 0.5))
	shape.points = pts
	cs.shape = shape
	tile.add_child(cs)
	tile.transform = Transform3D(Basis(Vector3(1, 0, 1).normalized(), deg_to_rad(15.0)),
		Vector3(0, 1.5, 0))
	add_child(tile)
	var landed := -1
	for t in 240:
		await ticks(1)
		if landed < 0 and tile.global_position.y < 0.2:
			landed = t
	values = {
		"rest_y": tile.global_position.y,
		"up_dot": tile.global_transform.basis.y.normalized().dot(Vector3.UP),
		"landed_tick": landed,
		"speed": tile.linear_velocity.length(),
	}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return out
	if m.up_dot < 0.999:
		out.append("the tile does not lie flat (normal·up = %.4f)" % m.up_dot)
	if m.speed > 0.01:
		out.append("the tile is not at rest (|v| = %.4f)" % m.speed)
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty():
			continue
		for p in [near("rest height vs " + e, m.rest_y, r.rest_y, 0.02),
				near("lies flat vs " + e, m.up_dot, r.up_dot, 0.002),
				near("landing tick vs " + e, m.landed_tick, r.landed_tick, 3)]:
			if p != "":
				out.append(p)
	return out
