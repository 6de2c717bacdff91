extends "res://compare/scaled_case.gd"
# A RigidBody3D scaled ×2 over a 1 m box shape falls onto a floor (top at y = 0) and rests
# at its scaled size: centre at y = 1, the node keeping its scale.
#
# Judged against Jolt Physics only: Godot Physics orthonormalises a rigid body's transform
# (GodotBody3D::set_state(TRANSFORM)), so there the body collides at its unscaled size and
# rests at y = 0.5 (a known Godot Physics limitation; its values are recorded for
# reference).


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	var b := RigidBody3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1, 1, 1)
	b.add_child(shape_node(box))
	b.transform = Transform3D(Basis.IDENTITY.scaled(Vector3(2, 2, 2)), Vector3(0, 4, 0))
	add_child(b)
	var landed := -1
	for t in 150:
		await ticks(1)
		if landed < 0 and b.global_position.y < 1.1:
			landed = t
	values = {"rest_x": b.global_position.x, "rest_y": b.global_position.y,
		"rest_z": b.global_position.z, "landed_tick": landed,
		"speed": b.linear_velocity.length(),
		"node_scale": b.global_transform.basis.get_scale().x}


func judge(by: Dictionary) -> PackedStringArray:
	var out := judge_rest(by, ["Jolt Physics"])
	var m: Dictionary = by["Maul3D"]
	var j: Dictionary = by["Jolt Physics"]
	if not m.is_empty() and not j.is_empty():
		var p := near("node scale vs Jolt Physics", m.node_scale, j.node_scale, 0.01)
		if p != "":
			out.append(p)
	return out
