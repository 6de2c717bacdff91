extends "res://compare_case.gd"
# Issue 14 item 9: a HingeJoint3D's `params/bias` is Godot Physics' per-tick fraction of
# the pivot's gap it closes. A box pulled 0.3 m off its hinge pivot and released closes
# to 1 cm in fewer ticks with bias 0.3 (Godot's default; Maul3D keeps the world's joint
# softness there, which closes faster still) than with 0.05 (Maul3D: an own pivot
# softness, records/joints.rs `pivot_spring`). Judged: the ordering, and the low bias's
# ticks within a factor of 2 of Godot Physics'. Jolt ignores the bias: reported only.


func hinged_box(at: Vector3, anchor: Node3D, bias: float) -> RigidBody3D:
	var b := rigid_box(Vector3(0.2, 0.2, 0.2), at)
	b.gravity_scale = 0.0
	b.linear_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	b.angular_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	b.can_sleep = false
	var j := HingeJoint3D.new()
	j.position = at
	add_child(j)
	j.set_param(HingeJoint3D.PARAM_BIAS, bias)
	j.node_a = j.get_path_to(anchor)
	j.node_b = j.get_path_to(b)
	return b


func run() -> void:
	var anchor := static_box(Vector3(0.1, 0.1, 0.1), Vector3(0, 10, 0))
	var pivots := {"high": Vector3(0, 3, 0), "low": Vector3(0, 6, 0)}
	var boxes := {"high": hinged_box(pivots.high, anchor, 0.3),
		"low": hinged_box(pivots.low, anchor, 0.05)}
	await ticks(2)
	for k in boxes:
		boxes[k].global_position = pivots[k] + Vector3(0.3, 0, 0)
	var closed := {"high": -1, "low": -1}
	for t in 300:
		await ticks(1)
		for k in boxes:
			if closed[k] < 0 and boxes[k].global_position.distance_to(pivots[k]) < 0.01:
				closed[k] = t + 1
	values = {"high_ticks": closed.high, "low_ticks": closed.low}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return out
	for e in by:
		if not by[e].is_empty():
			print("  cmp_hinge_bias %s: bias 0.3 closes in %d ticks, 0.05 in %d"
					% [e, by[e].high_ticks, by[e].low_ticks])
	if m.high_ticks < 0 or m.low_ticks < 0:
		out.append("a gap never closed to 1 cm (%d, %d ticks)" % [m.high_ticks, m.low_ticks])
		return out
	if m.low_ticks <= m.high_ticks:
		out.append("bias 0.05 closes no slower than 0.3 (%d vs %d ticks)"
				% [m.low_ticks, m.high_ticks])
	var g: Dictionary = by["GodotPhysics3D"]
	if not g.is_empty() and g.low_ticks > 0:
		var ratio := float(m.low_ticks) / float(g.low_ticks)
		if ratio > 2.0 or ratio < 0.5:
			out.append("bias 0.05 closes in %d ticks, Godot Physics %d (not within 2x)"
					% [m.low_ticks, g.low_ticks])
	return out
