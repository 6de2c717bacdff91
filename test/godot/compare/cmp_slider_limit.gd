extends "res://compare_case.gd"
# Issue 14 item 9: a SliderJoint3D stops a box sent along it at its limit (±0.5 m) on
# every engine; with a soft limit (linear_limit/softness 0.25) Maul3D lets it give past
# the limit and pushes it back (Jolt ignores limit softness; Godot Physics' own reading
# of it is reported, not judged: it stops the box a tick late, 0.533 m, soft or not).


func slider_box(at: Vector3, anchor: Node3D, softness: float) -> RigidBody3D:
	var b := rigid_box(Vector3(0.2, 0.2, 0.2), at)
	b.gravity_scale = 0.0
	b.linear_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	b.can_sleep = false
	var j := SliderJoint3D.new()
	j.position = at
	add_child(j)
	j.set_param(SliderJoint3D.PARAM_LINEAR_LIMIT_UPPER, 0.5)
	j.set_param(SliderJoint3D.PARAM_LINEAR_LIMIT_LOWER, -0.5)
	j.set_param(SliderJoint3D.PARAM_LINEAR_LIMIT_SOFTNESS, softness)
	j.node_a = j.get_path_to(anchor)
	j.node_b = j.get_path_to(b)
	return b


func run() -> void:
	var anchor := static_box(Vector3(0.1, 0.1, 0.1), Vector3(0, 10, 0))
	var rigid := slider_box(Vector3(0, 3, 0), anchor, 1.0)
	var soft := slider_box(Vector3(0, 6, 0), anchor, 0.25)
	await ticks(2)
	rigid.linear_velocity = Vector3(2, 0, 0)
	soft.linear_velocity = Vector3(2, 0, 0)
	var far := {"rigid": -INF, "soft": -INF}
	for t in 40:
		await ticks(1)
		far.rigid = maxf(far.rigid, rigid.global_position.x)
		far.soft = maxf(far.soft, soft.global_position.x)
	values = {"rigid_far": far.rigid, "soft_far": far.soft,
		"rigid_y": rigid.global_position.y, "rigid_x_end": rigid.global_position.x}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return out
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty():
			continue
		var p := near("furthest x at the rigid limit vs " + e, m.rigid_far, r.rigid_far, 0.04)
		if p != "":
			out.append(p)
	var p := near("furthest x at the limit", m.rigid_far, 0.5, 0.02)
	if p != "":
		out.append(p)
	if m.soft_far < m.rigid_far + 0.03:
		out.append("the soft limit gives no more than the rigid one (%.3f vs %.3f m)"
				% [m.soft_far, m.rigid_far])
	return out
